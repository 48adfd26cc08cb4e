"""Time limits for users' strategies: a watchdog thread around every compiled call that
runs one (a block of games in ``simulate``, one decision in ``trace``).

The call stops the process with one line naming the strategy when it runs longer than
:func:`block_limit` seconds (``KORTSIM_BLOCK_TIMEOUT``, default
:data:`DEFAULT_BLOCK_LIMIT`), with exit code 3: a numba thread cannot be interrupted,
so the process ends with ``os._exit`` (in a notebook, its Python kernel ends too).
Ctrl-C works too: the call stops after the block in flight as usual, or, when the
strategy does not come back within :data:`INTERRUPT_GRACE` seconds (or on a second
Ctrl-C), at once with exit code 130.  The code compiled for user strategies releases
the GIL so that the watchdog can run.
"""

from __future__ import annotations

import os
import select
import signal
import socket
import threading
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager, suppress

from simulator.errors import SpecError
from strategies.registry import Player

#: Seconds one block of games with a user strategy may run before the run is stopped.
DEFAULT_BLOCK_LIMIT = 120.0
#: The environment variable that sets that limit (seconds; 0 or below: no limit).
BLOCK_LIMIT_ENV = "KORTSIM_BLOCK_TIMEOUT"
#: Seconds a block may still take after Ctrl-C before the process is stopped.
INTERRUPT_GRACE = 2.0
#: Exit codes: a strategy that broke the rules (as the CLI's), and Ctrl-C.
EXIT_STRATEGY = 3
EXIT_INTERRUPTED = 130


def block_limit() -> float:
    """Seconds one block of games with a user strategy may run (``KORTSIM_BLOCK_TIMEOUT``,
    default :data:`DEFAULT_BLOCK_LIMIT`; 0 or below means no limit).

    Raises
    ------
    SpecError
        When the variable is set to something that is not a number.
    """
    raw = os.environ.get(BLOCK_LIMIT_ENV, "").strip()
    if not raw:
        return DEFAULT_BLOCK_LIMIT
    try:
        value = float(raw)
    except ValueError:
        raise SpecError(f"{BLOCK_LIMIT_ENV}={raw!r} is not a number of seconds") from None
    if value != value:
        raise SpecError(f"{BLOCK_LIMIT_ENV}={raw!r} is not a number of seconds")
    return value if value > 0 else float("inf")


def _stop(line: str, code: int) -> None:
    try:
        os.write(2, (line + "\n").encode())
    finally:
        os._exit(code)


@contextmanager
def watched(
    who: str,
    first: int,
    n: int,
    limit: float | None = None,
    span: str | None = None,
    pulse: Pulse | None = None,
) -> Iterator[None]:
    """Around one compiled call with user strategies (``who`` names them; the call plays
    games ``first`` to ``first + n - 1``, or ``span`` says what it is): stop the process
    with one line when it runs longer than ``limit`` seconds (default :func:`block_limit`),
    or does not come back soon after Ctrl-C.

    With ``pulse``, one watchdog serves many short calls (a reference game's decisions, each
    marked on the pulse): the limit applies to the decision under way, and the line names the
    strategy and decision the pulse holds."""
    limit = block_limit() if limit is None else limit
    done = threading.Event()
    wake_r = wake_w = None
    old_fd = None
    if threading.current_thread() is threading.main_thread():
        try:
            wake_r, wake_w = socket.socketpair()
            wake_r.setblocking(False)
            wake_w.setblocking(False)
            old_fd = signal.set_wakeup_fd(wake_w.fileno(), warn_on_full_buffer=False)
        except (ValueError, OSError):
            for s in (wake_r, wake_w):
                if s is not None:
                    s.close()
            wake_r = wake_w = None
    games = span or (f"games {first}-{first + n - 1}" if n > 1 else f"game {first}")
    watcher = threading.Thread(
        target=_watch,
        args=(done, who, games, limit, wake_r, old_fd, pulse),
        name="kortsim-watchdog",
        daemon=True,
    )
    watcher.start()
    try:
        yield
    finally:
        done.set()
        if wake_w is not None:
            with suppress(OSError):
                wake_w.send(b"\0")  # wake the watchdog now (signal numbers are never 0)
        watcher.join()
        if wake_w is not None:
            signal.set_wakeup_fd(old_fd if old_fd is not None else -1)
            wake_r.close()
            wake_w.close()


class Pulse:
    """What a reference game's user strategy is doing now, for one watchdog over the whole
    game: ``start`` is when the decision under way began (None between decisions)."""

    __slots__ = ("span", "start", "who")

    def __init__(self) -> None:
        self.start: float | None = None
        self.who = ""
        self.span = ""

    def begin(self, who: str, span: str) -> None:
        self.who, self.span = who, span
        self.start = time.monotonic()

    def end(self) -> None:
        self.start = None


def _watch(
    done: threading.Event,
    who: str,
    games: str,
    limit: float,
    wake: socket.socket | None,
    old_fd: int | None,
    pulse: Pulse | None = None,
) -> None:
    start = time.monotonic()
    interrupted: float | None = None
    while not done.is_set():
        if wake is not None:
            ready, _, _ = select.select([wake], [], [], 0.05)
            if ready:
                try:
                    data = wake.recv(64)
                except OSError:
                    data = b""
                data = data.replace(b"\0", b"")
                if old_fd is not None and old_fd >= 0 and data:
                    with suppress(OSError):
                        os.write(old_fd, data)  # whoever listened before still hears it
                if signal.SIGINT in data:
                    if interrupted is not None:
                        break
                    interrupted = time.monotonic()
        else:
            done.wait(0.05)
        if done.is_set():
            return
        now = time.monotonic()
        if pulse is not None:  # the decision under way, if any, is what the limit times
            begun = pulse.start
            if begun is None:
                if interrupted is not None:
                    interrupted = None  # between decisions the main thread hears Ctrl-C itself
                continue
            start, who, games = begun, pulse.who, pulse.span
        if interrupted is not None and now - interrupted > INTERRUPT_GRACE:
            break
        if now - start > limit:
            _stop(
                f"error: {who} did not finish a decision in {limit:g} s ({games}): a loop that "
                f"never ends?  The run is stopped ({BLOCK_LIMIT_ENV}={limit:g} s per block of games)",
                EXIT_STRATEGY,
            )
    if not done.is_set():
        _stop(
            f"interrupted: {who} did not come back from its decision ({games}); the run is stopped",
            EXIT_INTERRUPTED,
        )


def who(players: Sequence[Player]) -> str:
    """The user strategies among ``players`` with their seats, as the watchdog names them."""
    seats: dict[str, list[int]] = {}
    for seat, p in enumerate(players):
        if p.family.user:
            seats.setdefault(p.spec, []).append(seat)
    if not seats:  # no user strategy: name every player rather than none
        for seat, p in enumerate(players):
            seats.setdefault(p.spec, []).append(seat)
    parts = [
        f"{spec!r} ({'seat' if len(s) == 1 else 'seats'} {', '.join(map(str, s))})"
        for spec, s in seats.items()
    ]
    if len(parts) == 1:
        return f"strategy {parts[0]}"
    return "one of the strategies " + ", ".join(parts)
