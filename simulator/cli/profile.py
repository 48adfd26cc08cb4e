"""``kortsim profile``: a designer's page for a game and its variants, a thin command over
:func:`simulator.analysis.profiling.profile` (docs/profile.md)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from simulator.cli.common import parse_rule_options, seed_hint
from simulator.cli.options import Backend, BackendOpt, GameArg, Rules, Scheduler, Seed, Threads, Workers
from simulator.cli.output import err, out
from simulator.cli.outputs import check_outputs
from simulator.cli.tables import print_points
from simulator.errors import InputError

if TYPE_CHECKING:
    from rich.table import Table as RichTable

ProfilePlayers = Annotated[
    str | None,
    typer.Option(
        "--players", metavar="N|A..B", help="Table sizes: N, a range A..B or a list A,B (Gris games)."
    ),
]
CompareRule = Annotated[
    str | None,
    typer.Option(
        "--compare-rule", metavar="NAME=A,B", help="One page per value of a rule, with paired differences."
    ),
]
ProfileStrategies = Annotated[
    list[str] | None,
    typer.Option(
        "--strategy", "-s", metavar="SPEC",
        help="The table's strategies: once for all seats or once per seat (default: the game's best).",
    ),
]  # fmt: skip
ProfileRounds = Annotated[
    int | None, typer.Option("--rounds", metavar="N", help="Rounds per page (default 100,000).")
]
ProfileMatches = Annotated[
    int | None, typer.Option("--matches", metavar="N", help="Matches per page (default 10,000).")
]
ProfileOut = Annotated[
    Path | None,
    typer.Option("--out", metavar="DIR", help="Write Parquet tables, figures and report.html into DIR."),
]


def check_profile_folder(out_dir: Path | None) -> None:
    """Before anything is played: ``--out`` is a new or empty folder, or one a profile wrote."""
    check_outputs(None, out_dir)
    if out_dir is None or not out_dir.is_dir():
        return
    names = {p.name for p in out_dir.iterdir()}
    if names and "profile.json" not in names:
        raise InputError(f"--out {out_dir} holds files a profile did not write; choose a new or empty folder")


def profile_cmd(
    game: GameArg,
    strategy: ProfileStrategies = None,
    players: ProfilePlayers = None,
    rule: Rules = None,
    compare_rule: CompareRule = None,
    rounds: ProfileRounds = None,
    matches: ProfileMatches = None,
    seed: Seed = None,
    threads: Threads = None,
    out_dir: ProfileOut = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the JSON summary.")] = False,
    backend: BackendOpt = Backend.local,
    scheduler: Scheduler = None,
    workers: Workers = None,
) -> None:
    """A designer's profile: length, seat advantage, skill against luck, matches, stalls; 95% intervals."""
    from simulator.analysis.profiling import profile
    from simulator.running.checkpoint import RunInterrupted

    check_profile_folder(out_dir)
    say = None if as_json else (lambda line: err.print(f"profile: {line}", markup=False))
    try:
        result = profile(
            game.value, strategy or None, players=players, rules=parse_rule_options(rule),
            compare_rule=compare_rule, rounds=rounds, matches=matches, seed=seed, threads=threads,
            progress=say, backend=backend.value, scheduler=scheduler, workers=workers,
        )  # fmt: skip
    except (KeyboardInterrupt, RunInterrupted):
        err.print(
            "interrupted: a profile keeps no partial results (use fewer --rounds/--matches)", markup=False
        )
        raise typer.Exit(130) from None
    if out_dir is not None:
        paths = result.write(out_dir)
        if not as_json:
            err.print(f"wrote {paths['html']}", markup=False)
    if as_json:
        print(result.to_json())
    else:
        print_profile(result)
    seed_hint(seed, int(result.summary["seed"]), quiet=as_json)


def _table(title: str, columns: list[str], figures: tuple[str, ...] = ()) -> RichTable:
    """A table of the profile; the columns named in ``figures`` hold numbers with their
    intervals, which never wrap (the words beside them do, to fit the width)."""
    from rich.table import Table as RichTable

    t = RichTable(title=title, title_justify="left", show_edge=False)
    for c in columns:
        t.add_column(c, no_wrap=c in figures, overflow="fold")
    return t


def print_profile(result: Any) -> None:
    """The terminal summary: the headlines, then one table per section."""
    from simulator.analysis.profiling.headlines import amount, role_unit  # loads on first use

    s = result.summary
    out.print(f"[bold]Profile of {s['game']}[/bold] (seed {s['seed']}; 95% intervals in brackets)")
    print_points(out, [h.answer for h in result.headlines])
    roles = _table(
        "Seat and order advantage (positive favours the seat)", ["page", "play", "role", "advantage"]
    )
    skill = _table(
        "Skill (primary outcome, same deals)",
        ["page", "comparison", "difference", "strategy share"],
        figures=("difference", "strategy share"),
    )
    rest = _table("Length, matches, irregular rounds", ["page", "measure", "value"])
    memory = _table("Memory and care (cost against the plain strategy: higher is worse)",
                    ["page", "the best strategy", "cost"])  # fmt: skip
    for p in s["pages"]:
        _memory_rows(memory, p)
        for u in ("round", "match"):
            r = p[u]["roles"]
            for role in r["roles"]:
                unit = role_unit(r)
                roles.add_row(p["label"], u, role["role"], amount(role["advantage"], unit, sign=True))
            ln = p[u].get("length")
            if ln:
                rest.add_row(p["label"], f"{ln['unit']} per {u}", amount(ln["mean"]))
            for it in p[u]["irregular"]["items"]:
                rest.add_row(p["label"], f"{it['words']} (per {u})", _irregular(it, u))
        _skill_rows(skill, p)
        m = p.get("matches") or {}
        if m:
            rest.add_row(
                p["label"], "matches where the lead changes", amount(m["any_lead_change"], percent=True)
            )
            rest.add_row(
                p["label"],
                "behind after round 1, still wins",
                amount(m["behind_after_first_round_wins"], percent=True),
            )
            rest.add_row(p["label"], f"margin ({m['margin']['unit']})", amount(m["margin"]["mean"]))
    for t in (roles, skill, memory, rest):
        if t.row_count:
            out.print(t)
    if s["differences"]:
        out.print(_differences(s["differences"]))


def _skill_rows(t: RichTable, p: dict[str, Any]) -> None:
    from simulator.analysis.profiling.headlines import amount  # loads on first use

    sk = p["skill"]
    metric = sk["shares"]["metric"]
    pairs = {tuple(x["strategies"]): x for x in sk["pairs"]}
    for d in sk["differences"]:
        if d["metric"] != metric:
            continue
        pair = pairs.get((d["against"], d["strategy"]))
        share = amount(pair["strategy"], percent=True) if pair else ""
        unit = d["unit"] if d["unit"] != "percentage points" else f"percentage points of the {metric} rate"
        t.add_row(p["label"], f"{d['strategy']} − {d['against']} ({unit}, {d['better']} is better)",
                  amount(d["difference"], sign=True), share)  # fmt: skip


def _memory_rows(t: RichTable, p: dict[str, Any]) -> None:
    from simulator.analysis.profiling.headlines import amount  # loads on first use

    mem = p.get("memory")
    if not mem:
        return
    unit = mem["unit"] + (f" of the {mem['metric']} rate" if mem["percent"] else "")
    for r in mem["forget"][1:]:
        t.add_row(p["label"], f"forget={r['forget']:g}", amount(r["cost"], unit, sign=True))
    slip = mem.get("slip")
    if slip:
        t.add_row(p["label"], f"slip={slip['slip']:g}", amount(slip["cost_per_round"], unit, sign=True))
        per = unit.replace(" per round", "") + " per slip"
        t.add_row(p["label"], "one slip", amount(slip["cost_per_slip"], per, sign=True))


def _differences(diffs: list[dict[str, Any]]) -> RichTable:
    from simulator.analysis.profiling.headlines import amount, share_points  # loads on first use

    t = _table(
        "Variants, paired differences on the same deals", ["variant − reference", "measure", "difference"]
    )
    for d in diffs:
        name = f"{d['variant']} − {d['against']}"
        for r in d["measures"]:
            t.add_row(name, r["measure"], amount(r["difference"], r["unit"], sign=True))
        for part, e in (d.get("skill_shares") or {}).items():
            t.add_row(name, f"{part} share of the variance", share_points(e))
    return t


def _irregular(item: dict[str, Any], unit: str = "game") -> str:
    """A rate of games with its interval, or (never seen) how many of how many and the bound."""
    from simulator.analysis.profiling.headlines import amount  # loads on first use

    if item["kind"] == "rate" and item["total"] == 0:
        from simulator.reporting.pages import rate_bound_text

        return rate_bound_text(0, item["n"])
    if item["total"] == 0:  # a count never seen: no interval to show
        return f"none in {item['n']:,} {'matches' if unit == 'match' else unit + 's'}"
    return amount(item, percent=item["kind"] == "rate")
