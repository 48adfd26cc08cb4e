"""The options and arguments the commands share, with their help text."""

from __future__ import annotations

from enum import StrEnum
from pathlib import Path
from typing import Annotated

import typer

from simulator.cli import completion
from simulator.cli.app import _set_verbose
from simulator.games import GAMES

# The choices of --backend: the values of simulator.running.backends.Backend (a test keeps them
# the same), spelled here so that a command's --help does not load the run machinery.
Backend = StrEnum("Backend", {"local": "local", "dask": "dask"})


def _spec(*flags: str, text: str, metavar: str = "SPEC") -> typer.models.OptionInfo:
    """An option that takes a strategy spec, ``flags`` its names and ``text`` its help; Tab
    offers the game's strategies and then their parameters (:mod:`simulator.cli.completion`)."""
    return typer.Option(*flags, metavar=metavar, help=text, autocompletion=completion.strategy_specs)


Strategies = Annotated[
    list[str],
    _spec("--strategy", "-s", text="Strategy spec NAME[:a=1,b=2]; once for all seats or once per seat."),
]
Rules = Annotated[
    list[str] | None,
    typer.Option(
        "--rule",
        metavar="NAME=VALUE",
        help="Rule variant NAME=VALUE (see `kortsim games`).",
        autocompletion=completion.rule_names,
    ),
]
Players = Annotated[int | None, typer.Option("--players", metavar="N", help="Number of seats (Gris games).")]
Reaction = Annotated[
    list[str] | None,
    typer.Option(
        "--reaction",
        metavar="[SEAT=]MEDIAN[,SIGMA]|FILE",
        help="Reaction profile MEDIAN[,SIGMA] in seconds for all seats, or SEAT=MEDIAN[,SIGMA] for one "
        "seat (log-normal; MEDIAN 0.01 to 60 s, SIGMA 0.01 to 3; default 0.8,0.35); a FILE written by "
        "`kortsim play --save-reaction` in place of MEDIAN[,SIGMA].",
    ),
]
Plugins = Annotated[
    list[Path] | None,
    typer.Option("--plugin", metavar="FILE", help="A Python file that registers your own strategies."),
]


Verbose = Annotated[
    bool,
    typer.Option(
        "--verbose",
        callback=_set_verbose,
        help="When a strategy does not compile, also show numba's full message.",
    ),
]


Seed = Annotated[
    int | None, typer.Option("--seed", metavar="N", help="Seed; the same seed gives the same numbers.")
]


def _count(flag: str, text: str) -> typer.models.OptionInfo:
    """A ``--rounds N`` or ``--matches N`` option: how many games, 1 to 10**12."""
    return typer.Option(flag, metavar="N", help=f"{text} (1 to 10**12).")


# How many games: exactly one of --rounds and --matches (simulator.running.setup.resolve_unit).
RunRounds = Annotated[int | None, _count("--rounds", "Play N independent deals")]
RunMatches = Annotated[int | None, _count("--matches", "Play N whole matches")]
CompareRounds = Annotated[int | None, _count("--rounds", "Compare on N deals of single rounds")]
CompareMatches = Annotated[int | None, _count("--matches", "Compare on N deals of whole matches")]
SweepRounds = Annotated[int | None, _count("--rounds", "Play N deals of single rounds")]
SweepMatches = Annotated[int | None, _count("--matches", "Play N deals of whole matches")]

# The game ids as choices: help lists them and shell completion offers them.
GameId = StrEnum("GameId", {name.replace("-", "_"): name for name in GAMES})
GameArg = Annotated[
    GameId,
    typer.Argument(metavar="GAME", case_sensitive=False, help="Game id (see `kortsim games`)."),
]


BackendOpt = Annotated[
    Backend,
    typer.Option(
        "--backend",
        help="Where blocks are played: local (this machine's threads) or dask (a Dask cluster, "
        "see docs/cluster.md; results are the same).",
    ),
]
Scheduler = Annotated[
    str | None,
    typer.Option(
        "--scheduler",
        metavar="ADDRESS",
        help="Dask scheduler address (tcp://HOST:8786) or scheduler file; default: Dask's "
        "configuration (DASK_SCHEDULER_ADDRESS), else a local Dask cluster.",
    ),
]
Workers = Annotated[
    int | None,
    typer.Option(
        "--workers", metavar="N", help="Worker processes of a local Dask cluster (default: cores, at most 4)."
    ),
]
ConnectTimeout = Annotated[
    float | None,
    typer.Option(
        "--connect-timeout",
        metavar="SECONDS",
        help="With --scheduler: give up, in one line, when no Dask scheduler answers (or it has "
        "no workers) within this many seconds (default 10).",
    ),
]


Threads = Annotated[
    int | None, typer.Option("--threads", metavar="N", help="Worker threads (default: all cores).")
]
BlockSize = Annotated[
    int | None,
    typer.Option(
        "--block-size",
        metavar="N",
        help="Games per block (does not change results; default: about a quarter of a second's worth).",
    ),
]
RunOut = Annotated[
    Path | None,
    typer.Option(
        "--out",
        metavar="DIR",
        help="Run folder: finished blocks are kept there as they complete (Ctrl-C loses nothing "
        "finished), then summary.parquet (with provenance).",
    ),
]
ResumeFlag = Annotated[
    bool,
    typer.Option("--resume", help="Continue the run in --out, or extend it to more games (same settings)."),
]
RecordsFlag = Annotated[
    bool,
    typer.Option(
        "--records", help="Also write one row per game to --out/records (Parquet, docs/records.md)."
    ),
]
CompareField = Annotated[
    str | None,
    _spec(
        "--field",
        text="The strategy filling the other seats (default: the game's default opponent, shown by "
        "`kortsim games`).",
    ),
]
CompareBaseline = Annotated[
    str | None, _spec("--baseline", text="Differences are against this (default: first -s).")
]
ComparePlot = Annotated[
    Path | None,
    typer.Option(
        "--plot",
        metavar="FILE",
        help="Write the paired differences as a figure here (PNG and SVG are both written).",
    ),
]
CompareOut = Annotated[
    Path | None,
    typer.Option(
        "--out",
        metavar="DIR",
        help="Write a results folder (summary.parquet with provenance, summary.json, figure, "
        "report.md, report.html; `kortsim report DIR` rebuilds the report). A new or empty folder, "
        "or one holding an earlier compare result, which is replaced (with a note); any other "
        "folder is refused before anything is played.",
    ),
]
SweepSpec = Annotated[
    str,
    _spec(
        "--strategy",
        "-s",
        metavar="SWEEP",
        text='Sweep spec, e.g. "threshold:k=0..13", "threshold:k=0..13/1", "threshold:k=1|2|5", '
        '"expect:patience=1..4/1,open=15|25" (one or two parameters).',
    ),
]
SweepVs = Annotated[
    str | None,
    _spec(
        "--vs",
        "--field",
        text="The opponent (two seats) or the field filling the other seats; default: the game's "
        "default opponent (shown by `kortsim games`), else the swept family at its defaults.",
    ),
]
SweepBaseline = Annotated[
    str | None,
    _spec("--baseline", text="Differences are against this point (default: --vs if swept, else the first)."),
]
SweepMetric = Annotated[
    str | None,
    typer.Option("--metric", metavar="NAME", help="Metric to plot and rank by (default: the game's first)."),
]
SweepPlot = Annotated[
    Path | None,
    typer.Option(
        "--plot",
        metavar="FILE",
        help="Write the figure here (PNG or SVG by extension; both are written).",
    ),
]
SweepOut = Annotated[
    Path | None,
    typer.Option(
        "--out",
        metavar="DIR",
        help="Write a results folder (summary.parquet, figure, report.md, report.html). A new or "
        "empty folder, or one holding an earlier sweep result, which is replaced (with a note); any "
        "other folder is refused before anything is played.",
    ),
]
