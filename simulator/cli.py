"""The ``kortsim`` command: thin Typer commands over the Python API.

Every command turns bad input into one line on stderr and exit code 2;
a strategy that breaks the rules gives exit code 3.
"""

from __future__ import annotations

import json
import shlex
import shutil
import sys
from pathlib import Path
from typing import Annotated, Any

import click
import typer
from rich.console import Console
from rich.table import Table as RichTable
from typer.core import TyperGroup
from typer.exceptions import TyperException

from simulator import api
from simulator.backends import Backend
from simulator.checkpoint import RunInterrupted, stored_seed
from simulator.games import InputError, all_games, get_game
from simulator.results import Result
from simulator.runner import StrategyError
from strategies.registry import SpecError, families, format_value, load_plugin

# Typer may bring its own copy of click: catch both its exceptions and click's.
EXIT = (click.exceptions.Exit, typer.Exit)
ABORT = (click.exceptions.Abort, typer.Abort)
USAGE = (click.ClickException, TyperException)


class OneLineErrors(TyperGroup):
    """Every expected failure becomes one line on stderr and an exit code, never a traceback:
    2 for bad input (usage, specs, rules), 3 for a strategy that broke the rules."""

    def main(self, args=None, prog_name=None, complete_var=None, standalone_mode=True, **extra):
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
                err.print(f"error: {e.format_message()}", markup=False)
            code = 2
        except (InputError, SpecError) as e:
            err.print(f"error: {e}", markup=False)
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
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
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

Strategies = Annotated[
    list[str],
    typer.Option(
        "--strategy", "-s", help="Strategy spec NAME[:a=1,b=2]; once for all seats or once per seat."
    ),
]
Rules = Annotated[
    list[str] | None, typer.Option("--rule", help="Rule variant NAME=VALUE (see `kortsim games`).")
]
Players = Annotated[int | None, typer.Option("--players", help="Number of seats (Gris games).")]
Reaction = Annotated[
    list[str] | None,
    typer.Option(
        "--reaction",
        help="Reaction profile MEDIAN[,SIGMA] in seconds for all seats, or SEAT=MEDIAN[,SIGMA] for one seat.",
    ),
]
Plugins = Annotated[
    list[Path] | None, typer.Option("--plugin", help="A Python file that registers your own strategies.")
]
Seed = Annotated[int | None, typer.Option("--seed", help="Seed; the same seed gives the same numbers.")]


def parse_rule_options(items: list[str] | None) -> dict[str, str]:
    rules: dict[str, str] = {}
    for item in items or []:
        key, eq, value = item.partition("=")
        if not eq or not key.strip() or not value.strip():
            raise InputError(f"--rule takes NAME=VALUE, got {item!r}")
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


def print_result(result: Result) -> None:
    s = result.summary
    title = (
        f"{s['game']}: {s['n']:,} {s['unit']}{'es' if s['unit'] == 'match' else 's'}, "
        f"seed {s['seed']}, rules {', '.join(f'{k}={format_value(v) if isinstance(v, float | int) else v}' for k, v in s['rules'].items())}"
    )
    seat_keys = [k for k in s["seats"][0] if k not in ("seat", "player") and not k.endswith("_ci")]
    t = RichTable(title=title, title_justify="left")
    t.add_column("seat", justify="right")
    t.add_column("player")
    for k in seat_keys:
        t.add_column(k + (" [95% CI]" if k + "_ci" in s["seats"][0] else ""), justify="right")
    for seat in s["seats"]:
        cells = []
        for k in seat_keys:
            v = seat[k]
            if isinstance(v, dict):
                cells.append(", ".join(f"{a}={fmt(b)}" for a, b in v.items()))
            else:
                cells.append(with_ci(seat, k))
        t.add_row(str(seat["seat"]), seat["player"], *cells)
    out.print(t)
    skip = {"schema_version", "game", "unit", "n", "seed", "rules", "seats", "players"}
    for k, v in s.items():
        if k in skip or k.endswith("_ci"):
            continue
        if isinstance(v, dict | list):
            continue
        label = k + (" [95% CI]" if k + "_ci" in s else "")
        out.print(f"{label}: {with_ci(s, k)}")


def announce_seed(seed: int | None, quiet: bool) -> int:
    """The run's seed; a drawn one is printed so that the run can be repeated."""
    chosen = api.resolve_seed(seed)
    if seed is None and not quiet:
        err.print(f"seed {chosen} (give --seed {chosen} to repeat this run)")
    return chosen


def progress_bar(total: int, enabled: bool):
    """A rich progress bar on a terminal; a no-op otherwise."""
    if not enabled:
        return None, None
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeRemainingColumn

    bar = Progress(
        "[progress.description]{task.description}",
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
        console=err,
        transient=True,
    )
    task = bar.add_task("playing", total=total)
    return bar, (lambda k: bar.advance(task, k))


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
        out.print_json(json.dumps(rows, ensure_ascii=False))
        return
    for r in rows:
        lo, hi = r["players"]
        seats = f"{lo} players" if lo == hi else f"{lo}-{hi} players (default {r['default_players']})"
        out.print(f"[bold]{r['game']}[/bold]  {r['title']}  ({seats})")
        for k, v in r["rules"].items():
            out.print(f"    --rule {k}=...  {v['doc']}")
        if r["reaction_model"]:
            out.print(
                "    --reaction MEDIAN[,SIGMA] or SEAT=MEDIAN[,SIGMA]  reaction times (default 0.8,0.35)"
            )


def _default(game, key: str) -> Any:
    return getattr(game.rules_type(), key)


@app.command("strategies")
def strategies_cmd(
    game: Annotated[str, typer.Argument(help="Game id (see `kortsim games`).")],
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
        out.print_json(json.dumps(rows, ensure_ascii=False))
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
        help="Dask scheduler address (tcp://HOST:8786) or scheduler file; default: Dask's "
        "configuration (DASK_SCHEDULER_ADDRESS), else a local Dask cluster.",
    ),
]
Workers = Annotated[
    int | None,
    typer.Option("--workers", help="Worker processes of a local Dask cluster (default: cores, at most 4)."),
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
    args += ["--out", str(out_dir)]
    if records:
        args.append("--records")
    args.append("--resume")
    return shlex.join(args)


@app.command()
def simulate(
    game: Annotated[str, typer.Argument(help="Game id (see `kortsim games`).")],
    strategy: Strategies,
    rounds: Annotated[int | None, typer.Option("--rounds", help="Play N independent deals.")] = None,
    matches: Annotated[int | None, typer.Option("--matches", help="Play N whole matches.")] = None,
    seed: Seed = None,
    rule: Rules = None,
    players: Players = None,
    reaction: Reaction = None,
    plugin: Plugins = None,
    threads: Annotated[
        int | None, typer.Option("--threads", help="Worker threads (default: all cores).")
    ] = None,
    block_size: Annotated[
        int | None,
        typer.Option(
            "--block-size",
            help="Games per block (does not change results; default: about a quarter of a second's worth).",
        ),
    ] = None,
    out_dir: Annotated[
        Path | None,
        typer.Option(
            "--out",
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
    as_json: Annotated[bool, typer.Option("--json", help="Print the JSON summary.")] = False,
) -> None:
    """Play many games between strategies; print figures with 95% intervals."""
    if out_dir is None and (resume or records):
        raise InputError(f"{'--resume' if resume else '--records'} needs --out DIR (the run's folder)")
    # A resumed run keeps its own seed unless one is given.
    chosen_seed = seed if resume and seed is None else api.resolve_seed(seed)
    if chosen_seed is None:
        chosen_seed = stored_seed(out_dir)  # type: ignore[arg-type]
    if seed is None and not resume and not as_json:
        err.print(f"seed {chosen_seed} (give --seed {chosen_seed} to repeat this run)")
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
        )
    except RunInterrupted as exc:
        if bar is not None:
            bar.stop()
            bar = None
        units = "rounds" if exc.unit == "round" else "matches"
        held = f"{exc.out} holds {exc.games:,} of {exc.planned:,} {units}"
        if exc.result is not None:
            held += f" ({exc.out / 'summary.parquet'} has their figures)"
        err.print(f"interrupted: {held}", markup=False)
        command = resume_command(
            game, strategy, rounds, matches, chosen_seed, rule, players, reaction, plugin,
            exc.out or out_dir, records, backend, scheduler, workers,
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


@app.command()
def trace(
    game: Annotated[str, typer.Argument(help="Game id (see `kortsim games`).")],
    strategy: Strategies,
    seed: Annotated[int, typer.Option("--seed", help="The run's seed.")],
    game_index: Annotated[int, typer.Option("--game", help="Which game of the run (counting from 0).")] = 0,
    matches: Annotated[
        bool, typer.Option("--matches", help="Trace match number --game, not a round.")
    ] = False,
    rule: Rules = None,
    players: Players = None,
    reaction: Reaction = None,
    plugin: Plugins = None,
) -> None:
    """Show one game of a seeded run, move by move, from the readable reference rules."""
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
    )
    out.print(text, markup=False)


def print_compare(summary: dict) -> None:
    s = summary
    unit = s["unit"] + ("es" if s["unit"] == "match" else "s")
    out.print(f"{s['game']}: {s['n']:,} deals ({unit}), seed {s['seed']}; {s['design']}")
    out.print(
        f"{s['games_played']:,} games played; baseline {s['baseline']}"
        + (f"; field {s['field']}" if s["field"] else "")
    )
    for name, block in s["metrics"].items():
        t = RichTable(
            title=f"{name}: {block['doc']} ({'lower' if block['lower_is_better'] else 'higher'} is better)",
            title_justify="left",
        )
        for col in (
            "player",
            f"{name} [95% CI]",
            "diff vs baseline [95% CI]",
            "p (Holm)",
            "variance reduction",
        ):
            t.add_column(col, justify="left" if col == "player" else "right")
        for r in block["strategies"]:
            if "diff" in r:
                diff = f"{fmt(r['diff'])} [{fmt(r['diff_ci'][0])}, {fmt(r['diff_ci'][1])}]"
                p = f"{r['p_holm']:.3g}"
                vr = f"{r['variance_reduction']:.1f}x" if r.get("variance_reduction") else "-"
            else:
                diff, p, vr = "(baseline)", "", ""
            t.add_row(r["player"], with_ci(r, name), diff, p, vr)
        out.print(t)
    if s.get("ranking"):
        t = RichTable(title="Bradley-Terry ranking (log-strength, baseline = 0)", title_justify="left")
        for col in ("rank", "player", "strength [95% CI]"):
            t.add_column(col)
        for r in s["ranking"]:
            t.add_row(str(r["rank"]), r["player"], with_ci(r, "strength"))
        out.print(t)


@app.command()
def compare(
    game: Annotated[str, typer.Argument(help="Game id (see `kortsim games`).")],
    strategy: Strategies,
    rounds: Annotated[
        int | None, typer.Option("--rounds", help="Compare on N deals of single rounds.")
    ] = None,
    matches: Annotated[
        int | None, typer.Option("--matches", help="Compare on N deals of whole matches.")
    ] = None,
    field: Annotated[
        str | None, typer.Option("--field", help="The strategy filling the other seats (Gris games: greedy).")
    ] = None,
    baseline: Annotated[
        str | None, typer.Option("--baseline", help="Differences are against this (default: first -s).")
    ] = None,
    seed: Seed = None,
    rule: Rules = None,
    players: Players = None,
    reaction: Reaction = None,
    plugin: Plugins = None,
    threads: Annotated[
        int | None, typer.Option("--threads", help="Worker threads (default: all cores).")
    ] = None,
    backend: BackendOpt = Backend.local,
    scheduler: Scheduler = None,
    workers: Workers = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the JSON summary.")] = False,
) -> None:
    """Compare strategies on the same deals, every one in every seat, with paired intervals."""
    from simulator.compare import compare as run_compare

    chosen_seed = announce_seed(seed, quiet=as_json)
    result = run_compare(
        game,
        strategy,
        rounds=rounds,
        matches=matches,
        field_strategy=field,
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
    )
    if as_json:
        print(result.to_json())
    else:
        print_compare(result.summary)


@app.command()
def warm() -> None:
    """Compile every shipped kernel into numba's cache (later runs start in about a second)."""
    from simulator.warm import warm as warm_all

    for game, unit, seconds in warm_all():
        err.print(f"{game}, {unit} play: ready in {seconds:.1f} s")


# --- sweeps, experiments and reports ---------------------------------------------------


def print_sweep(result) -> None:
    from simulator.sweep import metric_title

    s = result.comparison.summary
    m = result.metric
    info = result.metric_info()
    unit = s["unit"] + ("es" if s["unit"] == "match" else "s")
    out.print(
        f"{s['game']}: {result.summary['spec']} against {result.vs}; {s['n']:,} deals ({unit}), seed {s['seed']}"
    )
    out.print(f"{s['design']}; {s['games_played']:,} games played; differences against {result.baseline}")
    t = RichTable(
        title=f"{metric_title(m, info)}: {info['doc']} ({'lower' if info['lower_is_better'] else 'higher'} is better)",
        title_justify="left",
    )
    axes = [a.name for a in result.axes]
    for col in [*axes, f"{m} [95% CI]", "diff [95% CI]", "p (Holm)", "variance reduction"]:
        t.add_column(col, justify="right")
    for r in result.table.to_dict("records"):
        diff = f"{fmt(r[f'{m}_diff'])} [{fmt(r[f'{m}_diff_lo'])}, {fmt(r[f'{m}_diff_hi'])}]"
        p = r[f"{m}_p_holm"]
        vr = r[f"{m}_variance_reduction"]
        is_base = r["player"] == result.baseline
        t.add_row(
            *(format_value(r[a]) for a in axes),
            f"{fmt(r[m])} [{fmt(r[f'{m}_lo'])}, {fmt(r[f'{m}_hi'])}]",
            "(baseline)" if is_base else diff,
            "" if is_base else f"{p:.3g}",
            "" if is_base or vr != vr else f"{vr:.1f}x",
        )
    out.print(t)
    best = result.best()
    out.print(f"best: {best['player']}  {m} {fmt(best[m])} [{fmt(best[f'{m}_lo'])}, {fmt(best[f'{m}_hi'])}]")


@app.command("sweep")
def sweep_cmd(
    game: Annotated[str, typer.Argument(help="Game id (see `kortsim games`).")],
    strategy: Annotated[
        str,
        typer.Option(
            "--strategy",
            "-s",
            help='Sweep spec, e.g. "threshold:k=0..13", "threshold:k=0..13/1", "threshold:k=1|2|5", '
            '"expect:patience=1..4/1,open=15|25" (one or two parameters).',
        ),
    ],
    vs: Annotated[
        str | None,
        typer.Option(
            "--vs",
            "--field",
            help="The opponent (two seats) or the field filling the other seats; default: the family "
            "at its defaults (Spøkelse), greedy (Gris games).",
        ),
    ] = None,
    rounds: Annotated[int | None, typer.Option("--rounds", help="Play N deals of single rounds.")] = None,
    matches: Annotated[int | None, typer.Option("--matches", help="Play N deals of whole matches.")] = None,
    baseline: Annotated[
        str | None,
        typer.Option(
            "--baseline", help="Differences are against this point (default: --vs if swept, else the first)."
        ),
    ] = None,
    metric: Annotated[
        str | None, typer.Option("--metric", help="Metric to plot and rank by (default: the game's first).")
    ] = None,
    seed: Seed = None,
    rule: Rules = None,
    players: Players = None,
    reaction: Reaction = None,
    plugin: Plugins = None,
    threads: Annotated[
        int | None, typer.Option("--threads", help="Worker threads (default: all cores).")
    ] = None,
    plot: Annotated[
        Path | None,
        typer.Option("--plot", help="Write the figure here (PNG or SVG by extension; both are written)."),
    ] = None,
    out_dir: Annotated[
        Path | None,
        typer.Option(
            "--out", help="Write a results folder (summary.parquet, figure, report.md, report.html)."
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
    chosen_seed = announce_seed(seed, quiet=as_json)
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
    )
    if plot is not None:
        fig = result.plot()
        plot.parent.mkdir(parents=True, exist_ok=True)
        for ext in (".png", ".svg"):
            fig.savefig(plot.with_suffix(ext), format=ext[1:])
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
        print(json.dumps(doc, indent=2, ensure_ascii=False))
    else:
        print_sweep(result)


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
        print(json.dumps(rows, indent=2, ensure_ascii=False))
        return
    for r in rows:
        out.print(f"[bold]{r['name']}[/bold]  v{r['version']}  {r['title']}")
        out.print(f"    {r['question']}")


@experiment_app.command("run")
def experiment_run(
    name: Annotated[str, typer.Argument(help="Experiment name (see `kortsim experiment list`).")],
    quick: Annotated[bool, typer.Option("--quick", help="The quick size: minutes on a laptop.")] = False,
    tiny: Annotated[
        bool, typer.Option("--tiny", help="The tiny size: seconds (what the tests run).")
    ] = False,
    out_dir: Annotated[
        Path | None, typer.Option("--out", help="Results folder (default: results/NAME).")
    ] = None,
    seed: Annotated[int | None, typer.Option("--seed", help="Seed (default: the experiment's own).")] = None,
    threads: Annotated[
        int | None, typer.Option("--threads", help="Worker threads (default: all cores).")
    ] = None,
) -> None:
    """Run an experiment (the full study unless --quick or --tiny) and write its report."""
    import experiments

    if quick and tiny:
        raise InputError("give at most one of --quick and --tiny")
    size = "quick" if quick else "tiny" if tiny else "full"
    experiments.get(name)  # an unknown name fails before anything runs
    if seed is not None:
        api.resolve_seed(seed)
    backend = {"threads": threads} if threads is not None else {}
    res = experiments.run(
        name,
        size=size,
        out_dir=out_dir,
        seed=seed,
        progress=lambda msg: err.print(f"{name}: {msg}"),
        **backend,
    )
    for sentence in res.answer:
        out.print(f"- {sentence}", markup=False)
    err.print(f"{name} ({size}) took {res.elapsed_s:.1f} s; wrote {res.report_html} and {res.summary_path}")


@app.command("report")
def report_cmd(
    folder: Annotated[
        Path, typer.Argument(help="A results folder (an experiment, a sweep or simulate --out).")
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
