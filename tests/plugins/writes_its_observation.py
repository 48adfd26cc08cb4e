"""A Spøkelse strategy that assigns into its own observation (which the game keeps)."""

from simulator.games.spokelse.observation import PHASE, SOURCE
from strategies import strategy


@strategy(game="spokelse", name="test-writes-its-observation")
def writes_its_observation(obs, params, rng):
    """Marks its phase entry by hand."""
    if obs[PHASE] == SOURCE:
        obs[PHASE] = 1
        return 0
    return 4
