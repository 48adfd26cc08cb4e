"""The commands of ``kortsim``, in the order ``kortsim --help`` lists them.

Each names the function (or Typer of commands) that implements it and the first paragraph
of its help, which ``kortsim --help`` and the Tab completion of command names show without
importing the command's module (:mod:`simulator.cli.lazy`); ``tests/cli/test_cli_start.py``
checks that each line is the first paragraph of the command's own help.
"""

from __future__ import annotations

from simulator.cli.lazy import Lazy

COMMANDS: dict[str, Lazy] = {
    "games": Lazy("simulator.cli.info:games", "The games and their rule variants."),
    "strategies": Lazy(
        "simulator.cli.info:strategies_cmd",
        "A game's strategies, their parameters and what they do, in words.",
    ),
    "simulate": Lazy(
        "simulator.cli.play:simulate", "Play many games between strategies; print figures with 95% intervals."
    ),
    "trace": Lazy(
        "simulator.cli.play:trace",
        "Show one game of a seeded run, move by move, from the readable reference rules.",
    ),
    "play": Lazy("simulator.cli.tabletop:play_cmd", "Play a match against the bots: you are seat 0."),
    "compare": Lazy(
        "simulator.cli.comparisons:compare",
        "Compare strategies on the same deals, every one in every seat, with paired intervals.",
    ),
    "warm": Lazy(
        "simulator.cli.info:warm",
        "Compile every shipped kernel into numba's cache (later runs start in about a second).",
    ),
    "sweep": Lazy(
        "simulator.cli.comparisons:sweep_cmd",
        "Sweep one or two strategy parameters against an opponent on the same deals.",
    ),
    "tune": Lazy(
        "simulator.cli.tune:tune_cmd",
        "Tune a strategy's parameters against a field on the same deals, then confirm on fresh ones.",
    ),
    "report": Lazy(
        "simulator.cli.info:report_cmd", "Write (or refresh) report.html and report.md from a results folder."
    ),
    "profile": Lazy(
        "simulator.cli.profile:profile_cmd",
        "A designer's profile: length, seat advantage, skill against luck, matches, stalls; 95% intervals.",
    ),
    "advise": Lazy(
        "simulator.cli.advise:advise_cmd",
        "Rank every legal action of one position by its expected final score (lower is better).",
    ),
    "calibrate": Lazy(
        "simulator.cli.calibrate:calibrate_cmd",
        "Compare the belief's predicted mean card value per place with the real cards.",
    ),
    "experiment": Lazy(
        "simulator.cli.experiment:experiment_app",
        "Named, versioned studies: `kortsim experiment list`, `kortsim experiment run NAME`.",
    ),
}

__all__ = ["COMMANDS"]
