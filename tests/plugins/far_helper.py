"""A Spøkelse strategy whose own-module helper reads a hundred million entries away."""

from numba import njit

from simulator.games.spokelse.observation import PHASE, SOURCE
from strategies import strategy


@njit
def far(obs):
    return obs[100_000_000]


@strategy(game="spokelse", name="test-far-helper")
def far_helper(obs, params, rng):
    """Reads far away through its helper."""
    if obs[PHASE] == SOURCE:
        return 0 if far(obs) != 12345 else 1
    return 4
