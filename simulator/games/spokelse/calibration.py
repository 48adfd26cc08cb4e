"""Is the belief right?  Spøkelse rounds played with the player's view kept, and the
belief's predicted mean card value per place compared with the cards really there.

:func:`calibrate_chunk_nb` plays rounds ``[g0, g1)`` exactly as the kernel does (RULES.md
§3, the same DEAL and DECIDE streams, seat 1 deals), the player in seat ``g % 2`` (so
every player plays both seats), a shipped strategy in each seat.  Before each of the
player's decisions it computes the belief (:func:`~simulator.games.spokelse.belief.belief_nb`)
from the player's view alone, and adds, per stock size (0-41) and place, the predicted
mean card value and the mean of the cards really there.  The belief draws from its own
stream, ``(seed, game, DECIDE, 0, 2)``: no seat's stream is touched, so the round is
the one ``simulate`` plays.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from simulator.engine.rng import DEAL, DECIDE, stream_base_nb, stream_key_at_nb
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
        base = stream_base_nb(seed, g)
        rng[0] = stream_key_at_nb(base, DEAL, 0, 0)
        rng[1] = stream_key_at_nb(base, DECIDE, 0, 0)
        rng[2] = stream_key_at_nb(base, DECIDE, 0, 1)
        brng[0] = stream_key_at_nb(base, DECIDE, 0, 2)
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
                _measure_nb(me, deal, hist, turns, -1, 0, msid, mparams, eps, infer, card_value, brng,
                            parts, logw, hidden, slot, ghost, deck, top, acc)  # fmt: skip
            a = _decide_nb(seat_sid[p], o, seat_par[p], r)
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
                _measure_nb(me, deal, hist, turns, c, fd, msid, mparams, eps, infer, card_value, brng,
                            parts, logw, hidden, slot, ghost, deck, top, acc)  # fmt: skip
            b = _decide_nb(seat_sid[p], o, seat_par[p], r)
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
            scores[g - g0, k] = s
