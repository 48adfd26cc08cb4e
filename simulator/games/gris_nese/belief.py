"""`belief` for Gris-nese: `follow` with what its own cards say about what the neighbours collect.

A card this player laid down to the left that comes back from the right went past every
other seat, so nobody collects its rank; one that has not come back is held by somebody,
most often the left neighbour.  The memory slots keep this within the round:
``MEMORY[0]`` the target at the previous step (-1 before the first, as `follow`),
``MEMORY[1]`` 0 once the other slots are set up for the round (-1 at the deal),
``MEMORY[2]`` the cards this player has passed (a bit per card code) and ``MEMORY[3]`` per
rank group the cards of it that came back (:data:`BITS` bits a group).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from simulator.engine.rng import below_nb
from simulator.games.gris_nese.choices import card_of_group_nb, follow_score_nb, follow_weights_nb
from simulator.games.gris_nese.observation import (
    GROUP_COUNT,
    HAND,
    HAND_SIZE,
    INCOMING,
    MAX_GROUPS,
    MEMORY,
    N_PLAYERS,
    PASSED_GROUP,
)
from simulator.games.gris_nese.rules import CARD_GROUP

BITS = 7  # bits per group in the packed "came back" counts (8 groups: 56 bits)
MASK = (1 << BITS) - 1
BIG = 1e300


@njit(cache=True, forceinline=True)
def back_of(packed, g):
    """Cards of group ``g`` that came back, from the packed counts."""
    return (packed >> (BITS * g)) & MASK


@njit(cache=True, forceinline=True)
def note_return(obs):
    """Clear the slots at the round's first step, count the card that came back (a card
    received from the right that this player passed before), return the packed counts."""
    if obs[MEMORY + 1] < 0:
        obs[MEMORY + 1] = 0
        obs[MEMORY + 2] = 0
        obs[MEMORY + 3] = 0
    packed = obs[MEMORY + 3]
    incoming = obs[INCOMING]
    if incoming >= 0 and (obs[MEMORY + 2] >> incoming) & 1 == 1:
        g = CARD_GROUP[incoming]
        if back_of(packed, g) < MASK:
            packed += np.int64(1) << (BITS * g)
            obs[MEMORY + 3] = packed
    return packed


@njit(cache=True, forceinline=True)
def nth_equal(scores, m, value, k):
    """The ``k``-th group (from 0, in group order) among the first ``m`` scoring ``value``."""
    for g in range(m):
        if scores[g] == value:
            if k == 0:
                return g
            k -= 1
    return -1


@njit(cache=True, forceinline=True)
def belief_nb(obs, params, rng):
    """`belief` (see the registry entry; params: follow's three, then rival and feed)."""
    packed = note_return(obs)
    current = obs[MEMORY]
    w_received, w_passed, w_stick = follow_weights_nb(obs, params)
    rival, feed = params[3], params[4]
    m = obs[N_PLAYERS]
    want = np.full(MAX_GROUPS, -BIG)
    for g in range(m):
        if obs[GROUP_COUNT + g] > 0:
            away = max(obs[PASSED_GROUP + g] - back_of(packed, g), 0)
            score = follow_score_nb(obs, g, current, w_received, w_passed, w_stick)
            want[g] = score - rival * away
    best = want[:m].max()
    n_best = np.int64((want[:m] == best).sum())
    target = nth_equal(want, m, best, below_nb(rng, n_best) if n_best > 1 else 0)
    obs[MEMORY] = target
    keep = np.full(MAX_GROUPS, BIG)
    for g in range(m):
        if obs[GROUP_COUNT + g] > 0 and g != target:
            back = back_of(packed, g)
            away = max(obs[PASSED_GROUP + g] - back, 0)
            keep[g] = want[g] + feed * (away - back)
    least = keep[:m].min()
    if least == BIG:  # four of the target: never asked in play
        card = obs[HAND + below_nb(rng, HAND_SIZE)]
    else:
        n_least = np.int64((keep[:m] == least).sum())
        group = nth_equal(keep, m, least, below_nb(rng, n_least) if n_least > 1 else 0)
        card = card_of_group_nb(obs, rng, group, obs[GROUP_COUNT + group])
    obs[MEMORY + 2] = obs[MEMORY + 2] | (np.int64(1) << card)
    return card
