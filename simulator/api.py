"""The Python API: ``simulate`` and its helpers.  The CLI is a thin layer over these."""

from __future__ import annotations

import secrets
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numba
import numpy as np

from simulator.backends import (
    MAX_BLOCK,
    MAX_RECORDS_BLOCK,
    Backend,
    BlockPlan,
    Played,
    PlayRecipe,
    Work,
    check_backend_options,
    check_connect_timeout,
    play_block,
    resolve_backend,
    run_blocks,
    sigint_sets,
)
from simulator.checkpoint import RunFolder, RunInterrupted, run_settings, stored_seed
from simulator.compiling import announced, trace_message
from simulator.games import Game, InputError, Table, get_game
from simulator.records import MAX_RECORDS_IN_MEMORY, RECORDS_DIR, RecordWriter, records_frame
from simulator.results import SCHEMA_VERSION, Result, plain, provenance
from simulator.runner import BlockRunner
from strategies.checks import StrategyCompileError, check_compiles
from strategies.registry import Player, SpecError, load_plugin, parse_spec

MAX_SEED = (1 << 63) - 1
# The most games (rounds or matches) one run may play: about three years of one fast core;
# far below the game indices the random-stream contract allows (docs/random-streams.md).
MAX_GAMES = 10**12
# A game's index in a run is a signed 64-bit integer in the kernels: 0 <= index < 2**63.
MAX_GAME_INDEX = (1 << 63) - 1


def check_block_size(block_size: int | None) -> None:
    """``block_size`` is None (sized automatically) or a whole number from 1 to ``MAX_BLOCK``
    (2**22 games; runs with records play at most ``MAX_RECORDS_BLOCK`` games at a time)."""
    if block_size is None:
        return
    if isinstance(block_size, bool) or not isinstance(block_size, int | np.integer):
        raise InputError(f"the block size must be a whole number, not {block_size!r}")
    if not 1 <= block_size <= MAX_BLOCK:
        raise InputError(
            f"--block-size {block_size}: give 1 to {MAX_BLOCK:,} (2**22) games per block "
            "(the figures do not depend on it)"
        )


def resolve_game(game: str | Game) -> Game:
    return game if isinstance(game, Game) else get_game(game)


def resolve_players(game: Game, strategies: Sequence[str | Player], n_seats: int) -> list[Player]:
    """One strategy fills every seat; otherwise one per seat, in seat order."""
    if isinstance(strategies, str | Player):
        strategies = [strategies]
    if not strategies:
        raise InputError("give at least one strategy (-s NAME)")
    players = [parse_spec(s, game.name) if isinstance(s, str) else s for s in strategies]
    for p in players:
        if p.family.game != game.name:
            raise InputError(f"strategy {p.spec!r} is for {p.family.game}, not {game.name}")
        check_compiles(p.family)
    if len(players) == 1:
        return players * n_seats
    if len(players) != n_seats:
        raise InputError(
            f"{len(players)} strategies for {n_seats} seats: give one for every seat, or one for all"
        )
    return players


def resolve_unit(rounds: int | None, matches: int | None) -> tuple[str, int]:
    """The unit (``"round"`` or ``"match"``) and the number of games of a run.

    Exactly one of ``rounds`` and ``matches`` is given, a whole number from 1 to
    ``MAX_GAMES`` (10**12); anything else raises :class:`InputError` (one line).
    """
    if (rounds is None) == (matches is None):
        raise InputError("give exactly one of --rounds N or --matches N")
    unit, n = ("round", rounds) if rounds is not None else ("match", matches)
    units = "rounds" if unit == "round" else "matches"
    if isinstance(n, np.integer):
        n = int(n)
    if not isinstance(n, int) or isinstance(n, bool) or n <= 0:
        raise InputError(f"the number of {units} must be a positive whole number, not {n!r}")
    if n > MAX_GAMES:
        raise InputError(
            f"--{units} {n}: at most {MAX_GAMES:,} (10**12) {units} in one run "
            "(split a longer study into runs with different seeds)"
        )
    return unit, n


SeedLike = int | np.integer | np.random.SeedSequence


def resolve_seed(seed: SeedLike | None) -> int:
    """The run's seed as an ``int`` from 0 to 2**63 - 1 (the one recorded in the summary).

    ``None`` draws a fresh one; an ``int`` or numpy integer is taken as it is; a
    ``numpy.random.SeedSequence`` becomes the top 63 bits of its first 64-bit word,
    ``int(seq.generate_state(1, np.uint64)[0]) >> 1`` (so the children of
    ``seq.spawn(k)`` give k different seeds, and the same sequence the same seed).
    Anything else is an :class:`InputError`.
    """
    if seed is None:
        return secrets.randbits(63)
    if isinstance(seed, np.random.SeedSequence):
        return int(seed.generate_state(1, np.uint64)[0]) >> 1
    if isinstance(seed, bool | np.bool_) or not isinstance(seed, int | np.integer):
        shown = repr(seed).splitlines()[0] if repr(seed) else ""
        shown = shown if len(shown) <= 40 else shown[:39] + "…"
        raise InputError(
            f"the seed must be a whole number from 0 to {MAX_SEED} or a numpy SeedSequence, "
            f"not {type(seed).__name__} {shown}"
        )
    if not 0 <= int(seed) <= MAX_SEED:
        raise InputError(f"the seed must be a whole number from 0 to {MAX_SEED}")
    return int(seed)


def seed_provenance(seed: Any) -> dict[str, Any]:
    """Where a seed came from, when it was not a plain number: a SeedSequence's entropy and
    spawn key (the recorded integer seed is :func:`resolve_seed` of it)."""
    if isinstance(seed, np.random.SeedSequence):
        return plain({"seed_sequence": {"entropy": seed.entropy, "spawn_key": list(seed.spawn_key)}})
    return {}


def make_table(
    game: Game,
    rules: Mapping[str, Any] | Any = None,
    players: int | None = None,
    reaction: Sequence[Any] | None = None,
) -> Table:
    return game.table(rules, players, reaction)


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
    (``simulator/backends.py``).  A scheduler that does not answer within
    ``connect_timeout`` seconds (default 10), or that has no worker within as
    long again, is an :class:`InputError`.

    ``out`` makes the run resumable: finished blocks are persisted in that folder
    as they complete and ``summary.parquet`` is written there at the end
    (``simulator/checkpoint.py``).  Setting ``stop`` (or Ctrl-C in the main
    thread, with or without ``out``) ends the run after the blocks in flight,
    writes the figures of the finished games and raises :class:`RunInterrupted`,
    whose ``result`` says ``"partial": True`` and ``"n_planned"`` in its summary
    (a finished run says ``"partial": False``).  A run in ``out`` that ends in an
    error is marked failed there, and a new run in ``out`` replaces it.  ``resume=True`` continues
    the run in ``out`` (its seed is used when ``seed`` is None) or extends it to
    more games; other settings must be the same.  ``records=True`` also writes one
    row per game to ``out/records/`` (``simulator/records.py``); without ``out`` it
    keeps them in memory, for at most ``MAX_RECORDS_IN_MEMORY`` (1,000,000) games.
    Either way ``result.records()`` returns them, ``result.records(long=True)`` one
    row per game and seat.

    ``seed`` is an ``int`` from 0 to 2**63 - 1, a numpy integer or a
    ``numpy.random.SeedSequence`` (mapped to an integer seed as
    :func:`resolve_seed` says; the integer is what the summary records, the
    sequence's entropy and spawn key go to the provenance).
    """
    for path in plugins:
        load_plugin(path)
    g = resolve_game(game)
    unit, n = resolve_unit(rounds, matches)
    chosen = _checked_backend(backend, scheduler, workers, threads, connect_timeout)
    _check_out_options(out, resume, records, n)
    if resume and seed is None:
        seed = stored_seed(out)  # type: ignore[arg-type]
    seed_extra = seed_provenance(seed)
    seed = resolve_seed(seed)
    table = make_table(g, rules, players, reaction)
    seat_players = resolve_players(g, strategies, table.n_seats)
    check_block_size(block_size)
    _set_threads(threads)
    run = _Run(table, seat_players, unit, n, seed, seed_extra, chosen, records, progress, block_size)
    if out is not None:  # refuse a folder before spending time on compiling
        RunFolder.check(out, run.settings, n, width=run.width, records=records, resume=resume)
    work, compile_s = _work(run, plugins)
    backend_options = {"backend": chosen, "scheduler": scheduler, "workers": workers}
    backend_options["connect_timeout"] = connect_timeout
    stop = stop if stop is not None else threading.Event()
    if out is None:
        return _run_in_memory(run, work, compile_s, stop, backend_options)
    return _run_in_folder(run, work, compile_s, stop, backend_options, Path(out), resume)


def _checked_backend(
    backend: str,
    scheduler: str | None,
    workers: int | None,
    threads: int | None,
    connect_timeout: float | None,
) -> Backend:
    """The backend asked for, with its options checked (InputError otherwise)."""
    chosen = resolve_backend(backend)
    check_backend_options(chosen, scheduler, workers, threads)
    if connect_timeout is not None:
        check_connect_timeout(connect_timeout)
        if chosen is Backend.local:
            raise InputError("--connect-timeout is for --backend dask (the wait for a scheduler)")
    return chosen


def _check_out_options(out: str | Path | None, resume: bool, records: bool, n: int) -> None:
    """``resume`` needs ``out``; records kept in memory (no ``out``) are bounded."""
    if out is None and resume:
        raise InputError("--resume needs --out DIR (the run's folder)")
    if out is None and records and n > MAX_RECORDS_IN_MEMORY:
        raise InputError(
            f"records=True keeps at most {MAX_RECORDS_IN_MEMORY:,} games in memory, not {n:,}: "
            "give out=DIR to stream them to DIR/records/"
        )


def _set_threads(threads: int | None) -> None:
    if threads is not None:
        if not 1 <= threads <= numba.config.NUMBA_NUM_THREADS:
            raise InputError(f"threads must be 1 to {numba.config.NUMBA_NUM_THREADS}")
        numba.set_num_threads(threads)


@dataclass
class _Run:
    """What one call of :func:`simulate` plays, once its input is checked."""

    table: Table
    players: list[Player]
    unit: str
    n: int
    seed: int
    seed_extra: dict[str, Any]
    backend: Backend
    records: bool
    progress: Callable[[int], None] | None
    block_size: int | None

    width: int = field(init=False)  # of a row of aggregates
    settings: dict[str, Any] = field(init=False)  # the run's settings, as run.json keeps them

    def __post_init__(self) -> None:
        self.width = self.game.agg_size(self.unit, self.table.n_seats)
        self.settings = run_settings(self.table, self.players, self.unit, self.seed)

    @property
    def game(self) -> Game:
        return self.table.game

    @property
    def max_block(self) -> int:
        return MAX_RECORDS_BLOCK if self.records else MAX_BLOCK

    def tick(self, count: int) -> None:
        if self.progress is not None:
            self.progress(count)


def _work(run: _Run, plugins: Sequence[str]) -> tuple[Work, float]:
    """How blocks are played (compiled here for the local backend) and the seconds compiling took."""
    recipe = None
    if run.backend is Backend.dask:
        recipe = PlayRecipe.of(run.table, run.players, run.unit, run.seed, run.records, plugins)
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


def _run_in_memory(
    run: _Run, work: Work, compile_s: float, stop: threading.Event, backend_options: dict[str, Any]
) -> Result:
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
        ran = run_blocks(work, plan, add, stop=stop, **backend_options)
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


def _run_in_folder(
    run: _Run,
    work: Work,
    compile_s: float,
    stop: threading.Event,
    backend_options: dict[str, Any],
    out: Path,
    resume: bool,
) -> Result:
    """A run with ``out``: finished blocks are persisted there as they complete."""
    n, records, table = run.n, run.records, run.table
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
    seed: int,
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
    simulator.runner.StrategyError
        When a strategy makes an illegal move; the message names it, its seat and the decision.
    """
    from simulator.containment import trapping_players
    from simulator.games.base import IllegalMove
    from simulator.illegal import where
    from simulator.runner import StrategyError
    from simulator.tracing import cap_lines, check_max_lines, header

    for path in plugins:
        load_plugin(path)
    g = resolve_game(game)
    if unit not in ("round", "match"):
        raise InputError("unit must be 'round' or 'match'")
    if isinstance(game_index, np.integer):
        game_index = int(game_index)
    if isinstance(game_index, bool) or not isinstance(game_index, int):
        raise InputError(f"--game takes a whole number, not {game_index!r}")
    if not 0 <= game_index <= MAX_GAME_INDEX:
        raise InputError(
            f"--game {game_index}: a game's index counts from 0 and is below 2**63 (at most {MAX_GAME_INDEX})"
        )
    try:
        max_lines = check_max_lines(max_lines)
    except ValueError as exc:
        raise InputError(str(exc)) from None
    seed = resolve_seed(seed)
    table = make_table(g, rules, players, reaction)
    seat_players = resolve_players(g, strategies, table.n_seats)
    # User strategies run bounds-checked, as in a run (simulator/containment.py).
    contained = trapping_players(seat_players)
    try:
        with announced(trace_message(g, seat_players)):
            body = g.trace(table, contained, seed, game_index, unit)
    except IllegalMove as exc:
        raise StrategyError(f"{exc}, {where(unit, game_index, seed)}") from None
    lines = header(table, seat_players, seed, game_index, unit)
    return "\n".join([*lines, "", cap_lines(body, max_lines)])


__all__ = ["InputError", "RunInterrupted", "SpecError", "StrategyCompileError", "simulate", "trace"]
