"""The run path: play a checked setup as its execution says, in memory or in a run folder,
and build the :class:`~simulator.running.results.Result` (what :func:`simulator.simulate` and
:func:`simulator.run` do once their input is checked)."""

from __future__ import annotations

import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from simulator.games import Game, Table
from simulator.running.backends import (
    MAX_BLOCK,
    MAX_RECORDS_BLOCK,
    Backend,
    BlockPlan,
    Played,
    PlayRecipe,
    Work,
    play_block,
    run_blocks,
    sigint_sets,
)
from simulator.running.checkpoint import RunFolder, RunInterrupted, run_settings
from simulator.running.records import RECORDS_DIR, RecordWriter, records_frame
from simulator.running.results import SCHEMA_VERSION, Result, provenance
from simulator.running.runner import BlockRunner
from simulator.running.setup import Execution, Setup
from strategies.registry import Player


def run(setup: Setup, execution: Execution, *, stop: threading.Event | None = None) -> Result:
    """Play a checked :class:`~simulator.running.setup.Setup` as its
    :class:`~simulator.running.setup.Execution` says; what :func:`simulate` does once its input
    is checked.

    Parameters
    ----------
    setup
        What is played (:meth:`Setup.build <simulator.running.setup.Setup.build>`; its players
        fill the seats).
    execution
        How it is played (:meth:`Execution.build <simulator.running.setup.Execution.build>`).
    stop
        Set it to end the run after the blocks in flight (:class:`RunInterrupted`).

    Returns
    -------
    Result
    """
    execution.check_records(setup.n)
    execution.apply_threads()
    plan = _Run(setup, execution)
    if execution.out is not None:  # refuse a folder before spending time on compiling
        RunFolder.check(
            execution.out, plan.settings, setup.n, width=plan.width, records=execution.records,
            resume=execution.resume,
        )  # fmt: skip
    work, compile_s = _work(plan)
    stop = stop if stop is not None else threading.Event()
    if execution.out is None:
        return _run_in_memory(plan, work, compile_s, stop)
    return _run_in_folder(plan, work, compile_s, stop)


@dataclass
class _Run:
    """What one call of :func:`run` plays: the setup and the execution, and what follows
    from them (the width of a row of aggregates, the settings a run folder keeps)."""

    setup: Setup
    execution: Execution

    width: int = field(init=False)  # of a row of aggregates
    settings: dict[str, Any] = field(init=False)  # the run's settings, as run.json keeps them

    def __post_init__(self) -> None:
        self.width = self.game.agg_size(self.unit, self.table.n_seats)
        self.settings = run_settings(self.table, self.players, self.unit, self.seed)

    @property
    def game(self) -> Game:
        return self.setup.game

    @property
    def table(self) -> Table:
        return self.setup.table

    @property
    def players(self) -> list[Player]:
        return list(self.setup.players)

    @property
    def unit(self) -> str:
        return self.setup.unit

    @property
    def n(self) -> int:
        return self.setup.n

    @property
    def seed(self) -> int:
        return self.setup.seed

    @property
    def seed_extra(self) -> dict[str, Any]:
        return self.setup.seed_extra

    @property
    def backend(self) -> Backend:
        return self.execution.backend

    @property
    def records(self) -> bool:
        return self.execution.records

    @property
    def block_size(self) -> int | None:
        return self.execution.block_size

    @property
    def max_block(self) -> int:
        return MAX_RECORDS_BLOCK if self.records else MAX_BLOCK

    def tick(self, count: int) -> None:
        self.execution.tick(count)


def _work(run: _Run) -> tuple[Work, float]:
    """How blocks are played (compiled here for the local backend) and the seconds compiling took."""
    recipe = None
    if run.backend is Backend.dask:
        recipe = PlayRecipe.of(run.table, run.players, run.unit, run.seed, run.records, run.setup.plugins)
    compile_s = 0.0
    runner: BlockRunner | None = None
    if run.backend is Backend.local:
        runner = BlockRunner(run.table, run.players, run.unit, run.seed)
        compile_s = runner.compile()
        if run.records:
            t0 = time.perf_counter()
            runner.records(0, 1, n_chunks=1)
            compile_s += time.perf_counter() - t0
    records = run.records
    work = Work(local=lambda: lambda first, count: play_block(runner, first, count, records), recipe=recipe)
    return work, compile_s


def _run_in_memory(run: _Run, work: Work, compile_s: float, stop: threading.Event) -> Result:
    """A run without ``out``: the aggregates (and records) are kept in memory."""
    total = np.zeros(run.width, dtype=np.int64)
    games = 0
    kept: list[tuple[int, np.ndarray]] = []

    def add(first: int, count: int, played: Played) -> None:
        nonlocal total, games
        total += played.agg
        games += count
        if run.records and played.rec is not None:
            kept.append((first, played.rec))
        run.tick(count)

    plan = BlockPlan([(0, run.n)], run.block_size, max_block=run.max_block)
    with sigint_sets(stop):  # Ctrl-C ends the run after the block in flight: the finished games count
        ran = run_blocks(work, plan, add, stop=stop, **run.execution.backend_options())
    args = (
        run.table,
        run.players,
        run.unit,
        games,
        run.seed,
        total,
        ran.elapsed_s,
        compile_s + ran.compile_s,
    )
    result = make_result(*args, {"backend": run.backend.value, **run.seed_extra}) if games else None
    if result is not None:
        mark_partial(result, run.n)
    if result is not None and run.records:
        result.record_frame = records_frame(run.game, run.unit, run.table.n_seats, kept)
    if ran.stopped:
        raise RunInterrupted(None, games, run.n, run.unit, result)
    assert result is not None
    return result


def _run_in_folder(run: _Run, work: Work, compile_s: float, stop: threading.Event) -> Result:
    """A run with ``out``: finished blocks are persisted there as they complete."""
    n, records, table = run.n, run.records, run.table
    out, resume = run.execution.out, run.execution.resume
    assert out is not None
    backend_options = run.execution.backend_options()
    with RunFolder.open(out, run.settings, n, width=run.width, records=records, resume=resume) as folder:
        writer = None
        if records:
            extra = {**_reaction_extra(table), **run.seed_extra}
            prov = provenance(run.seed, table.rules_dict(), list(run.players), extra)
            writer = RecordWriter(out / RECORDS_DIR, run.game, run.unit, table.n_seats, prov, run.settings)
            writer.prune(folder.done)
        if folder.games:
            run.tick(folder.games)

        def persist(first: int, count: int, played: Played) -> None:
            if writer is not None:
                assert played.rec is not None
                writer.write(first, played.rec)
            folder.add(first, count, played.agg)
            run.tick(count)

        plan = BlockPlan(folder.gaps(), run.block_size, max_block=run.max_block)
        with sigint_sets(stop):
            ran = None
            if plan.remaining:
                ran = run_blocks(
                    work, plan, persist, stop=stop, started=folder.start_clock, **backend_options
                )
        complete = not folder.gaps()
        result = _folder_result(run, folder, compile_s + (ran.compile_s if ran else 0.0), complete)
        if result is not None and records:
            result.records_path = out / RECORDS_DIR
        if not complete:
            raise RunInterrupted(out, folder.games, n, run.unit, result)
        assert result is not None
        return result


def _folder_result(run: _Run, folder: RunFolder, compile_s: float, complete: bool) -> Result | None:
    """The figures of the games finished in ``folder`` (None when there are none), written
    to its ``summary.parquet``."""
    if not folder.games:
        return None
    extra = {"backend": run.backend.value, **run.seed_extra, **folder.provenance(complete)}
    result = make_result(
        run.table,
        run.players,
        run.unit,
        folder.games,
        run.seed,
        folder.agg.copy(),
        folder.elapsed_s,
        compile_s,
        extra,
    )
    mark_partial(result, run.n)
    folder.write_summary(result)
    return result


def mark_partial(result: Result, planned: int) -> None:
    """Say in the summary whether it covers every game asked for: ``"partial"`` (True for a
    run stopped early) and ``"n_planned"`` (the games asked for; ``"n"`` is those played)."""
    result.summary["partial"] = int(result.summary["n"]) < int(planned)
    result.summary["n_planned"] = int(planned)


def _reaction_extra(table: Table) -> dict:
    return {"reaction": [list(r) for r in table.reaction]} if table.reaction else {}


def make_result(
    table: Table,
    players: Sequence[Player],
    unit: str,
    n: int,
    seed: int,
    agg,
    elapsed: float,
    compile_s: float,
    extra_provenance: dict | None = None,
) -> Result:
    g = table.game
    figures = g.summarise(agg, table, players, unit, n)
    if table.reaction:
        for s, seat in enumerate(figures["seats"]):
            m, sigma = table.reaction[s]
            seat["reaction"] = {"median_s": m, "sigma": sigma}
    summary: dict[str, Any] = {
        "schema_version": SCHEMA_VERSION,
        "game": g.name,
        "unit": unit,
        "n": n,
        "seed": seed,
        "players": table.n_seats,
        "rules": table.rules_dict(),
        "elapsed_s": elapsed,
        "games_per_s": n / elapsed if elapsed > 0 else None,
        "compile_s": compile_s,
        **figures,
    }
    extra = _reaction_extra(table)
    extra.update(extra_provenance or {})
    prov = provenance(seed, table.rules_dict(), list(players), extra)
    return Result(summary, g.histograms(agg, table, unit), agg, prov)


__all__ = ["make_result", "mark_partial", "run"]
