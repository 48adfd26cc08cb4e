"""Spøkelse's rules as small jitted functions (RULES.md §3), and the kernel's layouts.

Nothing here calls a strategy, so all of it is compiled once and cached; the
round and match loops that do call strategies are in ``kernel.py``.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from simulator.games.spokelse.observation import (
    DISCARD_TOP,
    DISCARD_VALUE,
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
from simulator.rng import DEALER, below_nb, shuffle_nb, stream_key_nb

STOCK, DISCARD_PILE, THROW = 0, 1, 4
FIRST_STOCK = 11  # deck[0..9] dealt, deck[10] the first discard, deck[11..51] the stock

# Error record (one row per chunk): flag, game, seat, phase, action, turn, strategy id.
ERR_SIZE = 7

# Round-play aggregates, one row per chunk (all int64; sums of half points).
R_SUM = 0  # + seat: sum of scores
R_SUM2 = 2  # + seat: sum of squared scores
R_WINS = 4  # + seat: rounds won
R_TIES = 6
R_CAPPED = 7
R_TURNS = 8  # sum of turns
R_CROSS = 9  # sum of score0 * score1 (for the paired difference)
R_HIST = 10  # + seat * HIST_BINS + score: score histogram
HIST_BINS = 131  # 0..130 half points (five kings)
R_SIZE = R_HIST + 2 * HIST_BINS

# Match-play aggregates.
M_LOSSES = 0  # + seat
M_DRAWS = 2
M_ROUNDS = 3  # sum of rounds per match
M_ROUNDS2 = 4
M_CAPPED = 5  # capped rounds
M_TOTAL = 6  # + seat: sum of final totals
M_TOTAL2 = 8  # + seat
M_FIRST_DEALT = 10  # + seat: matches in which the seat dealt first
M_FIRST_DEALER_LOST = 12  # matches lost by the first dealer
M_RHIST = 13  # match length histogram, last bin = that many rounds or more
RHIST_BINS = 128
M_SIZE = M_RHIST + RHIST_BINS

# Per-game records (records_block_nb): rounds and matches.
REC_ROUND = ("score_half_0", "score_half_1", "turns", "capped")
REC_MATCH = ("total_half_0", "total_half_1", "rounds", "capped_rounds", "first_dealer", "loser")

LOG_FIELDS = 6  # turn, seat, source, taken, place, discarded


@njit(cache=True)
def see_nb(obs, seen, seat, card):
    """``seat`` learns where ``card`` is (perfect memory): one fewer unseen of its rank."""
    bit = np.uint64(1) << np.uint64(card)
    new = (seen[seat] & bit) == 0
    seen[seat] |= bit
    obs[seat, UNSEEN + card % 13] -= np.int64(new)  # branch-free: cards come in random order


@njit(cache=True)
def set_discard_top_nb(obs, seat, pile, n_pile):
    if n_pile > 0:
        top = pile[n_pile - 1]
        obs[seat, DISCARD_TOP] = top
        obs[seat, DISCARD_VALUE] = obs[seat, VALUE + top % 13]
    else:
        obs[seat, DISCARD_TOP] = -1
        obs[seat, DISCARD_VALUE] = -1


@njit(cache=True)
def score_nb(values, slot_row, ghost):
    """RULES.md §3: four slots plus the ghost, in half points."""
    s = values[ghost % 13]
    for i in range(4):
        s += values[slot_row[i] % 13]
    return s


@njit(cache=True)
def deal_nb(rng, deck, slot, ghost, dealer):
    """RULES.md §3 deal: five each, one at a time from the non-dealer; the first is the ghost."""
    shuffle_nb(rng[0:1], deck)
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
def init_obs_nb(obs, seen, slot, values, totals, target_half, first_discard):
    for s in range(2):
        for f in range(OBS_SIZE):
            obs[s, f] = -1
        obs[s, SEAT] = s
        obs[s, MY_TOTAL] = totals[s]
        obs[s, OPP_TOTAL] = totals[1 - s]
        obs[s, TARGET] = target_half
        for r in range(13):
            obs[s, VALUE + r] = values[r]
            obs[s, UNSEEN + r] = 4
        seen[s] = 0
        # Each player looks at slots 0 and 1.
        for i in range(2):
            know_slot_nb(obs, s, i, slot[s, i])
            see_nb(obs, seen, s, slot[s, i])
        see_nb(obs, seen, s, first_discard)
        summarise_slots_nb(obs, s)


@njit(cache=True)
def know_slot_nb(obs, seat, i, card):
    """``seat`` knows that its slot ``i`` holds ``card``."""
    obs[seat, SLOT + i] = card
    obs[seat, SLOT_VALUE + i] = obs[seat, VALUE + card % 13]


@njit(cache=True)
def summarise_slots_nb(obs, seat):
    """Refresh HIGH, HIGH_SLOT and UNKNOWN_SLOT after ``seat``'s row changed."""
    h, h_slot, u = -1, -1, -1
    for i in range(4):
        v = obs[seat, SLOT_VALUE + i]
        if v < 0:
            if u < 0:
                u = i
        elif v > h:
            h, h_slot = v, i
    obs[seat, HIGH] = h
    obs[seat, HIGH_SLOT] = h_slot
    obs[seat, UNKNOWN_SLOT] = u


@njit(cache=True)
def workspace_nb():
    deck = np.empty(52, np.int64)
    slot = np.empty((2, 4), np.int64)
    ghost = np.empty(2, np.int64)
    pile = np.empty(52, np.int64)
    obs = np.empty((2, OBS_SIZE), np.int64)
    seen = np.empty(2, np.uint64)  # a bit per card this seat knows the place of
    rng = np.empty(3, np.uint64)
    return (deck, slot, ghost, pile, obs, seen, rng)


@njit(cache=True)
def first_dealer_nb(seed, game, rng):
    """RULES.md §3: round 1's dealer is drawn at random (the DEALER stream)."""
    rng[0] = stream_key_nb(seed, game, DEALER, 0, 0)
    return below_nb(rng[0:1], 2)
