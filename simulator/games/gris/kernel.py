"""Gris's compiled kernel: one round, one match, and blocks of games.

Everything here is nopython numba: integer card codes and arrays in,
aggregates written into preallocated ``int64`` arrays out.  The rules are the
same as ``reference.py`` (RULES.md §1, §4, §6) and draw from the same random
streams (``docs/random-streams.md``), so a test can replay any game move by
move.

Strategies are reached through the module global ``decide_nb(strategy_id,
obs, params, rng)``, called directly so that the compiler inlines it: here it
is the shipped strategies' dispatcher, and this module is compiled once and
cached.  For user strategies :mod:`simulator.kernels.hooks` compiles a copy of
every function here that reaches ``decide_nb``, with ``decide_nb`` bound to their
dispatcher (the same code, other globals).

``rules_i`` is ``[n_players, circulation_code, stall_cap]``; ``rules_f`` is
``[median of each seat..., sigma of each seat...]``
(:func:`simulator.engine.reaction.profile_arrays`).

Each seat's ``forget`` and ``slip`` (its parameter row's last two values) are read once
per round; a seat whose values are 0 draws nothing more than its strategy, so plain play
is what it was (:mod:`simulator.games.gris.human`, docs/human-players.md).
"""

from __future__ import annotations

import numpy as np
from numba import carray, njit

from simulator.engine.chunks import ChunkedBlock, chunk_njit
from simulator.engine.rng import (
    DEAL,
    DECIDE,
    REACT,
    lognormal_at_nb,
    row_salt_nb,
    salted_nb,
    shuffle_nb,
    stream_base_nb,
    stream_key_at_nb,
)
from simulator.engine.unmanaged import (
    _address_as_void_pointer,
    address,
    float64_at,
    int64_at,
    keep_alive,
    uint64_at,
)
from simulator.games.gris.human import (
    SLIP_OFFSET,
    claimed_nb,
    forget_turn_nb,
    human_values_nb,
    slip_nb,
)
from simulator.games.gris.observation import OBS_SIZE, PASSES
from simulator.games.gris.rules import (
    ERR_NOT_HELD,
    ERR_SIZE,
    EXCHANGE_EVENT,
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
    PASS_EVENT,
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
    deal_nb,
    dealt_signallers_nb,
    first_dealer_nb,
    locate_cards_nb,
    one_suit_nb,
    pass_card_nb,
    receive_nb,
    show_hand_nb,
    stock_start_nb,
    workspace_nb,
)
from simulator.games.gris.strategies import decide_builtin_nb as decide_nb
from simulator.games.gris.variants import ABANDON_AFTER, MAX_SEATS

N_CARDS = 52


# Row views without reference counting, from an address taken once per round (the caller
# keeps the arrays alive): passing a strategy managed views costs atomic reference counts.
@njit(cache=True, inline="always")
def obs_row_nb(addr, seat):
    return carray(_address_as_void_pointer(addr + seat * (OBS_SIZE * 8)), (OBS_SIZE,), dtype=np.int64)


@njit(cache=True, inline="always")
def params_row_nb(addr, seat, width):
    return carray(_address_as_void_pointer(addr + seat * (width * 8)), (width,), dtype=np.float64)


@njit(cache=True, inline="always")
def rng_cell_nb(addr, i):
    return carray(_address_as_void_pointer(addr + i * 8), (1,), dtype=np.uint64)


MATCH_OUT = 5  # play_match_nb's out: counted rounds, stalled deals, abandoned, first dealer, loser


@njit(cache=True, inline="always")
def round_at_nb(sids, params, medians, sigmas, ws, err, log, snap, given):
    """The addresses of everything :func:`play_round_nb` plays with, in its order.

    The caller keeps the arrays alive while play_round_nb runs (a chunk's workspace and
    the block's arguments); all of them are C-contiguous."""
    return (
        address(sids),
        address(params),
        address(medians),
        address(sigmas),
        address(err),
        address(log),
        address(snap),
        address(given),
        address(ws[0]),  # deck
        address(ws[1]),  # obs
        address(ws[2]),  # owner
        address(ws[3]),  # straight
        address(ws[4]),  # rng
        address(ws[5]),  # times
        address(ws[6]),  # signallers
        address(ws[8]),  # hands
        address(ws[9]),  # claims
        address(ws[10]),  # human
    )


@njit(cache=True)
def play_round_nb(
    at, n, circulation, stall_cap, width, log_rows, snap_rows, n_given, seed, game, deal, dealer
):
    """Play one round; return ``(events, passes, stalled, loser)``.

    ``at`` holds the addresses of the arrays (:func:`round_at_nb`): the strategy ids and
    their parameters (``width`` per seat), each seat's reaction median and sigma, the error
    row, the event log (``log_rows`` rows), the snapshots (``snap_rows`` rows), a deck to
    deal instead of shuffling (used when ``n_given`` is 52) and the workspace
    (:func:`workspace_nb`; afterwards its signallers, 0/1 per seat, and touch times
    describe the round).  The arrays are made here from the addresses, with constant
    shapes where the layout fixes them: the compiler then knows they have no owner and
    emits no reference counting for them (an array argument costs calls at every entry
    and exit, and every inlined helper that takes an array adds a pair).  Rows of ``log``
    receive the events; rows of ``snap`` where every card is after every pass and every
    exchange.  On a card the strategy does not hold, ``err`` is filled and ``(events,
    passes, -1, -1)`` returned.
    """
    sids = int64_at(at[0], (MAX_SEATS,))
    medians = float64_at(at[2], (MAX_SEATS,))
    sigmas = float64_at(at[3], (MAX_SEATS,))
    err = int64_at(at[4], (ERR_SIZE,))
    log = int64_at(at[5], (log_rows, LOG_FIELDS))
    deck = int64_at(at[8], (N_CARDS,))
    obs = int64_at(at[9], (MAX_SEATS, OBS_SIZE))
    owner = int64_at(at[10], (N_CARDS + 1,))
    straight = int64_at(at[11], (N_CARDS + 1,))
    rng = uint64_at(at[12], (MAX_SEATS + 2,))
    times = float64_at(at[13], (MAX_SEATS,))
    signallers = int64_at(at[14], (MAX_SEATS,))
    hands = uint64_at(at[15], (MAX_SEATS,))
    claims = uint64_at(at[16], (MAX_SEATS,))
    human = float64_at(at[17], (2 * MAX_SEATS,))
    params_at, obs_at, rng_at = at[1], at[9], at[12]
    # docs/human-players.md: who forgets and who slips, read once per round.
    forgets, slips = human_values_nb(float64_at(params_at, (n, width)), n, human, claims)
    base = stream_base_nb(seed, game)  # docs/random-streams.md: every stream of this game from it
    if n_given == N_CARDS:
        given = int64_at(at[7], (N_CARDS,))
        for i in range(N_CARDS):
            deck[i] = given[i]
    else:
        rng[0] = stream_key_at_nb(base, DEAL, deal, 0)
        shuffle_nb(rng_cell_nb(rng_at, 0), deck)
    six = deal_nb(deck, n, dealer, obs, hands, owner, straight)
    stock0 = stock_start_nb(n)
    n_stock = N_CARDS - stock0
    head = 0
    events = 0
    passes = 0
    stalled = 0
    # RULES.md §1: several players dealt a complete five-card hand all signal together.
    if dealt_signallers_nb(obs, n, six, signallers) == 0:
        for s in range(n):  # docs/random-streams.md: a copy's salt moves its stream (0: as keyed)
            salt = row_salt_nb(params_row_nb(params_at, s, width), width)
            rng[1 + s] = salted_nb(stream_key_at_nb(base, DECIDE, deal, s), salt)
        p = six  # RULES.md §1: the holder of six cards passes first
        while True:
            row = obs_row_nb(obs_at, p)
            row[PASSES] = passes
            show_hand_nb(row, hands[p])
            card = np.int64(-1)
            if slips:  # docs/human-players.md: a slip passes a random card; the strategy is not asked
                card = slip_nb(row, human[SLIP_OFFSET + p], rng_cell_nb(rng_at, 1 + p))
            if card < 0:
                card = decide_nb(sids[p], row, params_row_nb(params_at, p, width), rng_cell_nb(rng_at, 1 + p))
            if not pass_card_nb(row, hands, owner, straight, p, card):
                err[0], err[1], err[2], err[3] = 1, game, p, ERR_NOT_HELD
                err[4], err[5], err[6], err[7] = card, passes + 1, sids[p], deal
                return events, passes, -1, -1
            passes += 1
            q = p + 1 if p + 1 < n else 0  # RULES.md §1: to the left, seat (i + 1) % n
            if events < log_rows:
                log[events, 0], log[events, 1], log[events, 2], log[events, 3] = PASS_EVENT, p, card, q
            events += 1
            if snap_rows > 0:
                snap_nb(
                    int64_at(at[6], (snap_rows, N_CARDS)), events - 1, hands, n, deck, stock0, n_stock, card
                )
            claimed = True  # a player who does not forget claims every card of its own back home
            if forgets:  # docs/human-players.md: the passer forgets right after its pass ...
                forget_turn_nb(row, owner, claims, human, p, card, rng_cell_nb(rng_at, 1 + p))
                claimed = claimed_nb(claims, human, q, card)  # ... and the receiver may have forgotten
            # The card arrives as part of the pass; back home, it may be exchanged.
            drawn, head = receive_nb(
                obs_row_nb(obs_at, q),
                hands,
                owner,
                straight,
                circulation,
                deck,
                stock0,
                n_stock,
                head,
                q,
                card,
                claimed,
            )
            if drawn >= 0:
                if events < log_rows:
                    log[events, 0], log[events, 1], log[events, 2], log[events, 3] = (
                        EXCHANGE_EVENT,
                        q,
                        card,
                        drawn,
                    )
                events += 1
                if snap_rows > 0:
                    snap = int64_at(at[6], (snap_rows, N_CARDS))
                    snap_nb(snap, events - 1, hands, n, deck, stock0, n_stock, np.int64(-1))
            if one_suit_nb(row):  # RULES.md §1: five of one suit after passing: signal
                signallers[p] = 1
                break
            if passes >= stall_cap:  # RULES.md §1 stall guard
                stalled = 1
                break
            p = q
    if stalled:
        return events, passes, 1, -1
    # RULES.md §4 (simulator/engine/reaction.py): every seat draws its reaction from its own REACT
    # stream; signallers touch at it, the others that long after the first touch; the last to
    # touch gets the next letter (an exact tie: the lowest seat).
    first = np.inf
    for s in range(n):
        t = lognormal_at_nb(stream_key_at_nb(base, REACT, deal, s), medians[s], sigmas[s])
        times[s] = t
        if signallers[s] and t < first:
            first = t
    loser = 0
    for s in range(n):
        if not signallers[s]:
            times[s] += first
        if times[s] > times[loser]:
            loser = s
    return events, passes, 0, loser


@njit(cache=True)
def snap_nb(snap, i, hands, n, deck, stock0, n_stock, transit):
    if i < snap.shape[0]:
        locate_cards_nb(hands, n, deck, stock0, n_stock, transit, snap[i])


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


@njit(cache=True, inline="always")
def chunk_nb(sids, params, rules_i, rules_f, seed, unit, g0, g1, agg, err):
    params = np.ascontiguousarray(params)  # strategies get row views by address
    n, circulation, stall_cap = rules_i[0], rules_i[1], rules_i[2]
    ws = workspace_nb()
    no_log, no_snap, no_deck = empty_nb()
    at = round_at_nb(sids, params, rules_f[:n], rules_f[n : 2 * n], ws, err, no_log, no_snap, no_deck)
    width = np.int64(params.shape[1])
    if unit == 0:
        rounds_chunk_nb(at, n, circulation, stall_cap, width, seed, g0, g1, ws, agg, err)
    else:
        matches_chunk_nb(at, n, circulation, stall_cap, width, seed, g0, g1, ws, agg, err)
    keep_alive(sids)
    keep_alive(params)
    keep_alive(rules_f)
    keep_alive(ws)
    keep_alive(no_log)
    keep_alive(no_snap)
    keep_alive(no_deck)


# --- per-game records (compare, --records) -----------------------------------------------

# Rounds: passes, stalled (0/1), loser (-1 if stalled), signallers (bit s = seat s).
REC_ROUND = 4
# Matches: counted rounds, stalled deals, abandoned (0/1), first dealer, loser, then letters per seat.
REC_MATCH = MATCH_OUT


@njit(cache=True, inline="always")
def records_chunk_nb(sids, params, rules_i, rules_f, seed, unit, g0, g1, rec, err):
    params = np.ascontiguousarray(params)
    n, circulation, stall_cap = rules_i[0], rules_i[1], rules_i[2]
    ws = workspace_nb()
    signallers = ws[6]
    letters = np.zeros(n, np.int64)
    out = np.zeros(MATCH_OUT, np.int64)
    no_log, no_snap, no_deck = empty_nb()
    at = round_at_nb(sids, params, rules_f[:n], rules_f[n : 2 * n], ws, err, no_log, no_snap, no_deck)
    width = np.int64(params.shape[1])
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
    keep_alive(sids)
    keep_alive(params)
    keep_alive(rules_f)
    keep_alive(ws)
    keep_alive(no_log)
    keep_alive(no_snap)
    keep_alive(no_deck)


# --- blocks: one compiled entry point for rounds, matches and their records -----------------
# Everything above is inlined into it but play_round_nb (compiled once, with the strategies),
# so LLVM optimises each piece once; its chunks run on threads (simulator/engine/chunks.py).


@chunk_njit(cache=True)
def block_chunk_nb(sids, params, rules_i, rules_f, seed, unit, first, n, out, err, c):
    """Chunk ``c`` of games ``[first, first + n)`` (``err.shape[0]`` chunks, one row of
    ``err`` each).  ``unit`` 0 plays rounds, 1 matches, into aggregate row ``out[c]``; 2 and 3
    the same, one record row of ``out`` per game."""
    n_chunks = err.shape[0]
    g0 = first + c * n // n_chunks
    g1 = first + (c + 1) * n // n_chunks
    if unit < 2:
        chunk_nb(sids, params, rules_i, rules_f, seed, unit, g0, g1, out[c], err[c])
    else:
        records_chunk_nb(
            sids, params, rules_i, rules_f, seed, unit - 2, g0, g1, out[g0 - first : g1 - first], err[c]
        )


# Games [first, first + n) in err.shape[0] chunks: unit 0 plays rounds, 1 matches, one row of
# aggregates (and of err) per chunk ...
run_block_nb = ChunkedBlock(block_chunk_nb)
# ... or the same games' records, one row of rec[:n] per game.
records_block_nb = ChunkedBlock(block_chunk_nb, unit_offset=2)


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
    keep_alive(sids)
    keep_alive(params)
    keep_alive(deck)
    keep_alive(medians)
    keep_alive(sigmas)
    keep_alive(ws)
    keep_alive(err)
    keep_alive(log)
    keep_alive(snap)
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
