"""The table as a person sees it: lines out, answers in, and a timed key press.

:class:`Terminal` is the real thing: rich for the lines, ``input()`` for answers
(works over ssh, no full-screen UI), and the terminal in cbreak mode for the
reaction key press, so one key is enough and its time is measured when it
arrives.  :class:`Scripted` plays the same part from a list of answers and a
function for the reaction times, for tests and notebooks.

Both raise :class:`Left` when the person leaves: Ctrl-C or the end of input.
"""

from __future__ import annotations

import os
import select
import sys
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, Protocol

from rich.console import Console


class Left(Exception):
    """The person left the table (Ctrl-C, or the end of input)."""


class Seat(Protocol):
    """What a game asks of the person at the table."""

    def show(self, text: str = "", style: str | None = None) -> None:
        """Print a line (or several)."""

    def ask(self, prompt: str) -> str:
        """Print ``prompt`` and return the answer typed (raises :class:`Left`)."""

    def react(self, signal: str, waits: Callable[[], float]) -> float:
        """Wait ``waits()`` seconds (again after a key pressed too early), show ``signal``
        and return the seconds until a key is pressed (raises :class:`Left`)."""


def choose(seat: Seat, prompt: str, options: Mapping[str, Any], hint: str) -> Any:
    """Ask until the answer is one of ``options`` (case and spaces ignored).

    A wrong answer gets one line (``hint`` lists the legal ones) and a new prompt.
    """
    while True:
        answer = seat.ask(prompt).strip().lower().replace(" ", "")
        if answer in options:
            return options[answer]
        shown = answer if answer else "nothing"
        seat.show(f"'{shown}' is not a legal choice here: {hint}", style="red")


class Terminal:
    """A person at a terminal: rich output on stdout, answers and key presses from stdin."""

    def __init__(self, console: Console | None = None) -> None:
        self.console = console or Console(highlight=False, soft_wrap=True)
        #: whether the cursor stands after a prompt (what is said on leaving starts a new line)
        self.mid_line = False

    def show(self, text: str = "", style: str | None = None) -> None:
        body = text.lstrip(" ")
        indent = len(text) - len(body)
        if indent and "\n" not in text and getattr(self.console, "fitted", False):
            # a console fitted to the terminal wraps an indented line under its own indent
            from rich.padding import Padding
            from rich.text import Text

            self.console.print(Padding(Text(body, style=style or ""), (0, 0, 0, indent), expand=False))
            return
        self.console.print(text, style=style, markup=False)

    def ask(self, prompt: str) -> str:
        try:
            self.console.print(prompt, style="bold", markup=False, end="")
            self.mid_line = True
            answer = input()
        except (EOFError, KeyboardInterrupt):
            raise Left from None
        self.mid_line = False
        return answer

    def react(self, signal: str, waits: Callable[[], float]) -> float:
        if not sys.stdin.isatty():
            return self._react_by_line(signal, waits)
        import termios
        import tty

        fd = sys.stdin.fileno()
        saved = termios.tcgetattr(fd)
        try:
            tty.setcbreak(fd)
            while True:
                if not _key_within(fd, waits()):
                    break
                _drain(fd)
                self.show("too early: wait for the signal, then press a key", style="red")
            termios.tcflush(fd, termios.TCIFLUSH)
            self.show(signal, style="bold yellow")
            start = time.perf_counter()
            _key_within(fd, None)
            elapsed = time.perf_counter() - start
            _drain(fd)
            return elapsed
        except KeyboardInterrupt:
            raise Left from None
        finally:
            termios.tcsetattr(fd, termios.TCSADRAIN, saved)

    def _react_by_line(self, signal: str, waits: Callable[[], float]) -> float:
        """Without a terminal (input piped in): the signal after the wait, then Enter."""
        try:
            time.sleep(waits())
            self.show(signal + " (press Enter)", style="bold yellow")
            start = time.perf_counter()
            if sys.stdin.readline() == "":
                raise Left
            return time.perf_counter() - start
        except KeyboardInterrupt:
            raise Left from None


def _key_within(fd: int, timeout: float | None) -> bool:
    """Whether a key arrives within ``timeout`` seconds (None: wait for it); the end of
    input (or Ctrl-D) is :class:`Left`."""
    ready, _, _ = select.select([fd], [], [], timeout)
    if not ready:
        return False
    data = os.read(fd, 64)
    if data == b"" or b"\x04" in data:
        raise Left
    return True


def _drain(fd: int) -> None:
    """Read away whatever else was typed (a held key repeats)."""
    while select.select([fd], [], [], 0)[0]:
        if os.read(fd, 64) == b"":
            raise Left


class Scripted:
    """A scripted person: answers from ``answers``, reaction times from ``reaction(k)``
    (``k`` counts the signals from 0); every line shown is kept in :attr:`lines`.

    When the answers run out it leaves, as a terminal at the end of its input does.
    """

    def __init__(
        self,
        answers: Iterable[str] | Callable[[str], str],
        reaction: Callable[[int], float] | Sequence[float] = (0.5,),
    ) -> None:
        self._answers = answers if callable(answers) else iter(answers)
        self._reaction = reaction
        self.lines: list[str] = []
        self.signals = 0

    def show(self, text: str = "", style: str | None = None) -> None:
        self.lines.append(text)

    def ask(self, prompt: str) -> str:
        self.lines.append(prompt)
        if callable(self._answers):
            return self._answers(prompt)
        try:
            return next(self._answers)
        except StopIteration:
            raise Left from None

    def react(self, signal: str, waits: Callable[[], float]) -> float:
        waits()  # the wait is drawn as at a terminal, so the timing stream stays in step
        self.lines.append(signal)
        k, self.signals = self.signals, self.signals + 1
        if callable(self._reaction):
            return float(self._reaction(k))
        return float(self._reaction[min(k, len(self._reaction) - 1)])
