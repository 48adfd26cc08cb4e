"""Spøkelse's rules as small jitted functions (RULES.md §3), and the kernel's layouts.

Nothing here calls a strategy, so all of it is compiled once and cached; the
round and match loops that do call strategies are in ``kernel.py``.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from simulator.games.spokelse.layout import ERR, MATCH_AGG, ROUND_AGG
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

# The kernel's rows (error row, round and match aggregates), declared in layout.py.
ERR_SIZE = ERR.size()

R_SUM = ROUND_AGG.offset("score_sum")  # + seat
R_SUM2 = ROUND_AGG.offset("score_sum2")  # + seat
R_WINS = ROUND_AGG.offset("wins")  # + seat
R_TIES = ROUND_AGG.offset("ties")
R_CAPPED = ROUND_AGG.offset("capped")
R_TURNS = ROUND_AGG.offset("turns")
R_CROSS = ROUND_AGG.offset("score_cross")
R_HIST = ROUND_AGG.offset("score_hist")  # + seat * HIST_BINS + score
HIST_BINS = ROUND_AGG.piece("score_hist").bins
R_SIZE = ROUND_AGG.size()

M_LOSSES = MATCH_AGG.offset("losses")  # + seat
M_DRAWS = MATCH_AGG.offset("draws")
M_ROUNDS = MATCH_AGG.offset("rounds")
M_ROUNDS2 = MATCH_AGG.offset("rounds2")
M_CAPPED = MATCH_AGG.offset("capped")
M_TOTAL = MATCH_AGG.offset("total_sum")  # + seat
M_TOTAL2 = MATCH_AGG.offset("total_sum2")  # + seat
M_FIRST_DEALT = MATCH_AGG.offset("first_dealt")  # + seat
M_FIRST_DEALER_LOST = MATCH_AGG.offset("first_dealer_lost")
M_RHIST = MATCH_AGG.offset("rounds_hist")  # + rounds, the last bin that many or more
RHIST_BINS = MATCH_AGG.piece("rounds_hist").bins
M_SIZE = MATCH_AGG.size()

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
