"""A Gris strategy with a belief over what its neighbours collect (``belief``).

Use it as ``--plugin benchmarks/plugins/gris_belief.py -s belief``; docs/search.md
("A belief over the neighbours in Gris and Gris-nese") gives what it measured.

It is `reader` with its defaults, plus what its own cards say about the others.
A card this player passed left that comes back from the right went past every
other seat: nobody collects its suit.  One that has not come back is held by
somebody, most often the left neighbour, the first to see it.  The memory slots
keep this within the round:

- ``MEMORY[0]``: the target at the previous decision (-1 before the first);
- ``MEMORY[1]``: the card passed at the previous decision (-1: none yet);
- ``MEMORY[2]``: the cards this player has passed, one bit per card code;
- ``MEMORY[3]``: per suit, the cards of it that came back, 8 bits a suit.

A suit some neighbour holds on to (``away``: passed, not come back) loses
``rival`` per card as a target; among the suits to pass from, one that came
back (``back``) is passed first and one that went ``away`` is kept back by
``feed`` per card, so the left neighbour is not fed its suit.
"""

import numpy as np
from numba import njit

from simulator.engine.cards import N_RANKS
from simulator.engine.rng import below_nb
from simulator.games.gris.observation import (
    HAND,
    INCOMING,
    INCOMING_DRAWN,
    MAX_HAND,
    MEMORY,
    PASSED_SUIT,
    PASSES,
    RECEIVED_SUIT,
    SUIT_COUNT,
)
from simulator.games.gris.strategies import card_of_suit_except_nb, card_of_suit_nb, pick_nb
from strategies import strategy

BITS = 8  # bits per suit in the packed "came back" counts
MASK = (1 << BITS) - 1
BIG = 1e300


@njit
def back_of(packed, s):
    """Cards of suit ``s`` that came back, from the packed counts."""
    return (packed >> (BITS * s)) & MASK


@njit
def note_return(obs):
    """Update the memory with the card that just arrived, then return the packed counts.

    At the first decision of a round the slots still hold -1 and are cleared.  A drawn
    card means the card passed last went round straight and was exchanged (RULES.md §1:
    only the card just passed can make a straight trip back by this turn); a received
    card this player passed before came back after somebody held it for a while."""
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
        if back_of(packed, s) < MASK:
            packed += np.int64(1) << (BITS * s)
        obs[MEMORY + 3] = packed
    return packed


@njit
def target_score(obs, s, packed, current, params):
    """How much suit ``s`` is worth collecting: `reader`'s score less ``rival`` per card of
    it that went away and did not come back."""
    flow, spent, stick, rival = params[0], params[1], params[2], params[5]
    away = max(obs[PASSED_SUIT + s] - back_of(packed, s), 0)
    score = obs[SUIT_COUNT + s] + flow * obs[RECEIVED_SUIT + s] - spent * obs[PASSED_SUIT + s]
    score -= rival * away
    return score + stick if s == current else score


@njit
def dump_score(obs, s, target, value, packed, feed):
    """How much suit ``s`` is worth keeping rather than passing (lowest is passed): its
    target score, plus ``feed`` per card of it that went away, minus ``feed`` per card
    that came back; ``BIG`` for the target and for suits not held."""
    if obs[SUIT_COUNT + s] == 0 or s == target:
        return BIG
    away = max(obs[PASSED_SUIT + s] - back_of(packed, s), 0)
    return value + feed * (away - back_of(packed, s))


@strategy(
    game="gris",
    name="belief",
    params={
        "flow": (-0.1, -5, 5, 0),
        "spent": (-0.1, -5, 5, 0),
        "stick": (1, 0, 5, 0),
        "hold": (1, 0, 1, 1),
        "patience": (40, 0, 10000, 1),
        "rival": (0.5, 0, 5, 0),
        "feed": (0.5, 0, 5, 0),
    },
)
def belief(obs, params, rng):
    """`reader` that avoids the suits its cards say a neighbour collects."""
    packed = note_return(obs)
    current = obs[MEMORY]
    v0 = target_score(obs, 0, packed, current, params)
    v1 = target_score(obs, 1, packed, current, params)
    v2 = target_score(obs, 2, packed, current, params)
    v3 = target_score(obs, 3, packed, current, params)
    best = max(max(v0, v1), max(v2, v3))
    target = pick_nb(
        np.int64(v0 == best), np.int64(v1 == best), np.int64(v2 == best), np.int64(v3 == best), rng
    )
    obs[MEMORY] = target
    feed = params[6]
    w0 = dump_score(obs, 0, target, v0, packed, feed)
    w1 = dump_score(obs, 1, target, v1, packed, feed)
    w2 = dump_score(obs, 2, target, v2, packed, feed)
    w3 = dump_score(obs, 3, target, v3, packed, feed)
    worst = min(min(w0, w1), min(w2, w3))
    if worst == BIG:  # all six of the target suit
        card = obs[HAND + below_nb(rng, MAX_HAND)]
    else:
        dump = pick_nb(
            np.int64(w0 == worst), np.int64(w1 == worst), np.int64(w2 == worst), np.int64(w3 == worst), rng
        )
        count = obs[SUIT_COUNT + dump]
        incoming = obs[INCOMING]
        holding = params[3] > 0 and obs[PASSES] < params[4]
        if holding and count > 1 and incoming >= 0 and incoming // N_RANKS == dump:
            card = card_of_suit_except_nb(obs, dump, count, incoming, rng)
        else:
            card = card_of_suit_nb(obs, dump, count, rng)
    obs[MEMORY + 1] = card
    obs[MEMORY + 2] = obs[MEMORY + 2] | (np.int64(1) << card)
    return card
