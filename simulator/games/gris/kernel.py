"""Gris's compiled kernel: one round, one match, and blocks of games.

Everything here is nopython numba: integer card codes and arrays in,
aggregates written into preallocated ``int64`` arrays out.  The rules are the
same as ``reference.py`` (RULES.md §1, §4, §6) and draw from the same random
streams (``docs/random-streams.md``), so a test can replay any game move by
move.

One round is :func:`simulator.games.gris.round.play_round_nb`; this module plays matches,
chunks and blocks of rounds.  Both reach the strategies through the hook ``decide_nb``
(docs/kernels.md says how it is bound for users' strategies).

``rules_i`` is ``[n_players, circulation_code, stall_cap]``; ``rules_f`` is
``[median of each seat..., sigma of each seat...]``
(:func:`simulator.engine.reaction.profile_arrays`).

Each seat's ``forget`` and ``slip`` (its parameter row's last two values) are read once
per round; a seat whose values are 0 draws nothing more than its strategy, so plain play
is what it was (:mod:`simulator.games.gris.human`, docs/human-players.md).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from simulator.engine.chunks import RECORDS_UNIT, chunk_njit, chunk_of_block_nb, entry_points
from simulator.engine.unmanaged import (
    keep_alive,
)
from simulator.games.gris.round import (
    MATCH_OUT,
    N_CARDS,
    play_round_nb,
    round_at_nb,
)
from simulator.games.gris.round import (
    decide_nb as decide_nb,  # the strategies' hook (simulator/kernels/hooks.py)
)
from simulator.games.gris.rules import (
    ERR_SIZE,
    LOG_FIELDS,
    M_ABANDONED,
    M_FINISHED,
    M_FIRST_DEALT,
    M_LETTERS,
    M_LETTERS2,
    M_LETTERS_HIST,
    M_LOSSES,
    M_PASSES,
    M_PASSES2,
    M_ROUNDS,
    M_ROUNDS2,
    M_ROUNDS_HIST,
    M_STALLED,
    N_LETTERS,
    PASS_BINS,
    R_DEALT,
    R_DEALT_SEAT,
    R_FINISHED,
    R_LETTER,
    R_PASS_HIST,
    R_PASSES,
    R_PASSES2,
    R_SIGNAL,
    R_STALLED,
    ROUNDS_BINS,
    first_dealer_nb,
    workspace_nb,
)
from simulator.games.gris.variants import ABANDON_AFTER


@njit(cache=True, inline="always")
def play_match_nb(at, n, circulation, stall_cap, width, seed, game, ws, err, letters, out):
    """Play one match; return ``(sum of passes, sum of squared passes)`` over its counted
    rounds.  ``letters`` receives each seat's letters at the end; ``out`` receives
    [counted rounds, stalled deals, abandoned, first dealer, loser (-1 if abandoned)]."""
    rng = ws[4]
    first = first_dealer_nb(seed, game, n, rng)  # RULES.md §1: round 1's dealer drawn at random
    for s in range(n):
        letters[s] = 0
    no_rows = np.int64(0)
    dealer = first
    deal = np.int64(0)  # not a literal: play_round_nb is compiled for one signature
    counted = 0
    stalled_deals = 0
    in_a_row = 0
    pass_sum = 0
    pass_sum2 = 0
    loser = -1
    abandoned = 0
    while True:
        _, passes, stalled, who = play_round_nb(
            at, n, circulation, stall_cap, width, no_rows, no_rows, no_rows, seed, game, deal, dealer
        )
        if err[0] != 0:
            return 0, 0
        deal += 1  # docs/random-streams.md: every deal of the match, re-deals included
        if stalled:
            # RULES.md §6: re-dealt by the same dealer, not counted; 100 in a row abandon the match.
            stalled_deals += 1
            in_a_row += 1
            if in_a_row >= ABANDON_AFTER:
                abandoned = 1
                break
            continue
        in_a_row = 0
        counted += 1
        pass_sum += passes
        pass_sum2 += passes * passes
        letters[who] += 1  # RULES.md §1: the next letter of G-R-I-S
        if letters[who] == N_LETTERS:  # RULES.md §1: all four letters lose the match
            loser = who
            break
        dealer = dealer + 1 if dealer + 1 < n else 0  # RULES.md §1: the dealer moves one seat left
    out[0], out[1], out[2], out[3], out[4] = counted, stalled_deals, abandoned, first, loser
    return pass_sum, pass_sum2


@njit(cache=True, inline="always")
def empty_nb():
    """The empty log, snapshots and deck a block plays with."""
    return np.empty((0, LOG_FIELDS), np.int64), np.empty((0, N_CARDS), np.int64), np.empty(0, np.int64)


@njit(cache=True, inline="always")
def rounds_chunk_nb(at, n, circulation, stall_cap, width, seed, g0, g1, ws, agg, err):
    signallers = ws[6]
    no_rows = np.int64(0)
    for g in range(g0, g1):
        # RULES.md §1: in round simulations seat n-1 deals and seat 0 holds six.
        _, passes, stalled, loser = play_round_nb(
            at, n, circulation, stall_cap, width, no_rows, no_rows, no_rows, seed, g, no_rows, n - 1
        )
        if err[0] != 0:
            return
        if stalled:  # RULES.md §6: counted in `stalled` and in no other figure
            agg[R_STALLED] += 1
            continue
        agg[R_FINISHED] += 1
        agg[R_PASSES] += passes
        agg[R_PASSES2] += passes * passes
        agg[R_PASS_HIST + min(passes, PASS_BINS - 1)] += 1
        agg[R_LETTER + loser] += 1
        if passes == 0:
            agg[R_DEALT] += 1
            for s in range(n):
                agg[R_SIGNAL + s] += signallers[s]
                agg[R_DEALT_SEAT + s] += signallers[s]
        else:
            for s in range(n):
                agg[R_SIGNAL + s] += signallers[s]


@njit(cache=True, inline="always")
def matches_chunk_nb(at, n, circulation, stall_cap, width, seed, g0, g1, ws, agg, err):
    letters = np.zeros(n, np.int64)
    out = np.zeros(MATCH_OUT, np.int64)
    for g in range(g0, g1):
        ps, ps2 = play_match_nb(at, n, circulation, stall_cap, width, seed, g, ws, err, letters, out)
        if err[0] != 0:
            return
        counted, stalled_deals, abandoned, first, loser = out[0], out[1], out[2], out[3], out[4]
        if abandoned:  # RULES.md §6: counted in `abandoned` and in no other figure
            agg[M_ABANDONED] += 1
            continue
        agg[M_FINISHED] += 1
        agg[M_STALLED] += stalled_deals
        agg[M_ROUNDS] += counted
        agg[M_ROUNDS2] += counted * counted
        agg[M_PASSES] += ps
        agg[M_PASSES2] += ps2
        agg[M_LOSSES + loser] += 1
        agg[M_FIRST_DEALT + first] += 1
        agg[M_ROUNDS_HIST + min(counted, ROUNDS_BINS - 1)] += 1
        for s in range(n):
            agg[M_LETTERS + s] += letters[s]
            agg[M_LETTERS2 + s] += letters[s] * letters[s]
            agg[M_LETTERS_HIST + s * (N_LETTERS + 1) + letters[s]] += 1


# --- per-game records (compare, --records) -----------------------------------------------

# Rounds: passes, stalled (0/1), loser (-1 if stalled), signallers (bit s = seat s).
REC_ROUND = 4
# Matches: counted rounds, stalled deals, abandoned (0/1), first dealer, loser, then letters per seat.
REC_MATCH = MATCH_OUT


@njit(cache=True, inline="always")
def records_nb(at, n, circulation, stall_cap, width, seed, unit, g0, g1, ws, rec, err):
    """One row of ``rec`` per game of ``[g0, g1)``: rounds (``unit`` 0) or matches (1)."""
    signallers = ws[6]
    letters = np.zeros(n, np.int64)
    out = np.zeros(MATCH_OUT, np.int64)
    no_rows = np.int64(0)
    for g in range(g0, g1):
        row = rec[g - g0]
        if unit == 0:
            _, passes, stalled, loser = play_round_nb(
                at, n, circulation, stall_cap, width, no_rows, no_rows, no_rows, seed, g, no_rows, n - 1
            )
            mask = 0
            if stalled == 0:
                for s in range(n):
                    mask |= signallers[s] << s
            row[0], row[1], row[2], row[3] = passes, stalled, loser, mask
        else:
            play_match_nb(at, n, circulation, stall_cap, width, seed, g, ws, err, letters, out)
            for i in range(MATCH_OUT):
                row[i] = out[i]
            for s in range(n):
                row[MATCH_OUT + s] = letters[s]
        if err[0] != 0:
            break


# --- blocks: one compiled entry point for rounds, matches and their records -----------------
# Everything above is inlined into it but play_round_nb (compiled once, with the strategies),
# so LLVM optimises each piece once; its chunks run on threads (simulator/engine/chunks.py).


@chunk_njit(cache=True)
def block_chunk_nb(sids, params, rules_i, rules_f, seed, unit, first, n_games, out, errs, c):
    """Chunk ``c`` of games ``[first, first + n_games)`` (``errs.shape[0]`` chunks, error
    row ``errs[c]``), on one round set-up: ``unit`` 0 sums rounds, 1 matches, into
    ``out[c]``; 2 and 3 write their records, ``out[g - first]`` for game ``g``."""
    g0, g1 = chunk_of_block_nb(first, n_games, errs.shape[0], c)
    err = errs[c]
    params = np.ascontiguousarray(params)  # strategies get row views by address
    n, circulation, stall_cap = rules_i[0], rules_i[1], rules_i[2]
    ws = workspace_nb()
    no_log, no_snap, no_deck = empty_nb()
    at = round_at_nb(sids, params, rules_f[:n], rules_f[n : 2 * n], ws, err, no_log, no_snap, no_deck)
    width = np.int64(params.shape[1])
    if unit == 0:
        rounds_chunk_nb(at, n, circulation, stall_cap, width, seed, g0, g1, ws, out[c], err)
    elif unit == 1:
        matches_chunk_nb(at, n, circulation, stall_cap, width, seed, g0, g1, ws, out[c], err)
    else:
        rec = out[g0 - first : g1 - first]
        records_nb(at, n, circulation, stall_cap, width, seed, unit - RECORDS_UNIT, g0, g1, ws, rec, err)
    keep_alive(sids, params, rules_f, ws, no_log, no_snap, no_deck)


run_block_nb, records_block_nb = entry_points(block_chunk_nb)


# --- test entries ----------------------------------------------------------------------------


@njit(cache=True)
def play_traced_nb(
    sids, params, rules_i, rules_f, seed, game, deal, dealer, deck, log, times, signallers, snap
):
    """:func:`trace_round_nb` dealing ``deck`` (52 cards; empty: shuffle) and filling ``snap``
    (``snap[k]`` = where every card is after event ``k``; see ``rules.locate_cards_nb``).
    ``log`` and ``snap`` must be C-contiguous (they are written through their addresses)."""
    sids = np.ascontiguousarray(sids)
    params = np.ascontiguousarray(params)
    deck = np.ascontiguousarray(deck)
    n, circulation, stall_cap = rules_i[0], rules_i[1], rules_i[2]
    ws = workspace_nb()
    err = np.zeros(ERR_SIZE, np.int64)
    medians = np.ascontiguousarray(rules_f[:n])
    sigmas = np.ascontiguousarray(rules_f[n : 2 * n])
    at = round_at_nb(sids, params, medians, sigmas, ws, err, log, snap, deck)
    events, passes, stalled, loser = play_round_nb(
        at,
        n,
        circulation,
        stall_cap,
        np.int64(params.shape[1]),
        np.int64(log.shape[0]),
        np.int64(snap.shape[0]),
        np.int64(deck.shape[0]),
        np.int64(seed),
        np.int64(game),
        np.int64(deal),
        np.int64(dealer),
    )
    keep_alive(sids, params, deck, medians, sigmas, ws, err, log, snap)
    for s in range(n):
        signallers[s] = ws[6][s]
        times[s] = ws[5][s] if stalled == 0 else np.nan
    return events, passes, stalled, loser


@njit(cache=True)
def trace_round_nb(sids, params, rules_i, rules_f, seed, game, deal, dealer, log, times, signallers):
    """One round with the shipped strategies (for tests): the events go to ``log`` (rows
    ``(kind, seat, card, other)``, as many as fit), the touch times to ``times`` (NaN if
    stalled), 0/1 per seat to ``signallers``.  Returns ``(events, passes, stalled, loser)``;
    ``stalled`` is -1 if a strategy passed a card it does not hold."""
    no_snap = np.empty((0, N_CARDS), np.int64)
    return play_traced_nb(
        sids,
        params,
        rules_i,
        rules_f,
        seed,
        game,
        deal,
        dealer,
        np.empty(0, np.int64),
        log,
        times,
        signallers,
        no_snap,
    )
