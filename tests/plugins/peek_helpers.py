"""Helpers of the plugins ``peek_helpermodule.py`` and ``random_helpermodule.py`` (a local module of
their own): one reads past the row it is given, one draws from numpy's global generator."""

import os

import numpy as np
from numba import njit

from simulator.games.spokelse.observation import OBS_SIZE

#: Read at import from the environment: a value frozen into the compiled strategy.
LIMIT = int(os.environ.get("KORTSIM_TEST_LIMIT", "0"))


@njit
def peek(obs):
    return obs[OBS_SIZE + 3]


@njit
def coin():
    return np.random.random() < 0.5
