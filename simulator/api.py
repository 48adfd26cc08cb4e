"""The Python API: ``simulate`` and its helpers.  The CLI is a thin layer over these."""

from __future__ import annotations

import secrets
import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import numba

from simulator.games import Game, InputError, Table, get_game
from simulator.results import SCHEMA_VERSION, Result, provenance
from simulator.runner import DEFAULT_BLOCK, BlockRunner, run_local
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
    block_size: int = DEFAULT_BLOCK,
    plugins: Sequence[str] = (),
    progress: Callable[[int], None] | None = None,
) -> Result:
    """Play ``rounds`` deals or ``matches`` matches and return their figures.

    ``strategies`` are specs such as ``"threshold:k=4"`` (or :class:`Player`
    objects): one for every seat, or one per seat in seat order.  ``rules``
    maps variant names to values (``{"jack": "11"}``) or is the game's Rules
    object.  The result depends only on the arguments and ``seed`` (a fresh one
    is drawn and recorded when it is None), never on ``threads`` or
    ``block_size``.
    """
    for path in plugins:
        load_plugin(path)
    g = resolve_game(game)
    unit, n = resolve_unit(rounds, matches)
    seed = resolve_seed(seed)
    table = make_table(g, rules, players, reaction)
    seat_players = resolve_players(g, strategies, table.n_seats)
    if block_size < 1:
        raise InputError("the block size must be at least 1")
    if threads is not None:
        if not 1 <= threads <= numba.config.NUMBA_NUM_THREADS:
            raise InputError(f"threads must be 1 to {numba.config.NUMBA_NUM_THREADS}")
        numba.set_num_threads(threads)
    runner = BlockRunner(table, seat_players, unit, seed)
    compile_s = runner.compile()
    t0 = time.perf_counter()
    agg = run_local(runner, n, block_size=block_size, progress=progress)
    elapsed = time.perf_counter() - t0
    return make_result(table, seat_players, unit, n, seed, agg, elapsed, compile_s)


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
    extra = {"reaction": [list(r) for r in table.reaction]} if table.reaction else {}
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


__all__ = ["InputError", "SpecError", "simulate", "trace"]
