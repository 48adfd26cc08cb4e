"""A Spøkelse strategy that reads past its row through a jitted helper of its own file,
called through another helper and with an explicit signature."""

from numba import njit

from simulator.games.spokelse.observation import OBS_SIZE, PHASE, SOURCE
from strategies import strategy


@njit("int64(int64[::1], int64)")
def far(obs, i):
    return obs[i]


@njit
def peek(obs):
    return far(obs, OBS_SIZE + 3)


@strategy(game="spokelse", name="test-peek-module")
def peek_module(obs, params, rng):
    """Answers what it read past its row (the other seat's data)."""
    if obs[PHASE] == SOURCE:
        return 1 if peek(obs) > 0 else 0
    return 4
