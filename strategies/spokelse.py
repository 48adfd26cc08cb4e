"""Shipped Spøkelse strategies: one small jitted decision function each.

Every function answers one decision: given ``obs`` (layout in
``simulator.games.spokelse.observation``), its parameters and its seat's
random stream, it returns a :class:`Source` in the SOURCE phase and a
:class:`Place` in the PLACE phase.  Points are in half points.
"""

from __future__ import annotations

import math

from numba import njit

from simulator.games.spokelse.observation import (
    DISCARD_TOP,
    DISCARD_VALUE,
    FROM_DISCARD,
    HAND_VALUE,
    HIGH,
    HIGH_SLOT,
    MY_TOTAL,
    OPP_TOTAL,
    PHASE,
    SOURCE,
    STOCK_LEFT,
    TARGET,
    UNKNOWN_SLOT,
    UNSEEN,
    VALUE,
)
from simulator.rng import below_nb
from strategies.registry import Family, Param, register

# Integer actions (the IntEnums in observation.py, spelled out for jitted code).
STOCK, DISCARD_PILE = 0, 1
DISCARD = 4


@njit(cache=True, inline="always")
def passive_nb(obs, params, rng):
    """Always take the stock card, always discard it."""
    if obs[PHASE] == SOURCE:
        return STOCK
    return DISCARD


@njit(cache=True, inline="always")
def random_nb(obs, params, rng):
    """A uniformly random legal choice: the source, then the placement."""
    if obs[PHASE] == SOURCE:
        if obs[DISCARD_TOP] < 0:
            return STOCK
        return below_nb(rng, 2)
    if obs[FROM_DISCARD] == 1:
        return below_nb(rng, 4)
    return below_nb(rng, 5)


@njit(cache=True, inline="always")
def threshold_nb(obs, params, rng):
    """RULES.md §5 `threshold`, k in points (params[0])."""
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


@njit(cache=True)
def unseen_mean_sd_nb(obs):
    """Mean and standard deviation of the value of a card this player has not seen."""
    n = 0
    s = 0.0
    s2 = 0.0
    for r in range(13):
        m = obs[UNSEEN + r]
        v = obs[VALUE + r]
        n += m
        s += m * v
        s2 += m * v * v
    if n == 0:
        return 0.0, 0.0
    mean = s / n
    return mean, math.sqrt(max(s2 / n - mean * mean, 0.0))


@njit(cache=True)
def best_gain_nb(obs, v, h, u, unknown_worth):
    """The best expected saving from placing a card worth ``v``, and where (4 = discard)."""
    best, where = 0.0, DISCARD
    if h >= 0 and h - v > best:
        best = h - v
        where = -2  # the highest known slot
    if u >= 0 and unknown_worth - v > best:
        best = unknown_worth - v
        where = -3  # the lowest unknown slot
    return best, where


@njit(cache=True, inline="always")
def expect_nb(obs, params, rng):
    """Expected-value play from everything seen (see ``expect`` in the registry)."""
    margin = params[0] * 2.0
    risk = params[1]
    h, h_slot, u = obs[HIGH], obs[HIGH_SLOT], obs[UNKNOWN_SLOT]
    mean, sd = unseen_mean_sd_nb(obs)
    # An unknown slot is worth the mean unseen card; in match play, a player ahead
    # values it more pessimistically (it is a gamble) and one behind less so.
    unknown_worth = mean
    if obs[TARGET] > 0:
        lead = obs[OPP_TOTAL] - obs[MY_TOTAL]
        if lead > 0:
            unknown_worth += risk * sd
        elif lead < 0:
            unknown_worth -= risk * sd
    if obs[PHASE] == SOURCE:
        d = obs[DISCARD_TOP]
        if d < 0:
            return STOCK
        gain_d, _ = best_gain_nb(obs, obs[DISCARD_VALUE], h, u, unknown_worth)
        if gain_d <= margin:
            return STOCK
        # Expected saving from a stock card: average over the unseen cards.
        n = 0
        total = 0.0
        for r in range(13):
            m = obs[UNSEEN + r]
            if m > 0:
                g, _ = best_gain_nb(obs, obs[VALUE + r], h, u, unknown_worth)
                if g <= margin:
                    g = 0.0
                n += m
                total += m * g
        gain_s = total / n if n > 0 else 0.0
        # The last stock card ends the round; a known discard is then the sure thing.
        if obs[STOCK_LEFT] <= 1 or gain_d >= gain_s:
            return DISCARD_PILE
        return STOCK
    v = obs[HAND_VALUE]
    gain, where = best_gain_nb(obs, v, h, u, unknown_worth)
    if where == -2 and (gain > margin or obs[FROM_DISCARD] == 1):
        return h_slot
    if where == -3 and (gain > margin or obs[FROM_DISCARD] == 1):
        return u
    if obs[FROM_DISCARD] == 1:  # a discard-pile card must go into a slot
        return h_slot if h_slot >= 0 else u
    return DISCARD


@njit(cache=True, inline="always")
def decide_builtin_nb(sid, obs, params, rng):
    """Dispatch to a shipped strategy by its id (the order of BUILTIN below)."""
    if sid == 0:
        return passive_nb(obs, params, rng)
    if sid == 1:
        return random_nb(obs, params, rng)
    if sid == 2:
        return threshold_nb(obs, params, rng)
    if sid == 3:
        return expect_nb(obs, params, rng)
    return -1


# --- the registry entries, in builtin-id order --------------------------------

GAME = "spokelse"

register(
    Family(
        GAME,
        "passive",
        passive_nb,
        (),
        """Always take the stock card and always throw it away (RULES.md §5).

        The row stays as dealt, so each player scores five random cards:
        on average 5 x 72.5/13 = 27.885 points with the jack at ½.""",
        builtin_id=0,
    )
)
register(
    Family(
        GAME,
        "random",
        random_nb,
        (),
        """A uniformly random legal choice at every decision (RULES.md §5): the source
        (stock or discard pile, among those available), then the placement
        (any of the four slots, or throwing away a stock card).""",
        builtin_id=1,
    )
)
register(
    Family(
        GAME,
        "threshold",
        threshold_nb,
        (Param("k", 4, 0, 13, 0.5, "points at or below which a card is worth keeping"),),
        """The canonical baseline (RULES.md §5).  Take the discard top when it is worth
        at most k points and there is an unknown slot for it or it beats the highest
        known slot; otherwise draw.  Put the card over the highest known slot when that
        slot is above both the card and k; else into the first unknown slot if the card
        is at most k; else over the highest known slot if that beats the card; else
        throw it away.""",
        builtin_id=2,
    )
)
register(
    Family(
        GAME,
        "expect",
        expect_nb,
        (
            Param("margin", 0, 0, 13, 0.5, "points a swap must save before it is made"),
            Param(
                "risk",
                0.5,
                0,
                3,
                0,
                "match play: how many standard deviations an unknown slot is "
                "feared when ahead (and discounted when behind)",
            ),
        ),
        """Expected-value play from everything seen.  Every discard, the player's own
        known slots and the opponent's public slots are subtracted from the 52 cards; the
        rest (the unseen cards) says what an unknown slot, the ghost or a stock card is
        worth on average.  A card goes where it saves the most: over the highest known
        slot, or over an unknown slot (worth the unseen mean), if it saves more than
        `margin` points.  The discard top is taken when the sure saving beats the expected
        saving of a stock card, and always on the last stock card.  In match play a
        player ahead on the scoreboard treats an unknown slot as `risk` standard
        deviations worse than its mean (a gamble not worth taking), one behind as
        that much better.""",
        builtin_id=3,
    )
)
