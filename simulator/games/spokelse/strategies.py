"""Shipped Spøkelse strategies: one small jitted decision function each.

Every function answers one decision: given ``obs`` (layout in
``simulator.games.spokelse.observation``), its parameters and its seat's
random stream, it returns a :class:`Source` in the SOURCE phase and a
:class:`Place` in the PLACE phase.  Points are in half points.
"""

from __future__ import annotations

from typing import Any

from numba import njit

from simulator.engine.dispatching import plain_dispatch
from simulator.engine.rng import below_nb
from simulator.games.spokelse import search as _search
from simulator.games.spokelse.expect import expect_play_nb
from simulator.games.spokelse.observation import (
    DISCARD_TOP,
    DISCARD_VALUE,
    FROM_DISCARD,
    HAND_VALUE,
    HIGH,
    HIGH_SLOT,
    PHASE,
    SOURCE,
    UNKNOWN_SLOT,
)
from simulator.games.spokelse.variants import Rules
from strategies.registry import Family, Param, builtin_decides, register

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
def expect_nb(obs, params, rng):
    """Reservation play from everything seen (see ``expect`` in the registry)."""
    return expect_play_nb(obs, params, rng)


@njit(cache=True)
def search_nb(obs, params, rng):
    """Determinised Monte Carlo search (see ``search`` in the registry and docs/search.md)."""
    return _search.search_decide_nb(obs, params, rng)


# --- the registry entries, in builtin-id order --------------------------------

GAME = "spokelse"


def card_value_floor(value: float, rules: Any = None) -> float:
    """The highest card value at or below ``value`` under ``rules`` (jack ½ by default).

    ``threshold``'s k and ``expect``'s k and pile enter play only through comparisons
    with card values (``card <= k``, ``card > k``, ``card <= max(R, k)`` with R itself a
    card value), so every value in ``[v_i, v_i+1)`` between two card values plays exactly
    as ``v_i``: with the jack at ½, k = 1.5 plays as k = 1 and k = 8 as k = 7 (no card is
    worth 8 points, RULES.md §3).  The lowest card value is 0 (the 8), so a floor exists."""
    values = (rules if isinstance(rules, Rules) else Rules()).values_half()
    half = 2.0 * float(value)
    below = [int(v) for v in values if v <= half + 1e-9]
    return max(below) / 2.0 if below else float(value)


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
        (
            Param(
                "k",
                4,
                0,
                13,
                0.5,
                "points at or below which a card is worth keeping",
                effective=card_value_floor,
            ),
        ),
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
            Param(
                "k",
                1,
                0,
                13,
                0.5,
                "the lowest reservation value for placing a card, in points",
                effective=card_value_floor,
            ),
            Param("patience", 3, 0, 10, 0, "how many times its remaining draws the player counts on"),
            Param(
                "pile",
                0.5,
                0,
                13,
                0.5,
                "a discard top worth at most this many points is always taken",
                effective=card_value_floor,
            ),
            Param("open", 25, 0, 41, 1, "stock size from which a card with no place opens an unknown slot"),
        ),
        """Reservation play: keep what the cards still to come are unlikely to beat.
        The unseen cards are the 52 less every card whose place the player knows (every
        discard, its own known slots, the opponent's public slots); the opponent's hidden
        slots are taken to hold low cards, one each.  R is the lowest value such that the
        player's remaining draws (times `patience`) are expected to bring as many cards
        worth at most R as it still has slots to fill: early in the round R is low (wait
        for 8s and jacks), on the last draws it rises towards anything.  The discard top
        is taken when it is worth at most `pile` points or at most R and it has a place
        (an unknown slot, or a known slot worth more).  So early on an ace on the pile is
        left there: drawing instead does better, mostly at the opponent's expense, as a
        card taken from the pile makes the round a turn longer.  A card goes over the
        highest known slot if that slot is above both the card and max(R, k); else into
        the first unknown slot if it is at most max(R, k); else over the highest known
        slot if it beats it.  Once the stock is down to `open` cards, a card with no such
        place is swapped into an unknown slot rather than thrown away, so that every slot
        is known and improved card by card (earlier, the card that comes out would too
        often be one the opponent picks up).  The match totals are not used: gambling
        when behind (leaving unknown slots unknown) costs more than it gains.""",
        builtin_id=3,
    )
)
register(
    Family(
        GAME,
        "search",
        search_nb,
        (
            Param("samples", 64, 1, 4096, 1, "sampled worlds per decision (the same for every action)"),
            Param(
                "margin",
                0,
                0,
                1,
                1,
                "1: minimise own score minus the opponent's (the round's winner); 0: own score alone",
            ),
            Param("k", 1, 0, 13, 0.5, "the playouts' expect: k", effective=card_value_floor),
            Param("patience", 3, 0, 10, 0, "the playouts' expect: patience"),
            Param("pile", 0.5, 0, 13, 0.5, "the playouts' expect: pile", effective=card_value_floor),
            Param("open", 25, 0, 41, 1, "the playouts' expect: open"),
            Param(
                "low",
                13,
                0,
                13,
                0.5,
                "points at most of the cards dealt to the opponent's hidden slots it has filled (13: any)",
                effective=card_value_floor,
            ),
            Param("z", 2, 0, 10, 0, "standard errors by which an action must beat expect's own choice"),
        ),
        """Determinised Monte Carlo search: at each decision, deal `samples` worlds
        consistent with the observation alone (the unseen cards shuffled into the unknown
        own slots, the opponent's hidden slots, both ghosts and the stock; the seen cards
        under the discard top in random order), play every legal action out to the end of
        the round with `expect` (its parameters k, patience, pile, open) in both seats on
        the same worlds, and score each by the mean of own final score (`margin=0`, the
        default: what decides a round and a match is the lower score, and the opponent's
        score in a sampled world rests on a guess of its hidden row) or of own score
        minus the opponent's (`margin=1`).  It plays `expect`'s
        own choice unless another action is better by more than `z` standard errors of the
        paired difference.  Match totals are not used.  In a world the opponent is taken
        to have filled one hidden slot per turn it has had and to know those, its slots 0
        and 1 and its public ones; a slot it filled gets a card worth at most `low` points
        (13: any card, a uniform deal).  None of the player's slots is public to it.  It
        draws only from its seat's stream (docs/search.md).  It is compiled on its first
        run (about a minute) and kept in the cache, not built into every kernel.""",
        on_demand=True,
    )
)

#: Dispatch to a shipped strategy by its id, generated from the entries above.
decide_builtin_nb = plain_dispatch(builtin_decides(GAME))
