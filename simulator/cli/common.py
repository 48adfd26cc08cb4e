"""Helpers every playing command uses: rule options, the seed hint, progress bars."""

from __future__ import annotations

import typer

from simulator.cli.output import err
from simulator.errors import InputError


def parse_rule_options(items: list[str] | None) -> dict[str, str]:
    rules: dict[str, str] = {}
    for item in items or []:
        key, eq, value = item.partition("=")
        if not eq or not key.strip() or not value.strip():
            raise InputError(f"--rule takes NAME=VALUE, got {item!r}")
        if key.strip() in rules:
            raise InputError(f"--rule {key.strip()} is given twice (give each rule once)")
        rules[key.strip()] = value.strip()
    return rules


def seed_hint(given: int | None, chosen: int, quiet: bool) -> None:
    """After a run that produced numbers: how to repeat it, when its seed was drawn.

    Printed only then, so that a run that failed never suggests repeating it."""
    if given is None and not quiet:
        err.print(f"seed {chosen} (give --seed {chosen} to repeat this run)")


def terminal_bar(description: str, quiet: bool, total: int | None = None):
    """A progress bar on stderr with a time estimate, shown only on a terminal and not
    with ``quiet`` (``--json``); use it as the run's ``progress=`` callback (its methods do
    nothing when it is not shown; simulator/running/progress.py)."""
    from simulator.running.progress import progress_bar as make_bar

    return make_bar(total, description=description, enabled=not quiet, console=err)


class CountedPlay:
    """The progress of a ``compare`` or ``sweep``: a bar on a terminal, and a count of the
    games played (kept also when no bar is shown) so that Ctrl-C can say how far it got.

    Use it as the run's ``progress=`` and ``on_plan=`` callbacks, inside ``with``: Ctrl-C
    then ends the command with one line on stderr and exit code 130 (such a command keeps
    no partial results)."""

    def __init__(self, command: str, description: str, quiet: bool, amount_flag: str) -> None:
        self.command = command
        self.amount_flag = amount_flag
        self.bar = terminal_bar(description, quiet)
        self.played = 0
        self.planned: int | None = None

    def __call__(self, games: int) -> None:
        self.played += games
        self.bar(games)

    def set_total(self, total: int) -> None:
        self.planned = total
        self.bar.set_total(total)

    def interrupted_line(self) -> str:
        done = f"{self.played:,} of {self.planned:,} games played" if self.planned else "no game played"
        return (
            f"interrupted: {done}; {self.command} keeps no partial results "
            f"(use fewer {self.amount_flag}, or simulate --out for resumable runs)"
        )

    def __enter__(self) -> CountedPlay:
        self.bar.start()
        return self

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: object) -> None:
        self.bar.stop()
        if isinstance(exc, KeyboardInterrupt):
            err.print(self.interrupted_line(), markup=False)
            raise typer.Exit(130) from None


def amount_flag(matches: int | None) -> str:
    """The option that sets how much is played (for the hint after Ctrl-C)."""
    return "--rounds" if matches is None else "--matches"
