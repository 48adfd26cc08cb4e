"""A Spøkelse strategy whose best parameter is known: ``a = 13`` (a tuner must find it).

At ``a = 13`` it keeps cards worth at most 1 point (a sound threshold play); each step
of ``a`` below 13 makes another tenth of its decisions passive (draw and throw the card
away), each step above it two tenths, which costs points on every round, so its mean
score rises steadily on both sides of 13.
"""

from simulator.engine.rng import below_nb
from simulator.games.spokelse.observation import (
    DISCARD_VALUE,
    FROM_DISCARD,
    HAND_VALUE,
    HIGH,
    HIGH_SLOT,
    PHASE,
    SOURCE,
    UNKNOWN_SLOT,
)
from strategies import strategy


@strategy(game="spokelse", name="tune-planted", params={"a": (5, 0, 20, 1)})
def planted(obs, params, rng):
    """Best at a = 13: further from it, more decisions are passive."""
    off = 13.0 - params[0] if params[0] < 13.0 else 2.0 * (params[0] - 13.0)  # not symmetric
    passive = below_nb(rng, 10) < off
    if obs[PHASE] == SOURCE:
        d = obs[DISCARD_VALUE]
        if not passive and 0 <= d <= 2 and (obs[UNKNOWN_SLOT] >= 0 or d < obs[HIGH]):
            return 1
        return 0
    c = obs[HAND_VALUE]
    if passive and obs[FROM_DISCARD] == 0:  # a card from the pile must be placed
        return 4
    if obs[HIGH] > c and obs[HIGH] > 2:
        return obs[HIGH_SLOT]
    if c <= 2 and obs[UNKNOWN_SLOT] >= 0:
        return obs[UNKNOWN_SLOT]
    if obs[HIGH] > c:
        return obs[HIGH_SLOT]
    return 4
