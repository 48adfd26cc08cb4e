"""Paired Spøkelse rounds for players that need the round's history: the search ladder.

:func:`duel_chunk_nb` plays each deal ``g`` of ``[g0, g1)`` twice, the player in seat 0
and then in seat 1, against a shipped opponent, exactly as the kernel plays a round
(RULES.md §3, the same DEAL and DECIDE streams, seat 1 deals): a round whose players are
both shipped ones is the kernel's round.  It keeps the player's view of the round (its
history, the discard pile, its ``seen`` bits), which the belief-search player needs and
a kernel strategy never gets.

Player kinds: 0 a shipped strategy (builtin id ``psid``), 1 ``search`` (the uniform
deal, search.py, exactly as in the kernel), 2 the belief search (belief_search.py),
3 the clairvoyant bound (the same playouts on the real cards).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from simulator.engine.rng import DEAL, DECIDE, stream_base_nb, stream_key_at_nb
from simulator.games.spokelse.belief import HIST_FIELDS
from simulator.games.spokelse.belief_search import belief_decide_nb, clairvoyant_decide_nb
from simulator.games.spokelse.observation import (
    DISCARD_TOP,
    DISCARD_VALUE,
    FROM_DISCARD,
    HAND,
    HAND_VALUE,
    HIGH,
    HIGH_SLOT,
    OBS_SIZE,
    OPP_SLOT,
    PHASE,
    PLACE,
    SLOT,
    SLOT_VALUE,
    SOURCE,
    STOCK_LEFT,
    TURN,
    UNKNOWN_SLOT,
    UNSEEN,
)
from simulator.games.spokelse.rules import card_values_nb, deal_nb, init_obs_nb
from simulator.games.spokelse.search import search_decide_nb
from simulator.games.spokelse.strategies import decide_builtin_nb
from simulator.games.spokelse.variants import TURN_CAP

BUILTIN, SEARCH, BELIEF, CLAIRVOYANT = 0, 1, 2, 3


@njit(cache=True)
def _player_nb(kind, psid, pparams, bparams, mparams, obs, seen, slot, ghost, deck, top, pile, n_pile,
               deal, hist, turns, me, card_value, r):  # fmt: skip
    if kind == BUILTIN:
        return decide_builtin_nb(psid, obs[me], pparams, r)
    if kind == SEARCH:
        return search_decide_nb(obs[me], pparams, r)
    if kind == BELIEF:
        return belief_decide_nb(obs[me], seen[me], pile, n_pile, deal, hist, turns, pparams, bparams,
                                mparams, card_value, r)  # fmt: skip
    return clairvoyant_decide_nb(obs, seen, slot, ghost, deck, top, pile, n_pile, me, pparams, card_value, r)


@njit(cache=True, nogil=True)
def duel_chunk_nb(kind, psid, pparams, bparams, mparams, osid, oparams, values, seed, g0, g1, scores):
    """Deals ``[g0, g1)``, each twice; ``scores[g - g0, me]`` receives the player's and the
    opponent's final scores (half points) with the player in seat ``me``."""
    card_value = np.empty(52, np.int64)
    card_values_nb(values, card_value)
    deck = np.empty(52, np.int64)
    slot = np.empty((2, 4), np.int64)
    ghost = np.empty(2, np.int64)
    pile = np.empty(52, np.int64)
    obs = np.empty((2, OBS_SIZE), np.int64)
    seen = np.empty(2, np.uint64)
    rng = np.empty(3, np.uint64)
    totals = np.zeros(2, np.int64)
    hist = np.empty((TURN_CAP, HIST_FIELDS), np.int64)
    deal = np.empty(5, np.int64)
    for g in range(g0, g1):
        for me in range(2):
            base = stream_base_nb(seed, g)
            rng[0] = stream_key_at_nb(base, DEAL, 0, 0)
            rng[1] = stream_key_at_nb(base, DECIDE, 0, 0)
            rng[2] = stream_key_at_nb(base, DECIDE, 0, 1)
            dealer = 1
            deal_nb(rng, deck, slot, ghost, dealer)
            pile[0] = deck[10]
            n_pile = 1
            init_obs_nb(obs, seen, slot, card_value, totals, 0, deck[10])
            deal[0], deal[1], deal[2], deal[3], deal[4] = me, dealer, slot[me, 0], slot[me, 1], deck[10]
            top = 11
            turns = 0
            p = 1 - dealer
            while turns < TURN_CAP:
                o = obs[p]
                r = rng[1 + p : 2 + p]
                o[PHASE], o[HAND], o[HAND_VALUE], o[FROM_DISCARD] = SOURCE, -1, -1, 0
                d = pile[n_pile - 1] if n_pile > 0 else -1
                o[DISCARD_TOP] = d
                o[DISCARD_VALUE] = card_value[d] if d >= 0 else -1
                o[STOCK_LEFT] = 52 - top
                o[TURN] = turns
                if p == me:
                    a = _player_nb(kind, psid, pparams, bparams, mparams, obs, seen, slot, ghost, deck, top,
                                   pile, n_pile, deal, hist, turns, me, card_value, r)  # fmt: skip
                else:
                    a = decide_builtin_nb(osid, o, oparams, r)
                if a == 0:
                    c = deck[top]
                    top += 1
                    fd = 0
                    bit = np.uint64(1) << np.uint64(c)
                    o[UNSEEN + c % 13] -= np.int64((seen[p] & bit) == 0)
                    seen[p] |= bit
                    o[STOCK_LEFT] = 52 - top
                else:
                    n_pile -= 1
                    c = pile[n_pile]
                    fd = 1
                    d = pile[n_pile - 1] if n_pile > 0 else -1
                    o[DISCARD_TOP] = d
                    o[DISCARD_VALUE] = card_value[d] if d >= 0 else -1
                o[PHASE], o[HAND], o[HAND_VALUE], o[FROM_DISCARD] = PLACE, c, card_value[c], fd
                if p == me:
                    b = _player_nb(kind, psid, pparams, bparams, mparams, obs, seen, slot, ghost, deck, top,
                                   pile, n_pile, deal, hist, turns, me, card_value, r)  # fmt: skip
                else:
                    b = decide_builtin_nb(osid, o, oparams, r)
                if b < 4:
                    out = slot[p, b]
                    slot[p, b] = c
                    o[SLOT + b] = c
                    o[SLOT_VALUE + b] = card_value[c]
                    h, h_slot, u = -1, -1, -1
                    for i in range(4):
                        v = o[SLOT_VALUE + i]
                        if v < 0:
                            if u < 0:
                                u = i
                        elif v > h:
                            h, h_slot = v, i
                    o[HIGH], o[HIGH_SLOT], o[UNKNOWN_SLOT] = h, h_slot, u
                    obs[1 - p, OPP_SLOT + b] = c if fd == 1 else -1
                else:
                    out = c
                pile[n_pile] = out
                n_pile += 1
                bit = np.uint64(1) << np.uint64(out)
                for s in range(2):
                    obs[s, UNSEEN + out % 13] -= np.int64((seen[s] & bit) == 0)
                    seen[s] |= bit
                hist[turns, 0], hist[turns, 1], hist[turns, 3], hist[turns, 4] = p, a, b, out
                hist[turns, 2] = -1 if (p != me and a == 0 and b < 4) else c  # the player's view only
                turns += 1
                if top == 52:
                    break
                p = 1 - p
            for k, who in ((0, me), (1, 1 - me)):
                s = card_value[ghost[who]]
                for i in range(4):
                    s += card_value[slot[who, i]]
                scores[g - g0, me, k] = s
