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
    play_block,
    resolve_backend,
    run_blocks,
    sigint_sets,
)
from simulator.checkpoint import RunFolder, RunInterrupted, run_settings, stored_seed
from simulator.games import Game, InputError, Table, get_game
from simulator.records import RECORDS_DIR, RecordWriter
from simulator.results import SCHEMA_VERSION, Result, provenance
from simulator.runner import BlockRunner
from strategies.registry import Player, SpecError, load_plugin, parse_spec

MAX_SEED = (1 << 63) - 1


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
    if len(players) == 1:
        return players * n_seats
    if len(players) != n_seats:
        raise InputError(
            f"{len(players)} strategies for {n_seats} seats: give one for every seat, or one for all"
        )
    return players


def resolve_unit(rounds: int | None, matches: int | None) -> tuple[str, int]:
    if (rounds is None) == (matches is None):
        raise InputError("give exactly one of --rounds N or --matches N")
    unit, n = ("round", rounds) if rounds is not None else ("match", matches)
    if not isinstance(n, int) or isinstance(n, bool) or n <= 0:
        raise InputError(
            f"the number of {unit}es must be a positive whole number, not {n!r}".replace("roundes", "rounds")
        )
    return unit, n


def resolve_seed(seed: int | None) -> int:
    if seed is None:
        return secrets.randbits(63)
    if not 0 <= int(seed) <= MAX_SEED:
        raise InputError(f"the seed must be a whole number from 0 to {MAX_SEED}")
    return int(seed)


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
    seed: int | None = None,
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
    maps variant names to values (``{"jack": "11"}``) or is the game's Rules
    object.  The result depends only on the arguments and ``seed`` (a fresh one
    is drawn and recorded when it is None), never on ``threads``,
    ``block_size`` (default: sized so that a block takes about a quarter of a
    second) or the backend.

    ``backend="dask"`` plays the blocks on a Dask cluster: the one at
    ``scheduler`` (an address or a scheduler file; default: Dask's configured
    ``scheduler-address``), else a LocalCluster of ``workers`` processes
    (``simulator/backends.py``).

    ``out`` makes the run resumable: finished blocks are persisted in that folder
    as they complete and ``summary.parquet`` is written there at the end
    (``simulator/checkpoint.py``).  Setting ``stop`` (or Ctrl-C in the main
    thread) ends the run after the blocks in flight, writes the figures of the
    finished games and raises :class:`RunInterrupted`.  ``resume=True`` continues
    the run in ``out`` (its seed is used when ``seed`` is None) or extends it to
    more games; other settings must be the same.  ``records=True`` also writes one
    row per game to ``out/records/`` (``simulator/records.py``).
    """
    for path in plugins:
        load_plugin(path)
    g = resolve_game(game)
    unit, n = resolve_unit(rounds, matches)
    chosen = resolve_backend(backend)
    check_backend_options(chosen, scheduler, workers, threads)
    if out is None and (resume or records):
        raise InputError(f"{'--resume' if resume else '--records'} needs --out DIR (the run's folder)")
    if resume and seed is None:
        seed = stored_seed(out)  # type: ignore[arg-type]
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

        def add(first: int, count: int, played: Played) -> None:
            nonlocal total, games
            total += played.agg
            games += count
            if progress is not None:
                progress(count)

        plan = BlockPlan([(0, n)], block_size, max_block=max_block)
        ran = run_blocks(work, plan, add, stop=stop, **backend_options)
        args = (table, seat_players, unit, games, seed, total, ran.elapsed_s, compile_s + ran.compile_s)
        result = make_result(*args, {"backend": chosen.value}) if games else None
        if ran.stopped:
            raise RunInterrupted(None, games, n, unit, result)
        assert result is not None
        return result
    with RunFolder.open(out, settings, n, width=width, records=records, resume=resume) as folder:
        writer = None
        if records:
            prov = provenance(seed, table.rules_dict(), list(seat_players), _reaction_extra(table))
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
        extra = {"backend": chosen.value, **folder.provenance(complete)}
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
            folder.write_summary(result)
        if not complete:
            raise RunInterrupted(Path(out), folder.games, n, unit, result)
        assert result is not None
        return result


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
) -> str:
    """Game ``game_index`` of the run with this seed, move by move, as text."""
    for path in plugins:
        load_plugin(path)
    g = resolve_game(game)
    if unit not in ("round", "match"):
        raise InputError("unit must be 'round' or 'match'")
    if game_index < 0:
        raise InputError("--game counts from 0")
    seed = resolve_seed(seed)
    table = make_table(g, rules, players, reaction)
    seat_players = resolve_players(g, strategies, table.n_seats)
    return g.trace(table, seat_players, seed, game_index, unit)


__all__ = ["InputError", "RunInterrupted", "SpecError", "simulate", "trace"]
