"""The building blocks of the shipped Gris-nese strategies (RULES.md §5): choosing a rank
group and a card of it, with random choices as docs/random-streams.md orders them (one
``below(k)`` per choice among k >= 2 options, groups in group order, cards by code), and
`follow`'s scores, which `belief` shares."""

from __future__ import annotations

from numba import njit

from simulator.engine.rng import below_nb
from simulator.games.gris_nese.observation import (
    GROUP_COUNT,
    HAND,
    HAND_SIZE,
    MAX_GROUPS,
    N_PLAYERS,
    PASSED_GROUP,
    RECEIVED_GROUP,
)
from simulator.games.gris_nese.rules import CARD_GROUP


@njit(cache=True, forceinline=True)
def nth_group_nb(obs, first, count, skip, k):
    """The ``k``-th group (from 0, in group order, from ``first`` on, never ``skip``) whose
    count in hand is ``count``."""
    for g in range(first, obs[N_PLAYERS]):
        if g != skip and obs[GROUP_COUNT + g] == count:
            if k == 0:
                return g
            k -= 1
    return -1


@njit(cache=True, forceinline=True)
def most_held_nb(obs, rng):
    """The group held most; a tie uniformly at random (RULES.md §5, greedy's target)."""
    best, tied, first = 0, 0, -1
    for g in range(obs[N_PLAYERS]):
        c = obs[GROUP_COUNT + g]
        if c > best:
            best, tied, first = c, 1, g
        elif c == best:
            tied += 1
    if tied == 1:
        return first
    return nth_group_nb(obs, first, best, -1, below_nb(rng, tied))


@njit(cache=True, forceinline=True)
def card_of_group_nb(obs, rng, group, count):
    """A uniformly random card of ``group`` (``count`` of them in hand, in ascending code)."""
    j = below_nb(rng, count) if count > 1 else 0
    for i in range(HAND_SIZE):
        c = obs[HAND + i]
        if CARD_GROUP[c] == group:
            if j == 0:
                return c
            j -= 1
    return -1


@njit(cache=True, forceinline=True)
def pass_away_nb(obs, rng, target):
    """RULES.md §5: a card of the non-target group held least (a tie between groups, then the
    card within the group, uniformly at random); a random card if all are of the target."""
    least, tied, first = HAND_SIZE + 1, 0, -1
    for g in range(obs[N_PLAYERS]):
        c = obs[GROUP_COUNT + g]
        if c > 0 and g != target:
            if c < least:
                least, tied, first = c, 1, g
            elif c == least:
                tied += 1
    if tied == 0:
        return obs[HAND + below_nb(rng, HAND_SIZE)]
    group = first if tied == 1 else nth_group_nb(obs, first, least, target, below_nb(rng, tied))
    return card_of_group_nb(obs, rng, group, least)


@njit(cache=True, forceinline=True)
def follow_weights_nb(obs, params):
    """``follow``'s weights at this table: what arrives from the right says most when few
    ranks are in play, what was passed on and loyalty matter more when many are."""
    m = obs[N_PLAYERS]
    few = (MAX_GROUPS - m) / (MAX_GROUPS - 3.0)  # 1 with three ranks in play, 0 with eight
    return params[0] * few, params[1] * (1.0 - few), params[2] * min(1.0, (m - 3) / 2.0)


@njit(cache=True, forceinline=True)
def follow_score_nb(obs, g, current, w_received, w_passed, w_stick):
    """How much ``follow`` wants to collect group ``g`` (see the registry entry)."""
    score = obs[GROUP_COUNT + g] + w_received * obs[RECEIVED_GROUP + g] + w_passed * obs[PASSED_GROUP + g]
    return score + w_stick if g == current else score
