"""A Gris-nese plugin that keeps memory: it counts its own decisions in its first MEMORY slot
and otherwise plays the shipped ``greedy``, so its games are greedy's, move for move."""

from simulator.games.gris_nese.observation import MEMORY
from simulator.games.gris_nese.strategies import greedy_nb
from strategies import strategy


@strategy(game="gris-nese", name="test-greedy-counting")
def greedy_counting(obs, params, rng):
    """greedy, counting its decisions in MEMORY[0] (-1 at the deal)."""
    obs[MEMORY] = max(obs[MEMORY], 0) + 1
    return greedy_nb(obs, params, rng)
