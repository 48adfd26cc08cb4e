"""``kortsim compare`` and ``kortsim sweep``: thin commands over
:func:`simulator.analysis.compare.compare_setup` and :func:`simulator.analysis.sweep.plan_sweep` /
:func:`~simulator.analysis.sweep.play_sweep`.  Each builds its setup and execution through
:mod:`simulator.running.setup`, as :func:`simulator.analysis.compare.compare` and
:func:`simulator.analysis.sweep.sweep` do, so a bad input gets the same line from both; the
``--out`` folder is claimed only once every input is checked."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Annotated

import typer

from simulator.cli.common import CountedPlay, amount_flag, parse_rule_options, seed_hint
from simulator.cli.compare_output import print_compare, print_sweep
from simulator.cli.options import (
    Backend,
    BackendOpt,
    CompareBaseline,
    CompareField,
    CompareMatches,
    CompareOut,
    ComparePlot,
    CompareRounds,
    GameArg,
    Players,
    Plugins,
    Reaction,
    Rules,
    Scheduler,
    Seed,
    Strategies,
    SweepBaseline,
    SweepMatches,
    SweepMetric,
    SweepOut,
    SweepPlot,
    SweepRounds,
    SweepSpec,
    SweepVs,
    Threads,
    Verbose,
    Workers,
)
from simulator.cli.outputs import (
    check_outputs,
    claim_results_folder,
    write_compare_outputs,
    write_sweep_outputs,
)
from simulator.running.results import dumps_json


def compare(
    game: GameArg,
    strategy: Strategies,
    rounds: CompareRounds = None,
    matches: CompareMatches = None,
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
    """Compare strategies on the same deals, every one in every seat, with paired intervals.

    One table per metric: each strategy's figure with its 95% interval; "minus baseline",
    its paired difference to the baseline (the first -s, or --baseline) on the same deals,
    in the metric's unit (percentage points for rates); "p (Holm)", the p-value of that
    difference corrected for testing several strategies at once (Holm's method): a
    strategy is called better or worse only when it is below 0.05; "variance reduction",
    how many times smaller the variance of the difference is than it would be on
    independent deals (what playing the same deals bought).  With three strategies or
    more, a ranking by the deals each did better on (Bradley-Terry log-strength, the
    baseline at 0, higher is stronger).  Last, one plain sentence per strategy and metric:
    how far it is from the baseline, which way, and whether that is better, worse, or no
    difference detected at this size (in --json: "verdicts").
    """
    from simulator.analysis.compare import compare_setup
    from simulator.running.setup import Execution, Setup

    check_outputs(plot, out_dir)
    with CountedPlay("compare", "comparing", as_json, amount_flag(matches)) as play:
        execution = Execution.build(
            threads=threads, backend=backend.value, scheduler=scheduler, workers=workers, progress=play
        )
        setup = Setup.build(
            game, strategy, rounds=rounds, matches=matches, seed=seed, rules=parse_rule_options(rule),
            players=players, reaction=reaction, plugins=plugin or [], fill_seats=False,
        )  # fmt: skip
        on_plan = claim_then_count(play, out_dir, "compare")
        result = compare_setup(setup, execution, field=field, baseline=baseline, on_plan=on_plan)
    write_compare_outputs(result, plot, out_dir, quiet=as_json)
    if as_json:
        print(result.to_json())
    else:
        print_compare(result.summary)
    seed_hint(seed, int(result.summary["seed"]), quiet=as_json)


def sweep_cmd(
    game: GameArg,
    strategy: SweepSpec,
    vs: SweepVs = None,
    rounds: SweepRounds = None,
    matches: SweepMatches = None,
    baseline: SweepBaseline = None,
    metric: SweepMetric = None,
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
    plot: SweepPlot = None,
    out_dir: SweepOut = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the JSON summary and table.")] = False,
) -> None:
    """Sweep one or two strategy parameters against an opponent on the same deals.

    The table gives the metric at every point with its 95% interval, its paired difference
    to the baseline point ("minus baseline", in the metric's unit), the Holm-corrected
    p-value of that difference and the variance reduction the common deals bought (see
    `kortsim compare --help`).  A line names the point with the best observed value, called
    best only when it beats every other point played (Holm-corrected); last, one plain
    sentence per point played: how far it is from the baseline, which way, and whether that
    is better, worse, or no difference detected at this size (in --json: "verdicts").
    """
    from simulator.analysis.sweep import plan_sweep, play_sweep
    from simulator.running.setup import Execution

    check_outputs(plot, out_dir)
    with CountedPlay("sweep", "sweeping", as_json, amount_flag(matches)) as play:
        execution = Execution.build(
            threads=threads, backend=backend.value, scheduler=scheduler, workers=workers, progress=play
        )
        plan = plan_sweep(
            game, strategy, vs=vs, rounds=rounds, matches=matches, baseline=baseline, metric=metric,
            seed=seed, rules=parse_rule_options(rule), players=players, reaction=reaction,
            plugins=plugin or [],
        )  # fmt: skip
        result = play_sweep(plan, execution, on_plan=claim_then_count(play, out_dir, "sweep"))
    write_sweep_outputs(result, plot, out_dir, quiet=as_json)
    if as_json:
        doc = dict(result.summary)
        doc["table"] = json.loads(result.table.to_json(orient="records"))
        print(dumps_json(doc))
    else:
        print_sweep(result)
    seed_hint(seed, int(result.summary["seed"]), quiet=as_json)


def claim_then_count(play: CountedPlay, out_dir: Path | None, command: str) -> Callable[[int], None]:
    """The ``on_plan`` of a ``compare`` or ``sweep``: called once every input is checked and
    before anything is played, it claims the ``--out`` folder (:func:`claim_results_folder`:
    a folder that must not be overwritten is refused in one line) and sets the bar's total."""

    def on_plan(total: int) -> None:
        claim_results_folder(out_dir, command)
        play.set_total(total)

    return on_plan
