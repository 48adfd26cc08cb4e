"""A Gris-nese strategy with a belief over what its neighbours collect (``belief``).

Use it as ``--plugin benchmarks/plugins/gris_nese_belief.py -s belief``; docs/search.md
("A belief over the neighbours in Gris and Gris-nese") gives what it measured.

It is `follow` with its defaults, plus what its own cards say about the others: a card
this player laid down to the left that comes back from the right went past every other
seat, so nobody collects its rank; one that has not come back is held by somebody, most
often the left neighbour.  The memory slots keep this within the round:

- ``MEMORY[0]``: the target at the previous step (-1 before the first), as `follow`;
- ``MEMORY[1]``: 0 once the other slots are set up for the round (-1 at the deal);
- ``MEMORY[2]``: the cards this player has passed, one bit per card code;
- ``MEMORY[3]``: per rank group, the cards of it that came back, 7 bits a group.

A rank that went away and did not come back loses ``rival`` per card as a target; among
the ranks to pass from, one that came back is passed first and one that went away is
held back by ``feed`` per card.  With ``rival`` = ``feed`` = 0 it is `follow`.
"""

import numpy as np
from numba import njit

from simulator.engine.rng import below_nb
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
from simulator.games.gris_nese.strategies import (
    card_of_group_nb,
    follow_score_nb,
    follow_weights_nb,
)
from strategies import strategy

BITS = 7  # bits per group in the packed "came back" counts (8 groups: 56 bits)
MASK = (1 << BITS) - 1
BIG = 1e300


@njit
def back_of(packed, g):
    """Cards of group ``g`` that came back, from the packed counts."""
    return (packed >> (BITS * g)) & MASK


@njit
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


@njit
def nth_equal(scores, m, value, k):
    """The ``k``-th group (from 0, in group order) among the first ``m`` scoring ``value``."""
    for g in range(m):
        if scores[g] == value:
            if k == 0:
                return g
            k -= 1
    return -1


@strategy(
    game="gris-nese",
    name="belief",
    params={
        "follow": (0.5, -4, 4, 0),
        "spent": (-1.0, -4, 4, 0),
        "stick": (1.0, 0, 4, 0),
        "rival": (0.5, 0, 4, 0),
        "feed": (0.5, 0, 4, 0),
    },
)
def belief(obs, params, rng):
    """`follow` that avoids the ranks its cards say a neighbour collects."""
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
