"""The ``kortsim`` command: thin Typer commands over the Python API.

Every command turns bad input into one line on stderr and exit code 2;
a strategy that breaks the rules gives exit code 3.
"""

from __future__ import annotations

import json
import logging
import shlex
import shutil
import sys
from enum import StrEnum
from pathlib import Path
from typing import Annotated, Any

import click
import typer
from rich.console import Console
from rich.table import Table as RichTable
from typer.core import TyperGroup
from typer.exceptions import TyperException

from simulator import api, formatting
from simulator.backends import Backend
from simulator.checkpoint import RunInterrupted, stored_seed
from simulator.fields import COMMON, NOT_FIGURES, Field, fields_for, games_word, metric_field
from simulator.games import GAMES, InputError, all_games, get_game
from simulator.results import Result, dumps_json
from simulator.runner import StrategyError
from simulator.stats import LEVEL
from strategies.registry import SpecError, families, format_value, load_plugin

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


# Tables stay readable when piped (rich would otherwise assume 80 columns).
out = Console(highlight=False, soft_wrap=True, width=max(shutil.get_terminal_size((140, 24)).columns, 120))
err = Console(stderr=True, highlight=False, soft_wrap=True)


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
    ),
]
Rules = Annotated[
    list[str] | None,
    typer.Option("--rule", metavar="NAME=VALUE", help="Rule variant NAME=VALUE (see `kortsim games`)."),
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


def fmt(v: Any, digits: int = 4) -> str:
    if isinstance(v, float):
        return f"{v:.{digits}g}" if abs(v) < 1e-3 and v != 0 else f"{v:.{digits}f}".rstrip("0").rstrip(".")
    return str(v)


def with_ci(d: dict, key: str) -> str:
    ci = d.get(key + "_ci")
    if ci is None:
        return fmt(d[key])
    return f"{fmt(d[key])} [{fmt(ci[0])}, {fmt(ci[1])}]"


def _captions(keys: list[str], decl: dict, unit: str) -> str:
    """One line per column below a table: ``mean_score: points per round, lower is better``."""
    return "\n".join(f"{k}: {decl[k].caption(unit)}" for k in keys if k in decl)


def _meaning(f: Field | None, unit: str) -> str:
    """What a figure of the whole-run table is, in words, with its unit and direction."""
    if f is None:
        return ""
    words = f.words_text(unit)
    if f.kind == "count":
        return "; ".join(p for p in (words or f.unit_text(unit), f.direction()) if p)
    if f.kind == "setting":
        return f"{words} (a setting of the run)" if words else "a setting of the run"
    caption = f.caption(unit)
    return f"{caption} ({words})" if words else caption


def _cell(f: Field | None, row: dict, key: str, unit: str, totals: dict) -> str:
    v = row[key]
    if isinstance(v, dict):
        return ", ".join(f"{a}={fmt(b)}" for a, b in v.items())
    return formatting.figure(f, v, row.get(key + "_ci"), unit, totals)


def _rules_text(rules: dict) -> str:
    return ", ".join(f"{k}={format_value(v) if isinstance(v, float | int) else v}" for k, v in rules.items())


def print_result(result: Result) -> None:
    """The seats' figures and the whole run's, each with its unit and direction."""
    s = result.summary
    unit = s["unit"]
    decl = fields_for(s["game"], unit)
    totals = {"n": s["n"], **{k: v for k, v in s.items() if isinstance(v, int) and not isinstance(v, bool)}}
    title = f"{s['game']}: {s['n']:,} {games_word(unit, s['n'])}, seed {s['seed']}, rules {_rules_text(s['rules'])}"
    seats = s["seats"]
    seat_keys = [k for k in seats[0] if k not in ("seat", "player") and not k.endswith("_ci")]
    t = RichTable(
        title=title, title_justify="left", caption=_captions(seat_keys, decl, unit), caption_justify="left"
    )
    t.add_column("seat", justify="right")
    t.add_column("player")
    for k in seat_keys:
        t.add_column(k + (" [95% CI]" if k + "_ci" in seats[0] else ""), justify="right")
    for seat in seats:
        cells = [_cell(decl.get(k), seat, k, unit, totals) for k in seat_keys]
        t.add_row(str(seat["seat"]), seat["player"], *cells)
    out.print(t)
    keys = [
        k
        for k, v in s.items()
        if k not in NOT_FIGURES
        and k not in COMMON
        and not k.endswith("_ci")
        and not isinstance(v, dict | list)
    ]
    if keys:
        t = RichTable(title="the whole run", title_justify="left")
        t.add_column("figure")
        t.add_column("value [95% CI]", justify="right")
        t.add_column("meaning")
        for k in keys:
            t.add_row(k, _cell(decl.get(k), s, k, unit, totals), _meaning(decl.get(k), unit))
        out.print(t)
    out.print(_timing(s, unit, s["n"]))


def _timing(s: dict, unit: str, games: int) -> str:
    """``5,000 rounds played in 0.047 s (107,642 rounds/s); compiling took 0.25 s``."""
    text = f"{games:,} {games_word(unit, games)} played"
    if s.get("elapsed_s") is not None:
        text += f" in {formatting.seconds(s['elapsed_s'])}"
    if s.get("games_per_s"):
        text += f" ({formatting.speed(s['games_per_s'], unit)})"
    if s.get("compile_s"):
        text += f"; compiling took {formatting.seconds(s['compile_s'])}"
    return text


def choose_seed(seed: int | None) -> int:
    """The run's seed: the one given, or a freshly drawn one (see :func:`seed_hint`)."""
    return api.resolve_seed(seed)


def seed_hint(given: int | None, chosen: int, quiet: bool) -> None:
    """After a run that produced numbers: how to repeat it, when its seed was drawn.

    Printed only then, so that a run that failed never suggests repeating it."""
    if given is None and not quiet:
        err.print(f"seed {chosen} (give --seed {chosen} to repeat this run)")


def terminal_bar(description: str, quiet: bool, total: int | None = None):
    """A progress bar on stderr with a time estimate, shown only on a terminal and not
    with ``quiet`` (``--json``); use it as the run's ``progress=`` callback."""
    from simulator.progress import progress_bar as make_bar

    return make_bar(total, description=description, enabled=not quiet, console=err)


def progress_bar(total: int | None, enabled: bool, description: str = "playing"):
    """``(bar, advance)``: a bar on stderr with a time estimate when it is a terminal
    (``bar.start()``/``bar.stop()``), else ``(None, None)`` (simulator/progress.py)."""
    from simulator.progress import progress_bar as make_bar

    bar = make_bar(total, description=description, enabled=enabled, console=err)
    return (bar, bar) if bar.enabled else (None, None)


@app.command()
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


@app.command("strategies")
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


def print_partial(exc: RunInterrupted, units: str, as_json: bool) -> None:
    """A run without --out stopped by Ctrl-C: the figures of the games that finished, marked
    partial (in JSON: ``"partial": true`` and ``"n_planned"``), and how to make it resumable."""
    done = f"{exc.games:,} of {exc.planned:,} {units}"
    if exc.result is not None:
        if as_json:
            print(exc.result.to_json())
        else:
            out.print(f"partial: {done} (stopped by Ctrl-C before the end)", markup=False)
            print_result(exc.result)
    shown = "; the figures printed are theirs alone" if exc.result is not None else ""
    err.print(f"interrupted: partial: {done} finished{shown}", markup=False)
    err.print(
        "give --out DIR to make a run resumable: Ctrl-C then keeps every finished block, "
        "and --resume finishes the run",
        markup=False,
    )


@app.command()
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
    threads: Annotated[
        int | None, typer.Option("--threads", metavar="N", help="Worker threads (default: all cores).")
    ] = None,
    block_size: Annotated[
        int | None,
        typer.Option(
            "--block-size",
            metavar="N",
            help="Games per block (does not change results; default: about a quarter of a second's worth).",
        ),
    ] = None,
    out_dir: Annotated[
        Path | None,
        typer.Option(
            "--out",
            metavar="DIR",
            help="Run folder: finished blocks are kept there as they complete (Ctrl-C loses nothing "
            "finished), then summary.parquet (with provenance).",
        ),
    ] = None,
    resume: Annotated[
        bool,
        typer.Option(
            "--resume", help="Continue the run in --out, or extend it to more games (same settings)."
        ),
    ] = False,
    records: Annotated[
        bool,
        typer.Option(
            "--records", help="Also write one row per game to --out/records (Parquet, docs/records.md)."
        ),
    ] = False,
    backend: BackendOpt = Backend.local,
    scheduler: Scheduler = None,
    workers: Workers = None,
    connect_timeout: ConnectTimeout = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the JSON summary.")] = False,
) -> None:
    """Play many games between strategies; print figures with 95% intervals."""
    if out_dir is None and (resume or records):
        raise InputError(f"{'--resume' if resume else '--records'} needs --out DIR (the run's folder)")
    # A resumed run keeps its own seed unless one is given.
    chosen_seed = seed if resume and seed is None else api.resolve_seed(seed)
    if chosen_seed is None:
        chosen_seed = stored_seed(out_dir)  # type: ignore[arg-type]
    _, n = api.resolve_unit(rounds, matches)
    bar, advance = progress_bar(n, enabled=not as_json and sys.stderr.isatty())
    try:
        if bar is not None:
            bar.start()
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
            progress=advance,
            backend=backend.value,
            scheduler=scheduler,
            workers=workers,
            out=out_dir,
            resume=resume,
            records=records,
            connect_timeout=connect_timeout,
        )
    except RunInterrupted as exc:
        if bar is not None:
            bar.stop()
            bar = None
        units = "rounds" if exc.unit == "round" else "matches"
        if exc.out is None:  # nothing kept on disk: show what finished, marked partial
            print_partial(exc, units, as_json)
            raise typer.Exit(130) from None
        held = f"{exc.out} holds {exc.games:,} of {exc.planned:,} {units}"
        if exc.result is not None:
            held += f" ({exc.out / 'summary.parquet'} has their figures)"
        err.print(f"interrupted: {held}", markup=False)
        command = resume_command(
            game, strategy, rounds, matches, chosen_seed, rule, players, reaction, plugin,
            exc.out or out_dir, records, backend, scheduler, workers, connect_timeout,
        )  # fmt: skip
        err.print(f"to finish it: {command}", markup=False, soft_wrap=True)
        raise typer.Exit(130) from None
    finally:
        if bar is not None:
            bar.stop()
    if out_dir is not None and not as_json:
        err.print(f"wrote {out_dir / 'summary.parquet'}" + (f" and {out_dir / 'records'}" if records else ""))
    if as_json:
        print(result.to_json())
    else:
        print_result(result)
    seed_hint(chosen_seed if resume else seed, chosen_seed, quiet=as_json)  # a resumed run keeps its seed


@app.command()
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


def diff_unit(f: Field, unit: str) -> str:
    """The unit of a paired difference: percentage points for rates, else the metric's unit."""
    return "percentage points" if f.kind == "rate" else f.unit_text(unit)


def compare_cells(f: Field, r: dict, name: str, is_base: bool) -> list[str]:
    """Value, paired difference, Holm p-value and variance reduction of one candidate."""
    value = (formatting.rate if f.kind == "rate" else formatting.mean)(r[name], r.get(f"{name}_ci"))
    if is_base:
        return [value, "(baseline)", "", ""]
    d = formatting.diff(r["diff"], r.get("diff_ci"), percent=f.kind == "rate")
    vr = r.get("variance_reduction")  # None when the paired difference has no spread
    return [value, d, formatting.p_value(r.get("p_holm")), formatting.factor(vr)]


def compare_columns(t: RichTable, name: str, f: Field, unit: str) -> None:
    """The value and difference columns (the table's title carries unit and direction)."""
    value_unit = "%" if f.kind == "rate" else f.unit_text(unit)
    t.add_column(f"{name} [95% CI]\n{value_unit}", justify="right")
    t.add_column(f"minus baseline [95% CI]\n{diff_unit(f, unit)}", justify="right")
    t.add_column("p (Holm)", justify="right")
    t.add_column("variance\nreduction", justify="right")


def print_compare(summary: dict) -> None:
    """Each metric's table (value, paired difference to the baseline, Holm p-value), then
    the ranking; every figure says its unit and which way is better."""
    s = summary
    unit = s["unit"]
    decl = fields_for(s["game"], unit)
    out.print(f"{s['game']}: {s['n']:,} deals ({games_word(unit)}), seed {s['seed']}; {s['design']}")
    line = _timing(s, unit, s["games_played"]) + f"; baseline {s['baseline']}"
    out.print(line + (f"; field {s['field']}" if s["field"] else ""))
    if s.get("deals_dropped"):
        shown = formatting.count(s["deals_dropped"], s["n"], "deals")
        out.print(f"left out: {shown}, stalled or abandoned in some seating")
    for name, block in s["metrics"].items():
        f = metric_field(decl, name, block)
        t = RichTable(title=f"{name}: {block['doc']} ({f.caption(unit)})", title_justify="left")
        t.add_column("player")
        compare_columns(t, name, f, unit)
        for r in block["strategies"]:
            t.add_row(r["player"], *compare_cells(f, r, name, "diff" not in r))
        out.print(t)
    if s.get("ranking"):
        primary = s["head_to_head"]["metric"]
        t = RichTable(
            title=f"Bradley-Terry ranking on {primary} (log-strength from the deals each did better on; "
            "higher is stronger; baseline fixed at 0)",
            title_justify="left",
        )
        for col in ("rank", "player", "strength [95% CI]"):
            t.add_column(col, justify="left" if col == "player" else "right")
        for r in s["ranking"]:
            fixed = r["player"] == s["baseline"]
            text = "0 (fixed)" if fixed else formatting.diff(r["strength"], r.get("strength_ci"))
            t.add_row(str(r["rank"]), r["player"], text)
        out.print(t)


def check_outputs(plot: Path | None, out_dir: Path | None) -> None:
    """Before a run: a figure's name must say PNG or SVG (both are written), and the places
    to write must be folders that can be made, so that no run's numbers are lost at the end."""
    if plot is not None and plot.suffix.lower() not in (".png", ".svg"):
        raise InputError(f"--plot {str(plot)!r}: give a .png or .svg file name")
    for flag, target, folder in (
        ("--plot", plot, plot.parent if plot is not None else None),
        ("--out", out_dir, out_dir),
    ):
        if folder is None:
            continue
        try:
            folder.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            why = f"{folder} is not a folder" if folder.exists() else (exc.strerror or str(exc))
            raise InputError(f"{flag} {str(target)!r}: cannot write there ({why})") from None


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
            raise InputError(f"{flag} {str(target)!r}: cannot write there ({exc.strerror or exc})") from None
        if not quiet:
            err.print(f"wrote {' and '.join(str(w) for w in written)}", markup=False)


@app.command()
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
    field: Annotated[
        str | None,
        typer.Option(
            "--field", metavar="SPEC", help="The strategy filling the other seats (Gris games: greedy)."
        ),
    ] = None,
    baseline: Annotated[
        str | None,
        typer.Option("--baseline", metavar="SPEC", help="Differences are against this (default: first -s)."),
    ] = None,
    seed: Seed = None,
    rule: Rules = None,
    players: Players = None,
    reaction: Reaction = None,
    plugin: Plugins = None,
    verbose: Verbose = False,
    threads: Annotated[
        int | None, typer.Option("--threads", metavar="N", help="Worker threads (default: all cores).")
    ] = None,
    backend: BackendOpt = Backend.local,
    scheduler: Scheduler = None,
    workers: Workers = None,
    plot: Annotated[
        Path | None,
        typer.Option(
            "--plot",
            metavar="FILE",
            help="Write the paired differences as a figure here (PNG and SVG are both written).",
        ),
    ] = None,
    out_dir: Annotated[
        Path | None,
        typer.Option(
            "--out",
            metavar="DIR",
            help="Write a results folder (summary.parquet with provenance, summary.json, figure, "
            "report.md, report.html; `kortsim report DIR` rebuilds the report).",
        ),
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the JSON summary.")] = False,
) -> None:
    """Compare strategies on the same deals, every one in every seat, with paired intervals."""
    from simulator.compare import compare as run_compare

    check_outputs(plot, out_dir)
    chosen_seed = choose_seed(seed)
    with terminal_bar("comparing", quiet=as_json) as bar:
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
            progress=bar,
            on_plan=bar.set_total,
        )
    write_compare_outputs(result, plot, out_dir, quiet=as_json)
    if as_json:
        print(result.to_json())
    else:
        print_compare(result.summary)
    seed_hint(seed, chosen_seed, quiet=as_json)


@app.command()
def warm() -> None:
    """Compile every shipped kernel into numba's cache (later runs start in about a second)."""
    from simulator.warm import warm as warm_all

    for game, unit, seconds in warm_all():
        err.print(f"{game}, {unit} play: ready in {seconds:.1f} s")


# --- sweeps, experiments and reports ---------------------------------------------------


def print_sweep(result) -> None:
    """The swept metric at every point with its paired difference to the baseline; the
    table's title says the unit and which way is better."""
    from simulator.sweep import metric_title

    s = result.comparison.summary
    m = result.metric
    info = result.metric_info()
    unit = s["unit"]
    f = metric_field(fields_for(s["game"], unit), m, info)
    out.print(
        f"{s['game']}: {result.summary['spec']} against {result.vs}; {s['n']:,} deals "
        f"({games_word(unit)}), seed {s['seed']}"
    )
    out.print(f"{s['design']}; {_timing(s, unit, s['games_played'])}; differences against {result.baseline}")
    t = RichTable(title=f"{metric_title(m, info)}: {info['doc']} ({f.caption(unit)})", title_justify="left")
    axes = [a.name for a in result.axes]
    for a in axes:
        t.add_column(a, justify="right")
    compare_columns(t, m, f, unit)
    for r in result.table.to_dict("records"):
        is_base = r.get("plays_as", r["player"]) == result.baseline
        row = {
            m: r[m],
            f"{m}_ci": [r[f"{m}_lo"], r[f"{m}_hi"]],
            "diff": r[f"{m}_diff"],
            "diff_ci": [r[f"{m}_diff_lo"], r[f"{m}_diff_hi"]],
            "p_holm": r[f"{m}_p_holm"],
            "variance_reduction": r[f"{m}_variance_reduction"],
        }
        t.add_row(
            *(format_value(r[a]) + (" (shared)" if r.get("shared") else "") for a in axes),
            *compare_cells(f, row, m, is_base),
        )
    out.print(t)
    note = result.shared_note()
    if note:
        out.print(note)
    best = result.best()
    word = "lowest" if info["lower_is_better"] else "highest"
    value = (formatting.rate if f.kind == "rate" else formatting.mean)(
        best[m], [best[f"{m}_lo"], best[f"{m}_hi"]]
    )
    line = f"{word} {m}: {best['player']}, {value} ({f.unit_text(unit)})"
    if best.get("plays_as", best["player"]) != result.baseline:
        d = formatting.diff(
            best[f"{m}_diff"], [best[f"{m}_diff_lo"], best[f"{m}_diff_hi"]], percent=f.kind == "rate"
        )
        p = best[f"{m}_p_holm"]
        line += f"; minus baseline {d}, p (Holm) {formatting.p_value(p)}"
        if not p < 1 - LEVEL:
            line += ": no difference from the baseline detected at this size"
    out.print(line)


@app.command("sweep")
def sweep_cmd(
    game: GameArg,
    strategy: Annotated[
        str,
        typer.Option(
            "--strategy",
            "-s",
            metavar="SWEEP",
            help='Sweep spec, e.g. "threshold:k=0..13", "threshold:k=0..13/1", "threshold:k=1|2|5", '
            '"expect:patience=1..4/1,open=15|25" (one or two parameters).',
        ),
    ],
    vs: Annotated[
        str | None,
        typer.Option(
            "--vs",
            "--field",
            metavar="SPEC",
            help="The opponent (two seats) or the field filling the other seats; default: the family "
            "at its defaults (Spøkelse), greedy (Gris games).",
        ),
    ] = None,
    rounds: Annotated[
        int | None, typer.Option("--rounds", metavar="N", help="Play N deals of single rounds (1 to 10**12).")
    ] = None,
    matches: Annotated[
        int | None,
        typer.Option("--matches", metavar="N", help="Play N deals of whole matches (1 to 10**12)."),
    ] = None,
    baseline: Annotated[
        str | None,
        typer.Option(
            "--baseline",
            metavar="SPEC",
            help="Differences are against this point (default: --vs if swept, else the first).",
        ),
    ] = None,
    metric: Annotated[
        str | None,
        typer.Option(
            "--metric", metavar="NAME", help="Metric to plot and rank by (default: the game's first)."
        ),
    ] = None,
    seed: Seed = None,
    rule: Rules = None,
    players: Players = None,
    reaction: Reaction = None,
    plugin: Plugins = None,
    verbose: Verbose = False,
    threads: Annotated[
        int | None, typer.Option("--threads", metavar="N", help="Worker threads (default: all cores).")
    ] = None,
    plot: Annotated[
        Path | None,
        typer.Option(
            "--plot",
            metavar="FILE",
            help="Write the figure here (PNG or SVG by extension; both are written).",
        ),
    ] = None,
    out_dir: Annotated[
        Path | None,
        typer.Option(
            "--out",
            metavar="DIR",
            help="Write a results folder (summary.parquet, figure, report.md, report.html).",
        ),
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the JSON summary and table.")] = False,
) -> None:
    """Sweep one or two strategy parameters against an opponent on the same deals."""
    from simulator.sweep import parse_sweep
    from simulator.sweep import sweep as run_sweep

    if plot is not None and plot.suffix.lower() not in (".png", ".svg"):
        raise InputError(f"--plot {str(plot)!r}: give a .png or .svg file name")
    for p in plugin or []:
        load_plugin(p)
    parse_sweep(strategy, game)  # bad specs fail before the seed notice
    api.resolve_unit(rounds, matches)
    chosen_seed = choose_seed(seed)
    with terminal_bar("sweeping", quiet=as_json) as bar:
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
            progress=bar,
            on_plan=bar.set_total,
        )
    if plot is not None:
        from simulator import plots

        plots.save(result.plot(), plot.parent, plot.stem)
        if not as_json:
            err.print(f"wrote {plot.with_suffix('.png')} and {plot.with_suffix('.svg')}")
    if out_dir is not None:
        from simulator.sweep import sweep_report

        sweep_report(result, out_dir)
        if not as_json:
            err.print(f"wrote {out_dir / 'report.html'}")
    if as_json:
        doc = dict(result.summary)
        doc["table"] = json.loads(result.table.to_json(orient="records"))
        print(dumps_json(doc))
    else:
        print_sweep(result)
    seed_hint(seed, chosen_seed, quiet=as_json)


experiment_app = typer.Typer(
    name="experiment",
    help="Named, versioned studies: `kortsim experiment list`, `kortsim experiment run NAME`.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
)
app.add_typer(experiment_app, name="experiment")


@experiment_app.command("list")
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
            TimeRemainingColumn,
        )

        self.bar = Progress(
            TextColumn("[progress.description]{task.description}"),
            BarColumn(),
            TaskProgressColumn(),
            TimeElapsedColumn(),
            TextColumn("left"),
            TimeRemainingColumn(),
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


@experiment_app.command("run")
def experiment_run(
    name: Annotated[
        str, typer.Argument(metavar="NAME", help="Experiment name (see `kortsim experiment list`).")
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
    threads: Annotated[
        int | None, typer.Option("--threads", metavar="N", help="Worker threads (default: all cores).")
    ] = None,
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


@app.command("report")
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
