"""`belief` for Gris: `reader` with what its own cards say about what the neighbours collect.

A card this player passed left that comes back from the right went past every other seat:
nobody collects its suit.  One that has not come back is held by somebody, most often the
left neighbour, the first to see it.  The memory slots keep this within the round:
``MEMORY[0]`` the target at the previous decision (as `reader`), ``MEMORY[1]`` the card
passed last, ``MEMORY[2]`` the cards this player has passed (a bit per card code) and
``MEMORY[3]`` per suit the cards of it that came back (:data:`BACK_BITS` bits a suit).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from simulator.engine.cards import N_RANKS
from simulator.engine.rng import below_nb
from simulator.games.gris.choices import pass_of_suit_nb, pick_nb
from simulator.games.gris.observation import (
    HAND,
    INCOMING,
    INCOMING_DRAWN,
    MAX_HAND,
    MEMORY,
    PASSED_SUIT,
    RECEIVED_SUIT,
    SUIT_COUNT,
)

BACK_BITS = 8
BACK_MASK = (1 << BACK_BITS) - 1
NEVER = 1e300  # a score no suit reaches: not a target, never passed from


@njit(cache=True, inline="always")
def came_back_nb(packed, s):
    """Cards of suit ``s`` that came back to this player, from the packed counts."""
    return (packed >> (BACK_BITS * s)) & BACK_MASK


@njit(cache=True, forceinline=True)
def note_return_nb(obs):
    """Count the card that just arrived if it is one this player passed (a drawn card: the
    card passed last went round straight and was exchanged, RULES.md §1); the packed counts.
    At the round's first decision the slots still hold -1 and are cleared."""
    if obs[MEMORY] < 0 and obs[MEMORY + 2] < 0:
        obs[MEMORY + 1] = -1
        obs[MEMORY + 2] = 0
        obs[MEMORY + 3] = 0
    packed = obs[MEMORY + 3]
    incoming = obs[INCOMING]
    back = -1
    if incoming >= 0 and obs[INCOMING_DRAWN] == 1 and obs[MEMORY + 1] >= 0:
        back = obs[MEMORY + 1]
    elif incoming >= 0 and (obs[MEMORY + 2] >> incoming) & 1 == 1:
        back = incoming
    if back >= 0:
        s = back // N_RANKS
        if came_back_nb(packed, s) < BACK_MASK:
            packed += np.int64(1) << (BACK_BITS * s)
        obs[MEMORY + 3] = packed
    return packed


@njit(cache=True, inline="always")
def belief_score_nb(obs, s, packed, current, params):
    """`reader`'s score for suit ``s`` less ``rival`` (params[5]) per card of it that went
    away and has not come back."""
    away = max(obs[PASSED_SUIT + s] - came_back_nb(packed, s), 0)
    score = obs[SUIT_COUNT + s] + params[0] * obs[RECEIVED_SUIT + s] - params[1] * obs[PASSED_SUIT + s]
    score -= params[5] * away
    return score + params[2] if s == current else score


@njit(cache=True, inline="always")
def keep_score_nb(obs, s, target, value, packed, feed):
    """How much suit ``s`` is worth keeping (the lowest is passed from): its score, plus
    ``feed`` per card of it that went away, minus ``feed`` per card that came back."""
    if obs[SUIT_COUNT + s] == 0 or s == target:
        return NEVER
    back = came_back_nb(packed, s)
    return value + feed * (max(obs[PASSED_SUIT + s] - back, 0) - back)


@njit(cache=True, forceinline=True)
def belief_nb(obs, params, rng):
    """`belief` (see the registry entry; params: reader's five, then rival and feed)."""
    packed = note_return_nb(obs)
    current = obs[MEMORY]
    v0 = belief_score_nb(obs, 0, packed, current, params)
    v1 = belief_score_nb(obs, 1, packed, current, params)
    v2 = belief_score_nb(obs, 2, packed, current, params)
    v3 = belief_score_nb(obs, 3, packed, current, params)
    best = max(max(v0, v1), max(v2, v3))
    target = pick_nb(
        np.int64(v0 == best), np.int64(v1 == best), np.int64(v2 == best), np.int64(v3 == best), rng
    )
    obs[MEMORY] = target
    w0 = keep_score_nb(obs, 0, target, v0, packed, params[6])
    w1 = keep_score_nb(obs, 1, target, v1, packed, params[6])
    w2 = keep_score_nb(obs, 2, target, v2, packed, params[6])
    w3 = keep_score_nb(obs, 3, target, v3, packed, params[6])
    worst = min(min(w0, w1), min(w2, w3))
    if worst == NEVER:  # all six of the target suit
        card = obs[HAND + below_nb(rng, MAX_HAND)]
    else:
        dump = pick_nb(
            np.int64(w0 == worst), np.int64(w1 == worst), np.int64(w2 == worst), np.int64(w3 == worst), rng
        )
        card = pass_of_suit_nb(obs, dump, params, rng)
    obs[MEMORY + 1] = card
    obs[MEMORY + 2] = obs[MEMORY + 2] | (np.int64(1) << card)
    return card
