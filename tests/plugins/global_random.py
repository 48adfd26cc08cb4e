"""A Spøkelse strategy that draws from numpy's global random generator, not its ``rng``."""

import numpy as np

from simulator.games.spokelse.observation import PHASE, SOURCE
from strategies import strategy


@strategy(game="spokelse", name="test-global-numpy-random")
def global_numpy_random(obs, params, rng):
    """Takes from the stock or the discard pile at random; throws the card away."""
    if obs[PHASE] == SOURCE:
        return 0
    return 4 if np.random.random() < 0.5 else 0
