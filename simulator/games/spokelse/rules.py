"""Spøkelse's rules as small jitted functions (RULES.md §3), and the kernel's layouts.

Nothing here calls a strategy, so all of it is compiled once and cached; the
round and match loops that do call strategies are in ``kernel.py``.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from simulator.engine.rng import DEALER, below_nb, shuffle_nb, shuffle_with_nb, stream_key_nb
from simulator.engine.unmanaged import unmanaged, unmanaged_item
from simulator.games.spokelse.layout import ERR, MATCH_AGG, ROUND_AGG
from simulator.games.spokelse.observation import (
    HIGH,
    HIGH_SLOT,
    MY_TOTAL,
    OBS_SIZE,
    OPP_TOTAL,
    SEAT,
    SLOT,
    SLOT_VALUE,
    TARGET,
    UNKNOWN_SLOT,
    UNSEEN,
    VALUE,
)

STOCK, DISCARD_PILE, THROW = 0, 1, 4
FIRST_STOCK = 11  # deck[0..9] dealt, deck[10] the first discard, deck[11..51] the stock

# The kernel's rows (error row, round and match aggregates), declared in layout.py.
ERR_SIZE, R_SIZE, M_SIZE = ERR.size(), ROUND_AGG.size(), MATCH_AGG.size()

# Round aggregates: R_SUM, R_SUM2 and R_WINS are + seat, R_HIST + seat * HIST_BINS + score.
R_SUM, R_SUM2, R_CROSS, R_HIST = ROUND_AGG.offsets("score_sum score_sum2 score_cross score_hist")
R_WINS, R_TIES, R_CAPPED, R_TURNS = ROUND_AGG.offsets("wins ties capped turns")
HIST_BINS = ROUND_AGG.piece("score_hist").bins

# Match aggregates: M_LOSSES, M_TOTAL, M_TOTAL2 and M_FIRST_DEALT are + seat, M_RHIST
# + rounds (the last of RHIST_BINS bins that many or more).
M_LOSSES, M_DRAWS, M_FIRST_DEALT, M_FIRST_DEALER_LOST = MATCH_AGG.offsets(
    "losses draws first_dealt first_dealer_lost"
)
M_ROUNDS, M_ROUNDS2, M_CAPPED, M_TOTAL, M_TOTAL2 = MATCH_AGG.offsets(
    "rounds rounds2 capped total_sum total_sum2"
)
M_RHIST = MATCH_AGG.offset("rounds_hist")
RHIST_BINS = MATCH_AGG.piece("rounds_hist").bins

LOG_FIELDS = 6  # turn, seat, source, taken, place, discarded

# UNSEEN_OF[c]: the observation field counting the unseen cards of card c's rank (a
# constant table: the round loop avoids the five instructions of a signed ``c % 13``).
UNSEEN_OF = (UNSEEN + np.arange(52, dtype=np.int64) % 13).astype(np.int64)


@njit(cache=True)
def card_values_nb(values, card_value):
    """``card_value[c]``: the points of card ``c`` (``values`` has one entry per rank).

    The round loop looks a card's points up here rather than computing ``c % 13``:
    the modulo of a signed integer is a chain of five instructions in every lookup."""
    for c in range(52):
        card_value[c] = values[c % 13]


@njit(cache=True)
def score_nb(card_value, slot, ghost, seat):
    """RULES.md §3: ``seat``'s four slots plus its ghost, in half points."""
    s = card_value[ghost[seat]]
    for i in range(4):
        s += card_value[slot[seat, i]]
    return s


@njit(cache=True, inline="always")
def hand_out_nb(deck, slot, ghost, dealer):
    """RULES.md §3 deal from a shuffled ``deck``: five each, one at a time from the
    non-dealer; the first is the ghost.  Inlined, so it adds no call to its callers."""
    non_dealer = 1 - dealer
    for i in range(5):
        for j in range(2):
            s = non_dealer if j == 0 else dealer
            c = deck[2 * i + j]
            if i == 0:
                ghost[s] = c
            else:
                slot[s, i - 1] = c


@njit(cache=True)
def deal_nb(rng, deck, slot, ghost, dealer):
    """RULES.md §3 deal: shuffle, then :func:`hand_out_nb`."""
    shuffle_nb(unmanaged_item(rng, 0), deck)
    hand_out_nb(deck, slot, ghost, dealer)


@njit(cache=True, inline="always")
def deal_with_nb(rng, deck, slot, ghost, dealer, scratch):
    """:func:`deal_nb` shuffling with :func:`simulator.engine.rng.shuffle_with_nb` (the same deal,
    faster); ``scratch`` (51 or more int64) receives the draws.  Compiled into its caller:
    its arrays are then views whose lack of an owner the compiler sees (no reference counts)."""
    shuffle_with_nb(unmanaged_item(rng, 0), deck, scratch)
    hand_out_nb(deck, slot, ghost, dealer)


@njit(cache=True)
def init_obs_nb(obs, seen, slot, card_value, totals, target_half, first_discard):
    """Both rows of ``obs`` and ``seen`` as the round starts (observation.py's layout).

    Each player knows its slots 0 and 1 and has seen them and the first discard;
    ``seen[s]`` has a bit per card whose place seat ``s`` knows."""
    for s in range(2):
        for f in range(OBS_SIZE):
            obs[s, f] = -1
        obs[s, SEAT] = s
        obs[s, MY_TOTAL] = totals[s]
        obs[s, OPP_TOTAL] = totals[1 - s]
        obs[s, TARGET] = target_half
        for r in range(13):
            obs[s, VALUE + r] = card_value[r]  # cards 0-12 are one of each rank
            obs[s, UNSEEN + r] = 4
        mask = np.uint64(0)
        for card in (slot[s, 0], slot[s, 1], first_discard):
            bit = np.uint64(1) << np.uint64(card)
            obs[s, UNSEEN + card % 13] -= np.int64((mask & bit) == 0)
            mask |= bit
        seen[s] = mask
        h, h_slot = -1, -1
        for i in range(2):
            obs[s, SLOT + i] = slot[s, i]
            v = card_value[slot[s, i]]
            obs[s, SLOT_VALUE + i] = v
            if v > h:
                h, h_slot = v, i
        obs[s, HIGH] = h
        obs[s, HIGH_SLOT] = h_slot
        obs[s, UNKNOWN_SLOT] = 2  # slots 2 and 3 are unknown


@njit(cache=True)
def workspace_nb():
    """The arrays one chunk of games plays in (allocated once per chunk, see :func:`unowned_nb`)."""
    deck = np.empty(52, np.int64)
    slot = np.empty((2, 4), np.int64)
    ghost = np.empty(2, np.int64)
    pile = np.empty(52, np.int64)
    obs = np.empty((2, OBS_SIZE), np.int64)
    seen = np.empty(2, np.uint64)  # a bit per card this seat knows the place of
    rng = np.empty(3, np.uint64)
    totals = np.zeros(2, np.int64)  # match totals before the round (zero in round play)
    out = np.zeros(6, np.int64)  # a match's result (play_match_nb)
    no_log = np.empty((0, LOG_FIELDS), np.int64)  # no turn log
    card_value = np.empty(52, np.int64)  # card_values_nb
    return (deck, slot, ghost, pile, obs, seen, rng, totals, out, no_log, card_value)


@njit(cache=True, inline="always")
def unowned_nb(ws):
    """The arrays of ``ws`` as views without reference counting (simulator/engine/unmanaged.py).

    Passing an owned array to a function that is not inlined costs two atomic reference
    count updates per array and call; the round loop passes these views instead.  The
    caller keeps ``ws`` itself alive (:func:`simulator.engine.unmanaged.keep_alive`) while the
    views are in use."""
    deck, slot, ghost, pile, obs, seen, rng, totals, out, no_log, card_value = ws
    return (
        unmanaged(deck),
        unmanaged(slot),
        unmanaged(ghost),
        unmanaged(pile),
        unmanaged(obs),
        unmanaged(seen),
        unmanaged(rng),
        unmanaged(totals),
        unmanaged(out),
        unmanaged(no_log),
        unmanaged(card_value),
    )


@njit(cache=True)
def first_dealer_nb(seed, game, rng):
    """RULES.md §3: round 1's dealer is drawn at random (the DEALER stream)."""
    rng[0] = stream_key_nb(seed, game, DEALER, 0, 0)
    return below_nb(unmanaged_item(rng, 0), 2)
