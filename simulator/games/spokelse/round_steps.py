"""A Spøkelse round step by step, with the player's history kept: what the calibration and the
search duels share.

Both replay exactly the kernel's rounds (the same streams and the same moves, forgetting and
slips included: human.py; ``tests/games/spokelse/test_calibration.py``, ``test_ladder.py``
and ``test_human.py`` check it), but they stop at every decision of one seat to ask the
belief.  So they keep the round loop in their own chunks, and take its steps from here: the
start of a round and of a turn, what a seat sees before it chooses a source, taking the
card, placing it, and the final scores.  RULES.md §3.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from simulator.engine.rng import DEAL, DECIDE, stream_base_nb, stream_key_at_nb
from simulator.games.spokelse import observation as ob
from simulator.games.spokelse.human import forget_nb
from simulator.games.spokelse.rules import deal_nb, init_obs_nb

DEALER = 1  # the dealer of an independent round (the kernel's rounds); seat 0 plays first


@njit(cache=True)
def start_round_nb(seed, g, me, rng, deck, slot, ghost, pile, obs, seen, card_value, totals, deal):
    """Deal round ``g`` as the kernel does (streams from ``(seed, g)``), with the player in
    seat ``me``: fills the deck, slots, ghosts, discard pile (one card), both observations and
    ``deal`` (the player's view of the deal); returns the base of the round's streams."""
    base = stream_base_nb(seed, g)
    rng[0] = stream_key_at_nb(base, DEAL, 0, 0)
    rng[1] = stream_key_at_nb(base, DECIDE, 0, 0)
    rng[2] = stream_key_at_nb(base, DECIDE, 0, 1)
    deal_nb(rng, deck, slot, ghost, DEALER)
    pile[0] = deck[10]
    init_obs_nb(obs, seen, slot, card_value, totals, 0, deck[10])
    deal[0], deal[1], deal[2], deal[3], deal[4] = me, DEALER, slot[me, 0], slot[me, 1], deck[10]
    return base


@njit(cache=True, inline="always")
def _show_discard_top_nb(o, pile, n_pile, card_value):
    d = pile[n_pile - 1] if n_pile > 0 else -1
    o[ob.DISCARD_TOP] = d
    o[ob.DISCARD_VALUE] = card_value[d] if d >= 0 else -1


@njit(cache=True)
def before_source_nb(o, pile, n_pile, card_value, top, turns):
    """What the seat to play sees before it chooses where to take its card from."""
    o[ob.PHASE], o[ob.HAND], o[ob.HAND_VALUE], o[ob.FROM_DISCARD] = ob.SOURCE, -1, -1, 0
    _show_discard_top_nb(o, pile, n_pile, card_value)
    o[ob.STOCK_LEFT] = 52 - top
    o[ob.TURN] = turns


@njit(cache=True)
def forget_at_turn_nb(p, obs, seen, pile, n_pile, forget, rng):
    """The start of seat ``p``'s turn: with ``forget`` above 0 it forgets as the kernel's
    players do (human.py; nothing is drawn at 0)."""
    if forget > 0.0:
        forget_nb(obs, seen, p, pile[n_pile - 1] if n_pile > 0 else -1, forget, rng)


@njit(cache=True)
def take_nb(a, p, obs, deck, top, pile, n_pile, seen, card_value):
    """Seat ``p`` takes the stock card (``a == 0``) or the discard top; its observation
    ``obs[p]`` then shows the card in hand.  Returns the card, whether it came from the
    pile, and the new ``top`` and ``n_pile``."""
    o = obs[p]
    if a == 0:
        c = deck[top]
        top += 1
        fd = 0
        bit = np.uint64(1) << np.uint64(c)
        o[ob.UNSEEN + c % 13] -= np.int64((seen[p] & bit) == 0)
        seen[p] |= bit
        o[ob.STOCK_LEFT] = 52 - top
    else:
        n_pile -= 1
        c = pile[n_pile]
        fd = 1
        _show_discard_top_nb(o, pile, n_pile, card_value)
        if n_pile > 0:  # the card under it is face up again: both see it (unless forgotten, they had)
            d = pile[n_pile - 1]
            bit = np.uint64(1) << np.uint64(d)
            for s in range(2):
                obs[s, ob.UNSEEN + d % 13] -= np.int64((seen[s] & bit) == 0)
                seen[s] |= bit
    o[ob.PHASE], o[ob.HAND], o[ob.HAND_VALUE], o[ob.FROM_DISCARD] = ob.PLACE, c, card_value[c], fd
    return c, fd, top, n_pile


@njit(cache=True)
def place_nb(p, me, a, b, c, fd, obs, slot, pile, n_pile, seen, card_value, hist, turns):
    """Seat ``p`` puts card ``c`` into slot ``b`` (or throws it, ``b == 4``); the card that
    goes face up lands on the pile and both seats see it; the turn joins the history as the
    player ``me`` saw it.  Returns the new ``n_pile``."""
    o = obs[p]
    if b < 4:
        out = slot[p, b]
        slot[p, b] = c
        o[ob.SLOT + b] = c
        o[ob.SLOT_VALUE + b] = card_value[c]
        h, h_slot, u = -1, -1, -1
        for i in range(4):
            v = o[ob.SLOT_VALUE + i]
            if v < 0:
                if u < 0:
                    u = i
            elif v > h:
                h, h_slot = v, i
        o[ob.HIGH], o[ob.HIGH_SLOT], o[ob.UNKNOWN_SLOT] = h, h_slot, u
        obs[1 - p, ob.OPP_SLOT + b] = c if fd == 1 else -1
    else:
        out = c
    pile[n_pile] = out
    n_pile += 1
    bit = np.uint64(1) << np.uint64(out)
    for s in range(2):
        obs[s, ob.UNSEEN + out % 13] -= np.int64((seen[s] & bit) == 0)
        seen[s] |= bit
    hist[turns, 0], hist[turns, 1], hist[turns, 3], hist[turns, 4] = p, a, b, out
    hist[turns, 2] = -1 if (p != me and a == 0 and b < 4) else c  # the player's view only
    return n_pile


@njit(cache=True)
def final_scores_nb(slot, ghost, card_value, me, out):
    """``out[0]``, ``out[1]``: the player's and the opponent's score (half points)."""
    for k, who in ((0, me), (1, 1 - me)):
        s = card_value[ghost[who]]
        for i in range(4):
            s += card_value[slot[who, i]]
        out[k] = s


__all__ = [
    "DEALER",
    "before_source_nb",
    "final_scores_nb",
    "forget_at_turn_nb",
    "place_nb",
    "start_round_nb",
    "take_nb",
]
