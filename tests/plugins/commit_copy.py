"""A plugin copy of the shipped Gris ``commit`` strategy: it keeps its locked suit in its
first MEMORY slot, as the shipped one does."""

from simulator.games.gris.observation import INCOMING, MEMORY, MY_PASSES
from simulator.games.gris.strategies import greedy_nb, most_held_nb, pass_avoiding_nb
from strategies import strategy


@strategy(game="gris", name="test-commit-copy", params={"after": (0, 0, 10000, 1)})
def commit_copy(obs, params, rng):
    """Greedy until its target is locked after its t-th pass; MEMORY[0] keeps the suit."""
    target = obs[MEMORY]
    if target < 0:
        if obs[MY_PASSES] != int(params[0]):
            return greedy_nb(obs, params, rng)
        target = most_held_nb(obs, obs[INCOMING], rng)
        obs[MEMORY] = target
    return pass_avoiding_nb(obs, target, rng)
