"""The seeds of a tune, all derived from the one seed given (``--seed``).

From ``root = numpy.random.SeedSequence(seed)``'s entropy, with distinct spawn keys:

* the **search** deals: ``SeedSequence(seed, spawn_key=(0,))``;
* the **confirmation** deals: ``SeedSequence(seed, spawn_key=(1, j))`` for the least
  ``j >= 0`` whose per-game keys can never meet the search's (below);
* the optimiser's sampler before trial ``i`` of iteration ``it``:
  ``SeedSequence(seed, spawn_key=(2, it, i))``.

Each becomes an integer seed as every SeedSequence does (docs/random-streams.md).  A
game's streams all start from ``mix64(mix64(seed + GOLDEN) ^ game)``; ``mix64`` is a
bijection, so game ``g`` of the search and game ``h`` of the confirmation share a key only
when ``A_search ^ A_confirm == g ^ h`` with ``A = mix64(seed + GOLDEN)``.  Game indices are
below ``2**40`` (at most 10**12 games), so when ``A_search ^ A_confirm`` has a bit set at or
above bit 40 no game of the confirmation is a game of the search: every deal, decision
and reaction stream the confirmation plays is one the search never saw.
"""

from __future__ import annotations

import numpy as np

from simulator.engine.rng import GOLDEN, MASK64, mix64
from simulator.running.setup import resolve_seed

GAME_BITS = 40  # every game index of a run is below 2**40 (MAX_GAMES = 10**12)


def game_base(seed: int) -> int:
    """``mix64(seed + GOLDEN)``: what every stream key of a run's games starts from."""
    return mix64((seed + GOLDEN) & MASK64)


def disjoint(seed_a: int, seed_b: int) -> bool:
    """Whether no game index below ``2**40`` of a run with ``seed_a`` has the same stream
    keys as any game of a run with ``seed_b``."""
    return (game_base(seed_a) ^ game_base(seed_b)) >> GAME_BITS != 0


def search_seed(seed: int) -> int:
    return resolve_seed(np.random.SeedSequence(seed, spawn_key=(0,)))


def confirm_seed(seed: int) -> int:
    """The confirmation's seed: disjoint from the search's (module docstring)."""
    s = search_seed(seed)
    j = 0
    while True:
        c = resolve_seed(np.random.SeedSequence(seed, spawn_key=(1, j)))
        if disjoint(s, c):
            return c
        j += 1


def sampler_seed(seed: int, iteration: int, trial: int) -> int:
    """The optimiser's seed before a trial: the search is a pure function of ``seed``, and a
    resumed search proposes what an uninterrupted one would have."""
    return int(
        np.random.SeedSequence(seed, spawn_key=(2, iteration, trial)).generate_state(1, np.uint64)[0] >> 33
    )
