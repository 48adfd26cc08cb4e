"""Gris-nese's compiled kernel: one round, one match, and blocks of games.

Everything here is nopython numba: integer card codes and arrays in,
aggregates written into preallocated ``int64`` arrays out.  The rules are the
same as ``reference.py`` (RULES.md §2, §4, §6) and draw from the same random
streams (``docs/random-streams.md``), so a test can replay any game move by
move.

One round is :func:`simulator.games.gris_nese.round.play_round_nb`; this module plays matches,
chunks and blocks of rounds.  Both reach the strategies through the hook ``decide_nb``
(docs/kernels.md says how it is bound for users' strategies).

``rules_i`` is ``[n_players, stall_cap]``; ``rules_f`` is
``[unclear_margin, median of each seat..., sigma of each seat...]``.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from simulator.engine.chunks import RECORDS_UNIT, chunk_njit, chunk_of_block_nb, entry_points
from simulator.engine.unmanaged import keep_alive
from simulator.games.gris_nese.round import (
    decide_nb as decide_nb,  # the strategies' hook (simulator/kernels/hooks.py)
)
from simulator.games.gris_nese.round import (
    play_round_nb,
    round_at_nb,
)
from simulator.games.gris_nese.rules import (
    DEAL_BINS,
    ERR_SIZE,
    LOG_FIELDS,
    M_ABANDONED,
    M_DEALS,
    M_FINISHED,
    M_PLACE,
    M_PLACE2,
    M_REPLAYED,
    M_ROUNDS,
    M_ROUNDS2,
    M_STALLED,
    M_WINS,
    MAX_SEATS,
    PASS_BINS,
    R_ALL,
    R_COUNTED,
    R_DEALT,
    R_HIST,
    R_OUT,
    R_PASSES,
    R_PASSES2,
    R_REPLAYED,
    R_SIGNAL,
    R_STALLED,
    leave_nb,
    workspace_nb,
)
from simulator.games.gris_nese.variants import ABANDON_AFTER


@njit(cache=True, inline="always")
def rounds_chunk_nb(at, n, stall_cap, margin, width, seed, g0, g1, ws, agg, err):
    sig, seats = ws[4], ws[7]
    for i in range(n):
        seats[i] = i  # round simulations: every player, seats in order
    no_rows = np.int64(0)
    for g in range(g0, g1):
        _, passes, stalled, replayed, loser, n_sig = play_round_nb(
            at, n, stall_cap, margin, width, no_rows, seed, g, no_rows
        )
        if err[0] != 0:
            return
        # RULES.md §6: stalled and replayed rounds enter no other statistic.
        if stalled:
            agg[R_STALLED] += 1
            continue
        if replayed:
            agg[R_REPLAYED] += 1
            continue
        agg[R_COUNTED] += 1
        agg[R_PASSES] += passes
        agg[R_PASSES2] += passes * passes
        agg[R_HIST + min(passes, PASS_BINS - 1)] += 1
        if passes == 0:
            agg[R_DEALT] += 1
        if n_sig == n:
            agg[R_ALL] += 1
        for i in range(n):
            agg[R_SIGNAL + i] += sig[i]
        agg[R_OUT + loser] += 1


@njit(cache=True, inline="always")
def play_match_nb(sids, params, n, stall_cap, margin, medians, sigmas, seed, game, ws, err, places):
    """Play one match from n players down to two joint winners (:func:`match_at_nb` on these
    arrays).  ``places`` receives each original seat's place (1 for the two winners, n for
    the first out).  Returns ``(abandoned, counted rounds, stalled rounds, replayed rounds,
    deals)``."""
    sids = np.ascontiguousarray(sids)
    params = np.ascontiguousarray(params)
    medians = np.ascontiguousarray(medians)
    sigmas = np.ascontiguousarray(sigmas)
    no_log = np.empty((0, LOG_FIELDS), np.int64)
    at = round_at_nb(sids, params, medians, sigmas, ws, err, no_log)
    out = match_at_nb(at, n, stall_cap, margin, np.int64(params.shape[1]), seed, game, ws, err, places)
    keep_alive(sids, params, medians, sigmas, ws, err, no_log)
    return out


@njit(cache=True, inline="always")
def match_at_nb(at, n, stall_cap, margin, width, seed, game, ws, err, places):
    """Play one match from n players down to two joint winners.  ``places`` receives each
    original seat's place (1 for the two winners, n for the first out).  Returns
    ``(abandoned, counted rounds, stalled rounds, replayed rounds, deals)``."""
    seats = ws[7]
    for i in range(n):
        seats[i] = i
    no_rows = np.int64(0)
    m = n
    deal = np.int64(0)
    in_a_row = 0
    rounds, stalled, replayed = 0, 0, 0
    while m > 2:
        _, _, st, rp, loser, _ = play_round_nb(at, m, stall_cap, margin, width, no_rows, seed, game, deal)
        if err[0] != 0:
            return 0, rounds, stalled, replayed, deal
        deal += 1
        if st or rp:  # RULES.md §6: re-dealt from a fresh shuffle, not counted
            stalled += st
            replayed += rp
            in_a_row += 1
            if in_a_row >= ABANDON_AFTER:
                return 1, rounds, stalled, replayed, deal
            continue
        in_a_row = 0
        rounds += 1
        # RULES.md §2: the loser leaves; the last-added rank group goes with the count m.
        places[seats[loser]] = m
        m = leave_nb(seats, m, loser)
    places[seats[0]] = 1  # RULES.md §2: two left are joint winners
    places[seats[1]] = 1
    return 0, rounds, stalled, replayed, deal


@njit(cache=True, inline="always")
def matches_chunk_nb(at, n, stall_cap, margin, width, seed, g0, g1, ws, agg, err):
    places = np.zeros(MAX_SEATS, np.int64)
    for g in range(g0, g1):
        abandoned, rounds, stalled, replayed, deals = match_at_nb(
            at, n, stall_cap, margin, width, seed, g, ws, err, places
        )
        if err[0] != 0:
            return
        if abandoned:  # RULES.md §6: counted, and in no other match statistic
            agg[M_ABANDONED] += 1
            continue
        agg[M_FINISHED] += 1
        agg[M_STALLED] += stalled
        agg[M_REPLAYED] += replayed
        agg[M_ROUNDS] += rounds
        agg[M_ROUNDS2] += rounds * rounds
        agg[M_DEALS + min(deals, DEAL_BINS - 1)] += 1
        for s in range(n):
            p = places[s]
            agg[M_PLACE + s] += p
            agg[M_PLACE2 + s] += p * p
            if p == 1:
                agg[M_WINS + s] += 1


@njit(cache=True, inline="always")
def records_nb(at, n, stall_cap, margin, width, seed, unit, g0, g1, ws, rec, err):
    """One row of ``rec`` per game of ``[g0, g1)``, rounds (``unit`` 0) or matches (1)
    (layouts ROUND_REC / MATCH_REC in layout.py)."""
    sig, seats = ws[4], ws[7]
    places = np.zeros(MAX_SEATS, np.int64)
    no_rows = np.int64(0)
    for g in range(g0, g1):
        row = rec[g - g0]
        if unit == 0:
            for i in range(n):
                seats[i] = i
            _, passes, stalled, replayed, loser, _ = play_round_nb(
                at, n, stall_cap, margin, width, no_rows, seed, g, no_rows
            )
            mask = 0
            if not stalled:
                for i in range(n):
                    mask |= sig[i] << i
            row[0], row[1], row[2], row[3], row[4] = passes, stalled, replayed, loser, mask
        else:
            places[:] = 0
            abandoned, rounds, stalled, replayed, deals = match_at_nb(
                at, n, stall_cap, margin, width, seed, g, ws, err, places
            )
            row[0], row[1], row[2], row[3], row[4] = abandoned, rounds, stalled, replayed, deals
            for s in range(n):
                row[5 + s] = 0 if abandoned else places[s]
        if err[0] != 0:
            break


# --- blocks: one compiled entry point for rounds, matches and their records -----------------
# Everything above is inlined into it but play_round_nb (compiled once, with the strategies),
# so LLVM optimises each piece once; its chunks run on threads (simulator/engine/chunks.py).


@chunk_njit(cache=True)
def block_chunk_nb(sids, params, rules_i, rules_f, seed, unit, first, n_games, out, errs, c):
    """Chunk ``c`` of games ``[first, first + n_games)`` (``errs.shape[0]`` chunks, error
    row ``errs[c]``), all dealt from one round set-up: ``unit`` 0 sums rounds and 1 matches
    into ``out[c]``, 2 and 3 write their records, game ``g`` into ``out[g - first]``."""
    g0, g1 = chunk_of_block_nb(first, n_games, errs.shape[0], c)
    err = errs[c]
    sids = np.ascontiguousarray(sids)  # strategies get row views by address
    params = np.ascontiguousarray(params)
    rules_f = np.ascontiguousarray(rules_f)
    n, stall_cap = rules_i[0], rules_i[1]
    margin = rules_f[0]
    ws = workspace_nb()
    no_log = np.empty((0, LOG_FIELDS), np.int64)
    at = round_at_nb(sids, params, rules_f[1 : 1 + n], rules_f[1 + n : 1 + 2 * n], ws, err, no_log)
    width = np.int64(params.shape[1])
    if unit == 0:
        rounds_chunk_nb(at, n, stall_cap, margin, width, seed, g0, g1, ws, out[c], err)
    elif unit == 1:
        matches_chunk_nb(at, n, stall_cap, margin, width, seed, g0, g1, ws, out[c], err)
    else:
        rec = out[g0 - first : g1 - first]
        records_nb(at, n, stall_cap, margin, width, seed, unit - RECORDS_UNIT, g0, g1, ws, rec, err)
    keep_alive(sids, params, rules_f, ws, no_log)


run_block_nb, records_block_nb = entry_points(block_chunk_nb)


@njit(cache=True)
def trace_round_nb(sids, params, rules_i, rules_f, seed, game, deal, seats, log, times, signallers):
    """One deal among ``seats`` (original seats, ring order), every card laid down written
    to ``log``, the touch times and signallers (ring order) to ``times`` and ``signallers``.
    Returns ``(events, passes, stalled, replayed, loser)`` with ``loser`` an original seat
    (-1 if stalled or replayed).  For tests and the move-by-move comparison."""
    sids = np.ascontiguousarray(sids)
    params = np.ascontiguousarray(params)
    rules_f = np.ascontiguousarray(rules_f)
    n, stall_cap = rules_i[0], rules_i[1]
    margin = rules_f[0]
    ws = workspace_nb()
    m = seats.shape[0]
    for i in range(m):
        ws[7][i] = seats[i]
    err = np.zeros(ERR_SIZE, np.int64)
    medians = np.ascontiguousarray(rules_f[1 : 1 + n])
    sigmas = np.ascontiguousarray(rules_f[1 + n : 1 + 2 * n])
    at = round_at_nb(sids, params, medians, sigmas, ws, err, log)
    events, passes, stalled, replayed, loser, _ = play_round_nb(
        at,
        np.int64(m),
        np.int64(stall_cap),
        np.float64(margin),
        np.int64(params.shape[1]),
        np.int64(log.shape[0]),
        np.int64(seed),
        np.int64(game),
        np.int64(deal),
    )
    keep_alive(sids, params, rules_f, medians, sigmas, ws, err, log)
    if err[0] != 0:
        raise ValueError("a strategy laid down a card it does not hold")
    for i in range(m):
        times[i] = ws[5][i]
        signallers[i] = ws[4][i]
    return events, passes, stalled, replayed, (seats[loser] if loser >= 0 else -1)
