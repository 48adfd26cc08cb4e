"""A Spøkelse strategy that answers with the ``Source`` and ``Place`` members."""

from simulator.games.spokelse.observation import (
    DISCARD_VALUE,
    FROM_DISCARD,
    HAND_VALUE,
    HIGH,
    HIGH_SLOT,
    PHASE,
    SOURCE,
    UNKNOWN_SLOT,
    Place,
    Source,
)
from strategies import strategy


@strategy(game="spokelse", name="test-enum-answers", params={"keep": (3, 0, 13, 0.5)})
def enum_answers(obs, params, rng):
    """Keep cards worth at most `keep`; answers Source/Place members (and slot numbers)."""
    keep = params[0] * 2.0
    if obs[PHASE] == SOURCE:
        d = obs[DISCARD_VALUE]
        if 0 <= d <= keep and (obs[UNKNOWN_SLOT] >= 0 or d < obs[HIGH]):
            return Source.DISCARD_PILE
        return Source.STOCK
    c = obs[HAND_VALUE]
    if obs[HIGH] > c and obs[HIGH] > keep:
        return obs[HIGH_SLOT]
    if c <= keep and obs[UNKNOWN_SLOT] >= 0:
        return obs[UNKNOWN_SLOT]
    if obs[HIGH] > c:
        return obs[HIGH_SLOT]
    if obs[FROM_DISCARD] == 1:
        return Place.SLOT0
    return Place.DISCARD
