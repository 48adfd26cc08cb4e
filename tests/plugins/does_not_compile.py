"""A Spøkelse strategy numba cannot compile: arrays have no attribute ``best``."""

from simulator.games.spokelse.observation import PHASE, SOURCE
from strategies import strategy


@strategy(game="spokelse", name="test-does-not-compile")
def does_not_compile(obs, params, rng):
    """Reads an attribute that arrays do not have."""
    if obs[PHASE] == SOURCE:
        return 0
    return obs.best  # line 12: numba objects here
