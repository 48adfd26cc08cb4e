"""The building blocks of the shipped Gris strategies (RULES.md §5): choosing a suit and a
card of it, with random choices as docs/random-streams.md orders them (one ``below(m)`` per
choice among ``m >= 2`` options, suits ♠ ♥ ♦ ♣, cards by code)."""

from __future__ import annotations

import numpy as np
from numba import njit

from simulator.engine.cards import N_RANKS
from simulator.engine.rng import advanced_nb, ahead_nb, below_nb, below_of_nb
from simulator.games.gris.observation import HAND, INCOMING, MAX_HAND, PASSES, SUIT_COUNT

NO_SUIT = -1


@njit(cache=True, inline="always")
def either_nb(flag, no, yes):
    """``yes`` if ``flag`` (0/1) else ``no``, as bit operations: the compiler makes a
    condition on random counts a branch, mispredicted half the time, and computes the draw
    it selects only on one side of it."""
    mask = np.uint64(0) - np.uint64(flag)
    return no ^ ((no ^ yes) & mask)


@njit(cache=True, inline="always")
def suit_start_nb(c0, c1, c2, suit):
    """Where ``suit``'s cards start in the hand, given the counts of suits 0, 1 and 2 (the
    hand is in ascending code): the prefix sums packed in a word, shifted out, no branch."""
    packed = (np.uint64(c0) << np.uint64(8)) | (np.uint64(c0 + c1) << np.uint64(16))
    packed |= np.uint64(c0 + c1 + c2) << np.uint64(24)
    return np.int64((packed >> np.uint64(8 * suit)) & np.uint64(0xFF))


@njit(cache=True, inline="always")
def nth_flagged_nb(f0, f1, f2, r):
    """The index of the (r+1)-th set flag among suits 0..3 (flags 0/1; suit 3's is implied)."""
    return np.int64(f0 <= r) + np.int64(f0 + f1 <= r) + np.int64(f0 + f1 + f2 <= r)


@njit(cache=True, forceinline=True)
def pick_nb(f0, f1, f2, f3, rng):
    """A uniformly random suit among those flagged (at least one): ``below(number flagged)``
    when two or more, in suit order."""
    k = f0 + f1 + f2 + f3
    r = below_nb(rng, k) if k > 1 else 0
    return nth_flagged_nb(f0, f1, f2, r)


@njit(cache=True, forceinline=True)
def most_held_nb(obs, leave_out, rng):
    """The suit held most, not counting card ``leave_out`` (-1: count every card); a tie
    uniformly at random among the tied suits."""
    skip = leave_out // N_RANKS if leave_out >= 0 else NO_SUIT
    c0 = obs[SUIT_COUNT] - np.int64(skip == 0)
    c1 = obs[SUIT_COUNT + 1] - np.int64(skip == 1)
    c2 = obs[SUIT_COUNT + 2] - np.int64(skip == 2)
    c3 = obs[SUIT_COUNT + 3] - np.int64(skip == 3)
    best = max(max(c0, c1), max(c2, c3))
    return pick_nb(
        np.int64(c0 == best), np.int64(c1 == best), np.int64(c2 == best), np.int64(c3 == best), rng
    )


@njit(cache=True, forceinline=True)
def card_of_suit_nb(obs, suit, count, rng):
    """A uniformly random card of ``suit`` (``count`` of them in hand): the hand is in
    ascending code, so the suit's cards follow the cards of the lower suits."""
    start = (
        obs[SUIT_COUNT] * np.int64(suit > 0)
        + obs[SUIT_COUNT + 1] * np.int64(suit > 1)
        + obs[SUIT_COUNT + 2] * np.int64(suit > 2)
    )
    if count > 1:
        start += below_nb(rng, count)
    return obs[HAND + start]


@njit(cache=True, forceinline=True)
def card_of_suit_except_nb(obs, suit, count, avoid, rng):
    """A uniformly random card of ``suit`` other than ``avoid`` (which is one of them)."""
    start = (
        obs[SUIT_COUNT] * np.int64(suit > 0)
        + obs[SUIT_COUNT + 1] * np.int64(suit > 1)
        + obs[SUIT_COUNT + 2] * np.int64(suit > 2)
    )
    i = start + (below_nb(rng, count - 1) if count > 2 else 0)
    if obs[HAND + i] >= avoid:  # skip over the avoided card
        i += 1
    return obs[HAND + i]


@njit(cache=True, inline="always")
def held_or_none_nb(obs, s, target):
    """Suit ``s``'s count if it is held and not the target, else more than a hand holds."""
    c = obs[SUIT_COUNT + s]
    return c if (c > 0) & (s != target) else MAX_HAND + 1


@njit(cache=True, inline="always")
def avoiding_from_nb(obs, target, za, zb):
    """:func:`pass_avoiding_nb` on its next two draws ``za``, ``zb`` (:func:`ahead_nb`): the
    card, and how many of the two it used (a choice among one option draws nothing)."""
    c0, c1, c2 = obs[SUIT_COUNT], obs[SUIT_COUNT + 1], obs[SUIT_COUNT + 2]
    d0 = held_or_none_nb(obs, 0, target)
    d1 = held_or_none_nb(obs, 1, target)
    d2 = held_or_none_nb(obs, 2, target)
    d3 = held_or_none_nb(obs, 3, target)
    least = min(min(d0, d1), min(d2, d3))
    if least > MAX_HAND:  # every card of the target suit: one below(6)
        return obs[HAND + below_of_nb(za, MAX_HAND)], np.int64(1)
    f0, f1, f2 = np.int64(d0 == least), np.int64(d1 == least), np.int64(d2 == least)
    k = f0 + f1 + f2 + np.int64(d3 == least)
    s = nth_flagged_nb(f0, f1, f2, below_of_nb(za, k))
    used = np.int64(k > 1)
    # card_of_suit_nb: the suit's cards follow those of the lower suits in the hand.
    start = suit_start_nb(c0, c1, c2, s) + below_of_nb(either_nb(used, za, zb), least)
    return obs[HAND + start], used + np.int64(least > 1)


@njit(cache=True, forceinline=True)
def pass_avoiding_nb(obs, target, rng):
    """RULES.md §5: a card of the non-target suit held least (among suits held; a tie
    uniformly at random), the card within it uniformly at random; if every card is of the
    target suit, a uniformly random card.  (Its draws are made ahead, :func:`ahead_nb`:
    branches on the counts go as the cards do, and are mispredicted.)"""
    state = rng[0]
    card, used = avoiding_from_nb(obs, target, ahead_nb(state, 1), ahead_nb(state, 2))
    rng[0] = advanced_nb(state, used)
    return card


@njit(cache=True, forceinline=True)
def pass_of_suit_nb(obs, dump, params, rng):
    """`reader`'s card of suit ``dump``: with ``hold`` (params[3]) and fewer than ``patience``
    (params[4]) passes in the round, not the card that just arrived when another is held."""
    count = obs[SUIT_COUNT + dump]
    incoming = obs[INCOMING]
    holding = params[3] > 0 and obs[PASSES] < params[4]
    if holding and count > 1 and incoming >= 0 and incoming // N_RANKS == dump:
        return card_of_suit_except_nb(obs, dump, count, incoming, rng)
    return card_of_suit_nb(obs, dump, count, rng)
