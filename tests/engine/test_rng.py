"""The plain-Python and jitted random streams are the same generator."""

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from simulator.engine.rng import (
    DEAL,
    DECIDE,
    Stream,
    below_nb,
    lognormal_nb,
    shuffle_nb,
    stream_key,
    stream_key_nb,
    uniform_nb,
)

seeds = st.integers(0, 2**63 - 1)


@given(seeds, st.integers(0, 10**12), st.integers(1, 4), st.integers(0, 200), st.integers(0, 15))
def test_stream_keys_agree(seed, game, kind, deal, seat):
    assert int(stream_key_nb(seed, game, kind, deal, seat)) == stream_key(seed, game, kind, deal, seat)


@given(seeds, st.integers(0, 10**9))
def test_draws_agree(seed, game):
    py = Stream(seed, game, DECIDE, 3, 1)
    state = py.as_array()
    for n in (1, 2, 5, 6, 52, 1000):
        assert below_nb(state, n) == py.below(n)
    assert uniform_nb(state) == py.uniform()
    assert abs(lognormal_nb(state, 0.8, 0.35) - py.lognormal(0.8, 0.35)) < 1e-12
    assert int(state[0]) == py.state


@given(seeds, st.integers(0, 10**9))
def test_shuffles_agree_and_are_permutations(seed, game):
    py = Stream(seed, game, DEAL)
    deck = np.empty(52, np.int64)
    shuffle_nb(py.as_array(), deck)
    assert deck.tolist() == py.shuffled(52)
    assert sorted(deck.tolist()) == list(range(52))


def test_streams_differ_by_every_key_part():
    base = stream_key(7, 3, DEAL, 0, 0)
    others = {
        stream_key(8, 3, DEAL, 0, 0),
        stream_key(7, 4, DEAL, 0, 0),
        stream_key(7, 3, DECIDE, 0, 0),
        stream_key(7, 3, DEAL, 1, 0),
        stream_key(7, 3, DEAL, 0, 1),
    }
    assert base not in others and len(others) == 5


def test_below_is_uniform():
    """Chi-square check of below(6) over 60,000 draws (critical value at p = 0.001, 5 df: 20.5)."""
    s = Stream(1, 2, DECIDE)
    counts = np.bincount([s.below(6) for _ in range(60_000)], minlength=6)
    chi2 = ((counts - 10_000) ** 2 / 10_000).sum()
    assert chi2 < 20.5
