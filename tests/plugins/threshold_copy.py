"""A plugin copy of the shipped Spøkelse ``threshold`` strategy (RULES.md §5), line for
line: a contained user strategy that must play exactly as its shipped twin."""

from simulator.games.spokelse.observation import (
    DISCARD_VALUE,
    HAND_VALUE,
    HIGH,
    HIGH_SLOT,
    PHASE,
    SOURCE,
    UNKNOWN_SLOT,
)
from strategies import strategy

STOCK, DISCARD_PILE = 0, 1
DISCARD = 4


@strategy(game="spokelse", name="test-threshold-copy", params={"k": (4, 0, 13, 0.5)})
def threshold_copy(obs, params, rng):
    """The shipped threshold, k in points (params[0])."""
    k = params[0] * 2.0  # half points (k is a multiple of ½)
    h, u = obs[HIGH], obs[UNKNOWN_SLOT]
    if obs[PHASE] == SOURCE:
        d = obs[DISCARD_VALUE]
        if d >= 0 and d <= k and (u >= 0 or d < h):
            return DISCARD_PILE
        return STOCK
    c = obs[HAND_VALUE]
    if h >= 0 and h > c and h > k:  # a.
        return obs[HIGH_SLOT]
    if u >= 0 and c <= k:  # b.
        return u
    if h >= 0 and h > c:  # c.
        return obs[HIGH_SLOT]
    return DISCARD  # d.
