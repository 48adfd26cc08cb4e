"""The Python API: ``simulate`` and its helpers.  The CLI is a thin layer over these."""

from __future__ import annotations

import secrets
import threading
import time
from collections.abc import Callable, Mapping, Sequence
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
    chosen = resolve_backend(backend)
    check_backend_options(chosen, scheduler, workers, threads)
    if connect_timeout is not None:
        check_connect_timeout(connect_timeout)
        if chosen is Backend.local:
            raise InputError("--connect-timeout is for --backend dask (the wait for a scheduler)")
    if out is None and resume:
        raise InputError("--resume needs --out DIR (the run's folder)")
    if out is None and records and n > MAX_RECORDS_IN_MEMORY:
        raise InputError(
            f"records=True keeps at most {MAX_RECORDS_IN_MEMORY:,} games in memory, not {n:,}: "
            "give out=DIR to stream them to DIR/records/"
        )
    if resume and seed is None:
        seed = stored_seed(out)  # type: ignore[arg-type]
    seed_extra = seed_provenance(seed)
    seed = resolve_seed(seed)
    table = make_table(g, rules, players, reaction)
    seat_players = resolve_players(g, strategies, table.n_seats)
    if block_size is not None and block_size < 1:
        raise InputError("the block size must be at least 1")
    if threads is not None:
        if not 1 <= threads <= numba.config.NUMBA_NUM_THREADS:
            raise InputError(f"threads must be 1 to {numba.config.NUMBA_NUM_THREADS}")
        numba.set_num_threads(threads)
    width = g.agg_size(unit, table.n_seats)
    settings = run_settings(table, seat_players, unit, seed)
    if out is not None:  # refuse a folder before spending time on compiling
        RunFolder.check(out, settings, n, width=width, records=records, resume=resume)
    recipe = None
    if chosen is Backend.dask:
        recipe = PlayRecipe.of(table, seat_players, unit, seed, records, plugins)
    compile_s = 0.0
    runner: BlockRunner | None = None
    if chosen is Backend.local:
        runner = BlockRunner(table, seat_players, unit, seed)
        compile_s = runner.compile()
        if records:
            t0 = time.perf_counter()
            runner.records(0, 1, n_chunks=1)
            compile_s += time.perf_counter() - t0
    work = Work(local=lambda: lambda first, count: play_block(runner, first, count, records), recipe=recipe)
    backend_options = {"backend": chosen, "scheduler": scheduler, "workers": workers}
    backend_options["connect_timeout"] = connect_timeout
    max_block = MAX_RECORDS_BLOCK if records else MAX_BLOCK
    if out is None:
        total = np.zeros(width, dtype=np.int64)
        games = 0
        kept: list[tuple[int, np.ndarray]] = []

        def add(first: int, count: int, played: Played) -> None:
            nonlocal total, games
            total += played.agg
            games += count
            if records and played.rec is not None:
                kept.append((first, played.rec))
            if progress is not None:
                progress(count)

        plan = BlockPlan([(0, n)], block_size, max_block=max_block)
        stop = stop if stop is not None else threading.Event()
        with sigint_sets(stop):  # Ctrl-C ends the run after the block in flight: the finished games count
            ran = run_blocks(work, plan, add, stop=stop, **backend_options)
        args = (table, seat_players, unit, games, seed, total, ran.elapsed_s, compile_s + ran.compile_s)
        result = make_result(*args, {"backend": chosen.value, **seed_extra}) if games else None
        if result is not None:
            mark_partial(result, n)
        if result is not None and records:
            result.record_frame = records_frame(g, unit, table.n_seats, kept)
        if ran.stopped:
            raise RunInterrupted(None, games, n, unit, result)
        assert result is not None
        return result
    with RunFolder.open(out, settings, n, width=width, records=records, resume=resume) as folder:
        writer = None
        if records:
            prov = provenance(
                seed, table.rules_dict(), list(seat_players), {**_reaction_extra(table), **seed_extra}
            )
            writer = RecordWriter(Path(out) / RECORDS_DIR, g, unit, table.n_seats, prov, settings)
            writer.prune(folder.done)
        if progress is not None and folder.games:
            progress(folder.games)

        def persist(first: int, count: int, played: Played) -> None:
            if writer is not None:
                assert played.rec is not None
                writer.write(first, played.rec)
            folder.add(first, count, played.agg)
            if progress is not None:
                progress(count)

        stop = stop if stop is not None else threading.Event()
        plan = BlockPlan(folder.gaps(), block_size, max_block=max_block)
        with sigint_sets(stop):
            ran = None
            if plan.remaining:
                ran = run_blocks(
                    work, plan, persist, stop=stop, started=folder.start_clock, **backend_options
                )
        complete = not folder.gaps()
        extra = {"backend": chosen.value, **seed_extra, **folder.provenance(complete)}
        result = None
        if folder.games:
            result = make_result(
                table,
                seat_players,
                unit,
                folder.games,
                seed,
                folder.agg.copy(),
                folder.elapsed_s,
                compile_s + (ran.compile_s if ran else 0.0),
                extra,
            )
            mark_partial(result, n)
            folder.write_summary(result)
            if records:
                result.records_path = Path(out) / RECORDS_DIR
        if not complete:
            raise RunInterrupted(Path(out), folder.games, n, unit, result)
        assert result is not None
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
        raise StrategyError(f"{exc}, in {unit} {game_index} of the run with seed {seed}") from None
    lines = header(table, seat_players, seed, game_index, unit)
    return "\n".join([*lines, "", cap_lines(body, max_lines)])


__all__ = ["InputError", "RunInterrupted", "SpecError", "StrategyCompileError", "simulate", "trace"]
