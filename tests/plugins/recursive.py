"""A Spøkelse strategy that calls itself without end (a stack overflow when compiled)."""

from simulator.games.spokelse.observation import PHASE, SOURCE
from strategies import strategy


@strategy(game="spokelse", name="test-recursive")
def recursive(obs, params, rng):
    """Asks itself what to do."""
    if obs[PHASE] == SOURCE:
        return recursive(obs, params, rng)
    return 4
