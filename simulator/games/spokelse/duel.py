"""Paired Spøkelse rounds for players that need the round's history: the search ladder.

:func:`duel_chunk_nb` plays each deal ``g`` of ``[g0, g1)`` twice, the player in seat 0
and then in seat 1, against a shipped opponent, exactly as the kernel plays a round
(RULES.md §3, the same DEAL and DECIDE streams, seat 1 deals): a round whose players are
both shipped ones is the kernel's round.  It keeps the player's view of the round (its
history, the discard pile, its ``seen`` bits), which the belief-search player needs and
a kernel strategy never gets.

Player kinds: 0 a shipped strategy (builtin id ``psid``), 1 ``search`` (the uniform
deal, search.py, exactly as in the kernel), 2 the belief search (belief_search.py),
3 the clairvoyant bound (the same playouts on the real cards).  A seat whose parameter
row holds ``forget`` or ``slip`` (strategies.registry.FORGET_AT, SLIP_AT) forgets and slips
as in the kernel (human.py).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from simulator.games.spokelse.belief import HIST_FIELDS
from simulator.games.spokelse.belief_search import belief_decide_nb, clairvoyant_decide_nb
from simulator.games.spokelse.human import human_of_row_nb, random_place_nb, random_source_nb, slips_nb
from simulator.games.spokelse.observation import (
    OBS_SIZE,
)
from simulator.games.spokelse.round_steps import (
    DEALER,
    before_source_nb,
    final_scores_nb,
    forget_at_turn_nb,
    place_nb,
    start_round_nb,
    take_nb,
)
from simulator.games.spokelse.rules import card_values_nb
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
    forget_me, slip_me = human_of_row_nb(pparams)  # forget and slip (human.py), as in the kernel
    forget_op, slip_op = human_of_row_nb(oparams)
    for g in range(g0, g1):
        for me in range(2):
            start_round_nb(seed, g, me, rng, deck, slot, ghost, pile, obs, seen, card_value, totals, deal)
            n_pile, top, turns, p = 1, 11, 0, 1 - DEALER
            while turns < TURN_CAP:
                o = obs[p]
                r = rng[1 + p : 2 + p]
                f, e = (forget_me, slip_me) if p == me else (forget_op, slip_op)
                forget_at_turn_nb(p, obs, seen, pile, n_pile, f, r)
                before_source_nb(o, pile, n_pile, card_value, top, turns)
                slipped = e > 0.0 and slips_nb(e, r)
                if slipped:
                    a = random_source_nb(n_pile > 0, r)
                elif p == me:
                    a = _player_nb(kind, psid, pparams, bparams, mparams, obs, seen, slot, ghost, deck, top,
                                   pile, n_pile, deal, hist, turns, me, card_value, r)  # fmt: skip
                else:
                    a = decide_builtin_nb(osid, o, oparams, r)
                c, fd, top, n_pile = take_nb(a, p, obs, deck, top, pile, n_pile, seen, card_value)
                if (slipped and fd == 1) or (e > 0.0 and slips_nb(e, r)):
                    b = random_place_nb(fd == 1, r)
                elif p == me:
                    b = _player_nb(kind, psid, pparams, bparams, mparams, obs, seen, slot, ghost, deck, top,
                                   pile, n_pile, deal, hist, turns, me, card_value, r)  # fmt: skip
                else:
                    b = decide_builtin_nb(osid, o, oparams, r)
                n_pile = place_nb(p, me, a, b, c, fd, obs, slot, pile, n_pile, seen, card_value, hist, turns)
                turns += 1
                if top == 52:
                    break
                p = 1 - p
            final_scores_nb(slot, ghost, card_value, me, scores[g - g0, me])
