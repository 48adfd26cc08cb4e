"""A Spøkelse strategy that draws from Python's ``random`` module, through a helper."""

import random

from numba import njit

from simulator.games.spokelse.observation import PHASE, SOURCE
from strategies import strategy


@strategy(game="spokelse", name="test-python-random")
def python_random(obs, params, rng):
    """Throws away every stock card; puts it into a random slot now and then."""
    if obs[PHASE] == SOURCE:
        return 0
    return pick()


@njit
def pick():
    return 4 if random.random() < 0.9 else random.randint(0, 3)
