"""``simulator.check_game(game)``: does a game keep the contract the engine relies on?

In the spirit of Gymnasium's ``check_env`` and OpenSpiel's random-simulation test, one call
plays a game's compiled kernel and its readable reference side by side and checks what every
figure kortsim prints rests on:

- **registry**: the shipped strategies have the dispatcher's ids 0, 1, 2, ... in order;
- **hook**: the kernel calls its strategies only through its hook ``decide_nb``, the game's
  shipped dispatcher, and its block entry points and trace reach it by plain names (what a
  kernel for users' strategies is copied by: docs/kernels.md);
- **moves**: the kernel plays the reference's games, move by move, for every shipped strategy
  at the smallest, default and largest table;
- **records**: the record of each game a run writes is the reference's game;
- **determinism**: the same seed gives the same figures with 1 or 2 threads and any block size,
  and another seed other ones;
- **cards**: through reference rounds every card is in exactly one place after every move;
- **observations**: every observation a strategy is handed has the declared size and each
  piece is within the bounds of its kind (a flag 0 or 1, a seat below the table's size, a card
  code from -1 to 51, a value of at least -1).

Each check raises :class:`ConformanceError` naming the game, the check and the first thing
that differs; :func:`check_game` runs them all and returns what was compared.  The test suite
runs every check on every registered game (``tests/games/test_conformance.py``), and
docs/adding-a-game.md shows the call for a new game.
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np

from simulator.engine.arguments import conforms, refuse
from simulator.errors import InputError
from simulator.games import Game, get_game
from simulator.games.base import UNITS
from strategies.registry import Player, families

#: (seed, game index, deal) of the games compared move by move: small, large and extreme keys
CASES = ((0, 0, 0), (7, 3, 1), (2**63 - 1, 2**40 + 5, 2), (12345, 999_999, 0))
#: lowest and highest value of an observation piece of each kind (None: no bound that side)
KIND_BOUNDS: dict[str, tuple[int | None, int | None]] = {
    "flag": (0, 1),
    "code": (-1, 51),
    "value": (-1, None),
    "count": (0, None),
    "mask": (0, None),
}


class ConformanceError(AssertionError):
    """A game that breaks the contract; the message names the game, the check and what differs."""


@dataclass
class Conformance:
    """What :func:`check_game` compared: per check, how many moves, games or observations."""

    game: str
    seats: tuple[int, ...]
    counts: dict[str, int] = field(default_factory=dict)

    def __str__(self) -> str:
        done = ", ".join(f"{name} ({n:,})" for name, n in self.counts.items())
        return f"{self.game} keeps the contract at {', '.join(map(str, self.seats))} seats: {done}"


def _fail(game: Game, check: str, what: str) -> None:
    raise ConformanceError(f"{game.name}: {check}: {what}")


def seat_counts(game: Game) -> list[int]:
    """The smallest, default and largest table of ``game``."""
    return sorted({game.min_seats, game.default_seats, game.max_seats})


def shipped(game: Game) -> list[Player]:
    """Every shipped strategy of ``game`` at its defaults, in builtin-id order (users'
    strategies registered in the same process are left out)."""
    fams = [f for f in families(game.name).values() if f.builtin_id is not None]
    return [f.player() for f in sorted(fams, key=lambda f: f.builtin_id)]


def lineups(game: Game, n: int) -> list[list[Player]]:
    """Tables of ``n`` shipped strategies: rotations of them (every one plays every seat when
    there are enough seats) and a table of each strategy alone."""
    pool = shipped(game)
    mixed = [[pool[(s + k) % len(pool)] for s in range(n)] for k in range(min(len(pool), n))]
    return mixed + [[p] * n for p in pool]


def check_registry(game: Game) -> int:
    """The shipped strategies are registered with the dispatcher's ids 0, 1, 2, ..."""
    pool = shipped(game)
    if not pool:
        _fail(game, "registry", f"no shipped strategy registered by {game.strategies_module}")
    from strategies.registry import builtin_decides

    try:  # the one test of the ids: the one the game's dispatcher is built by
        decides = builtin_decides(game.name)
    except ValueError as exc:
        _fail(game, "registry", str(exc))
    if len(decides) != len(pool):
        _fail(
            game, "registry", f"{len(pool)} shipped strategies, of which {len(decides)} have a dispatcher id"
        )
    return len(pool)


def check_hook(game: Game) -> int:
    """The kernel's hook is the shipped dispatcher and its entry points reach it by plain
    names (:mod:`simulator.kernels.hooks`); returns how many functions reach it."""
    import importlib

    from simulator.kernels.hooks import HOOK, HookError, reaching

    kernel = game.kernel
    hook = getattr(kernel, HOOK, None)
    if hook is None:
        _fail(game, "hook", f"{kernel.__name__} has no module global {HOOK} (the strategies' dispatcher)")
    dispatcher = getattr(importlib.import_module(game.strategies_module), "decide_builtin_nb", None)
    if hook is not dispatcher:
        _fail(game, "hook", f"{kernel.__name__}.{HOOK} is not decide_builtin_nb of {game.strategies_module}")
    try:
        found = reaching(kernel)
    except HookError as exc:
        _fail(game, "hook", str(exc))
    for entry in ("run_block_nb", "records_block_nb", "trace_round_nb"):
        fn = getattr(kernel, entry, None)
        fn = getattr(fn, "chunk", fn)  # a block entry point plays its chunk kernel
        if not any(f is fn for f in found):
            _fail(game, "hook", f"{kernel.__name__}.{entry} does not reach {HOOK}: it would play no strategy")
    return len(found)


def check_moves(game: Game, n: int) -> int:
    """The kernel plays the reference's games move by move; returns the moves compared."""
    table = game.table(n_seats=n)
    played = 0
    for players, (seed, index, deal) in itertools.product(lineups(game, n), CASES):
        mine = game.moves(table, players, seed, index, deal, "kernel")
        ref = game.moves(table, players, seed, index, deal, "reference")
        where = f"{[p.spec for p in players]} seed={seed} game={index} deal={deal}"
        for k, (a, b) in enumerate(zip(mine, ref, strict=False)):
            if a != b:
                _fail(game, "moves", f"{where}: move {k} differs: kernel {a}, reference {b}")
        if len(mine) != len(ref):
            _fail(game, "moves", f"{where}: kernel {len(mine)} moves, reference {len(ref)}")
        played += len(ref)
    if played == 0:
        _fail(game, "moves", f"no move was played at {n} seats")
    return played


def check_records(game: Game, n: int, unit: str) -> int:
    """The records a run writes are the reference's games; returns the games compared."""
    from simulator.running.runner import BlockRunner

    table = game.table(n_seats=n)
    count = 4 if unit == "round" else 2
    for players in lineups(game, n)[:2]:
        rec = BlockRunner(table, players, unit, seed=5).records(10, count)
        for i in range(count):
            ref = game.reference_record(table, players, 5, 10 + i, unit)
            if tuple(int(x) for x in rec[i]) != tuple(ref):
                _fail(
                    game, "records", f"{[p.spec for p in players]} {unit} {10 + i}: the run's record differs"
                )
    return 2 * count


def check_determinism(game: Game, n: int, unit: str) -> int:
    """The same seed gives the same figures for any thread count and block size, twice, and
    another seed other ones; returns the runs compared."""
    import numba

    from simulator.api import simulate

    count = 60 if unit == "round" else 8
    amount = {"rounds": count} if unit == "round" else {"matches": count}
    specs = [p.spec for p in lineups(game, n)[0]]
    two = min(2, numba.config.NUMBA_NUM_THREADS)
    runs = []
    before = numba.get_num_threads()
    try:
        for threads, block in ((1, 1 << 16), (two, 1 << 16), (two, 7), (1, 5), (1, 1 << 16)):
            r = simulate(game.name, specs, players=n, seed=21, threads=threads, block_size=block, **amount)
            runs.append((r.aggregates.tolist(), json.dumps(r.without_timing(), sort_keys=True)))
    finally:
        numba.set_num_threads(before)
    for (threads, block), run in zip(((two, 1 << 16), (two, 7), (1, 5), (1, 1 << 16)), runs[1:], strict=True):
        if run != runs[0]:
            _fail(game, "determinism", f"{unit}s differ with {threads} threads and blocks of {block}")
    if not any(runs[0][0]):
        _fail(game, "determinism", f"a run of {count} {unit}s wrote no aggregates")
    other = simulate(game.name, specs, players=n, seed=22, **amount)
    if other.aggregates.tolist() == runs[0][0]:
        _fail(game, "determinism", "seeds 21 and 22 play the same games: the seed is not used")
    return len(runs) + 1


def check_cards(game: Game, n: int) -> int:
    """Every card is in exactly one place after every move of reference rounds; returns the
    states checked."""
    table = game.table(n_seats=n)
    states_seen = 0
    for players, (seed, index, _) in itertools.product(lineups(game, n)[:3], CASES):
        cards, states = game.card_places(table, players, seed, index)
        if not cards or len(set(cards)) != len(cards):
            _fail(game, "cards", f"seed={seed} game={index}: the cards in play repeat or are none")
        for k, state in enumerate(states):
            held = sorted(c for place in state.values() for c in place)
            if held != sorted(cards):
                _fail(game, "cards", f"seed={seed} game={index}: state {k} loses or doubles a card")
        states_seen += len(states)
    return states_seen


def _observing(players: Sequence[Player], seen: list[np.ndarray]) -> list[Player]:
    """The players, each keeping a copy of every observation it is handed."""

    def wrap(player: Player) -> Player:
        decide = player.family.decide

        def observed(obs: np.ndarray, params: np.ndarray, rng: np.ndarray) -> Any:
            seen.append(np.array(obs, dtype=np.int64))
            return decide(obs, params, rng)

        return replace(player, family=replace(player.family, decide=observed))

    return [wrap(p) for p in players]


def observation_violations(game: Game, n: int, obs: np.ndarray) -> Iterator[str]:
    """What in one observation is outside its declaration (nothing for a good one)."""
    layout = game.observation
    if obs.shape != (layout.size(n),):
        yield f"an observation of {obs.size} values, declared {layout.size(n)}"
        return
    for piece, start, stop in layout.spans(n):
        lo, hi = KIND_BOUNDS.get(piece.kind, (None, None))
        if piece.kind == "seat":
            lo, hi = -1, n - 1
        for i in range(start, stop):
            v = int(obs[i])
            if (lo is not None and v < lo) or (hi is not None and v > hi):
                bounds = f"{lo if lo is not None else '-inf'}..{hi if hi is not None else 'inf'}"
                yield f"{piece.name} ({piece.kind}) at offset {i} is {v}, outside {bounds}"


def check_observations(game: Game, n: int) -> int:
    """Every observation of reference games is within its declared layout; returns the
    observations checked."""
    table = game.table(n_seats=n)
    checked = 0
    for players, (seed, index, deal) in itertools.product(lineups(game, n)[:3], CASES):
        seen: list[np.ndarray] = []
        game.moves(table, _observing(players, seen), seed, index, deal, "reference")
        for k, obs in enumerate(seen):
            for why in observation_violations(game, n, obs):
                _fail(game, "observations", f"seed={seed} game={index} decision {k}: {why}")
        checked += len(seen)
    if checked == 0:
        _fail(game, "observations", f"no strategy was asked to decide at {n} seats")
    return checked


#: the checks :func:`check_game` runs, by name, each with the arguments it takes
CHECKS: dict[str, Callable[..., int]] = {
    "registry": check_registry,
    "hook": check_hook,
    "moves": check_moves,
    "records": check_records,
    "determinism": check_determinism,
    "cards": check_cards,
    "observations": check_observations,
}


def check_game(game: str | Game, *, seats: Sequence[int] | None = None) -> Conformance:
    """Check that ``game`` keeps the contract the engine relies on; raise on the first breach.

    Parameters
    ----------
    game : str or Game
        A registered game's id (``"spokelse"``) or a :class:`~simulator.games.base.Game`.
    seats : sequence of int, optional
        The table sizes to play (default: the game's smallest, default and largest).

    Returns
    -------
    Conformance
        How many strategies, moves, records, runs, card states and observations were
        compared, per check (``str()`` says it in a line).

    Raises
    ------
    ConformanceError
        The first check that fails, naming the game, the check and what differs.
    InputError
        ``game`` is not a registered game, ``seats`` is not a list of whole numbers or has a
        size the game does not allow (one line).
    """
    g = get_game(game) if isinstance(game, str) else game
    if not isinstance(g, Game):
        raise InputError(f"check_game needs a game id or a Game, got {type(game).__name__}")
    if seats is not None and (not conforms(seats, Sequence[int]) or not seats):
        raise refuse("seats", "a list of table sizes (whole numbers)", seats)
    sizes = tuple(seat_counts(g) if seats is None else (int(n) for n in seats))
    for n in sizes:
        if not g.min_seats <= n <= g.max_seats:
            raise InputError(
                f"seats: {g.name} is played by {g.min_seats} to {g.max_seats} players, not {n!r}"
            )
    report = Conformance(g.name, sizes, {"registry": check_registry(g), "hook": check_hook(g)})
    for name in ("moves", "cards", "observations"):
        report.counts[name] = sum(CHECKS[name](g, n) for n in sizes)
    for name in ("records", "determinism"):
        report.counts[name] = sum(CHECKS[name](g, n, unit) for n in sizes for unit in UNITS)
    return report


__all__ = [
    "CASES",
    "CHECKS",
    "Conformance",
    "ConformanceError",
    "check_cards",
    "check_determinism",
    "check_game",
    "check_hook",
    "check_moves",
    "check_observations",
    "check_records",
    "check_registry",
    "lineups",
    "observation_violations",
    "seat_counts",
    "shipped",
]
