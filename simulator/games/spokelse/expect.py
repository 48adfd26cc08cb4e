"""``expect``'s decision: reservation play from everything a Spøkelse player has seen.

Kept apart from ``strategies.py`` (which registers it) because the ``search`` player plays
its sampled worlds out with it, and ``strategies.py`` registers ``search`` too: both import
it from here, and neither imports the other's module in a circle.
"""

from __future__ import annotations

from numba import njit

from simulator.games.spokelse.observation import (
    DISCARD_VALUE,
    FROM_DISCARD,
    HAND_VALUE,
    HIGH,
    HIGH_SLOT,
    OPP_SLOT,
    PHASE,
    SLOT_VALUE,
    SOURCE,
    STOCK_LEFT,
    UNKNOWN_SLOT,
    UNSEEN,
    VALUE,
)

# Integer actions (the IntEnums in observation.py, spelled out for jitted code).
STOCK, DISCARD_PILE = 0, 1
DISCARD = 4


@njit(cache=True)
def reservation_nb(obs, turns):
    """The value R a card must not exceed to be worth keeping: the lowest R such that, in
    ``turns`` more draws, at least as many cards worth at most R are expected as there are
    slots still to fill (unknown slots, and known slots worth more than R).

    A draw is one of the cards this player has not seen, but the low ones are counted
    less one for each of the opponent's hidden slots (those not taken from the discard
    pile): that is where the opponent keeps its low cards, out of the stock's reach.
    With no draws left anything goes (R = the highest value)."""
    n = 0
    best = -1
    for r in range(13):
        n += obs[UNSEEN + r]
        best = max(best, obs[VALUE + r])
    if n == 0 or turns <= 0.0:
        return best
    hidden = 4
    for i in range(4):
        if obs[OPP_SLOT + i] >= 0:
            hidden -= 1
    r_best = best
    for r in range(13):
        x = obs[VALUE + r]
        if x >= r_best:
            continue
        low = -hidden
        for q in range(13):
            if obs[VALUE + q] <= x:
                low += obs[UNSEEN + q]
        needed = 0
        for i in range(4):
            v = obs[SLOT_VALUE + i]
            if v < 0 or v > x:
                needed += 1
        if turns * max(low, 0) >= needed * n:
            r_best = x
    return r_best


@njit(cache=True)
def expect_play_nb(obs, params, rng):
    """Reservation play from everything seen: ``expect``'s decision (its registry entry in
    ``strategies.py``; ``search`` plays its worlds out with it)."""
    floor = params[0] * 2.0  # half points
    patience = params[1]
    pile = params[2] * 2.0
    opening = params[3]
    h, h_slot, u = obs[HIGH], obs[HIGH_SLOT], obs[UNKNOWN_SLOT]
    if obs[PHASE] == SOURCE:
        d = obs[DISCARD_VALUE]
        if d < 0:
            return STOCK
        # The player's own draws left, this turn's included.
        reserve = reservation_nb(obs, patience * ((obs[STOCK_LEFT] + 1) // 2))
        if d <= max(reserve, pile) and (u >= 0 or d < h):
            return DISCARD_PILE
        return STOCK
    reserve = max(reservation_nb(obs, patience * (obs[STOCK_LEFT] // 2)), floor)
    c = obs[HAND_VALUE]
    if h > c and h > reserve:
        return h_slot
    if u >= 0 and c <= reserve:
        return u
    if h > c:
        return h_slot
    if u >= 0 and obs[STOCK_LEFT] <= opening:  # open an unknown slot rather than throw away
        return u
    if obs[FROM_DISCARD] == 1:  # a discard-pile card must go into a slot
        return h_slot if h_slot >= 0 else u
    return DISCARD


__all__ = ["expect_play_nb", "reservation_nb"]
