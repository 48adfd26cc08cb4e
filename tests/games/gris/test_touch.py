"""The round kernel's reaction times in phases (``touch.py``) are the engine's log-normals,
seat by seat, to the last bit."""

from __future__ import annotations

import numpy as np
from numba import njit

from simulator.engine.rng import REACT, Stream, lognormal_at_nb, stream_base_nb, stream_key_at_nb
from simulator.games.gris.touch import reaction_times_nb
from simulator.games.gris.variants import MAX_SEATS


@njit
def _both(seed, game, deal, n, medians, sigmas):
    base = stream_base_nb(seed, game)
    times, cosines = np.full(MAX_SEATS, -1.0), np.full(MAX_SEATS, -1.0)
    reaction_times_nb(base, deal, n, medians, sigmas, times, cosines)
    one_by_one = np.full(MAX_SEATS, -1.0)
    for s in range(n):
        one_by_one[s] = lognormal_at_nb(stream_key_at_nb(base, REACT, deal, s), medians[s], sigmas[s])
    return times, one_by_one


def test_the_phased_reaction_times_are_each_seats_lognormal() -> None:
    gen = np.random.default_rng(3)
    for k in range(300):
        n = 2 + k % (MAX_SEATS - 1)
        seed, game, deal = int(gen.integers(2**62)), int(gen.integers(2**40)), k % 7
        medians, sigmas = gen.uniform(0.05, 3.0, MAX_SEATS), gen.uniform(0.0, 1.5, MAX_SEATS)
        times, one_by_one = _both(seed, game, deal, n, medians, sigmas)
        assert times.tobytes() == one_by_one.tobytes()  # the same doubles, bit for bit
        assert (times[n:] == -1.0).all()  # and nothing past the table
        twin = Stream(seed, game, REACT, deal, n - 1)
        assert times[n - 1] == twin.lognormal(medians[n - 1], sigmas[n - 1])
