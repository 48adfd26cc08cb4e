"""The ``kortsim`` command: thin Typer commands over the Python API.

Every command turns bad input into one line on stderr and exit code 2;
a strategy that breaks the rules gives exit code 3.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import re
import shlex
import sys
import tempfile
from enum import StrEnum
from pathlib import Path
from typing import Annotated, Any

import click
import typer
from typer.core import TyperCommand, TyperGroup
from typer.exceptions import TyperException

from experiments import EXPERIMENTS
from simulator import api, completion
from simulator.backends import Backend
from simulator.checkpoint import (
    JOURNAL_FILE,
    PROGRESS_FILE,
    RUN_FILE,
    STATUS_FILE,
    RunInterrupted,
    stored_seed,
)
from simulator.cli_output import err, out, print_compare, print_partial, print_result, print_sweep
from simulator.games import GAMES, InputError, all_games, get_game
from simulator.results import dumps_json
from simulator.runner import StrategyError
from strategies.registry import SpecError, families, load_plugin

# Typer may bring its own copy of click: catch both its exceptions and click's.
EXIT = (click.exceptions.Exit, typer.Exit)
ABORT = (click.exceptions.Abort, typer.Abort)
USAGE = (click.ClickException, TyperException)


class OneLineErrors(TyperGroup):
    """Every expected failure becomes one line on stderr and an exit code, never a traceback:
    2 for bad input (usage, specs, rules), 3 for a strategy that broke the rules."""

    def main(self, args=None, prog_name=None, complete_var=None, standalone_mode=True, **extra):
        _VERBOSE["on"] = False
        try:
            rv = super().main(
                args=args, prog_name=prog_name, complete_var=complete_var, standalone_mode=False, **extra
            )
            code = rv if isinstance(rv, int) else 0
        except EXIT as e:
            code = e.exit_code
        except ABORT:
            err.print("aborted")
            code = 130
        except USAGE as e:
            if type(e).__name__ == "NoArgsIsHelpError":  # the help text itself
                err.print(e.format_message(), markup=False)
            else:
                # typer words a refused choice "Value error, 'x' is not one of ..."
                err.print(f"error: {e.format_message().replace('Value error, ', '')}", markup=False)
            code = 2
        except (InputError, SpecError) as e:
            err.print(_error_text(e), markup=False)
            code = 2
        except StrategyError as e:
            err.print(f"error: {e}", markup=False)
            code = 3
        if standalone_mode:
            sys.exit(code)
        return code


class PlainUsage(TyperCommand):
    """A command whose usage line shows a required argument plainly, as ``GAME`` and ``DIR``
    (typer writes ``{GAME}``); optional ones keep their brackets."""

    def collect_usage_pieces(self, ctx: click.Context) -> list[str]:
        return [re.sub(r"^\{(.*)\}((?:\.\.\.)?)$", r"\1\2", p) for p in super().collect_usage_pieces(ctx)]


app = typer.Typer(
    cls=OneLineErrors,
    name="kortsim",
    help="Monte Carlo strategy simulator for Gris, Gris-nese and Spøkelse.",
    no_args_is_help=True,
    add_completion=True,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
    # Choices (the game ids above all) are read in any case, with ø as o and _ as -, as
    # simulator.games.get_game reads them: `Spøkelse` and `gris_nese` keep working.
    context_settings={"token_normalize_func": lambda t: t.lower().replace("ø", "o").replace("_", "-")},
)


def _version(value: bool) -> None:
    """``kortsim --version``: the package's version, then exit."""
    if value:
        from importlib.metadata import version

        typer.echo(f"kortsim {version('kortsim')}")
        raise typer.Exit()


@app.callback()
def _root(
    version: Annotated[
        bool,
        typer.Option("--version", help="Print kortsim's version and exit.", callback=_version, is_eager=True),
    ] = False,
) -> None:
    """Monte Carlo strategy simulator for Gris, Gris-nese and Spøkelse."""


class _ToStderr(logging.Handler):
    """kortsim's log lines (such as "compiling ...") on stderr, above any progress bar."""

    def emit(self, record: logging.LogRecord) -> None:
        err.print(self.format(record), markup=False)


if not any(isinstance(h, _ToStderr) for h in logging.getLogger("kortsim").handlers):
    logging.getLogger("kortsim").addHandler(_ToStderr())

Strategies = Annotated[
    list[str],
    typer.Option(
        "--strategy",
        "-s",
        metavar="SPEC",
        help="Strategy spec NAME[:a=1,b=2]; once for all seats or once per seat.",
        autocompletion=completion.strategy_specs,
    ),
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
        metavar="[SEAT=]MEDIAN[,SIGMA]",
        help="Reaction profile MEDIAN[,SIGMA] in seconds for all seats, or SEAT=MEDIAN[,SIGMA] for one "
        "seat (log-normal; MEDIAN 0.01 to 60 s, SIGMA 0.01 to 3; default 0.8,0.35).",
    ),
]
Plugins = Annotated[
    list[Path] | None,
    typer.Option("--plugin", metavar="FILE", help="A Python file that registers your own strategies."),
]
# --verbose: the full compiler message when a strategy does not compile (set while parsing).
_VERBOSE = {"on": False}


def _set_verbose(value: bool) -> bool:
    _VERBOSE["on"] = _VERBOSE["on"] or bool(value)
    return value


Verbose = Annotated[
    bool,
    typer.Option(
        "--verbose",
        callback=_set_verbose,
        help="When a strategy does not compile, also show numba's full message.",
    ),
]


def _error_text(e: Exception) -> str:
    """``error: ...`` in one line; with ``--verbose``, numba's full message above it."""
    details = getattr(e, "details", "")
    if not details:
        return f"error: {e}"
    if _VERBOSE["on"]:
        return f"{details.rstrip()}\nerror: {e}"
    return f"error: {e} (--verbose shows numba's full message)"


Seed = Annotated[
    int | None, typer.Option("--seed", metavar="N", help="Seed; the same seed gives the same numbers.")
]

# The game ids as choices: help lists them and shell completion offers them.
GameId = StrEnum("GameId", {name.replace("-", "_"): name for name in GAMES})
GameArg = Annotated[
    GameId,
    typer.Argument(metavar="GAME", case_sensitive=False, help="Game id (see `kortsim games`)."),
]


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
    nothing when it is not shown; simulator/progress.py)."""
    from simulator.progress import progress_bar as make_bar

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


@app.command(cls=PlainUsage)
def games(as_json: Annotated[bool, typer.Option("--json", help="Machine-readable output.")] = False) -> None:
    """The games and their rule variants."""
    rows = []
    for g in all_games().values():
        rows.append(
            {
                "game": g.name,
                "title": g.title,
                "players": [g.min_seats, g.max_seats],
                "default_players": g.default_seats,
                "rules": {k: {"default": _default(g, k), "doc": v.doc} for k, v in g.variants.items()},
                "reaction_model": g.uses_reaction,
            }
        )
    if as_json:
        out.print_json(dumps_json(rows))
        return
    for r in rows:
        lo, hi = r["players"]
        seats = f"{lo} players" if lo == hi else f"{lo}-{hi} players (default {r['default_players']})"
        out.print(f"[bold]{r['game']}[/bold]  {r['title']}  ({seats})")
        for k, v in r["rules"].items():
            out.print(f"    --rule {k}=...  {v['doc']}")
        if r["reaction_model"]:
            out.print(
                "    --reaction MEDIAN[,SIGMA] or SEAT=MEDIAN[,SIGMA]  reaction times (default 0.8,0.35; "
                "MEDIAN 0.01 to 60 s, SIGMA 0.01 to 3)"
            )


def _default(game, key: str) -> Any:
    return getattr(game.rules_type(), key)


@app.command("strategies", cls=PlainUsage)
def strategies_cmd(
    game: GameArg,
    plugin: Plugins = None,
    as_json: Annotated[bool, typer.Option("--json", help="Machine-readable output.")] = False,
) -> None:
    """A game's strategies, their parameters and what they do, in words."""
    for p in plugin or []:
        load_plugin(p)
    g = get_game(game)
    fams = families(g.name)
    if as_json:
        rows = [
            {
                "name": f.name,
                "origin": f.origin,
                "params": [
                    {
                        "name": p.name,
                        "default": p.default,
                        "low": p.low,
                        "high": p.high,
                        "step": p.step,
                        "doc": p.doc,
                    }
                    for p in f.params
                ],
                "doc": " ".join(f.doc.split()),
            }
            for f in fams.values()
        ]
        out.print_json(dumps_json(rows))
        return
    for f in fams.values():
        out.print(f"[bold]{f.name}[/bold]" + ("" if f.origin == "kortsim" else f"  (from {f.origin})"))
        for p in f.params:
            out.print(f"    {p.describe()}: {p.doc}")
        out.print("    " + " ".join(f.doc.split()))
        out.print()


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
    typer.Option(
        "--field",
        metavar="SPEC",
        help="The strategy filling the other seats (Gris games: greedy).",
        autocompletion=completion.strategy_specs,
    ),
]
CompareBaseline = Annotated[
    str | None,
    typer.Option(
        "--baseline",
        metavar="SPEC",
        help="Differences are against this (default: first -s).",
        autocompletion=completion.strategy_specs,
    ),
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
    typer.Option(
        "--strategy",
        "-s",
        metavar="SWEEP",
        help='Sweep spec, e.g. "threshold:k=0..13", "threshold:k=0..13/1", "threshold:k=1|2|5", '
        '"expect:patience=1..4/1,open=15|25" (one or two parameters).',
        autocompletion=completion.strategy_specs,
    ),
]
SweepVs = Annotated[
    str | None,
    typer.Option(
        "--vs",
        "--field",
        metavar="SPEC",
        help="The opponent (two seats) or the field filling the other seats; default: the family "
        "at its defaults (Spøkelse), greedy (Gris games).",
        autocompletion=completion.strategy_specs,
    ),
]
SweepBaseline = Annotated[
    str | None,
    typer.Option(
        "--baseline",
        metavar="SPEC",
        help="Differences are against this point (default: --vs if swept, else the first).",
        autocompletion=completion.strategy_specs,
    ),
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


def resume_command(
    game: str,
    strategy: list[str],
    rounds: int | None,
    matches: int | None,
    seed: int | None,
    rule: list[str] | None,
    players: int | None,
    reaction: list[str] | None,
    plugin: list[Path] | None,
    out_dir: Path,
    records: bool,
    backend: Backend,
    scheduler: str | None,
    workers: int | None,
    connect_timeout: float | None = None,
) -> str:
    """The command that finishes an interrupted run."""
    args = ["kortsim", "simulate", game]
    for p in plugin or []:
        args += ["--plugin", str(p)]
    for s in strategy:
        args += ["-s", s]
    args += ["--rounds", str(rounds)] if rounds is not None else ["--matches", str(matches)]
    if seed is not None:
        args += ["--seed", str(seed)]
    for r in rule or []:
        args += ["--rule", r]
    if players is not None:
        args += ["--players", str(players)]
    for r in reaction or []:
        args += ["--reaction", r]
    if backend is not Backend.local:
        args += ["--backend", backend.value]
    if scheduler is not None:
        args += ["--scheduler", scheduler]
    if workers is not None:
        args += ["--workers", str(workers)]
    if connect_timeout is not None:
        args += ["--connect-timeout", f"{connect_timeout:g}"]
    args += ["--out", str(out_dir)]
    if records:
        args.append("--records")
    args.append("--resume")
    return shlex.join(args)


@app.command(cls=PlainUsage)
def simulate(
    game: GameArg,
    strategy: Strategies,
    rounds: Annotated[
        int | None, typer.Option("--rounds", metavar="N", help="Play N independent deals (1 to 10**12).")
    ] = None,
    matches: Annotated[
        int | None, typer.Option("--matches", metavar="N", help="Play N whole matches (1 to 10**12).")
    ] = None,
    seed: Seed = None,
    rule: Rules = None,
    players: Players = None,
    reaction: Reaction = None,
    plugin: Plugins = None,
    verbose: Verbose = False,
    threads: Threads = None,
    block_size: BlockSize = None,
    out_dir: RunOut = None,
    resume: ResumeFlag = False,
    records: RecordsFlag = False,
    backend: BackendOpt = Backend.local,
    scheduler: Scheduler = None,
    workers: Workers = None,
    connect_timeout: ConnectTimeout = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the JSON summary.")] = False,
) -> None:
    """Play many games between strategies; print figures with 95% intervals."""
    if out_dir is None and (resume or records):
        raise InputError(f"{'--resume' if resume else '--records'} needs --out DIR (the run's folder)")
    check_outputs(out_dir=out_dir, what="run folder", write=False)  # the run's lock tests writing
    chosen_seed = run_seed(seed, resume, out_dir)
    _, n = api.resolve_unit(rounds, matches)
    try:
        with terminal_bar("playing", quiet=as_json, total=n) as bar:
            result = api.simulate(
                game,
                strategy,
                rounds=rounds,
                matches=matches,
                seed=chosen_seed,
                rules=parse_rule_options(rule),
                players=players,
                reaction=reaction,
                threads=threads,
                block_size=block_size,
                plugins=[str(p) for p in plugin or []],
                progress=bar,
                backend=backend.value,
                scheduler=scheduler,
                workers=workers,
                out=out_dir,
                resume=resume,
                records=records,
                connect_timeout=connect_timeout,
            )
    except RunInterrupted as exc:
        command = resume_command(
            game, strategy, rounds, matches, chosen_seed, rule, players, reaction, plugin,
            exc.out or out_dir, records, backend, scheduler, workers, connect_timeout,
        )  # fmt: skip
        report_stopped_run(exc, command, as_json)
    if out_dir is not None and not as_json:
        err.print(f"wrote {out_dir / 'summary.parquet'}" + (f" and {out_dir / 'records'}" if records else ""))
    if as_json:
        print(result.to_json())
    else:
        print_result(result)
    seed_hint(chosen_seed if resume else seed, chosen_seed, quiet=as_json)  # a resumed run keeps its seed


def run_seed(seed: int | None, resume: bool, out_dir: Path | None) -> int | None:
    """The seed of a ``simulate`` run: the one given, a resumed run's own (None when the
    folder has none: then there is nothing to resume), or a fresh one."""
    if resume and seed is None:
        return stored_seed(out_dir)  # type: ignore[arg-type]
    return api.resolve_seed(seed)


def report_stopped_run(exc: RunInterrupted, command: str, as_json: bool) -> None:
    """A run stopped by Ctrl-C, then exit code 130: without ``--out``, the figures of the
    games that finished (marked partial); with it, what the folder holds and ``command``,
    which finishes the run."""
    units = "rounds" if exc.unit == "round" else "matches"
    if exc.out is None:  # nothing kept on disk: show what finished, marked partial
        print_partial(exc, units, as_json)
        raise typer.Exit(130) from None
    held = f"{exc.out} holds {exc.games:,} of {exc.planned:,} {units}"
    if exc.result is not None:
        held += f" ({exc.out / 'summary.parquet'} has their figures)"
    err.print(f"interrupted: {held}", markup=False)
    err.print(f"to finish it: {command}", markup=False, soft_wrap=True)
    raise typer.Exit(130) from None


@app.command(cls=PlainUsage)
def trace(
    game: GameArg,
    strategy: Strategies,
    seed: Annotated[int, typer.Option("--seed", metavar="N", help="The run's seed.")],
    game_index: Annotated[
        int,
        typer.Option("--game", metavar="INDEX", help="Which game of the run (counting from 0, below 2**63)."),
    ] = 0,
    matches: Annotated[
        bool, typer.Option("--matches", help="Trace match number --game, not a round.")
    ] = False,
    rule: Rules = None,
    players: Players = None,
    reaction: Reaction = None,
    plugin: Plugins = None,
    verbose: Verbose = False,
    max_lines: Annotated[
        int,
        typer.Option(
            "--max-lines",
            metavar="N",
            help="Print at most N lines of moves (default 2000; 0 for all): the start and the end "
            "of the game are kept and one line says how many were left out.",
        ),
    ] = 2000,
) -> None:
    """Show one game of a seeded run, move by move, from the readable reference rules.

    The trace opens with the run (seed, game index), the table size, the rule variants in
    force and the strategy in each seat.  A strategy that makes an illegal move ends it with
    one line naming the strategy, its seat and the decision (exit code 3).
    """
    text = api.trace(
        game,
        strategy,
        seed=seed,
        game_index=game_index,
        unit="match" if matches else "round",
        rules=parse_rule_options(rule),
        players=players,
        reaction=reaction,
        plugins=[str(p) for p in plugin or []],
        max_lines=max_lines,
    )
    out.print(text, markup=False)


def _probe_folder(flag: str, target: Path, folder: Path, what: str, write: bool = True) -> None:
    """Refuse, in one line, a folder that cannot be made or written in (``/proc/x``,
    ``/dev/null/sub``): missing folders are made and removed again, so nothing is left."""
    if folder.exists() and not folder.is_dir():
        where = "" if folder == target else f": {folder}"
        raise InputError(f"{flag} {target}{where} is a file, not a folder")
    made: list[Path] = []
    at = folder
    while not at.exists() and at != at.parent:
        made.append(at)
        at = at.parent
    if not made and not os.access(folder, os.W_OK | os.X_OK):
        raise InputError(f"{flag} {target}: cannot write in this folder (permission denied)")
    step = "create"
    try:
        for p in reversed(made):
            p.mkdir()
        step = "write in"
        if write:
            with tempfile.TemporaryFile(dir=folder):
                pass
    except OSError as exc:
        raise InputError(f"{flag} {target}: cannot {step} the {what}: {exc.strerror or exc}") from None
    finally:
        for p in made:  # deepest first
            with contextlib.suppress(OSError):
                p.rmdir()


def check_outputs(
    plot: Path | None = None, out_dir: Path | None = None, *, what: str = "results folder", write: bool = True
) -> None:
    """Before anything is played: a figure's name must say PNG or SVG (both are written), and
    the figure's folder and the ``--out`` folder must be folders that can be made and written
    in, so that no run's numbers are lost at the end.  Used by every command that writes.

    ``what`` names the folder in the message ("run folder" for ``simulate``); ``write=False``
    leaves the test of writing in an existing folder to the caller (a run folder's lock)."""
    if plot is not None and plot.suffix.lower() not in (".png", ".svg"):
        raise InputError(f"--plot {plot}: give a .png or .svg file name")
    if plot is not None:
        _probe_folder("--plot", plot, plot.parent, "figure's folder")
    if out_dir is not None:
        _probe_folder("--out", out_dir, out_dir, what, write)


# What `compare --out` and `sweep --out` write; a folder holding anything else is not theirs.
RESULT_NAMES = frozenset(
    {"summary.parquet", "summary.json", "report.json", "report.md", "report.html", "figures", "tables"}
)


def _held_result(folder: Path) -> str | None:
    """Which command's results folder ``folder`` holds: "compare", "sweep", or None (some
    other report, or a report.json that cannot be read)."""
    try:
        prov = json.loads((folder / "report.json").read_text()).get("provenance") or {}
    except (OSError, ValueError, AttributeError):
        return None
    if prov.get("kind") == "compare":
        return "compare"
    return "sweep" if "sweep" in prov else None


def claim_results_folder(out_dir: Path | None, command: str) -> None:
    """Refuse, before anything is played, an ``--out`` folder that ``command`` ("compare" or
    "sweep") must not overwrite: a run folder (``simulate --out``), an experiment's, another
    command's results, or one holding files kortsim did not write.  A folder holding a
    previous result of the same command is replaced, with a one-line note on stderr."""
    if out_dir is None or not out_dir.is_dir():
        return
    names = sorted(p.name for p in out_dir.iterdir())
    if not names:
        return
    another = "choose another --out folder"
    run_files = (RUN_FILE, PROGRESS_FILE, JOURNAL_FILE, STATUS_FILE)
    if any(n in names for n in run_files):
        held = next(n for n in run_files if n in names)
        raise InputError(f"--out {out_dir} already holds a run ({held}, simulate --out); {another}")
    if "experiment.json" in names:
        raise InputError(f"--out {out_dir} already holds an experiment (experiment.json); {another}")
    foreign = [n for n in names if n not in RESULT_NAMES]
    if foreign:
        shown = ", ".join(foreign[:3]) + (f" and {len(foreign) - 3} more" if len(foreign) > 3 else "")
        raise InputError(
            f"--out {out_dir} holds files kortsim did not write ({shown}); {another} (a new or empty one)"
        )
    held = _held_result(out_dir)
    if held != command:
        what = f"a {held} result" if held else "results of another kind"
        raise InputError(f"--out {out_dir} already holds {what}; {another}")
    err.print(f"note: {out_dir} held a previous {command} result; replacing it", markup=False)


def write_compare_outputs(result, plot: Path | None, out_dir: Path | None, quiet: bool) -> None:
    """``compare --plot FILE`` and ``--out DIR``; a place that cannot be written is one line."""
    from simulator.compare_report import compare_report, save_figure

    for flag, target in (("--plot", plot), ("--out", out_dir)):
        if target is None:
            continue
        try:
            if flag == "--plot":
                written = save_figure(result, target)
            else:
                compare_report(result, target)
                written = [target / "summary.parquet", target / "report.html"]
        except OSError as exc:
            raise InputError(f"{flag} {target}: cannot write there ({exc.strerror or exc})") from None
        if not quiet:
            err.print(f"wrote {' and '.join(str(w) for w in written)}", markup=False)


@app.command(cls=PlainUsage)
def compare(
    game: GameArg,
    strategy: Strategies,
    rounds: Annotated[
        int | None,
        typer.Option("--rounds", metavar="N", help="Compare on N deals of single rounds (1 to 10**12)."),
    ] = None,
    matches: Annotated[
        int | None,
        typer.Option("--matches", metavar="N", help="Compare on N deals of whole matches (1 to 10**12)."),
    ] = None,
    field: CompareField = None,
    baseline: CompareBaseline = None,
    seed: Seed = None,
    rule: Rules = None,
    players: Players = None,
    reaction: Reaction = None,
    plugin: Plugins = None,
    verbose: Verbose = False,
    threads: Threads = None,
    backend: BackendOpt = Backend.local,
    scheduler: Scheduler = None,
    workers: Workers = None,
    plot: ComparePlot = None,
    out_dir: CompareOut = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the JSON summary.")] = False,
) -> None:
    """Compare strategies on the same deals, every one in every seat, with paired intervals."""
    from simulator.compare import compare as run_compare

    check_outputs(plot, out_dir)
    claim_results_folder(out_dir, "compare")
    chosen_seed = api.resolve_seed(seed)
    with CountedPlay("compare", "comparing", as_json, amount_flag(matches)) as play:
        result = run_compare(
            game,
            strategy,
            rounds=rounds,
            matches=matches,
            field=field,
            baseline=baseline,
            seed=chosen_seed,
            rules=parse_rule_options(rule),
            players=players,
            reaction=reaction,
            threads=threads,
            plugins=[str(p) for p in plugin or []],
            backend=backend.value,
            scheduler=scheduler,
            workers=workers,
            progress=play,
            on_plan=play.set_total,
        )
    write_compare_outputs(result, plot, out_dir, quiet=as_json)
    if as_json:
        print(result.to_json())
    else:
        print_compare(result.summary)
    seed_hint(seed, chosen_seed, quiet=as_json)


def amount_flag(matches: int | None) -> str:
    """The option that sets how much is played (for the hint after Ctrl-C)."""
    return "--rounds" if matches is None else "--matches"


@app.command(cls=PlainUsage)
def warm() -> None:
    """Compile every shipped kernel into numba's cache (later runs start in about a second)."""
    from simulator.warm import warm as warm_all

    for game, unit, seconds in warm_all():
        err.print(f"{game}, {unit} play: ready in {seconds:.1f} s")


# --- sweeps, experiments and reports ---------------------------------------------------


@app.command("sweep", cls=PlainUsage)
def sweep_cmd(
    game: GameArg,
    strategy: SweepSpec,
    vs: SweepVs = None,
    rounds: Annotated[
        int | None, typer.Option("--rounds", metavar="N", help="Play N deals of single rounds (1 to 10**12).")
    ] = None,
    matches: Annotated[
        int | None,
        typer.Option("--matches", metavar="N", help="Play N deals of whole matches (1 to 10**12)."),
    ] = None,
    baseline: SweepBaseline = None,
    metric: SweepMetric = None,
    seed: Seed = None,
    rule: Rules = None,
    players: Players = None,
    reaction: Reaction = None,
    plugin: Plugins = None,
    verbose: Verbose = False,
    threads: Threads = None,
    plot: SweepPlot = None,
    out_dir: SweepOut = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the JSON summary and table.")] = False,
) -> None:
    """Sweep one or two strategy parameters against an opponent on the same deals."""
    from simulator.sweep import parse_sweep
    from simulator.sweep import sweep as run_sweep

    check_outputs(plot, out_dir)
    for p in plugin or []:
        load_plugin(p)
    parse_sweep(strategy, game)  # bad specs fail before the seed notice
    api.resolve_unit(rounds, matches)
    claim_results_folder(out_dir, "sweep")
    chosen_seed = api.resolve_seed(seed)
    with CountedPlay("sweep", "sweeping", as_json, amount_flag(matches)) as play:
        result = run_sweep(
            game,
            strategy,
            vs=vs,
            rounds=rounds,
            matches=matches,
            baseline=baseline,
            metric=metric,
            seed=chosen_seed,
            rules=parse_rule_options(rule),
            players=players,
            reaction=reaction,
            threads=threads,
            plugins=[str(p) for p in plugin or []],
            progress=play,
            on_plan=play.set_total,
        )
    write_sweep_outputs(result, plot, out_dir, quiet=as_json)
    if as_json:
        doc = dict(result.summary)
        doc["table"] = json.loads(result.table.to_json(orient="records"))
        print(dumps_json(doc))
    else:
        print_sweep(result)
    seed_hint(seed, chosen_seed, quiet=as_json)


def write_sweep_outputs(result, plot: Path | None, out_dir: Path | None, quiet: bool) -> None:
    """``sweep --plot FILE`` and ``--out DIR``; a place that cannot be written is one line."""
    from simulator import plots
    from simulator.sweep import sweep_report

    for flag, target in (("--plot", plot), ("--out", out_dir)):
        if target is None:
            continue
        try:
            if flag == "--plot":
                plots.save(result.plot(), target.parent, target.stem)
                written = [target.with_suffix(".png"), target.with_suffix(".svg")]
            else:
                sweep_report(result, target)
                written = [target / "report.html"]
        except OSError as exc:
            raise InputError(f"{flag} {target}: cannot write there ({exc.strerror or exc})") from None
        if not quiet:
            err.print(f"wrote {' and '.join(str(w) for w in written)}", markup=False)


experiment_app = typer.Typer(
    name="experiment",
    help="Named, versioned studies: `kortsim experiment list`, `kortsim experiment run NAME`.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
)
app.add_typer(experiment_app, name="experiment")


@experiment_app.command("list", cls=PlainUsage)
def experiment_list(
    as_json: Annotated[bool, typer.Option("--json", help="Machine-readable output.")] = False,
) -> None:
    """The experiments, their versions and the questions they answer."""
    import experiments

    rows = experiments.list_experiments()
    if as_json:
        print(dumps_json(rows))
        return
    for r in rows:
        out.print(f"[bold]{r['name']}[/bold]  v{r['version']}  {r['title']}")
        out.print(f"    {r['question']}")


class ExperimentBar:
    """A rich progress bar with a time estimate over an experiment's steps (weighted by cost)."""

    def __init__(self) -> None:
        from rich.progress import (
            BarColumn,
            Progress,
            TaskProgressColumn,
            TextColumn,
            TimeElapsedColumn,
        )

        from simulator.progress import TimeLeftColumn

        self.bar = Progress(
            TextColumn("[progress.description]{task.description}"),
            BarColumn(),
            TaskProgressColumn(),
            TimeElapsedColumn(),
            TimeLeftColumn(),
            console=err,
            transient=True,
        )
        self.task = None

    def plan(self, total_cost: float, steps: int, resumed: int) -> None:
        self.task = self.bar.add_task("starting", total=max(total_cost, 1.0))
        self.bar.start()

    def step(self, index: int, steps: int, label: str, resumed: bool) -> None:
        if self.task is not None:
            text = f"{index}/{steps} {label}"
            width = max(20, err.width - 50)  # leave room for the bar and the times
            self.bar.update(self.task, description=text if len(text) <= width else text[: width - 1] + "…")

    def advance(self, cost: float) -> None:
        if self.task is not None:
            self.bar.advance(self.task, cost)

    def stop(self) -> None:
        self.bar.stop()


def experiment_command(name: str, size: str, out_dir: Path, seed: int | None, threads: int | None) -> str:
    """The command that resumes an interrupted experiment run."""
    args = ["kortsim", "experiment", "run", name]
    if size != "full":
        args.append(f"--{size}")
    args += ["--out", str(out_dir)]
    if seed is not None:
        args += ["--seed", str(seed)]
    if threads is not None:
        args += ["--threads", str(threads)]
    return shlex.join([*args, "--resume"])


@experiment_app.command("run", cls=PlainUsage)
def experiment_run(
    name: Annotated[
        str,
        typer.Argument(
            metavar="NAME",
            help=f"Experiment: {', '.join(EXPERIMENTS)} (see `kortsim experiment list`).",
            autocompletion=completion.experiment_names,
        ),
    ],
    quick: Annotated[
        bool, typer.Option("--quick", help="The quick size: under five minutes on two cores.")
    ] = False,
    tiny: Annotated[
        bool, typer.Option("--tiny", help="The tiny size: seconds (what the tests run).")
    ] = False,
    out_dir: Annotated[
        Path | None,
        typer.Option(
            "--out",
            metavar="DIR",
            help="Results folder (default: results/NAME); it keeps every finished step, so an "
            "interrupted run can be resumed.",
        ),
    ] = None,
    resume: Annotated[
        bool,
        typer.Option("--resume", help="Continue the run in --out: only the steps not finished are played."),
    ] = False,
    seed: Annotated[
        int | None, typer.Option("--seed", metavar="N", help="Seed (default: the experiment's own).")
    ] = None,
    threads: Threads = None,
    as_json: Annotated[
        bool, typer.Option("--json", help="Print the headlines and answer as JSON (no progress shown).")
    ] = False,
) -> None:
    """Run an experiment (the full study unless --quick or --tiny) and write its report."""
    import experiments

    if quick and tiny:
        raise InputError("give at most one of --quick and --tiny")
    size = "quick" if quick else "tiny" if tiny else "full"
    mod = experiments.get(name)  # an unknown name fails before anything runs
    if seed is not None:
        api.resolve_seed(seed)
    folder = out_dir if out_dir is not None else experiments.default_out(mod.NAME)
    check_outputs(out_dir=folder)  # before any step is played
    backend = {"threads": threads} if threads is not None else {}
    bar = None
    if as_json:
        progress = None
    elif err.is_terminal:
        bar = ExperimentBar()
        progress = bar
    else:
        progress = experiments.as_progress(lambda msg: err.print(f"{mod.NAME}: {msg}", markup=False))
    try:
        res = experiments.run(
            name, size=size, out_dir=out_dir, seed=seed, progress=progress, resume=resume, **backend
        )
    except experiments.ExperimentInterrupted as exc:
        if bar is not None:
            bar.stop()
            bar = None
        err.print(f"interrupted: {exc.out} holds {exc.done} of {exc.steps} steps", markup=False)
        command = experiment_command(mod.NAME, size, folder, seed, threads)
        err.print(f"to finish it: {command}", markup=False, soft_wrap=True)
        raise typer.Exit(130) from None
    finally:
        if bar is not None:
            bar.stop()
    if as_json:
        print(dumps_json(res.to_json()))
        return
    for h in res.headlines:
        out.print(h.question, markup=False)
        out.print(f"  {h.answer}", markup=False)
    out.print(f"(the answer in more detail: {res.report_md})", markup=False)
    err.print(
        f"{mod.NAME} ({size}) took {res.elapsed_s:.1f} s; wrote {res.report_html} and {res.summary_path}"
    )


@app.command("report", cls=PlainUsage)
def report_cmd(
    folder: Annotated[
        Path,
        typer.Argument(
            metavar="DIR", help="A results folder (an experiment, a sweep, compare or simulate --out)."
        ),
    ],
) -> None:
    """Write (or refresh) report.html and report.md from a results folder."""
    from simulator.report import refresh

    paths = refresh(folder)
    out.print(f"wrote {paths['html']} and {paths['md']}", markup=False)


def main() -> None:
    """Console entry point."""
    app(prog_name="kortsim")


if __name__ == "__main__":
    main()
