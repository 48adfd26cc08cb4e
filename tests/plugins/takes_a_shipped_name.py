"""A plugin that tries to register a strategy under a shipped name."""

from strategies import strategy


@strategy(game="spokelse", name="threshold")
def my_threshold(obs, params, rng):
    """Always draws from the stock and throws the card away."""
    return 0 if obs[0] == 0 else 4
