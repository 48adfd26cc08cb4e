"""Spøkelse's compiled round: the deal, the turns and the scores (RULES.md §3).

It calls the strategies through the hook ``decide_nb`` (docs/kernels.md).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from simulator.engine.rng import DEAL, DECIDE, salted_nb, seat_salt_nb, stream_base_nb, stream_key_at_nb
from simulator.engine.unmanaged import (
    address,
    float64_at,
    int64_at,
    uint64_at,
    unmanaged_item,
    unmanaged_row,
)
from simulator.games.spokelse import observation as ob
from simulator.games.spokelse.human import forget_nb, human_of_nb, random_place_nb, random_source_nb, slips_nb
from simulator.games.spokelse.rules import (
    DISCARD_PILE,
    ERR_SIZE,
    FIRST_STOCK,
    LOG_FIELDS,
    STOCK,
    THROW,
    UNSEEN_OF,
    deal_with_nb,
    init_obs_nb,
    score_nb,
)
from simulator.games.spokelse.strategies import decide_builtin_nb as decide_nb
from simulator.games.spokelse.variants import TURN_CAP


@njit(cache=True, inline="always")
def round_at_nb(sids, params, card_value, totals, ws, err, log):
    """The addresses of everything :func:`play_round_nb` plays with, in its order.

    The caller keeps the arrays alive while play_round_nb runs (they are a chunk's
    workspace and the block's arguments)."""
    return (
        address(sids),
        address(params),
        address(card_value),
        address(totals),
        address(err),
        address(log),
        address(ws[0]),  # deck
        address(ws[1]),  # slot
        address(ws[2]),  # ghost
        address(ws[3]),  # pile
        address(ws[4]),  # obs
        address(ws[5]),  # seen
        address(ws[6]),  # rng
    )


@njit(cache=True, inline="always")
def both_see_nb(obs, seen, card):
    """Both players see ``card`` face up: each that did not know where it is counts one
    fewer unseen card of its rank (branch-free: cards come in random order)."""
    bit = np.uint64(1) << np.uint64(card)
    q = UNSEEN_OF[card]
    obs[0, q] -= np.int64((seen[0] & bit) == 0)
    obs[1, q] -= np.int64((seen[1] & bit) == 0)
    seen[0] |= bit
    seen[1] |= bit


@njit(cache=True)
def play_round_nb(at, n_params, log_rows, target_half, seed, game, deal, dealer):
    """Play one round; return (score seat 0, score seat 1, turns, capped).

    ``at`` and the rest as for :func:`round_nb`, which plays it.  A round in which nobody
    forgets or slips (each seat's ``forget`` and ``slip``, at FORGET_AT and SLIP_AT of its
    parameter row, 0 when the row is shorter) is played by a copy of the round compiled
    without the human pieces (``human`` a constant False), so that plain play runs exactly
    the loop it ran before they existed."""
    params = float64_at(at[1], (2, n_params))
    f0, e0 = human_of_nb(params, 0, n_params)
    f1, e1 = human_of_nb(params, 1, n_params)
    if f0 > 0.0 or e0 > 0.0 or f1 > 0.0 or e1 > 0.0:
        return round_nb(at, n_params, log_rows, target_half, seed, game, deal, dealer, True, f0, e0, f1, e1)
    no = 0.0
    return round_nb(at, n_params, log_rows, target_half, seed, game, deal, dealer, False, no, no, no, no)


@njit(cache=True, forceinline=True)
def round_nb(at, n_params, log_rows, target_half, seed, game, deal, dealer, human, f0, e0, f1, e1):
    """Play one round; return (score seat 0, score seat 1, turns, capped).

    ``at`` holds the addresses of the arrays (:func:`round_at_nb`): the strategy ids and
    their parameters (``n_params`` per seat), ``card_value`` (``card_value[c]`` is card
    ``c``'s points in half points, rules.card_values_nb), the match totals, the error
    row, the turn log (``log_rows`` rows) and the workspace (:func:`workspace_nb`).  The
    arrays are made here from the addresses, with constant shapes where the layout fixes
    them: the compiler then knows they have no owner and emits no reference counting at
    all (an array argument costs two calls per round even when it is an unowned view),
    and the observation's row stride is a constant.  On an illegal action ``err`` is
    filled and the round stops (the caller checks ``err[0]``).  Rows of ``log`` (if it
    has any) receive each turn.

    The turn loop indexes arrays directly and calls no function that takes an array but
    the strategies and the human pieces (human.py), both inlined by LLVM: any other call
    there (even one numba inlines) keeps reference counting calls in the loop, and they
    cost more than the rest of the turn.

    ``human`` (a constant at each of the two calls in :func:`play_round_nb`, so that the
    compiler drops what it turns off) plays the seats' ``forget`` (``f0``, ``f1``) and
    ``slip`` (``e0``, ``e1``) as docs/human-players.md says; a value of 0 draws nothing.
    """
    sids = int64_at(at[0], (2,))
    params = float64_at(at[1], (2, n_params))
    card_value = int64_at(at[2], (52,))
    totals = int64_at(at[3], (2,))
    err = int64_at(at[4], (ERR_SIZE,))
    log = int64_at(at[5], (log_rows, LOG_FIELDS))
    deck = int64_at(at[6], (52,))
    slot = int64_at(at[7], (2, 4))
    ghost = int64_at(at[8], (2,))
    pile = int64_at(at[9], (52,))
    obs = int64_at(at[10], (2, ob.OBS_SIZE))
    seen = uint64_at(at[11], (2,))
    rng = uint64_at(at[12], (3,))
    base = stream_base_nb(seed, game)  # shared by the round's three streams
    rng[0] = stream_key_at_nb(base, DEAL, deal, 0)
    # docs/random-streams.md: a seat's DECIDE stream, moved to a copy's own by its salt (0: as keyed)
    rng[1] = salted_nb(stream_key_at_nb(base, DECIDE, deal, 0), seat_salt_nb(params, 0, n_params))
    rng[2] = salted_nb(stream_key_at_nb(base, DECIDE, deal, 1), seat_salt_nb(params, 1, n_params))
    deal_with_nb(rng, deck, slot, ghost, dealer, pile)  # the pile is empty until the deal is done
    pile[0] = deck[10]
    n_pile = 1
    init_obs_nb(obs, seen, slot, card_value, totals, target_half, deck[10])
    top = FIRST_STOCK
    turns = 0
    capped = 0
    p = 1 - dealer  # RULES.md §3: the non-dealer starts
    # Views made once per round: making them per call costs reference counting.
    o0, o1 = unmanaged_row(obs, 0), unmanaged_row(obs, 1)
    pr0, pr1 = unmanaged_row(params, 0), unmanaged_row(params, 1)
    r0, r1 = unmanaged_item(rng, 1), unmanaged_item(rng, 2)
    while True:
        if turns >= TURN_CAP:  # RULES.md §3: safety cap, the round ends as it stands
            capped = 1
            break
        # The player's strategy, row, parameters, stream, forget and slip: one call site per decision.
        # ``o`` is the player's observation row: the turn writes its fields through it rather
        # than as obs[p, field] (one address for the row, not one product per field; measured
        # about 10% of a round faster, benchmarks/README.md).
        sid, o, pr, r, f, e = (sids[0], o0, pr0, r0, f0, e0) if p == 0 else (sids[1], o1, pr1, r1, f1, e1)
        if human and f > 0.0:  # docs/human-players.md: forgetting at the start of the turn
            forget_nb(obs, seen, p, pile[n_pile - 1] if n_pile > 0 else -1, f, r)
        # 1. Take the stock card or the discard top.
        o[ob.PHASE] = ob.SOURCE
        o[ob.HAND] = -1
        o[ob.HAND_VALUE] = -1
        o[ob.FROM_DISCARD] = 0
        if n_pile > 0:
            d = pile[n_pile - 1]
            o[ob.DISCARD_TOP] = d
            o[ob.DISCARD_VALUE] = card_value[d]
        else:
            o[ob.DISCARD_TOP] = -1
            o[ob.DISCARD_VALUE] = -1
        o[ob.STOCK_LEFT] = 52 - top
        o[ob.TURN] = turns
        slipped = human and e > 0.0 and slips_nb(e, r)  # docs/human-players.md: a slip, not asked
        if slipped:
            a = random_source_nb(n_pile > 0, r)
        else:
            a = decide_nb(sid, o, pr, r)
        if a == STOCK:
            c = deck[top]
            top += 1
            from_discard = 0
            # The drawer learns where this card is: one fewer unseen of its rank.
            bit = np.uint64(1) << np.uint64(c)
            o[UNSEEN_OF[c]] -= np.int64((seen[p] & bit) == 0)
            seen[p] |= bit
            o[ob.STOCK_LEFT] = 52 - top
        elif a == DISCARD_PILE and n_pile > 0:
            n_pile -= 1
            c = pile[n_pile]
            from_discard = 1
            if n_pile > 0:
                d = pile[n_pile - 1]
                o[ob.DISCARD_TOP] = d
                o[ob.DISCARD_VALUE] = card_value[d]
                if human:  # the card under it is face up again: both see it (they had, unless forgotten)
                    both_see_nb(obs, seen, d)
            else:
                o[ob.DISCARD_TOP] = -1
                o[ob.DISCARD_VALUE] = -1
        else:
            err[0], err[1], err[2], err[3], err[4], err[5], err[6] = 1, game, p, ob.SOURCE, a, turns, sids[p]
            return 0, 0, turns, 0
        # 2. Throw it away (stock cards only) or swap it into a slot.
        o[ob.PHASE] = ob.PLACE
        o[ob.HAND] = c
        o[ob.HAND_VALUE] = card_value[c]
        o[ob.FROM_DISCARD] = from_discard
        # A card a slip took from the pile is placed at random too (no draw for the slip):
        # the strategy may have no legal place for a card it would never take.
        if (slipped and from_discard == 1) or (human and e > 0.0 and slips_nb(e, r)):
            b = random_place_nb(from_discard == 1, r)
        else:
            b = decide_nb(sid, o, pr, r)
        if 0 <= b < 4:
            out = slot[p, b]
            slot[p, b] = c
            o[ob.SLOT + b] = c
            o[ob.SLOT_VALUE + b] = card_value[c]
            # HIGH, HIGH_SLOT and UNKNOWN_SLOT of the row as it is now.
            h, h_slot, u = -1, -1, -1
            for i in range(4):
                v = o[ob.SLOT_VALUE + i]
                if v < 0:
                    if u < 0:
                        u = i
                elif v > h:
                    h, h_slot = v, i
            o[ob.HIGH] = h
            o[ob.HIGH_SLOT] = h_slot
            o[ob.UNKNOWN_SLOT] = u
            # A card from the discard pile is public; a stock card is not.
            obs[1 - p, ob.OPP_SLOT + b] = c if from_discard == 1 else -1
        elif b == THROW and from_discard == 0:
            out = c
        else:
            err[0], err[1], err[2], err[3], err[4], err[5], err[6] = 1, game, p, ob.PLACE, b, turns, sids[p]
            return 0, 0, turns, 0
        pile[n_pile] = out
        n_pile += 1
        both_see_nb(obs, seen, out)  # the card thrown face up
        if turns < log.shape[0]:
            log[turns, 0], log[turns, 1], log[turns, 2] = turns, p, a
            log[turns, 3], log[turns, 4], log[turns, 5] = c, b, out
        turns += 1
        if top == 52:  # RULES.md §3: the round ends with the turn that drew the last stock card
            break
        p = 1 - p
    s0 = score_nb(card_value, slot, ghost, 0)
    s1 = score_nb(card_value, slot, ghost, 1)
    return s0, s1, turns, capped
