"""The worlds the ``search`` player deals: the cards it cannot place, dealt consistent with its observation (docs/search.md).

The playouts and the choice are in :mod:`simulator.games.spokelse.search`, whose
docstring says how a world is dealt and what the opponent is taken to know.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from simulator.engine.rng import shuffle_first_nb
from simulator.games.spokelse import observation as ob

STOCK, DISCARD_PILE, THROW = 0, 1, 4
N_ACTIONS = 5  # the PLACE answers 0-4; a SOURCE decision uses 0 and 1
# search's parameters (the registry entry in strategies.py): params[P_*]
P_SAMPLES, P_MARGIN, P_BASE, P_LOW, P_Z = 0, 1, 2, 6, 7  # expect's four parameters at P_BASE..P_BASE+3


@njit(cache=True)
def legal_nb(obs, legal):
    """``legal[a]`` = 1 for each action the rules allow now; returns how many there are."""
    for a in range(N_ACTIONS):
        legal[a] = 0
    if obs[ob.PHASE] == ob.SOURCE:
        legal[STOCK] = 1
        legal[DISCARD_PILE] = 1 if obs[ob.DISCARD_TOP] >= 0 else 0
    else:
        for a in range(4):
            legal[a] = 1
        legal[THROW] = 1 if obs[ob.FROM_DISCARD] == 0 else 0
    n = 0
    for a in range(N_ACTIONS):
        n += legal[a]
    return n


@njit(cache=True, inline="always")
def slot_summaries_nb(row, card_value):
    """Fill an observation row's SLOT_VALUE, HIGH, HIGH_SLOT and UNKNOWN_SLOT from its SLOT fields.

    Parameters
    ----------
    row : np.ndarray
        One seat's observation, written in place.
    card_value : np.ndarray
        Each card's value (half points).
    """
    h, h_slot, u = -1, -1, -1
    for i in range(4):
        c = row[ob.SLOT + i]
        if c < 0:
            row[ob.SLOT_VALUE + i] = -1
            if u < 0:
                u = i
        else:
            v = card_value[c]
            row[ob.SLOT_VALUE + i] = v
            if v > h:
                h, h_slot = v, i
    row[ob.HIGH], row[ob.HIGH_SLOT], row[ob.UNKNOWN_SLOT] = h, h_slot, u


@njit(cache=True)
def _shown_slot_bits_nb(obs):
    """The cards the observation shows in either player's slots, one bit a card.

    Parameters
    ----------
    obs : np.ndarray
        One seat's observation.

    Returns
    -------
    np.uint64
        Bit ``c`` set for each card ``c`` seen in the player's or the opponent's slots.
    """
    bits = np.uint64(0)
    for i in range(4):
        for c in (obs[ob.SLOT + i], obs[ob.OPP_SLOT + i]):
            if c >= 0:
                bits |= np.uint64(1) << np.uint64(c)
    return bits


@njit(cache=True)
def split_cards_nb(obs, pool, under):
    """The cards the observation does not show, by rank: the unseen ones into ``pool`` and
    the rest (those under the discard top) into ``under``.  Returns ``(n_pool, n_under)``,
    or ``(-1, -1)`` when the observation is impossible (more cards of a rank than four,
    or the unseen cards not filling exactly the places the player cannot see)."""
    shown = np.uint64(0)
    for c in (obs[ob.HAND], obs[ob.DISCARD_TOP]):
        if c >= 0:
            shown |= np.uint64(1) << np.uint64(c)
    shown |= _shown_slot_bits_nb(obs)
    n_pool, n_under = 0, 0
    for r in range(13):
        want = obs[ob.UNSEEN + r]
        if want < 0:
            return -1, -1
        for s in range(4):
            c = s * 13 + r
            if (shown >> np.uint64(c)) & np.uint64(1):
                continue
            if want > 0:
                pool[n_pool] = c
                n_pool += 1
                want -= 1
            else:
                under[n_under] = c
                n_under += 1
        if want > 0:
            return -1, -1
    if n_pool < places_nb(obs) or (obs[ob.DISCARD_TOP] < 0 and n_pool + n_under > places_nb(obs)):
        return -1, -1
    return n_pool, n_under


@njit(cache=True)
def places_nb(obs):
    """The places the player cannot see: its unknown slots, the opponent's hidden slots,
    the two ghosts and the stock.  In play the unseen cards fill exactly these; a player
    who does not recall every discard (a position typed in for advice) has more unseen
    cards, and the rest lie under the discard top."""
    places = 2 + max(obs[ob.STOCK_LEFT], 0)
    for i in range(4):
        places += (obs[ob.SLOT + i] < 0) + (obs[ob.OPP_SLOT + i] < 0)
    return places


@njit(cache=True)
def sample_world_nb(obs, rng, card_value, low, pool, under, n_pool, n_under, world, knows):
    """Deal one world into ``world`` (see :func:`new_world_nb`); returns the stock size.

    ``pool`` and ``under`` are :func:`split_cards_nb`'s lists; both are shuffled here
    with ``rng`` (the pool first; unseen cards beyond the places go under the discard top,
    which is then shuffled again), so every world is a uniform deal of them, except that
    each opponent's hidden slot it has had a turn to fill (:func:`filled_nb`) gets the
    first card of the shuffled rest worth at most ``low`` half points (a uniform one of
    those, when there is one).  ``knows[i]`` is set to 1 for the opponent's slots it is
    taken to know."""
    slot, ghost, stock, pile, counts = world[2], world[3], world[4], world[5], world[6]
    me = obs[ob.SEAT]
    op = 1 - me
    shuffle_first_nb(rng, pool, n_pool)
    shuffle_first_nb(rng, under, n_under)
    k = 0
    for i in range(4):
        if obs[ob.SLOT + i] >= 0:
            slot[me, i] = obs[ob.SLOT + i]
        else:
            slot[me, i] = pool[k]
            k += 1
    to_fill = filled_nb(obs)
    for j in range(4):
        i = (j + 2) % 4  # slots 2 and 3 first: unknown to it at the deal, it fills them first
        knows[i] = 1 if i < 2 else 0
        if obs[ob.OPP_SLOT + i] >= 0:
            slot[op, i] = obs[ob.OPP_SLOT + i]
            knows[i] = 1
            continue
        if to_fill > 0:
            to_fill -= 1
            knows[i] = 1
            for m in range(k, n_pool):
                if card_value[pool[m]] <= low:
                    pool[k], pool[m] = pool[m], pool[k]
                    break
        slot[op, i] = pool[k]
        k += 1
    ghost[me] = pool[k]
    ghost[op] = pool[k + 1]
    k += 2
    n_stock = max(obs[ob.STOCK_LEFT], 0)
    for i in range(n_stock):
        stock[i] = pool[k + i]
    k += n_stock
    for i in range(n_under):
        pile[i] = under[i]
    n_pile = n_under
    for i in range(k, n_pool):  # unseen cards beyond the places: forgotten discards
        pile[n_pile] = pool[i]
        n_pile += 1
    if n_pile > n_under:
        shuffle_first_nb(rng, pile, n_pile)
    if obs[ob.DISCARD_TOP] >= 0:
        pile[n_pile] = obs[ob.DISCARD_TOP]
        n_pile += 1
    counts[0], counts[1], counts[2] = n_stock, n_pile, 0
    _views_nb(obs, card_value, knows, world)
    return n_stock


@njit(cache=True)
def filled_nb(obs):
    """How many of the opponent's hidden slots it is taken to have filled: one per turn it
    has had (turns alternate, so ``(TURN + 1) // 2`` at this player's decision), at most
    as many as it has hidden slots."""
    hidden = 0
    for i in range(4):
        hidden += obs[ob.OPP_SLOT + i] < 0
    return min(hidden, (obs[ob.TURN] + 1) // 2)


@njit(cache=True)
def _views_nb(obs, card_value, knows, world):
    """Both seats' observations and ``seen`` bits in a freshly dealt world."""
    wobs, seen, slot, pile, counts = world[0], world[1], world[2], world[5], world[6]
    me = obs[ob.SEAT]
    op = 1 - me
    n_pile = counts[1]
    on_pile = np.uint64(0)
    for i in range(n_pile):
        on_pile |= np.uint64(1) << np.uint64(pile[i])
    mine = on_pile
    for c in (obs[ob.HAND],):
        if c >= 0:
            mine |= np.uint64(1) << np.uint64(c)
    mine |= _shown_slot_bits_nb(obs)
    for f in range(ob.OBS_SIZE):
        wobs[me, f] = obs[f]
        wobs[op, f] = -1
    theirs = on_pile
    if obs[ob.PHASE] == ob.PLACE and obs[ob.FROM_DISCARD] == 1:
        theirs |= np.uint64(1) << np.uint64(obs[ob.HAND])  # it saw the card on the pile
    for i in range(4):
        if knows[i] != 0:
            wobs[op, ob.SLOT + i] = slot[op, i]
            theirs |= np.uint64(1) << np.uint64(slot[op, i])
    slot_summaries_nb(wobs[op], card_value)
    wobs[op, ob.SEAT] = op
    wobs[op, ob.TURN] = obs[ob.TURN]
    wobs[op, ob.MY_TOTAL], wobs[op, ob.OPP_TOTAL] = obs[ob.OPP_TOTAL], obs[ob.MY_TOTAL]
    wobs[op, ob.TARGET] = obs[ob.TARGET]
    for r in range(13):
        wobs[op, ob.VALUE + r] = obs[ob.VALUE + r]
        n = 0
        for s in range(4):
            n += (theirs >> np.uint64(s * 13 + r)) & np.uint64(1)
        wobs[op, ob.UNSEEN + r] = 4 - np.int64(n)
    seen[me], seen[op] = mine, theirs


@njit(cache=True)
def new_world_nb():
    """A world's arrays: (obs rows, seen bits, slots, ghosts, stock, pile, counts).

    ``counts`` holds the stock size, the pile size and the stock cards drawn so far."""
    return (
        np.empty((2, ob.OBS_SIZE), np.int64),
        np.empty(2, np.uint64),
        np.empty((2, 4), np.int64),
        np.empty(2, np.int64),
        np.empty(52, np.int64),
        np.empty(52, np.int64),
        np.zeros(3, np.int64),
    )


@njit(cache=True)
def copy_world_nb(src, dst):
    for k in range(2):
        for f in range(ob.OBS_SIZE):
            dst[0][k, f] = src[0][k, f]
        dst[1][k] = src[1][k]
        for i in range(4):
            dst[2][k, i] = src[2][k, i]
        dst[3][k] = src[3][k]
    for i in range(src[6][0]):
        dst[4][i] = src[4][i]
    for i in range(src[6][1]):
        dst[5][i] = src[5][i]
    for i in range(3):
        dst[6][i] = src[6][i]
