"""The faster forms of the random streams and array views give exactly what the plain ones do.

The Spøkelse round derives its three stream keys from one shared base, shuffles with the
draws made first (:func:`simulator.engine.rng.shuffle_with_nb`) and reaches its arrays through
addresses (:mod:`simulator.engine.unmanaged`); the Gris kernels draw reaction times on a state
held in a register (:func:`simulator.engine.rng.lognormal_at_nb`); these tests pin each of them to the form the
random-stream contract (docs/random-streams.md) is written in.
"""

from __future__ import annotations

import numpy as np
import pytest
from numba import njit

from simulator.engine.rng import (
    DEAL,
    DEALER,
    DECIDE,
    REACT,
    Stream,
    lognormal_at_nb,
    lognormal_nb,
    shuffle_nb,
    shuffle_with_nb,
    stream_base_nb,
    stream_key,
    stream_key_at_nb,
    stream_key_nb,
)
from simulator.engine.unmanaged import address, float64_at, int64_at, uint64_at
from simulator.games.spokelse import rules as R

CASES = [
    (0, 0),
    (7, 0),
    (7, 123456),
    (2**63 - 1, 2**63 - 1),
    (12345678901234567, 10**12),
]


@njit
def _key_from_base(seed, game, kind, round_, seat):
    return stream_key_at_nb(stream_base_nb(seed, game), kind, round_, seat)


@pytest.mark.parametrize(("seed", "game"), CASES)
@pytest.mark.parametrize("kind", [DEAL, DECIDE, REACT, DEALER])
def test_a_key_from_the_shared_base_is_the_stream_key(seed: int, game: int, kind: int) -> None:
    for round_, seat in [(0, 0), (0, 1), (3, 1), (300, 7), (2**40, 255)]:
        args = (np.int64(seed), np.int64(game), np.int64(kind), np.int64(round_), np.int64(seat))
        fast = int(_key_from_base(*args))
        assert fast == int(stream_key_nb(*args)) == stream_key(seed, game, kind, round_, seat)


@pytest.mark.parametrize("n", [0, 1, 2, 3, 20, 32, 52])
def test_shuffling_with_the_draws_first_deals_the_same_deck(n: int) -> None:
    for seed, game in CASES:
        for r in range(20):
            key = stream_key(seed, game, DEAL, r, 0)
            plain, fast = np.array([key], np.uint64), np.array([key], np.uint64)
            deck_plain, deck_fast = np.full(n, -1, np.int64), np.full(n, -1, np.int64)
            draws = np.full(max(n - 1, 1), -1, np.int64)
            shuffle_nb(plain, deck_plain)
            shuffle_with_nb(fast, deck_fast, draws)
            assert deck_fast.tolist() == deck_plain.tolist() == Stream(seed, game, DEAL, r, 0).shuffled(n)
            assert fast[0] == plain[0]  # the stream goes on from the same state


def test_the_spokelse_deal_with_a_scratch_pile_is_the_plain_deal() -> None:
    owned = R.workspace_nb()
    deck, slot, ghost, pile = owned[0], owned[1], owned[2], owned[3]
    for dealer in (0, 1):
        for seed, game in CASES:
            key = stream_key(seed, game, DEAL, 0, 0)
            rng = np.array([key, 1, 2], np.uint64)
            R.deal_nb(rng, deck, slot, ghost, dealer)
            expected = (deck.copy(), slot.copy(), ghost.copy(), rng.copy())
            rng = np.array([key, 1, 2], np.uint64)
            R.deal_with_nb(rng, deck, slot, ghost, dealer, pile)
            for got, want in zip((deck, slot, ghost, rng), expected, strict=True):
                assert (got == want).all()


@njit
def _views(a2, u1, f2):
    i = int64_at(address(a2), (2, 3))
    u = uint64_at(address(u1), (4,))
    f = float64_at(address(f2), (f2.shape[0], f2.shape[1]))
    i[1, 2] = 99
    u[3] = np.uint64(7)
    f[1, 0] = 2.5
    return address(i) == address(a2), i.shape[1], u.shape[0], f.shape[0]


def test_views_at_an_address_are_the_arrays_themselves() -> None:
    a2 = np.zeros((2, 3), np.int64)
    u1 = np.zeros(4, np.uint64)
    f2 = np.zeros((2, 5), np.float64)
    same, cols, n_u, rows = _views(a2, u1, f2)
    assert same and (cols, n_u, rows) == (3, 4, 2)
    assert a2[1, 2] == 99 and u1[3] == 7 and f2[1, 0] == 2.5  # written through the views
    assert a2.sum() == 99 and u1.sum() == 7 and f2.sum() == 2.5  # and nowhere else


@njit
def _lognormals(key, median, sigma):
    state = np.array([key], np.uint64)
    return lognormal_nb(state, median, sigma), lognormal_at_nb(key, median, sigma)


@pytest.mark.parametrize("seed, game", CASES)
def test_the_reaction_draw_on_a_register_state_is_the_plain_one(seed: int, game: int) -> None:
    for seat in range(8):
        key = stream_key(seed, game, REACT, 3, seat)
        for median, sigma in ((0.8, 0.35), (0.01, 3.0), (60.0, 0.01)):
            plain, fast = _lognormals(np.uint64(key), median, sigma)
            assert fast == plain == Stream(seed, game, REACT, 3, seat).lognormal(median, sigma)
