"""Fair comparisons of strategies on the same deals (duplicate deals).

**Which seatings are played.**  Every deal (game index ``g``) is played once
per *seating*, and every seating of a deal uses the same cards, the same
reaction times and the same per-seat random streams (``docs/random-streams.md``).

* Two seats, a ``field`` given: each candidate plays the field twice per
  deal, once in each seat.
* Two seats, no field: every pair of candidates plays each deal twice, seats
  swapped (a round robin).
* More seats: each candidate takes one seat against a field of ``field``
  players (default ``greedy``), in every seat in turn, on the same deals.  When
  there are exactly as many candidates as seats and no field is given, they
  are all seated together in every rotation instead.

**A strategy given more than once** (an A/A comparison) is numbered by position
(``random #1``, ``random #2``), and copy ``k`` (counting from 0) plays with copy salt
``k`` (docs/random-streams.md): the first copy draws exactly as the strategy alone would,
and every later one draws its random choices from a stream of its own.  So two copies of
a deterministic strategy still play identical games, and two copies of a randomised one
(``random``, or any strategy with ``slip`` or ``forget`` above 0) differ by chance only,
as two independent players would: such a comparison rejects at the nominal rate.

``--rounds N`` / ``--matches N`` counts deals (game indices); each is played
once per seating, so ``N × seatings`` games are simulated.

In the Gris games a candidate may bring its own reaction profile (``reactions=``):
it is part of the player, so it moves with the candidate from seat to seat while
the field keeps the table's profile.  Reaction times are drawn as
``median · exp(σ z)`` from each seat's own stream, so candidates at different
speeds still meet the same deals and the same draws ``z``.  ``sweep`` and the
experiments build on this module (``simulator/analysis/sweep.py``, ``experiments/``).

**What is reported.**  For every candidate and metric, its per-deal outcome
is the mean over the seatings it sat in; the report gives the mean over deals
with a 95% normal interval, the paired difference to the baseline (mean of
the per-deal differences, interval, two-sided z-test p-value, Holm-corrected
across candidates), and the variance reduction: the variance of the
difference if the two strategies had met independent deals, divided by the
variance of the paired difference.  With more than two candidates a
Bradley–Terry ranking is fitted to the head-to-head record (which candidate
did better on each deal; ties dropped) with statsmodels, with 95% intervals on
the log-strengths (the baseline fixed at 0).

**Few deals, and differences without spread.**  On fewer than 2 deals nothing is known
about the spread: every interval is NaN (``null`` in JSON, ``n/a`` in tables) and no
difference is tested (``p_value``/``p_holm`` null, ``significant`` false, ``test`` null).
When a difference is the same on every deal (decided exactly from the integer sums;
``same_every_deal``), the z-test has nothing to divide by; the exact sign-flip test is used
instead: were the two strategies interchangeable, each deal's difference would be ``+d`` or
``−d`` with equal chance, and only 2 of the ``2ⁿ`` sign patterns reach the observed mean, so
``p = 2·2⁻ⁿ`` (0.5 on 2 deals, never significant below 6 deals; 1 when ``d = 0``).  Each
row's ``test`` names the test used (``"paired z-test"`` or ``"exact sign-flip"``).

All sums are integers per block, so the numbers depend only on the seed.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import partial
from typing import Any

import numpy as np

from simulator.analysis.compare_result import CompareResult
from simulator.analysis.compare_seatings import (
    FIELD,
    Design,
    _baseline_index,
    _field_keyword,
    _field_player,
    candidate_profiles,
    copy_salts,
    label,
    make_design,
    position_labels,
    seating_table,
)
from simulator.analysis.compare_stats import (
    PairedSums,
    _metric_block,
    _outcome_totals,
    block_sums,
    bradley_terry,
    frames_of,
    paired_test,
    summarise,
)
from simulator.engine.arguments import callback
from simulator.games.base import Game, Metric, Table
from simulator.running.backends import (
    MAX_RECORDS_BLOCK,
    Backend,
    BlockPlan,
    PlayRecipe,
    SeatingsRecipe,
    Work,
    run_blocks,
)
from simulator.running.inputs import check_strategy
from simulator.running.runner import DEFAULT_BLOCK, BlockRunner
from simulator.running.setup import Execution, SeedLike, Setup
from strategies.registry import Player


def compare(
    game: str | Game,
    strategies: Sequence[str | Player],
    *,
    rounds: int | None = None,
    matches: int | None = None,
    field: str | Player | None = None,
    baseline: str | Player | None = None,
    seed: SeedLike | None = None,
    rules: Mapping[str, Any] | Any = None,
    players: int | None = None,
    reaction: Sequence[Any] | None = None,
    threads: int | None = None,
    block_size: int | None = None,
    plugins: Sequence[str] = (),
    progress: Callable[[int], None] | None = None,
    on_plan: Callable[[int], None] | None = None,
    reactions: Sequence[Any] | None = None,
    on_block: Callable[[int, Design, list[np.ndarray]], None] | None = None,
    backend: str = "local",
    scheduler: str | None = None,
    workers: int | None = None,
    field_strategy: str | Player | None = None,
    connect_timeout: float | None = None,
) -> CompareResult:
    """Compare strategies on the same deals; see the module docstring for the design.

    The keywords are the options of ``kortsim compare``: ``rounds``/``matches``
    (``--rounds``/``--matches``: deals), ``field`` (``--field``: the strategy filling
    the other seats; Gris games default to ``greedy``), ``baseline`` (``--baseline``:
    differences are against it; default the first strategy), ``seed`` (``--seed``; an
    int, numpy integer or ``numpy.random.SeedSequence``, as for
    :func:`simulator.simulate`), ``rules`` (``--rule NAME=VALUE``, as a mapping),
    ``players``, ``reaction``, ``threads``, ``block_size`` (default ``DEFAULT_BLOCK``),
    ``plugins`` (``--plugin``), ``backend``, ``scheduler``, ``workers`` and
    ``connect_timeout``, each checked as for :func:`simulator.simulate`
    (:mod:`simulator.running.setup`).  ``field_strategy`` is the old name of ``field``
    (deprecated; it still works and warns).

    ``reactions`` (Gris games) gives each candidate its own reaction profile, part of
    the player rather than of the seat: ``(median, sigma)``, ``"MEDIAN[,SIGMA]"`` or
    None for the table's profile; it follows the candidate round the seats, and the
    field keeps ``reaction``.  The same strategy may then be compared at several
    speeds; it is named ``spec @MEDIANs``.  ``on_block(first, design, records)`` sees
    every block's per-seating records (``records[s]`` for ``design.seatings[s]``).
    ``backend``, ``scheduler`` and ``workers`` choose where blocks are played, as for
    :func:`simulator.simulate` (the numbers are the same).

    ``progress(games)`` is called after every block with the games it played (its
    deals × the seatings), and ``on_plan(total)`` once before play starts with the
    number of games the comparison plays in all (a progress bar's total,
    :func:`simulator.running.progress.progress_bar`).

    Raises
    ------
    InputError
        For an argument of the wrong type or out of its range (one line naming it:
        ``field takes a strategy spec (a str) or a Player, not int 7``), before anything is
        played.
    SpecError
        For a strategy spec or plugin file that cannot be read.
    """
    field = _field_keyword(check_strategy(field, "field"), check_strategy(field_strategy, "field_strategy"))
    check_strategy(baseline, "baseline")
    callback(on_plan, "on_plan")
    callback(on_block, "on_block")
    execution = Execution.build(
        threads=threads, block_size=block_size, backend=backend, scheduler=scheduler, workers=workers,
        connect_timeout=connect_timeout, progress=progress,
    )  # fmt: skip
    setup = Setup.build(
        game, strategies, rounds=rounds, matches=matches, seed=seed, rules=rules, players=players,
        reaction=reaction, plugins=plugins, fill_seats=False,
    )  # fmt: skip
    return compare_setup(
        setup,
        execution,
        field=field,
        baseline=baseline,
        reactions=reactions,
        on_plan=on_plan,
        on_block=on_block,
    )


def compare_setup(
    setup: Setup,
    execution: Execution,
    *,
    field: str | Player | None = None,
    baseline: str | Player | None = None,
    reactions: Sequence[Any] | None = None,
    on_plan: Callable[[int], None] | None = None,
    on_block: Callable[[int, Design, list[np.ndarray]], None] | None = None,
) -> CompareResult:
    """Compare the strategies of a checked setup (``setup.players``: the candidates) on the
    same deals, played as ``execution`` says; what :func:`compare` does once its input is
    checked (:mod:`simulator.running.setup`).

    Parameters
    ----------
    setup
        What is played: :meth:`Setup.build <simulator.running.setup.Setup.build>` with
        ``fill_seats=False``.
    execution
        How it is played (``execution.block_size`` None: ``DEFAULT_BLOCK``).
    field, baseline, reactions, on_plan, on_block
        As for :func:`compare`.

    Returns
    -------
    CompareResult
    """
    g, table, cands = setup.game, setup.table, list(setup.players)
    profiles = candidate_profiles(g, table, reactions, len(cands))
    # A strategy given twice is an A/A comparison: its copies are told apart by position,
    # and each later copy draws its random choices from a stream of its own (copy_salts).
    names = [label(p.spec, prof) for p, prof in zip(cands, profiles)]
    specs = position_labels(names)
    cands = [p.copy_number(salt) if salt else p for p, salt in zip(cands, copy_salts(names))]
    field_player = _field_player(g, table, field, len(cands))
    base_idx = _baseline_index(g, baseline, specs)
    design = make_design(table.n_seats, len(cands), field_player is not None)
    execution.apply_threads()
    seatings = _Seatings.of(setup, design, cands, field_player, profiles, on_block is not None)
    if on_plan is not None:
        on_plan(setup.n * len(design.seatings))
    played = _play(setup, execution, seatings, on_block)
    summary = summarise(
        g, table, setup.unit, setup.n, setup.seed, cands, field_player, base_idx, design, seatings.metrics,
        played.sums, seatings.appearances, specs,
    )  # fmt: skip
    _add_run_facts(summary, played, profiles, setup.n * len(design.seatings), setup.seed_extra)
    scales = {m.name: m.scale for m in seatings.metrics}
    return CompareResult(summary, frames_of(summary), played.sums, seatings.appearances, scales)


@dataclass(frozen=True)
class _Seatings:
    """What every block of a comparison plays: the table and players of each seating, the
    candidates' appearances, the metrics and the pure function that reduces a block."""

    design: Design
    tables: list[Table]
    players: list[list[Player | None]]
    k: int
    appearances: np.ndarray
    metrics: tuple[Metric, ...]
    reduce: Callable[[int, list[np.ndarray]], tuple]

    @classmethod
    def of(
        cls,
        setup: Setup,
        design: Design,
        cands: list[Player],
        field_player: Player | None,
        profiles: Sequence[tuple[float, float] | None],
        keep_records: bool,
    ) -> _Seatings:
        g, table, k = setup.game, setup.table, len(cands)
        tables = [seating_table(g, table, row, profiles) for row in design.seatings]
        seat_players = [[field_player if c == FIELD else cands[c] for c in row] for row in design.seatings]
        appearances = np.array([(design.seatings == c).sum() for c in range(k)], dtype=np.int64)
        metrics = tuple(g.metrics(setup.unit))
        reduce = partial(block_sums, g, table, setup.unit, design, k, metrics, appearances, keep_records)
        return cls(design, tables, seat_players, k, appearances, metrics, reduce)


def _add_run_facts(
    summary: dict[str, Any],
    played: _Played,
    profiles: Sequence[tuple[float, float] | None],
    games: int,
    seed_extra: Mapping[str, Any],
) -> None:
    """Add what the run did to the summary: the candidates' own reaction profiles, the deals
    left out, timings and speed, and how the seed was given."""
    if any(prof is not None for prof in profiles):
        summary["reactions"] = [list(prof) if prof is not None else None for prof in profiles]
    summary["deals_dropped"] = played.dropped
    summary["elapsed_s"] = played.elapsed_s
    summary["compile_s"] = played.compile_s
    summary["games_per_s"] = games / played.elapsed_s if played.elapsed_s > 0 else None
    summary.update(seed_extra)


@dataclass
class _Played:
    """What playing every block gave: each metric's paired sums, the deals left out and timings."""

    sums: dict[str, PairedSums]
    dropped: int
    elapsed_s: float
    compile_s: float


def _play(
    setup: Setup,
    execution: Execution,
    seatings: _Seatings,
    on_block: Callable[[int, Design, list[np.ndarray]], None] | None,
) -> _Played:
    """Play every seating of deals ``0..n-1`` block by block (locally or on Dask) and merge
    each block's paired sums."""
    unit, seed, design, metrics = setup.unit, setup.seed, seatings.design, seatings.metrics
    pairs = list(zip(seatings.tables, seatings.players))
    recipe = None
    if execution.backend is Backend.dask:
        recipes = tuple(PlayRecipe.of(t, ps, unit, seed, True, setup.plugins) for t, ps in pairs)
        recipe = SeatingsRecipe(recipes, seatings.reduce)
    runners: list[BlockRunner] = []
    compile_s = 0.0
    if recipe is None:
        runners = [BlockRunner(t, ps, unit, seed) for t, ps in pairs]
        t_compile = time.perf_counter()
        for r in runners:
            r.records(0, 1, n_chunks=1)
        compile_s = time.perf_counter() - t_compile
    reduce = seatings.reduce
    work = Work(
        lambda: lambda first, count: reduce(first, [r.records(first, count) for r in runners]), recipe
    )
    played = _Played({m.name: PairedSums(seatings.k) for m in metrics}, 0, 0.0, compile_s)

    def merge(first: int, count: int, payload: tuple) -> None:
        part, drop, recs = payload
        if on_block is not None:
            on_block(first, design, recs)
        for m in metrics:
            played.sums[m.name].merge(part[m.name])
        played.dropped += drop
        execution.tick(count * len(design.seatings))

    # Every block's per-game records are held in memory: at most MAX_RECORDS_BLOCK games.
    block_size = execution.block_size if execution.block_size is not None else DEFAULT_BLOCK
    plan = BlockPlan([(0, setup.n)], block_size, max_block=MAX_RECORDS_BLOCK)
    ran = run_blocks(work, plan, merge, **execution.backend_options())
    played.elapsed_s = ran.elapsed_s
    played.compile_s += ran.compile_s
    return played


# The names of comparisons, here since before the seatings, the statistics and the result had
# modules of their own (the private two are used by tuning and the tests).
__all__ = [
    "FIELD",
    "CompareResult",
    "Design",
    "PairedSums",
    "_metric_block",
    "_outcome_totals",
    "block_sums",
    "bradley_terry",
    "candidate_profiles",
    "compare",
    "compare_setup",
    "frames_of",
    "label",
    "make_design",
    "paired_test",
    "seating_table",
    "summarise",
]
