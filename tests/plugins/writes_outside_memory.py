"""A Gris strategy that keeps its memory and also overwrites a field of its hand."""

from simulator.games.gris.observation import HAND, MEMORY
from strategies import strategy


@strategy(game="gris", name="test-writes-outside-memory")
def writes_outside_memory(obs, params, rng):
    """Notes its first card in memory, then scribbles over it in the hand."""
    obs[MEMORY] = obs[HAND]
    card = obs[HAND]
    obs[HAND] = -5
    return card
