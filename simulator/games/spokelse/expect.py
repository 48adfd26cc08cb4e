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


@njit(cache=True, inline="always")
def hidden_opp_slots_nb(obs):
    """How many of the opponent's slots are hidden (not taken from the discard pile)."""
    hidden = 4
    for i in range(4):
        if obs[OPP_SLOT + i] >= 0:
            hidden -= 1
    return hidden


@njit(cache=True, inline="always")
def slots_to_fill_nb(obs, x):
    """The slots still to fill for a reservation value ``x``: the unknown ones and the known
    ones worth more than ``x``."""
    needed = 0
    for i in range(4):
        v = obs[SLOT_VALUE + i]
        if v < 0 or v > x:
            needed += 1
    return needed


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
    hidden = hidden_opp_slots_nb(obs)
    r_best = best
    for r in range(13):
        x = obs[VALUE + r]
        if x >= r_best:
            continue
        low = -hidden
        for q in range(13):
            if obs[VALUE + q] <= x:
                low += obs[UNSEEN + q]
        needed = slots_to_fill_nb(obs, x)
        if turns * max(low, 0) >= needed * n:
            r_best = x
    return r_best


@njit(cache=True, inline="always")
def value_order_nb(obs, order):
    """``order``: the ranks from the lowest ``VALUE`` to the highest (ties by rank), for
    :func:`reservation_in_order_nb` (an insertion sort of the 13 ranks)."""
    for r in range(13):
        x = obs[VALUE + r]
        k = r
        while k > 0 and obs[VALUE + order[k - 1]] > x:
            order[k] = order[k - 1]
            k -= 1
        order[k] = r


@njit(cache=True, inline="always")
def reservation_in_order_nb(obs, turns, order):
    """:func:`reservation_nb`, given the ranks by value (:func:`value_order_nb`): the
    same answer in one pass from the lowest value up.

    The answer of :func:`reservation_nb` is the lowest value ``x`` of a rank for which
    ``turns * max(low(x), 0) >= needed(x) * n`` holds (the highest value if none does);
    ascending, the first value that holds is that one, with ``low`` counted up as it
    goes (every rank of equal value counted before the test)."""
    n = 0
    for r in range(13):
        n += obs[UNSEEN + r]
    best = obs[VALUE + order[12]]
    if n == 0 or turns <= 0.0:
        return best
    hidden = hidden_opp_slots_nb(obs)
    low = -hidden
    for k in range(13):
        r = order[k]
        x = obs[VALUE + r]
        low += obs[UNSEEN + r]
        if k < 12 and obs[VALUE + order[k + 1]] == x:
            continue  # the next rank is worth as much: count it first
        needed = slots_to_fill_nb(obs, x)
        if turns * max(low, 0) >= needed * n:
            return x
    return best


@njit(cache=True, inline="always")
def _reservation_nb(obs, turns, order):
    """:func:`reservation_nb` in :func:`reservation_in_order_nb`'s signature (``order`` unused)."""
    return reservation_nb(obs, turns)


@njit(cache=True, inline="always")
def expect_with_nb(obs, params, reservation, order):
    """``expect``'s answer, the reservation value from ``reservation(obs, turns, order)``
    (:func:`reservation_in_order_nb` or :func:`_reservation_nb`), computed only where the
    answer depends on it.

    Where it is computed, with ``turns`` the player's own draws left (this turn's included
    at a SOURCE decision) times ``patience``: at a SOURCE decision, when the discard top
    could be taken at all (an unknown slot, or a known one worth more) and is worth more
    than ``pile``; at a PLACE decision, when a known slot is worth more than the card in
    hand or a slot is unknown.  Elsewhere every test it would take part in is decided
    without it, so the answer is the same."""
    floor = params[0] * 2.0  # half points
    patience = params[1]
    pile = params[2] * 2.0
    opening = params[3]
    h, h_slot, u = obs[HIGH], obs[HIGH_SLOT], obs[UNKNOWN_SLOT]
    if obs[PHASE] == SOURCE:
        d = obs[DISCARD_VALUE]
        if d < 0 or not (u >= 0 or d < h):
            return STOCK
        if d <= pile:  # max(R, pile) >= pile >= d, whatever R is
            return DISCARD_PILE
        if d <= reservation(obs, patience * ((obs[STOCK_LEFT] + 1) // 2), order):
            return DISCARD_PILE
        return STOCK
    c = obs[HAND_VALUE]
    if h > c or u >= 0:
        reserve = max(reservation(obs, patience * (obs[STOCK_LEFT] // 2), order), floor)
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


@njit(cache=True)
def expect_play_nb(obs, params, rng):
    """Reservation play from everything seen: ``expect``'s decision (its registry entry in
    ``strategies.py``; ``search`` plays its worlds out with :func:`expect_in_order_nb`,
    the same decisions)."""
    return expect_with_nb(obs, params, _reservation_nb, obs)  # the order is not used


@njit(cache=True, inline="always")
def expect_in_order_nb(obs, params, order):
    """:func:`expect_play_nb` with the ranks by value given (:func:`value_order_nb`):
    the same decision, faster where many decisions share one card-value table (a
    playout)."""
    return expect_with_nb(obs, params, reservation_in_order_nb, order)


__all__ = [
    "expect_in_order_nb",
    "expect_play_nb",
    "expect_with_nb",
    "hidden_opp_slots_nb",
    "reservation_in_order_nb",
    "reservation_nb",
    "slots_to_fill_nb",
    "value_order_nb",
]
