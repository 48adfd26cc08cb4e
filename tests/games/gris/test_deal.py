"""The round kernel's fused deal (``deal.py``) against the plain steps it replaces: the
shuffle of ``simulator.engine.rng``, ``rules.deal_nb`` and ``rules.dealt_signallers_nb``."""

from __future__ import annotations

import numpy as np
import pytest
from numba import njit

from simulator.engine.cards import N_CARDS, N_RANKS
from simulator.engine.rng import DEAL, Stream, shuffle_nb, shuffled_from_key_nb, stream_key
from simulator.games.gris import rules as R
from simulator.games.gris.deal import deal_rows_nb, popcount_nb

CASES = [(0, 0), (1, 7), (20260101, 123456), (2**63 - 1, 2**40 + 3)]


def workspace() -> tuple:
    """A workspace holding what some earlier round left (the deal must set all it uses)."""
    ws = R.workspace_nb()
    obs, owner, straight, signallers, hands = ws[1], ws[2], ws[3], ws[6], ws[8]
    obs[:] = 77
    owner[:] = 5
    straight[:] = 1
    signallers[:] = 1
    hands[:] = 123
    return obs, owner, straight, signallers, hands


def plain_deal(deck: np.ndarray, n: int, dealer: int) -> tuple:
    obs, owner, straight, signallers, hands = workspace()
    six = R.deal_nb(deck, n, dealer, obs, hands, owner, straight)
    dealt = R.dealt_signallers_nb(obs, n, six, signallers)
    return dealt, obs[:n].copy(), hands[:n].copy(), owner.copy(), straight.copy(), signallers[:n].copy()


def fused_deal(deck: np.ndarray, n: int, dealer: int) -> tuple:
    obs, owner, straight, signallers, hands = workspace()
    dealt = deal_rows_nb(deck, n, R.six_seat_nb(dealer, n), obs, hands, owner, straight, signallers)
    return dealt, obs[:n].copy(), hands[:n].copy(), owner.copy(), straight.copy(), signallers[:n].copy()


def test_the_shuffle_with_its_draws_first_is_the_streams_shuffle() -> None:
    draws = np.full(N_CARDS, -1, np.int64)
    for seed, game in CASES:
        for deal in range(30):
            key = stream_key(seed, game, DEAL, deal, 0)
            plain = np.array([key], np.uint64)
            deck_plain, deck_fused = np.empty(N_CARDS, np.int64), np.empty(N_CARDS, np.int64)
            shuffle_nb(plain, deck_plain)
            state = shuffled_from_key_nb(np.uint64(key), deck_fused, draws)
            assert (
                deck_fused.tolist()
                == deck_plain.tolist()
                == Stream(seed, game, DEAL, deal, 0).shuffled(N_CARDS)
            )
            assert state == plain[0]  # the stream stands where the plain shuffle leaves it


@pytest.mark.parametrize("n", [2, 3, 4, 6, 8, 10])
def test_the_fused_deal_is_the_plain_deal(n: int) -> None:
    rng = np.random.default_rng(n)
    decks = [rng.permutation(N_CARDS) for _ in range(40)]
    # Decks that deal some seats five of a suit (the dealt signal), the six-card seat too.
    for complete in range(1, n + 1):
        order = np.arange(N_CARDS)
        deck = np.empty(N_CARDS, np.int64)
        for k in range(5 * n):  # deck[k] goes to seat (six + k) % n: card j of that seat
            seat, j = k % n, k // n
            deck[k] = order[(seat % 4) * N_RANKS + (seat // 4) * 5 + j] if seat < min(complete, 8) else -1
        rest = [c for c in range(N_CARDS) if c not in set(deck[: 5 * n].tolist())]
        deck[[k for k in range(5 * n) if deck[k] < 0]] = rest[: sum(deck[: 5 * n] < 0)]
        deck[5 * n :] = [c for c in rest if c not in set(deck[: 5 * n].tolist())]
        assert sorted(deck.tolist()) == list(range(N_CARDS))
        decks.append(deck)
    signalled = 0
    for deck in decks:
        deck = np.ascontiguousarray(deck, np.int64)
        for dealer in range(n):
            want, got = plain_deal(deck, n, dealer), fused_deal(deck, n, dealer)
            for w, g in zip(want, got, strict=True):
                assert np.array_equal(w, g)
            signalled += want[0]
    assert signalled >= n * (n - 1)  # the hand-made decks did deal complete hands


@njit
def _popcount(x):
    return popcount_nb(x)


def test_popcount_counts_the_set_bits() -> None:
    for x in (0, 1, 0b1011, 2**52 - 1, 2**64 - 1):
        assert _popcount(np.uint64(x)) == bin(x).count("1")
