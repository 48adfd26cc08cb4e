"""A progress bar with a time estimate for long runs, shown only on a terminal.

``simulate``, ``compare`` and ``sweep`` take a ``progress(games)`` callback
that is called after every finished block; :func:`progress_bar` gives one
that advances a rich bar on stderr (the time left is estimated from the
recent rate of play, so time spent compiling before the first block does
not distort it), and a callback that does nothing when the bar is off::

    with progress_bar(n, description="playing") as bar:
        simulate(..., progress=bar)
"""

from __future__ import annotations

from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    ProgressColumn,
    Task,
    TaskID,
    TextColumn,
    TimeElapsedColumn,
)
from rich.text import Text

ESTIMATING = "estimating…"


class TimeLeftColumn(ProgressColumn):
    """The time left as ``0:01:23 left``; ``estimating…`` until there is an estimate (before
    the first finished block, or while the total is not known), never an empty gap."""

    max_refresh = 0.5  # the estimate does not jitter at every redraw

    def render(self, task: Task) -> Text:
        left = task.time_remaining
        if task.total is None or left is None or (task.completed <= 0 and not task.finished):
            return Text(ESTIMATING, style="progress.remaining")
        minutes, seconds = divmod(int(left), 60)
        hours, minutes = divmod(minutes, 60)
        return Text(f"{hours:d}:{minutes:02d}:{seconds:02d} left", style="progress.remaining")


class ProgressBar:
    """A bar counting games; call it with the games just finished.

    Use it as a context manager (or ``start()``/``stop()``); ``set_total(n)``
    corrects the total.  When it is off, every method does nothing.
    """

    def __init__(
        self,
        total: int | None,
        *,
        description: str = "playing",
        unit: str = "games",
        enabled: bool = True,
        console: Console | None = None,
    ) -> None:
        console = console if console is not None else Console(stderr=True)
        self._bar: Progress | None = None
        self._task: TaskID | None = None
        self._live = False
        if enabled and console.is_terminal:
            self._bar = Progress(
                TextColumn("{task.description}"),
                BarColumn(),
                MofNCompleteColumn(),
                TextColumn(unit),
                TimeElapsedColumn(),
                TextColumn("elapsed,"),
                TimeLeftColumn(),
                console=console,
                transient=True,
                redirect_stdout=False,  # stdout carries results (JSON) only
            )
            self._task = self._bar.add_task(description, total=total)

    @property
    def enabled(self) -> bool:
        """Whether a bar is shown (False: calls do nothing)."""
        return self._bar is not None

    @property
    def completed(self) -> int:
        """Games counted so far (0 when off)."""
        if self._bar is None or self._task is None:
            return 0
        return int(self._bar.tasks[0].completed)

    @property
    def total(self) -> int | None:
        """The games the bar runs to (None when off or not known)."""
        if self._bar is None or self._task is None:
            return None
        t = self._bar.tasks[0].total
        return None if t is None else int(t)

    def __call__(self, games: int) -> None:
        if self._bar is not None and self._task is not None:
            self._bar.advance(self._task, games)

    def set_total(self, total: int) -> None:
        """Make ``total`` the number of games the bar runs to."""
        if self._bar is not None and self._task is not None:
            self._bar.update(self._task, total=total)

    def start(self) -> None:
        if self._bar is not None and not self._live:
            self._bar.start()
            self._live = True

    def stop(self) -> None:
        """Remove the bar (safe to call more than once)."""
        if self._bar is not None and self._live:
            self._bar.stop()
            self._live = False

    def __enter__(self) -> ProgressBar:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()


def progress_bar(
    total: int | None,
    *,
    description: str = "playing",
    unit: str = "games",
    enabled: bool = True,
    console: Console | None = None,
) -> ProgressBar:
    """A bar from 0 to ``total`` games on ``console`` (default: stderr).

    Parameters
    ----------
    total : int or None
        The number of games to be played (None: not known yet, see
        :meth:`ProgressBar.set_total`).
    description : str
        The word before the bar (``"playing"``, ``"comparing"``, ...).
    unit : str
        What is counted, shown after the count.
    enabled : bool
        False (e.g. with ``--json``) shows nothing.  The bar is also off when
        ``console`` is not a terminal (output piped or redirected).
    console : rich.console.Console, optional
        Where the bar is drawn; the bar is removed when it stops.

    Returns
    -------
    ProgressBar
        A context manager that is also the ``progress=`` callback; it does
        nothing when the bar is off.
    """
    return ProgressBar(total, description=description, unit=unit, enabled=enabled, console=console)
