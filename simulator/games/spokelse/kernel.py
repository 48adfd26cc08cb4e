"""Spøkelse's compiled kernel: one round, one match, and blocks of games.

Everything here is nopython numba: integer card codes and arrays in,
aggregates written into preallocated ``int64`` arrays out.  The rules are the
same as ``reference.py`` (RULES.md §3) and draw from the same random streams
(``docs/random-streams.md``), so a test can replay any game move by move.

One round is :func:`simulator.games.spokelse.round.play_round_nb`; this module plays matches,
chunks and blocks of rounds.  Both reach the strategies through the hook ``decide_nb``
(docs/kernels.md says how it is bound for users' strategies).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from simulator.engine.chunks import RECORDS_UNIT, chunk_njit, chunk_of_block_nb, entry_points
from simulator.engine.unmanaged import (
    keep_alive,
    unmanaged,
)
from simulator.games.spokelse.round import (
    decide_nb as decide_nb,  # the strategies' hook (simulator/kernels/hooks.py)
)
from simulator.games.spokelse.round import (
    play_round_nb,
    round_at_nb,
)
from simulator.games.spokelse.rules import (
    ERR_SIZE,
    HIST_BINS,
    M_CAPPED,
    M_DRAWS,
    M_FIRST_DEALER_LOST,
    M_FIRST_DEALT,
    M_LOSSES,
    M_RHIST,
    M_ROUNDS,
    M_ROUNDS2,
    M_TOTAL,
    M_TOTAL2,
    R_CAPPED,
    R_CROSS,
    R_HIST,
    R_SUM,
    R_SUM2,
    R_TIES,
    R_TURNS,
    R_WINS,
    RHIST_BINS,
    card_values_nb,
    first_dealer_nb,
    unowned_nb,
    workspace_nb,
)


@njit(cache=True, inline="always")
def play_match_nb(sids, params, card_value, target_half, seed, game, ws, err):
    """Play one match.  ``ws[8]`` receives [total0, total1, rounds, capped rounds,
    first dealer, loser (-1 = draw)]."""
    rng, totals, out, no_log = ws[6], ws[7], ws[8], ws[9]
    at = round_at_nb(sids, params, card_value, totals, ws, err, no_log)
    n_params = np.int64(params.shape[1])
    no_rows = np.int64(0)
    first = first_dealer_nb(seed, game, rng)
    totals[0] = 0
    totals[1] = 0
    rounds = np.int64(0)  # not the literal 0: play_round_nb then compiles once for every caller
    capped = 0
    while True:
        dealer = first if rounds % 2 == 0 else 1 - first  # the deal alternates
        s0, s1, _, c = play_round_nb(at, n_params, no_rows, target_half, seed, game, rounds, dealer)
        if err[0] != 0:
            return
        totals[0] += s0
        totals[1] += s1
        rounds += 1
        capped += c
        if totals[0] >= target_half or totals[1] >= target_half:
            break
    out[0], out[1], out[2], out[3], out[4] = totals[0], totals[1], rounds, capped, first
    if totals[0] == totals[1]:
        out[5] = -1
    else:
        out[5] = 0 if totals[0] > totals[1] else 1


@njit(cache=True, inline="always")
def round_play_at_nb(sids, params, card_value, ws, err):
    """The set-up of round play (RULES.md §3: in round simulations seat 1 deals and seat 0
    starts; no match totals, no target): ``(at, n_params, no_rows, no_target, first_deal,
    dealer)``, the arguments of ``play_round_nb`` but the seed and the game."""
    totals, no_log = ws[7], ws[9]
    totals[0] = 0
    totals[1] = 0
    at = round_at_nb(sids, params, card_value, totals, ws, err, no_log)
    # int64 as in play_match_nb (not literals), so that play_round_nb compiles once
    return at, np.int64(params.shape[1]), np.int64(0), np.int64(0), np.int64(0), np.int64(1)


@njit(cache=True, inline="always")
def rounds_chunk_nb(sids, params, card_value, seed, g0, g1, agg, err, ws):
    """Rounds ``[g0, g1)`` summed into ``agg``; ``ws`` is the unowned workspace (unowned_nb)."""
    at, n_params, no_rows, no_target, first_deal, dealer = round_play_at_nb(sids, params, card_value, ws, err)
    for g in range(g0, g1):
        s0, s1, turns, capped = play_round_nb(at, n_params, no_rows, no_target, seed, g, first_deal, dealer)
        if err[0] != 0:
            return
        agg[R_SUM] += s0
        agg[R_SUM + 1] += s1
        agg[R_SUM2] += s0 * s0
        agg[R_SUM2 + 1] += s1 * s1
        agg[R_CROSS] += s0 * s1
        if s0 < s1:
            agg[R_WINS] += 1
        elif s1 < s0:
            agg[R_WINS + 1] += 1
        else:
            agg[R_TIES] += 1
        agg[R_CAPPED] += capped
        agg[R_TURNS] += turns
        agg[R_HIST + s0] += 1
        agg[R_HIST + HIST_BINS + s1] += 1


@njit(cache=True, inline="always")
def matches_chunk_nb(sids, params, card_value, target_half, seed, g0, g1, agg, err, ws):
    """Matches ``[g0, g1)`` summed into ``agg``; ``ws`` is the unowned workspace (unowned_nb)."""
    out = ws[8]
    for g in range(g0, g1):
        play_match_nb(sids, params, card_value, target_half, seed, g, ws, err)
        if err[0] != 0:
            return
        t0, t1, rounds, capped, first, loser = out[0], out[1], out[2], out[3], out[4], out[5]
        if loser < 0:
            agg[M_DRAWS] += 1
        else:
            agg[M_LOSSES + loser] += 1
            if loser == first:
                agg[M_FIRST_DEALER_LOST] += 1
        agg[M_ROUNDS] += rounds
        agg[M_ROUNDS2] += rounds * rounds
        agg[M_CAPPED] += capped
        agg[M_TOTAL] += t0
        agg[M_TOTAL + 1] += t1
        agg[M_TOTAL2] += t0 * t0
        agg[M_TOTAL2 + 1] += t1 * t1
        agg[M_FIRST_DEALT + first] += 1
        agg[M_RHIST + min(rounds, RHIST_BINS - 1)] += 1


@njit(cache=True, inline="always")
def chunk_nb(sids, params, rules_i, seed, unit, g0, g1, agg, err):
    owned = workspace_nb()
    ws = unowned_nb(owned)
    card_value = ws[10]
    card_values_nb(rules_i, card_value)  # rules_i[:13]: points of each rank in half points
    target_half = rules_i[13]
    if unit == 0:
        rounds_chunk_nb(unmanaged(sids), unmanaged(params), card_value, seed, g0, g1, agg, unmanaged(err), ws)
    else:
        matches_chunk_nb(
            unmanaged(sids), unmanaged(params), card_value, target_half, seed, g0, g1, agg, unmanaged(err), ws
        )
    keep_alive(owned)


@njit(cache=True, inline="always")
def records_chunk_nb(sids, params, rules_i, seed, unit, g0, g1, rec, err):
    """One row of ``rec`` per game (layouts ROUND_REC / MATCH_REC in layout.py)."""
    owned = workspace_nb()
    ws = unowned_nb(owned)
    sids, params, err = unmanaged(sids), unmanaged(params), unmanaged(err)
    card_value = ws[10]
    card_values_nb(rules_i, card_value)
    target_half = rules_i[13]
    out = ws[8]
    at, n_params, no_rows, no_target, first_deal, dealer = round_play_at_nb(sids, params, card_value, ws, err)
    for g in range(g0, g1):
        row = rec[g - g0]
        if unit == 0:
            s0, s1, turns, capped = play_round_nb(
                at, n_params, no_rows, no_target, seed, g, first_deal, dealer
            )
            row[0], row[1], row[2], row[3] = s0, s1, turns, capped
        else:
            play_match_nb(sids, params, card_value, target_half, seed, g, ws, err)
            for i in range(6):
                row[i] = out[i]
        if err[0] != 0:
            break
    keep_alive(owned)


# --- blocks: one compiled entry point for rounds, matches and their records -----------------
# Everything above is inlined into it but play_round_nb (compiled once, with the strategies),
# as in the Gris kernels: numba links a callee's code into each caller and compiles the whole
# again at every level, so each level costs about as much as the round with its strategies
# (8 s for a copy with search).  Its chunks run on threads (simulator/engine/chunks.py), taken
# from a shared queue: a chunk goes to whichever thread is free; there is no parallel layer.


@chunk_njit(cache=True)
def block_chunk_nb(sids, params, rules_i, rules_f, seed, unit, first, n, out, err, c):
    """Chunk ``c`` of games ``[first, first + n)`` (``err.shape[0]`` chunks, one row of
    ``err`` each).  ``unit`` 0 plays rounds, 1 matches, into aggregate row ``out[c]``; 2 and 3
    the same, one record row of ``out`` per game.  ``rules_i`` holds the rank values (13)
    and the match target, in half points; ``rules_f`` is unused."""
    g0, g1 = chunk_of_block_nb(first, n, err.shape[0], c)
    if unit < RECORDS_UNIT:
        chunk_nb(sids, params, rules_i, seed, unit, g0, g1, out[c], err[c])
    else:
        rec = out[g0 - first : g1 - first]
        records_chunk_nb(sids, params, rules_i, seed, unit - RECORDS_UNIT, g0, g1, rec, err[c])


run_block_nb, records_block_nb = entry_points(block_chunk_nb)


@njit(cache=True)
def trace_round_nb(sids, params, values, target_half, totals, seed, game, deal, dealer, log):
    """One round with the shipped strategies, every turn written to ``log`` (for tests)."""
    owned = workspace_nb()
    ws = unowned_nb(owned)
    err = np.zeros(ERR_SIZE, np.int64)
    card_values_nb(values, ws[10])
    at = round_at_nb(sids, params, ws[10], totals, ws, err, log)
    s0, s1, turns, capped = play_round_nb(
        at,
        np.int64(params.shape[1]),
        np.int64(log.shape[0]),
        np.int64(target_half),
        np.int64(seed),
        np.int64(game),
        np.int64(deal),
        np.int64(dealer),
    )
    keep_alive(owned)
    return s0, s1, turns, capped, err[0]
