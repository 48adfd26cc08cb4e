"""A Spøkelse strategy whose vectorised helper draws from numpy's global generator."""

import numpy as np
from numba import vectorize

from simulator.games.spokelse.observation import PHASE, SOURCE
from strategies import strategy


@vectorize(["float64(float64)"])
def jitter(x):
    return x + np.random.random()


@strategy(game="spokelse", name="test-random-vectorized")
def random_vectorized(obs, params, rng):
    """Takes from the discard pile when a jittered coin says so; throws the card away."""
    if obs[PHASE] == SOURCE:
        return 1 if jitter(0.0) > 0.5 else 0
    return 4
