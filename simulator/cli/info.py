"""``kortsim games``, ``strategies``, ``warm`` and ``report``."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer

from simulator.cli.options import GameArg, Plugins
from simulator.cli.output import err, out
from simulator.cli.tables import print_indented
from simulator.games import all_games, get_game
from simulator.running.results import dumps_json


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
                "default_opponent": g.default_opponent,
            }
        )
    if as_json:
        out.print_json(dumps_json(rows))
        return
    for r in rows:
        lo, hi = r["players"]
        seats = f"{lo} players" if lo == hi else f"{lo}-{hi} players (default {r['default_players']})"
        out.print(f"[bold]{r['game']}[/bold]  {r['title']}  ({seats})")
        print_indented(
            out, f"default opponent (compare --field, sweep --vs): {_opponent(r['default_opponent'])}"
        )
        for k, v in r["rules"].items():
            print_indented(out, f"--rule {k}=...  {v['doc']}")
        if r["reaction_model"]:
            print_indented(
                out,
                "--reaction MEDIAN[,SIGMA] or SEAT=MEDIAN[,SIGMA]  reaction times (default 0.8,0.35; "
                "MEDIAN 0.01 to 60 s, SIGMA 0.01 to 3)",
            )


def _opponent(spec: str | None) -> str:
    """A game's default opponent in words (None: the strategies compared play one another)."""
    if spec is None:
        return "none (compare: the strategies play one another; sweep: the swept family at its defaults)"
    return spec


def _default(game, key: str) -> Any:
    return getattr(game.rules_type(), key)


def strategies_cmd(
    game: GameArg,
    plugin: Plugins = None,
    as_json: Annotated[bool, typer.Option("--json", help="Machine-readable output.")] = False,
) -> None:
    """A game's strategies, their parameters and what they do, in words."""
    from strategies.plugins import load_plugin
    from strategies.registry import HUMAN_PARAMS, families, presets

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
                # forget and slip, which every strategy takes (docs/human-players.md)
                "human_params": [
                    {"name": p.name, "default": p.default, "low": p.low, "high": p.high, "doc": p.doc}
                    for p in HUMAN_PARAMS
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
            print_indented(out, f"{p.describe()}: {p.doc}")
        print_indented(out, " ".join(f.doc.split()))
        for name, (values, doc) in presets(g.name, f.name).items():
            print_indented(out, f"preset {f.name}@{name} = {f.player(**values).spec}: {doc}")
        out.print()
    out.print("[bold]Every strategy[/bold] also plays like a person when asked (docs/human-players.md):")
    for p in HUMAN_PARAMS:
        print_indented(out, f"{p.describe()}: {p.doc}")
    print_indented(out, f"e.g. {next(iter(fams))}:forget=0.1,slip=0.05")


def warm() -> None:
    """Compile every shipped kernel into numba's cache (later runs start in about a second)."""
    from simulator.running.warm import warm as warm_all

    for game, unit, seconds in warm_all():
        err.print(f"{game}, {unit} play: ready in {seconds:.1f} s")


def report_cmd(
    folder: Annotated[
        Path,
        typer.Argument(
            metavar="DIR", help="A results folder (an experiment, a sweep, compare or simulate --out)."
        ),
    ],
) -> None:
    """Write (or refresh) report.html and report.md from a results folder."""
    from simulator.reporting.pages import refresh

    paths = refresh(folder)
    out.print(f"wrote {paths['html']} and {paths['md']}", markup=False)
