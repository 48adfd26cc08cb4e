"""``kortsim tune``: a thin command over :func:`simulator.analysis.tuning.tune`."""

from __future__ import annotations

import math
import re
from pathlib import Path
from typing import Annotated, Any

import typer

from simulator.cli import declared
from simulator.cli.common import parse_rule_options, seed_hint
from simulator.cli.options import (
    Backend,
    BackendOpt,
    GameArg,
    Players,
    Plugins,
    Reaction,
    Rules,
    Scheduler,
    Seed,
    Threads,
    Verbose,
    Workers,
)
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
    backend: BackendOpt = Backend.local,
    scheduler: Scheduler = None,
    workers: Workers = None,
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
                threads=threads, on_trial=counted, backend=backend.value, scheduler=scheduler,
                workers=workers,
            )  # fmt: skip
    except KeyboardInterrupt:
        err.print(f"interrupted after {len(done)} trials in this run", markup=False)
        best = best_so_far(done)
        if best is not None:
            err.print(best, markup=False)
        if out_dir is not None:
            err.print(
                f"{out_dir} keeps every finished trial; the same command with --resume continues it",
                markup=False,
            )
        else:
            err.print(
                "the trials are not kept: give --out DIR to keep them and continue with --resume",
                markup=False,
            )
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


def best_so_far(rows: list[dict[str, Any]]) -> str | None:
    """The best trial measured on all the search's deals before an interrupt, in words (None
    when no trial got that far).  Not confirmed on fresh deals, and picked as the best of
    several, so its difference is biased; the sentence says both."""
    from simulator.engine import formatting

    whole = [r for r in rows if not r["pruned"] and math.isfinite(r["diff"])]
    if not whole:
        return None
    sign = 1.0 if whole[0]["lower_is_better"] else -1.0
    best = min(whole, key=lambda r: (sign * r["diff"], r["number"]))
    k = 100.0 if best["metric_kind"] == "rate" else 1.0
    shown = formatting.with_interval(best["diff"] * k, [c * k for c in best["diff_ci"]], sign=True)
    direction = "lower" if best["lower_is_better"] else "higher"
    short = RealsShort()
    text = short(
        f"best so far (of {len(whole)} trials measured on all the search's deals): {best['spec']} "
        f"(trial {best['number']}): {shown} {best['diff_unit']} "
        f"against {best['start']} ({direction} is better; picked as the best, so biased, and "
        "not confirmed on fresh deals)"
    )
    note = short.note()
    return text if note is None else f"{text}\n{note}"


#: a parameter whose value a search drew from a real range (``patience=2.7190209374372762``):
#: more digits than anyone types, and than the metric can tell apart
_DRAWN = re.compile(r"\b(\w+)=(-?\d+\.\d{6,})")
SHOWN_DIGITS = 3


def short_real(value: float, digits: int = SHOWN_DIGITS) -> str:
    """``value`` to ``digits`` significant digits, as a spec writes it: ``2.72``, ``25.1``, ``0.0123``."""
    if value == 0:
        return "0"
    places = max(0, digits - 1 - math.floor(math.log10(abs(value))))
    return f"{value:.{places}f}".rstrip("0").rstrip(".")


class RealsShort:
    """Text with every drawn real parameter shown to :data:`SHOWN_DIGITS` significant digits;
    it remembers what it shortened, for the note that says so."""

    def __init__(self) -> None:
        self.shortened: dict[str, str] = {}

    def __call__(self, text: str) -> str:
        def short(m: re.Match) -> str:
            name, full = m.group(1), m.group(2)
            shown = f"{name}={short_real(float(full))}"
            self.shortened.setdefault(shown, f"{name}={full}")
            return shown

        return _DRAWN.sub(short, text)

    def note(self) -> str | None:
        """The line that says what was shortened (None when nothing was)."""
        if not self.shortened:
            return None
        pairs = "; ".join(f"{a} is {b}" for a, b in self.shortened.items())
        return (
            f"note: real values the search drew are shown to {SHOWN_DIGITS} significant digits ({pairs}); "
            "the runs played them whole, and --json and tune.json keep them whole"
        )


def print_tune(s: dict[str, Any]) -> None:
    """The summary for people: what was searched, the budget, each iteration, the confirmation;
    real parameter values the search drew are shown to 3 significant digits, and a note says so."""
    from simulator.analysis.tuning.result import metric_unit_of, shown
    from simulator.cli.output import out as console
    from simulator.cli.tables import print_indented

    short = RealsShort()

    def say(text: str = "", **options: Any) -> None:
        console.print(short(text), **options)

    m, b, rate = s["metric"], s["budget"], s["metric"]["kind"] == "rate"
    unit = metric_unit_of(m, s["unit"])
    better = "lower" if m["lower_is_better"] else "higher"
    say(f"[bold]{s['game']}[/bold]: tuning {s['spec']} against {s['vs']} on {s['players']} seats, "
              f"metric {m['name']} ({better} is better), seed {s['seed']}")  # fmt: skip
    say("searched: " + "; ".join(
        f"{d['name']} {d['low']:g}..{d['high']:g}" + (f" ({d['note']})" if d["note"] else "") for d in s["space"]
    ))  # fmt: skip
    say(
        f"budget: {b['trials']} trials ({b['trials_complete']} complete, {b['trials_pruned']} pruned, "
        f"{b.get('trials_repeated', 0)} repeats not counted, {b['points_played']} distinct points), "
        f"{b['deals_played_in_all']:,} deals ({b['games_played_in_all']:,} games)"
        + (f", {b['deals_played']:,} of them in {b['search_s']:.1f} s now" if b["deals_played"] != b["deals_played_in_all"] else f" in {b['search_s']:.1f} s")
        + "; rungs "
        + ", ".join(f"{r:,}" for r in s["rungs"]) + " deals"
    )  # fmt: skip
    for it in s["iterations"]:
        if it["winner"] == it["start"]:
            say(
                f"iteration {it['iteration']}: against {it['field']}, the start {it['start']} stays best"
                + (f" ({it['coverage']['words']})" if "coverage" in it else "")
            )
            continue
        best = it["coverage"]["words"] if "coverage" in it else "best"
        say(
            f"iteration {it['iteration']}: against {it['field']}, {best}: {it['winner']} (trial {it['trial']}): "
            f"{shown(it['search_diff'], it['search_diff_ci'], rate)} {unit} against {it['start']} "
            "on the search's deals (biased by the selection; see the confirmation)"
        )  # fmt: skip
    if s.get("settled"):
        st = s["settled"]
        say(
            f"the parameters settle: {st['kind']}"
            + (f" of length {st['length']}" if st["kind"] == "cycle" else "")
        )
    elif len(s["iterations"]) > 1:
        say("the parameters did not settle within the iterations run")
    c = s["confirmation"]
    say(
        f"[bold]confirmation[/bold] on {c['n']:,} fresh deals (seed {c['seed']}, never played by the search):"
    )
    print_indented(console, short(c["vs_start"]["sentence"]), 2)
    print_indented(console, short(c["vs_field"]["sentence"]), 2)
    if "start_vs_field" in c:
        sf = c["start_vs_field"]
        words = f"(the start against the field on the same deals: {shown(sf['diff'], sf['diff_ci'], rate)})"
        print_indented(console, words, 2)
    for note in s.get("notes", []):
        say(f"note: {note}")
    said = short.note()
    if said:
        console.print(said, markup=False)
