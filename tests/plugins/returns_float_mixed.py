"""A Spøkelse strategy that answers a float on one path, action enum members on the others."""

from simulator.games.spokelse.observation import PHASE, SOURCE, Place, Source
from strategies import strategy


@strategy(game="spokelse", name="test-returns-float-mixed")
def returns_float_mixed(obs, params, rng):
    """Draws from the stock; halves its way to a slot number."""
    if obs[PHASE] == SOURCE:
        return Source.STOCK
    if params[0] > 0:
        return params[0] / 2  # line 13: a float
    return Place.DISCARD
