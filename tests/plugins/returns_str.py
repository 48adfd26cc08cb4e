"""A Spøkelse strategy that answers a string on one path (the name of the action, not it)."""

from simulator.games.spokelse.observation import (
    DISCARD_VALUE,
    PHASE,
    SOURCE,
    Place,
    Source,
)
from strategies import strategy


@strategy(game="spokelse", name="test-returns-str")
def returns_str(obs, params, rng):
    """Takes a low discard card, else names the stock."""
    if obs[PHASE] == SOURCE:
        if obs[DISCARD_VALUE] <= 2:
            return Source.DISCARD_PILE
        return "stock"  # line 19: a str, not Source.STOCK
    if obs[DISCARD_VALUE] > 20:
        return 4
    return Place.DISCARD
