"""Is the belief right?  Spøkelse rounds played with the player's view kept, and the
belief's predicted mean card value per place compared with the cards really there.

:func:`calibrate_chunk_nb` plays rounds ``[g0, g1)`` exactly as the kernel does (RULES.md
§3, the same DEAL and DECIDE streams, seat 1 deals), the player in seat ``g % 2`` (so
every player plays both seats), a shipped strategy in each seat.  Before each of the
player's decisions it computes the belief (:func:`~simulator.games.spokelse.belief.belief_nb`)
from the player's view alone, and adds, per stock size (0-41) and place, the predicted
mean card value and the mean of the cards really there.  The belief draws from its own
stream, ``(seed, game, DECIDE, 0, 2)``: no seat's stream is touched, so the round is
the one ``simulate`` plays (a player that forgets or slips does so as in the kernel,
human.py; the belief itself reads the whole history, and its model is a plain strategy).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from simulator.engine.rng import DECIDE, stream_key_at_nb
from simulator.games.spokelse.belief import (
    GHOST,
    HIST_FIELDS,
    OPP_HIDDEN,
    OWN_UNKNOWN,
    P_GHOST,
    P_MINE,
    P_STOCK,
    P_THEIRS,
    PART_SIZE,
    STOCK_PLACE,
    belief_nb,
)
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
from simulator.games.spokelse.strategies import decide_builtin_nb
from simulator.games.spokelse.variants import TURN_CAP

# acc[stock, place, k]: k = 0 decisions, 1 sum predicted, 2 sum observed, 3 sum observed²,
# 4 sum of (observed - predicted)², 5 sum of the effective sample size
ACC_FIELDS = 6
BELIEF_STREAM_SEAT = 2  # the belief's own DECIDE stream: (seed, game, DECIDE, 0, 2)


@njit(cache=True)
def normalised_nb(logw):
    """Weights summing to 1 from log weights; returns them and the effective sample size."""
    m = logw.max()
    w = np.exp(logw - m)
    w /= w.sum()
    return w, 1.0 / (w * w).sum()


@njit(cache=True)
def place_means_nb(parts, w, n_stock, hidden, card_value, out):
    """``out[place]``: the weighted mean card value (half points) of each place, -1 where
    the place is empty (``hidden`` as :func:`belief_nb` fills it)."""
    for p in range(4):
        out[p] = -1.0
    sums = np.zeros(4)
    cnt = np.zeros(4)
    for j in range(parts.shape[0]):
        row = parts[j]
        for i in range(n_stock):
            sums[STOCK_PLACE] += w[j] * card_value[row[P_STOCK + i]]
        cnt[STOCK_PLACE] += w[j] * n_stock
        sums[GHOST] += w[j] * (card_value[row[P_GHOST]] + card_value[row[P_GHOST + 1]])
        cnt[GHOST] += w[j] * 2
        for i in range(4):
            if hidden[i] != 0:
                sums[OWN_UNKNOWN] += w[j] * card_value[row[P_MINE + i]]
                cnt[OWN_UNKNOWN] += w[j]
            if hidden[4 + i] != 0:
                sums[OPP_HIDDEN] += w[j] * card_value[row[P_THEIRS + i]]
                cnt[OPP_HIDDEN] += w[j]
    for p in range(4):
        if cnt[p] > 0:
            out[p] = sums[p] / cnt[p]


@njit(cache=True)
def _decide_nb(sid, o, params, rng):
    return decide_builtin_nb(sid, o, params, rng)


@njit(cache=True)
def _observe_nb(me, slot, ghost, deck, top, hidden, card_value, true_mean):
    """The real mean card value of each place now (-1 where the place is empty)."""
    op = 1 - me
    s, n = 0.0, 0
    for i in range(top, 52):
        s += card_value[deck[i]]
        n += 1
    true_mean[STOCK_PLACE] = s / n if n > 0 else -1.0
    true_mean[GHOST] = (card_value[ghost[0]] + card_value[ghost[1]]) / 2.0
    for place, who, off in ((OWN_UNKNOWN, me, 0), (OPP_HIDDEN, op, 4)):
        s, n = 0.0, 0
        for i in range(4):
            if hidden[off + i] != 0:
                s += card_value[slot[who, i]]
                n += 1
        true_mean[place] = s / n if n > 0 else -1.0


@njit(cache=True)
def _measure_nb(me, deal, hist, n_turns, hand, hand_fd, msid, mparams, eps, infer, card_value, brng,
                parts, logw, hidden, slot, ghost, deck, top, acc):  # fmt: skip
    n_stock = belief_nb(deal, hist, n_turns, hand, hand_fd, msid, mparams, eps, infer, card_value, brng,
                        parts, logw, hidden, np.empty((0, OBS_SIZE), np.int64), np.empty(0, np.uint64))  # fmt: skip
    if n_stock < 0:
        acc[0, 0, 0] = -1e18  # an impossible view: a bug, made loud in the totals
        return
    w, ess = normalised_nb(logw)
    pred = np.empty(4)
    place_means_nb(parts, w, n_stock, hidden, card_value, pred)
    true_mean = np.empty(4)
    _observe_nb(me, slot, ghost, deck, 52 - n_stock, hidden, card_value, true_mean)
    for p in range(4):
        if pred[p] < 0 or true_mean[p] < 0:
            continue
        a = acc[n_stock, p]
        a[0] += 1
        a[1] += pred[p]
        a[2] += true_mean[p]
        a[3] += true_mean[p] * true_mean[p]
        a[4] += (true_mean[p] - pred[p]) ** 2
        a[5] += ess


@njit(cache=True, nogil=True)
def calibrate_chunk_nb(sids, params, values, msid, mparams, eps, infer, n_parts, seed, g0, g1, acc,
                       scores):  # fmt: skip
    """Rounds ``[g0, g1)``: the player (``sids[0]``, ``params[0]``) in seat ``g % 2``, the
    opponent (``sids[1]``) in the other; the belief's model is ``msid``/``mparams``.
    ``acc`` (42 x 4 x ACC_FIELDS) receives the sums; ``scores[g - g0]`` the player's and
    the opponent's final scores (half points)."""
    card_value = np.empty(52, np.int64)
    card_values_nb(values, card_value)
    deck = np.empty(52, np.int64)
    slot = np.empty((2, 4), np.int64)
    ghost = np.empty(2, np.int64)
    pile = np.empty(52, np.int64)
    obs = np.empty((2, OBS_SIZE), np.int64)
    seen = np.empty(2, np.uint64)
    rng = np.empty(3, np.uint64)
    brng = np.empty(1, np.uint64)
    totals = np.zeros(2, np.int64)
    hist = np.empty((TURN_CAP, HIST_FIELDS), np.int64)
    parts = np.empty((n_parts, PART_SIZE), np.int64)
    logw = np.empty(n_parts)
    hidden = np.empty(8, np.int64)
    deal = np.empty(5, np.int64)
    seat_sid = np.empty(2, np.int64)
    seat_par = np.empty((2, params.shape[1]))
    for g in range(g0, g1):
        me = g % 2
        seat_sid[me], seat_sid[1 - me] = sids[0], sids[1]
        seat_par[me], seat_par[1 - me] = params[0], params[1]
        base = start_round_nb(seed, g, me, rng, deck, slot, ghost, pile, obs, seen, card_value, totals, deal)
        brng[0] = stream_key_at_nb(base, DECIDE, 0, 2)
        n_pile, top, turns, p = 1, 11, 0, 1 - DEALER
        while turns < TURN_CAP:
            o = obs[p]
            r = rng[1 + p : 2 + p]
            f, e = human_of_row_nb(seat_par[p])  # forget and slip (human.py), as in the kernel
            forget_at_turn_nb(p, obs, seen, pile, n_pile, f, r)
            before_source_nb(o, pile, n_pile, card_value, top, turns)
            if p == me:
                _measure_nb(me, deal, hist, turns, -1, 0, msid, mparams, eps, infer, card_value, brng,
                            parts, logw, hidden, slot, ghost, deck, top, acc)  # fmt: skip
            slipped = e > 0.0 and slips_nb(e, r)
            a = random_source_nb(n_pile > 0, r) if slipped else _decide_nb(seat_sid[p], o, seat_par[p], r)
            c, fd, top, n_pile = take_nb(a, p, obs, deck, top, pile, n_pile, seen, card_value)
            if p == me:
                _measure_nb(me, deal, hist, turns, c, fd, msid, mparams, eps, infer, card_value, brng,
                            parts, logw, hidden, slot, ghost, deck, top, acc)  # fmt: skip
            if (slipped and fd == 1) or (e > 0.0 and slips_nb(e, r)):
                b = random_place_nb(fd == 1, r)
            else:
                b = _decide_nb(seat_sid[p], o, seat_par[p], r)
            n_pile = place_nb(p, me, a, b, c, fd, obs, slot, pile, n_pile, seen, card_value, hist, turns)
            turns += 1
            if top == 52:
                break
            p = 1 - p
        final_scores_nb(slot, ghost, card_value, me, scores[g - g0])
