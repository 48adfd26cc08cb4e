"""A Spøkelse strategy that raises an exception of its own on its third decision."""

from simulator.games.spokelse.observation import PHASE, SOURCE, TURN
from strategies import strategy


@strategy(game="spokelse", name="test-raises")
def raises(obs, params, rng):
    """Draws from the stock and throws away; gives up on turn 2."""
    if obs[TURN] >= 2:
        raise ValueError("no idea what to do")
    if obs[PHASE] == SOURCE:
        return 0
    return 4
