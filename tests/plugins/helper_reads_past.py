"""A Spøkelse strategy whose jitted helper (below it in the file) reads past the row."""

from numba import njit

from simulator.games.spokelse.observation import OBS_SIZE, PHASE, SOURCE
from strategies import strategy


@strategy(game="spokelse", name="test-helper-reads-past")
def helper_reads_past(obs, params, rng):
    """Asks its helper for the entry past its row."""
    if obs[PHASE] == SOURCE:
        return 0 if peek(obs) >= -1 else 1
    return 4


@njit
def peek(obs):
    return obs[OBS_SIZE + 2]
