"""Gris's compiled round: the deal, the pass loop, the signal and the reactions (RULES.md §1, §4).

It calls the strategies through the hook ``decide_nb`` (docs/kernels.md).
"""

from __future__ import annotations

import numpy as np
from numba import carray, njit

from simulator.engine.rng import (
    DEAL,
    DECIDE,
    row_salt_nb,
    salted_nb,
    shuffled_from_key_nb,
    stream_base_nb,
    stream_key_at_nb,
)
from simulator.engine.unmanaged import (
    _address_as_void_pointer,
    address,
    float64_at,
    int64_at,
    uint64_at,
)
from simulator.games.gris.deal import deal_rows_nb
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
    PASS_EVENT,
    locate_cards_nb,
    one_suit_nb,
    pass_card_nb,
    receive_nb,
    show_hand_nb,
    six_seat_nb,
    stock_start_nb,
)
from simulator.games.gris.strategies import decide_builtin_nb as decide_nb
from simulator.games.gris.touch import reaction_times_nb
from simulator.games.gris.variants import MAX_SEATS

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
def int8_at_nb(addr, size):
    return carray(_address_as_void_pointer(addr), (size,), dtype=np.int8)


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
        address(ws[11]),  # draws
        address(ws[12]),  # cosines (touch.py)
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
    owner = int8_at_nb(at[10], N_CARDS + 1)
    straight = int8_at_nb(at[11], N_CARDS + 1)
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
        draws = int64_at(at[18], (N_CARDS,))
        rng[0] = shuffled_from_key_nb(stream_key_at_nb(base, DEAL, deal, 0), deck, draws)
    six = six_seat_nb(dealer, n)
    dealt = deal_rows_nb(deck, n, six, obs, hands, owner, straight, signallers)
    stock0 = stock_start_nb(n)
    n_stock = N_CARDS - stock0
    head = 0
    events = 0
    passes = 0
    stalled = 0
    # RULES.md §1: several players dealt a complete five-card hand all signal together.
    if dealt == 0:
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
    reaction_times_nb(base, deal, n, medians, sigmas, times, float64_at(at[19], (MAX_SEATS,)))
    first = np.inf
    for s in range(n):
        if signallers[s] and times[s] < first:
            first = times[s]
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
