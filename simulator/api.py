"""The Python API: ``simulate`` and its helpers.  The CLI is a thin layer over these."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from simulator.errors import InputError, SpecError
from simulator.games import Game, Table
from simulator.kernels.messages import announced, trace_message
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
from simulator.running.checkpoint import RunFolder, RunInterrupted, run_settings, stored_seed
from simulator.running.records import RECORDS_DIR, RecordWriter, records_frame
from simulator.running.results import SCHEMA_VERSION, Result, provenance
from simulator.running.runner import BlockRunner
from simulator.running.setup import (  # the checks live there; these names stay importable from here
    MAX_GAME_INDEX,
    MAX_GAMES,
    MAX_SEED,
    UNITS,
    Execution,
    SeedLike,
    Setup,
    check_block_size,
    check_game_index,
    make_table,
    resolve_game,
    resolve_players,
    resolve_seed,
    resolve_unit,
    seed_provenance,
)
from strategies.checks import StrategyCompileError
from strategies.registry import Player


def simulate(
    game: str | Game,
    strategies: Sequence[str | Player] | str,
    *,
    rounds: int | None = None,
    matches: int | None = None,
    seed: SeedLike | None = None,
    rules: Mapping[str, Any] | Any = None,
    players: int | None = None,
    reaction: Sequence[Any] | None = None,
    threads: int | None = None,
    block_size: int | None = None,
    plugins: Sequence[str] = (),
    progress: Callable[[int], None] | None = None,
    backend: str = "local",
    scheduler: str | None = None,
    workers: int | None = None,
    out: str | Path | None = None,
    resume: bool = False,
    records: bool = False,
    stop: threading.Event | None = None,
    connect_timeout: float | None = None,
) -> Result:
    """Play ``rounds`` deals or ``matches`` matches and return their figures.

    ``strategies`` are specs such as ``"threshold:k=4"`` (or :class:`Player`
    objects): one for every seat, or one per seat in seat order.  ``rules``
    maps variant names to values (``{"jack": "11"}``), lists them
    (``["jack=11"]``; a rule named twice is refused) or is the game's Rules
    object.  A user strategy that numba cannot compile raises
    :class:`StrategyCompileError` (one line; numba's message in ``details``).
    The result depends only on the arguments and ``seed`` (a fresh one
    is drawn and recorded when it is None), never on ``threads``,
    ``block_size`` (default: sized so that a block takes about a quarter of a
    second) or the backend.

    ``backend="dask"`` plays the blocks on a Dask cluster: the one at
    ``scheduler`` (an address or a scheduler file; default: Dask's configured
    ``scheduler-address``), else a LocalCluster of ``workers`` processes
    (``simulator/running/backends.py``).  A scheduler that does not answer within
    ``connect_timeout`` seconds (default 10), or that has no worker within as
    long again, is an :class:`InputError`.

    ``out`` makes the run resumable: finished blocks are persisted in that folder
    as they complete and ``summary.parquet`` is written there at the end
    (``simulator/running/checkpoint.py``).  Setting ``stop`` (or Ctrl-C in the main
    thread, with or without ``out``) ends the run after the blocks in flight,
    writes the figures of the finished games and raises :class:`RunInterrupted`,
    whose ``result`` says ``"partial": True`` and ``"n_planned"`` in its summary
    (a finished run says ``"partial": False``).  A run in ``out`` that ends in an
    error is marked failed there, and a new run in ``out`` replaces it.  ``resume=True`` continues
    the run in ``out`` (its seed is used when ``seed`` is None) or extends it to
    more games; other settings must be the same.  ``records=True`` also writes one
    row per game to ``out/records/`` (``simulator/running/records.py``); without ``out`` it
    keeps them in memory, for at most ``MAX_RECORDS_IN_MEMORY`` (1,000,000) games.
    Either way ``result.records()`` returns them, ``result.records(long=True)`` one
    row per game and seat.

    ``seed`` is an ``int`` from 0 to 2**63 - 1, a numpy integer or a
    ``numpy.random.SeedSequence`` (mapped to an integer seed as
    :func:`resolve_seed` says; the integer is what the summary records, the
    sequence's entropy and spawn key go to the provenance).  Every input is checked
    by :mod:`simulator.running.setup`, as for ``compare`` and ``sweep``; :func:`run` plays it.
    """
    execution = Execution.build(
        threads=threads, block_size=block_size, backend=backend, scheduler=scheduler, workers=workers,
        connect_timeout=connect_timeout, out=out, resume=resume, records=records, progress=progress,
    )  # fmt: skip
    if resume and seed is None:
        seed = stored_seed(out)  # type: ignore[arg-type]
    setup = Setup.build(
        game, strategies, rounds=rounds, matches=matches, seed=seed, rules=rules, players=players,
        reaction=reaction, plugins=plugins,
    )  # fmt: skip
    return run(setup, execution, stop=stop)


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


def trace(
    game: str | Game,
    strategies: Sequence[str | Player] | str,
    *,
    seed: SeedLike,
    game_index: int = 0,
    unit: str = "round",
    rules: Mapping[str, Any] | Any = None,
    players: int | None = None,
    reaction: Sequence[Any] | None = None,
    plugins: Sequence[str] = (),
    max_lines: int = 2000,
) -> str:
    """Game ``game_index`` of the run with this seed, move by move, as text.

    Parameters
    ----------
    game, strategies, seed, rules, players, reaction, plugins
        As for :func:`simulate`; ``seed`` is required (a trace shows a game of a seeded run).
    game_index
        Which game of the run, counting from 0: ``0 <= game_index < 2**63``.
    unit
        ``"round"`` (round ``game_index`` of ``--rounds``) or ``"match"``.
    max_lines
        At most this many lines of moves (default 2000; 0 for all): the start and the end
        of the game are kept and one line says how many were left out.  The header (the
        run, table size, rule variants and the strategy in each seat) is always shown.

    Raises
    ------
    InputError
        For bad input (one line).
    simulator.running.runner.StrategyError
        When a strategy makes an illegal move; the message names it, its seat and the decision.
    """
    from simulator.errors import IllegalMove, StrategyError
    from simulator.games.illegal import where
    from simulator.kernels.containment import trapping_players
    from simulator.running.tracing import cap_lines, check_max_lines, header

    if unit not in UNITS:
        raise InputError("unit must be 'round' or 'match'")
    if seed is None:
        raise InputError("a trace needs a seed (--seed N): it shows one game of a seeded run, to replay")
    # What is played is checked as simulate checks it, in the same order and with the same lines.
    setup = Setup.build(
        game, strategies, rounds=1 if unit == "round" else None, matches=1 if unit == "match" else None,
        seed=seed, rules=rules, players=players, reaction=reaction, plugins=plugins,
    )  # fmt: skip
    game_index = check_game_index(game_index)
    try:
        max_lines = check_max_lines(max_lines)
    except ValueError as exc:
        raise InputError(str(exc)) from None
    g, table, seat_players, seed = setup.game, setup.table, list(setup.players), setup.seed
    # User strategies run bounds-checked, as in a run (simulator/kernels/containment.py).
    contained = trapping_players(seat_players)
    try:
        with announced(trace_message(g, seat_players)):
            body = g.trace(table, contained, seed, game_index, unit)
    except IllegalMove as exc:
        raise StrategyError(f"{exc}, {where(unit, game_index, seed)}") from None
    lines = header(table, seat_players, seed, game_index, unit)
    return "\n".join([*lines, "", cap_lines(body, max_lines)])


__all__ = [
    "MAX_GAMES",
    "MAX_GAME_INDEX",
    "MAX_SEED",
    "Execution",
    "InputError",
    "RunInterrupted",
    "SeedLike",
    "Setup",
    "SpecError",
    "StrategyCompileError",
    "check_block_size",
    "make_table",
    "resolve_game",
    "resolve_players",
    "resolve_seed",
    "resolve_unit",
    "run",
    "seed_provenance",
    "simulate",
    "trace",
]
