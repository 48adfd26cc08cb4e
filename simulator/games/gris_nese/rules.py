"""Gris-nese's rules as small jitted functions (RULES.md §2, §4), and the kernel's layouts.

The state of a round lives in the players' observation rows (``obs[i]`` for
the player at ring position ``i``): the hand, the group counts and what came
and went are exactly what each player sees, so the rules keep them up to date
and nothing is stored twice.  Nothing here calls a strategy, so all of it is
compiled once and cached; the loops that call strategies are in ``kernel.py``.

Ring positions ``0 .. m-1`` are the remaining players in ring order from the
lowest original seat; the player at position ``i`` passes to ``i + 1`` (its
left) and receives from ``i - 1`` (its right), modulo ``m``.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from simulator.engine.cards import N_CARDS, N_RANKS, N_SUITS
from simulator.engine.rng import shuffle_nb
from simulator.games.gris_nese.layout import ERR, MATCH_AGG, ROUND_AGG
from simulator.games.gris_nese.observation import (
    GROUP_COUNT,
    GROUP_RANKS,
    HAND,
    HAND_SIZE,
    INCOMING,
    MAX_GROUPS,
    MEMORY,
    N_MEMORY,
    N_PLAYERS,
    OBS_SIZE,
    PASSED_GROUP,
    RECEIVED_GROUP,
    SEAT,
    STEPS,
)

MAX_SEATS = MAX_GROUPS  # one rank group per player


def _cards() -> np.ndarray:
    """RULES.md §2 / random-streams.md: the cards in play group by group (A K Q J 10 9 8 7),
    suits ♠ ♥ ♦ ♣ within a group; with m players the first 4m are in play."""
    return np.array(
        [s * N_RANKS + GROUP_RANKS[g] for g in range(MAX_GROUPS) for s in range(N_SUITS)], np.int64
    )


def _card_group() -> np.ndarray:
    """The rank group of every card code (-1 for ranks never in play, 2 to 6)."""
    out = np.full(N_CARDS, -1, np.int64)
    for g, r in enumerate(GROUP_RANKS):
        for s in range(N_SUITS):
            out[s * N_RANKS + r] = g
    return out


CARDS = _cards()
CARD_GROUP = _card_group()

# The kernel's rows (error row, round and match aggregates), declared in layout.py; the
# aggregates keep a slot per seat for up to MAX_SEATS seats.
ERR_SIZE, R_SIZE, M_SIZE = ERR.size(), ROUND_AGG.size(), MATCH_AGG.size()
LOG_FIELDS = 3  # step, original seat, card laid to the left

# Round aggregates: R_SIGNAL and R_OUT are + seat, R_HIST + passes (the last of PASS_BINS
# bins that many or more).
R_COUNTED, R_STALLED, R_REPLAYED, R_DEALT, R_ALL = ROUND_AGG.offsets("counted stalled replayed dealt all")
R_PASSES, R_PASSES2, R_SIGNAL, R_OUT, R_HIST = ROUND_AGG.offsets("passes passes2 signal out pass_hist")
PASS_BINS = ROUND_AGG.piece("pass_hist").bins

# Match aggregates: M_WINS, M_PLACE and M_PLACE2 are + seat, M_DEALS + deals (the last of
# DEAL_BINS bins that many or more).
M_FINISHED, M_ABANDONED, M_STALLED, M_REPLAYED = MATCH_AGG.offsets("finished abandoned stalled replayed")
M_ROUNDS, M_ROUNDS2, M_WINS, M_PLACE, M_PLACE2 = MATCH_AGG.offsets("rounds rounds2 wins place place2")
M_DEALS = MATCH_AGG.offset("deals_hist")
DEAL_BINS = MATCH_AGG.piece("deals_hist").bins


@njit(cache=True, inline="always")
def group_of_nb(card):
    return CARD_GROUP[card]


@njit(cache=True, inline="always")
def sort_hand_nb(row):
    """Sort ``row[HAND : HAND + 4]`` ascending (a five-comparator network, no branches)."""
    a, b, c, d = row[HAND], row[HAND + 1], row[HAND + 2], row[HAND + 3]
    a, b = min(a, b), max(a, b)
    c, d = min(c, d), max(c, d)
    a, c = min(a, c), max(a, c)
    b, d = min(b, d), max(b, d)
    b, c = min(b, c), max(b, c)
    row[HAND], row[HAND + 1], row[HAND + 2], row[HAND + 3] = a, b, c, d


@njit(cache=True, inline="always")
def deal_nb(obs, perm, m, seats):
    """RULES.md §2 deal: ``CARDS[perm[k]]`` goes to ring position ``k mod m`` (k = 0 .. 4m-1),
    and every player's observation is set for a fresh round.  ``perm`` is a permutation of
    ``0 .. 4m-1`` (from the DEAL stream in play; given explicitly by tests)."""
    for i in range(m):
        row = obs[i]
        row[SEAT] = seats[i]
        row[N_PLAYERS] = m
        row[STEPS] = 0
        row[INCOMING] = -1
        for g in range(MAX_GROUPS):
            row[GROUP_COUNT + g] = 0
            row[RECEIVED_GROUP + g] = 0
            row[PASSED_GROUP + g] = 0
        for j in range(N_MEMORY):
            row[MEMORY + j] = -1
    for r in range(HAND_SIZE):
        for i in range(m):
            c = CARDS[perm[r * m + i]]
            obs[i, HAND + r] = c
            obs[i, GROUP_COUNT + CARD_GROUP[c]] += 1
    for i in range(m):
        sort_hand_nb(obs[i])


@njit(cache=True, inline="always")
def shuffle_and_deal_nb(rng, perm, obs, m, seats):
    """Shuffle the 4m cards in play with the DEAL stream in ``rng`` and deal them."""
    shuffle_nb(rng, perm[: HAND_SIZE * m])
    deal_nb(obs, perm, m, seats)


@njit(cache=True, inline="always")
def four_of_a_kind_nb(obs, i):
    """RULES.md §2: the player at ring position ``i`` holds four of a kind."""
    return obs[i, GROUP_COUNT + CARD_GROUP[obs[i, HAND]]] == HAND_SIZE


@njit(cache=True, inline="always")
def signallers_nb(obs, m, sig):
    """RULES.md §2 signal check: ``sig[i]`` = 1 for every holder of four of a kind; the count."""
    k = 0
    for i in range(m):
        s = np.int64(four_of_a_kind_nb(obs, i))
        sig[i] = s
        k += s
    return k


@njit(cache=True, inline="always")
def find_card_nb(obs, i, card):
    """Where ``card`` is in the hand of ring position ``i`` (-1 if it does not hold it).

    In arithmetic on the four comparisons (the cards of a hand differ, so at most one
    holds): a jump on where the card is would be mispredicted, as it is random."""
    h = HAND
    e0, e1 = np.int64(obs[i, h] == card), np.int64(obs[i, h + 1] == card)
    e2, e3 = np.int64(obs[i, h + 2] == card), np.int64(obs[i, h + 3] == card)
    return e1 + 2 * e2 + 3 * e3 + (e0 + e1 + e2 + e3) - 1  # the slot, or 0 + 0 - 1


@njit(cache=True, inline="always")
def take_in_nb(row, slot, card_in):
    """Replace the card at ``HAND + slot`` by ``card_in`` and keep the hand ascending: the
    three cards kept are in order, so the new card is merged in by minima and maxima,
    without jumps on where it goes (random, so mispredicted)."""
    h0, h1, h2, h3 = row[HAND], row[HAND + 1], row[HAND + 2], row[HAND + 3]
    # The three cards kept, still ascending: each is the card at its place or the next one
    # (codes are at least 0, so a card times a false condition drops out of the maximum).
    r0 = max(h0, h1 * (slot == 0))
    r1 = max(h1 * (slot > 1), h2 * (slot <= 1))
    r2 = max(h2 * (slot == 3), h3 * (slot < 3))
    row[HAND] = min(r0, card_in)
    row[HAND + 1] = max(r0, min(r1, card_in))
    row[HAND + 2] = max(r1, min(r2, card_in))
    row[HAND + 3] = max(r2, card_in)


@njit(cache=True, inline="always")
def pass_step_nb(obs, m, slot, outs, sig):
    """RULES.md §2, one pass step: every player lays ``outs[i]`` (at ``HAND + slot[i]``) to the
    left, then picks up the card from the right, all at once.  Then the signal check:
    ``sig[i]`` = 1 for every player now holding four of a kind; returns their number."""
    k = 0
    prev = m - 1
    for i in range(m):
        row = obs[i]
        c_out = outs[i]
        c_in = outs[prev]  # from the right
        # Card codes and groups index unsigned: no check for a negative index on the way.
        g_out = np.uint64(CARD_GROUP[np.uint64(c_out)])
        g_in = np.uint64(CARD_GROUP[np.uint64(c_in)])
        # The counts in registers: the check below need not wait for the stores.
        n_out = row[np.uint64(GROUP_COUNT) + g_out] - 1
        n_in = row[np.uint64(GROUP_COUNT) + g_in] + 1 - np.int64(g_in == g_out)
        take_in_nb(row, slot[i], c_in)
        row[np.uint64(GROUP_COUNT) + g_out] = n_out
        row[np.uint64(GROUP_COUNT) + g_in] = n_in
        row[np.uint64(PASSED_GROUP) + g_out] += 1
        row[np.uint64(RECEIVED_GROUP) + g_in] += 1
        row[INCOMING] = c_in
        row[STEPS] += 1
        # Only the group that came in can have become complete.
        s = np.int64(n_in == HAND_SIZE)
        sig[i] = s
        k += s
        prev = i
    return k


@njit(cache=True, inline="always")
def loser_nb(times, m):
    """RULES.md §2/§4: the ring position whose touch was the latest (exact ties: the lowest),
    as :func:`simulator.engine.reaction.last_to_touch_nb` finds it, with the latest so far
    held by selection rather than a jump (where a later touch comes is random)."""
    best, latest = 0, times[0]
    for i in range(1, m):
        t = times[i]
        later = t > latest
        best = i if later else best
        latest = t if later else latest
    return best


@njit(cache=True, inline="always")
def unclear_nb(times, m, margin):
    """RULES.md §2 house rule: the two latest touches differ by less than ``margin`` seconds."""
    if margin <= 0.0:
        return False
    first, second = -np.inf, -np.inf
    for i in range(m):
        t = times[i]
        if t > first:
            first, second = t, first
        elif t > second:
            second = t
    return first - second < margin


@njit(cache=True, inline="always")
def leave_nb(seats, m, i):
    """RULES.md §2: the player at ring position ``i`` leaves; the others keep their order."""
    for j in range(i, m - 1):
        seats[j] = seats[j + 1]
    return m - 1


@njit(cache=True)
def workspace_nb():
    obs = np.empty((MAX_SEATS, OBS_SIZE), np.int64)
    perm = np.empty(HAND_SIZE * MAX_SEATS, np.int64)
    slot = np.empty(MAX_SEATS, np.int64)  # where in its hand each player's card was
    outs = np.empty(MAX_SEATS, np.int64)  # the card each player lays down this step
    sig = np.zeros(MAX_SEATS, np.int64)  # 1 for each signaller
    times = np.empty(MAX_SEATS, np.float64)  # touch times, ring order
    rng = np.empty(MAX_SEATS + 2, np.uint64)  # 0 deal, 1 + i decide streams, last reaction scratch
    seats = np.empty(MAX_SEATS, np.int64)  # remaining original seats, ring order
    draws = np.empty(HAND_SIZE * MAX_SEATS, np.int64)  # the shuffle's draws, made first
    return (obs, perm, slot, outs, sig, times, rng, seats, draws)
