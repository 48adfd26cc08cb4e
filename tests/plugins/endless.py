"""A Spøkelse strategy whose own loop never ends once it has to place a card."""

from simulator.games.spokelse.observation import PHASE, SOURCE
from strategies import strategy


@strategy(game="spokelse", name="test-endless")
def endless(obs, params, rng):
    """Draws from the stock, then thinks forever about where to put the card."""
    if obs[PHASE] == SOURCE:
        return 0
    x = 0
    while obs[PHASE] != SOURCE:
        x = (x * 3 + 1) % 1000003
    return 4 + x
