"""``kortsim tune``: a thin command over :func:`simulator.analysis.tuning.tune`."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer

from simulator.cli import declared
from simulator.cli.common import parse_rule_options, seed_hint
from simulator.cli.options import GameArg, Players, Plugins, Reaction, Rules, Seed, Threads, Verbose
from simulator.cli.output import err
from simulator.cli.outputs import check_outputs

TuneSpec = Annotated[
    str,
    typer.Option(
        "--strategy",
        "-s",
        metavar="SPEC",
        help='What to tune: "expect:k=0..4,patience=1..6,open=10..41" (ranges within the bounds; a plain '
        "value fixes a parameter), or a name alone to search every parameter within its bounds.",
    ),
]


# Read from its module's text, so that `kortsim tune --help` does not load the tuner.
DEFAULT_TRIALS: int = declared.constant("simulator.analysis.tuning.space", "DEFAULT_TRIALS")


def _opt(flag: str, metavar: str, text: str) -> Any:
    return typer.Option(flag, metavar=metavar, help=text)


def tune_cmd(
    game: GameArg,
    strategy: TuneSpec,
    vs: Annotated[
        str | None,
        _opt(
            "--vs",
            "SPEC",
            "The field in every other seat (default: the game's default opponent, else the strategy at its defaults).",
        ),
    ] = None,
    rounds: Annotated[
        int | None,
        _opt("--rounds", "N", "Deals of single rounds a trial plays at its last rung (n/16 and n/4 before)."),
    ] = None,
    matches: Annotated[
        int | None, _opt("--matches", "N", "Deals of whole matches a trial plays at its last rung.")
    ] = None,
    metric: Annotated[
        str | None,
        _opt(
            "--metric",
            "NAME",
            "The metric to optimise (default: the game's primary one; its direction is the game's).",
        ),
    ] = None,
    trials: Annotated[
        int, _opt("--trials", "N", "Trials per iteration, pruned ones included (with --resume: in all).")
    ] = DEFAULT_TRIALS,
    confirm: Annotated[
        int | None,
        _opt("--confirm", "N", "Fresh deals of the confirmation (default: as many as --rounds/--matches)."),
    ] = None,
    iterate: Annotated[
        int, _opt("--iterate", "N", "Tune, make the winner the field, tune again, up to N times.")
    ] = 1,
    seed: Seed = None,
    rule: Rules = None,
    players: Players = None,
    reaction: Reaction = None,
    plugin: Plugins = None,
    verbose: Verbose = False,
    threads: Threads = None,
    out_dir: Annotated[
        Path | None, _opt("--out", "DIR", "Write the journal, tune.json, trials.parquet and the plot here.")
    ] = None,
    resume: Annotated[bool, typer.Option("--resume", help="Continue the tune held in --out DIR.")] = False,
    as_json: Annotated[bool, typer.Option("--json", help="Print the JSON summary.")] = False,
) -> None:
    """Tune a strategy's parameters against a field on the same deals, then confirm on fresh ones."""
    from simulator.analysis.tuning import tune
    from simulator.running.progress import progress_bar

    check_outputs(None, out_dir)
    bar = progress_bar(
        trials * iterate, description="tuning", unit="trials", enabled=not as_json, console=err
    )
    done: list[dict[str, Any]] = []

    def counted(row: dict[str, Any]) -> None:
        done.append(row)
        bar(1)

    try:
        with bar:
            result = tune(
                game, strategy, vs=vs, rounds=rounds, matches=matches, metric=metric, seed=seed,
                trials=trials, confirm=confirm, iterate=iterate, rules=parse_rule_options(rule),
                players=players, reaction=reaction, plugins=plugin or [], out=out_dir, resume=resume,
                threads=threads, on_trial=counted,
            )  # fmt: skip
    except KeyboardInterrupt:
        again = "; the same command with --resume continues it" if out_dir is not None else ""
        err.print(f"interrupted after {len(done)} trials in this run{again}", markup=False)
        raise typer.Exit(130) from None
    if as_json:
        print(result.to_json())
    else:
        print_tune(result.summary)
        if out_dir is not None:
            err.print(
                f"wrote {out_dir / 'tune.json'}, {out_dir / 'trials.parquet'} and {out_dir / 'figures' / 'tune.png'}",
                markup=False,
            )
    seed_hint(seed, int(result.summary["seed"]), quiet=as_json or resume)


def print_tune(s: dict[str, Any]) -> None:
    """The summary for people: what was searched, the budget, each iteration, the confirmation."""
    from simulator.analysis.tuning.result import metric_unit_of, shown
    from simulator.cli.output import out

    m, b, rate = s["metric"], s["budget"], s["metric"]["kind"] == "rate"
    unit = metric_unit_of(m, s["unit"])
    better = "lower" if m["lower_is_better"] else "higher"
    out.print(f"[bold]{s['game']}[/bold]: tuning {s['spec']} against {s['vs']} on {s['players']} seats, "
              f"metric {m['name']} ({better} is better), seed {s['seed']}")  # fmt: skip
    out.print("searched: " + "; ".join(
        f"{d['name']} {d['low']:g}..{d['high']:g}" + (f" ({d['note']})" if d["note"] else "") for d in s["space"]
    ))  # fmt: skip
    out.print(
        f"budget: {b['trials']} trials ({b['trials_complete']} complete, {b['trials_pruned']} pruned, "
        f"{b.get('trials_repeated', 0)} repeats not counted, {b['points_played']} distinct points), "
        f"{b['deals_played_in_all']:,} deals ({b['games_played_in_all']:,} games)"
        + (f", {b['deals_played']:,} of them in {b['search_s']:.1f} s now" if b["deals_played"] != b["deals_played_in_all"] else f" in {b['search_s']:.1f} s")
        + "; rungs "
        + ", ".join(f"{r:,}" for r in s["rungs"]) + " deals"
    )  # fmt: skip
    for it in s["iterations"]:
        if it["winner"] == it["start"]:
            out.print(
                f"iteration {it['iteration']}: against {it['field']}, the start {it['start']} stays best"
                + (f" ({it['coverage']['words']})" if "coverage" in it else "")
            )
            continue
        best = it["coverage"]["words"] if "coverage" in it else "best"
        out.print(
            f"iteration {it['iteration']}: against {it['field']}, {best}: {it['winner']} (trial {it['trial']}): "
            f"{shown(it['search_diff'], it['search_diff_ci'], rate)} {unit} against {it['start']} "
            "on the search's deals (biased by the selection; see the confirmation)"
        )  # fmt: skip
    if s.get("settled"):
        st = s["settled"]
        out.print(
            f"the parameters settle: {st['kind']}"
            + (f" of length {st['length']}" if st["kind"] == "cycle" else "")
        )
    elif len(s["iterations"]) > 1:
        out.print("the parameters did not settle within the iterations run")
    c = s["confirmation"]
    out.print(
        f"[bold]confirmation[/bold] on {c['n']:,} fresh deals (seed {c['seed']}, never played by the search):"
    )
    out.print(f"  {c['vs_start']['sentence']}")
    out.print(f"  {c['vs_field']['sentence']}")
    if "start_vs_field" in c:
        sf = c["start_vs_field"]
        out.print(
            f"  (the start against the field on the same deals: {shown(sf['diff'], sf['diff_ci'], rate)})"
        )
    for note in s.get("notes", []):
        out.print(f"note: {note}")
