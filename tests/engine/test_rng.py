"""The plain-Python and jitted random streams are the same generator."""

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from simulator.engine.rng import (
    DEAL,
    DECIDE,
    Stream,
    below_in,
    below_nb,
    lognormal_nb,
    row_salt_nb,
    salted,
    salted_nb,
    seat_salt_nb,
    shuffle_nb,
    stream_key,
    stream_key_nb,
    uniform_in,
    uniform_nb,
)
from strategies.params import PARAM_ROW, SALT_AT, row_salt

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
def test_draws_on_a_held_state_agree_with_the_jitted_ones(seed, game):
    state = Stream(seed, game, DECIDE, 2, 0).as_array()
    held = state.copy()
    for n in (1, 4, 6, 52):
        assert below_in(held, n) == below_nb(state, n)
        assert uniform_in(held) == uniform_nb(state)
    assert held[0] == state[0]


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


@given(seeds, st.integers(0, 10**12), st.integers(0, 200), st.integers(0, 15), st.integers(0, 2**32 - 1))
def test_salted_keys_agree_and_salt_zero_is_the_key(seed, game, deal, seat, salt):
    key = stream_key(seed, game, DECIDE, deal, seat)
    assert int(salted_nb(np.uint64(key), np.uint64(salt))) == salted(key, salt)
    assert Stream(seed, game, DECIDE, deal, seat, salt).state == salted(key, salt)
    assert salted(key, 0) == key == Stream(seed, game, DECIDE, deal, seat).state


def test_each_copy_salt_gives_a_stream_of_its_own():
    """A copy's key is none of the unsalted keys of the nearby seats, deals and kinds."""
    plain = {
        stream_key(7, 3, kind, deal, seat) for kind in range(1, 6) for deal in range(4) for seat in range(9)
    }
    copies = [salted(stream_key(7, 3, DECIDE, 0, 0), salt) for salt in range(1, 50)]
    assert len(set(copies)) == len(copies) and not plain & set(copies)
    first_draws = {Stream(7, 3, DECIDE, 0, 0, salt).next_u64() for salt in range(4)}
    assert len(first_draws) == 4  # the copies of one seat draw differently from the first draw


def test_a_row_too_narrow_for_the_salt_has_salt_zero():
    row = np.zeros(PARAM_ROW)
    row[SALT_AT] = 3
    assert row_salt(row) == 3 and int(row_salt_nb(row, PARAM_ROW)) == 3
    assert row_salt(row[:SALT_AT]) == 0 and int(row_salt_nb(row[:SALT_AT], SALT_AT)) == 0
    matrix = np.stack([np.zeros(PARAM_ROW), row])
    assert int(seat_salt_nb(matrix, 1, PARAM_ROW)) == 3 and int(seat_salt_nb(matrix, 0, PARAM_ROW)) == 0
    assert int(seat_salt_nb(matrix[:, :SALT_AT].copy(), 1, SALT_AT)) == 0
