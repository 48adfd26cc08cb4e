"""Shipped Gris strategies: one small jitted decision function each.

Every function answers one decision: given ``obs`` (layout in
``simulator.games.gris.observation``; the hand holds six cards in ascending
code, so the cards of one suit sit side by side), its parameters and its
seat's random stream, it returns the code of the card to pass left.  Random
choices follow docs/random-streams.md: one ``below(m)`` per choice among
``m >= 2`` options, options in ascending order (suits ♠ ♥ ♦ ♣, cards by code).

Each function (but the smallest helpers) is compiled on its own and marked ``forceinline``, so
the kernel still runs it inline; numba's ``inline="always"`` would instead re-type the whole
tree of functions at every call site, which cost most of the kernel's compile time.
The building blocks (a suit, a card of it) are in ``choices.py``; `belief`, compiled only for
the runs that play it, is in ``belief.py``.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from simulator.engine.dispatching import plain_dispatch
from simulator.engine.rng import below_nb
from simulator.games.gris.belief import belief_nb

# The building blocks live in choices.py; users' strategies import them from here too.
from simulator.games.gris.choices import (
    advanced_nb,
    ahead_nb,
    below_of_nb,
    card_of_suit_except_nb,
    card_of_suit_nb,
    either_nb,
    most_held_nb,
    nth_flagged_nb,
    pass_avoiding_nb,
    pass_of_suit_nb,
    pick_nb,
    suit_start_nb,
)
from simulator.games.gris.observation import (
    HAND,
    INCOMING,
    MAX_HAND,
    MEMORY,
    MY_PASSES,
    PASSED_SUIT,
    RECEIVED_SUIT,
    SUIT_COUNT,
)
from strategies.registry import Family, Param, builtin_decides, register

# --- the shipped strategies ---------------------------------------------------------


@njit(cache=True, forceinline=True)
def random_nb(obs, params, rng):
    """RULES.md §5 `random`: a uniformly random card of the six."""
    return obs[HAND + below_nb(rng, MAX_HAND)]


@njit(cache=True, forceinline=True)
def greedy_nb(obs, params, rng):
    """RULES.md §5 `greedy`: target the suit held most (a tie at random, afresh each
    decision), pass from the non-target suit held least.

    The choices and draws of ``pass_avoiding_nb(obs, most_held_nb(obs, -1, rng), rng)``
    in a form with fewer steps one after the other (greedy is the baseline every run is
    measured against): unless every suit held is held equally (3 + 3, 2 + 2 + 2), the
    suits to pass from are those held least whichever suit is the target, so the target
    only counts for its draw; its up to three draws are made ahead (``choices.ahead_nb``)
    and chosen among without branches, since the counts are as random as the cards."""
    state = rng[0]
    z1, z2, z3 = ahead_nb(state, 1), ahead_nb(state, 2), ahead_nb(state, 3)
    c0, c1, c2, c3 = obs[SUIT_COUNT], obs[SUIT_COUNT + 1], obs[SUIT_COUNT + 2], obs[SUIT_COUNT + 3]
    best = max(max(c0, c1), max(c2, c3))
    if best == MAX_HAND:  # all six of one suit: no target draw, one below(6)
        rng[0] = advanced_nb(state, 1)
        return obs[HAND + below_of_nb(z1, MAX_HAND)]
    none = MAX_HAND + 1
    low = min(
        min(c0 if c0 > 0 else none, c1 if c1 > 0 else none),
        min(c2 if c2 > 0 else none, c3 if c3 > 0 else none),
    )
    f0, f1, f2, f3 = np.int64(c0 == best), np.int64(c1 == best), np.int64(c2 == best), np.int64(c3 == best)
    k1 = f0 + f1 + f2 + f3
    target = nth_flagged_nb(f0, f1, f2, below_of_nb(z1, k1))  # most_held_nb
    drew = np.int64(k1 > 1)
    # The suits to pass from: held least (low < best), else the other suits held most.
    equal = low == best
    g0 = np.int64(c0 == low) & ~np.int64(equal & (target == 0))
    g1 = np.int64(c1 == low) & ~np.int64(equal & (target == 1))
    g2 = np.int64(c2 == low) & ~np.int64(equal & (target == 2))
    g3 = np.int64(c3 == low) & ~np.int64(equal & (target == 3))
    k2 = g0 + g1 + g2 + g3
    za, zb = either_nb(drew, z1, z2), either_nb(drew, z2, z3)  # the draws after the target's
    suit = nth_flagged_nb(g0, g1, g2, below_of_nb(za, k2))
    second = np.int64(k2 > 1)
    # card_of_suit_nb: the suit's cards follow those of the lower suits in the hand.
    start = suit_start_nb(c0, c1, c2, suit) + below_of_nb(either_nb(second, za, zb), low)
    rng[0] = advanced_nb(state, drew + second + np.int64(low > 1))
    return obs[HAND + start]


@njit(cache=True, forceinline=True)
def commit_nb(obs, params, rng):
    """RULES.md §5 `commit:after=t` (t = params[0]): greedy until the target is locked right
    after the player's t-th pass, on the hand as it was then (this decision's hand without
    the card that just arrived; t = 0: the hand as dealt).  MEMORY[0] keeps the locked suit.
    It locks at its first decision after t passes or more: the one right after the t-th,
    unless a slip took that decision (docs/human-players.md) and it was not asked."""
    target = obs[MEMORY]
    if target < 0:
        if obs[MY_PASSES] < int(params[0]):
            return greedy_nb(obs, params, rng)
        target = most_held_nb(obs, obs[INCOMING], rng)
        obs[MEMORY] = target
    return pass_avoiding_nb(obs, target, rng)


@njit(cache=True, inline="always")
def suit_score_nb(obs, s, flow, spent, stick, current):
    """`reader`'s score for suit ``s``: cards of it held, plus ``flow`` per card of it
    received from the right, minus ``spent`` per card of it passed, plus ``stick`` if it
    was the target at the previous decision."""
    score = obs[SUIT_COUNT + s] + flow * obs[RECEIVED_SUIT + s] - spent * obs[PASSED_SUIT + s]
    return score + stick if s == current else score


@njit(cache=True, forceinline=True)
def reader_nb(obs, params, rng):
    """`reader` (see the registry entry; params: flow, spent, stick, hold, patience).
    MEMORY[0] keeps the previous decision's target."""
    flow, spent, stick = params[0], params[1], params[2]
    current = obs[MEMORY]
    v0 = suit_score_nb(obs, 0, flow, spent, stick, current)
    v1 = suit_score_nb(obs, 1, flow, spent, stick, current)
    v2 = suit_score_nb(obs, 2, flow, spent, stick, current)
    v3 = suit_score_nb(obs, 3, flow, spent, stick, current)
    best = max(max(v0, v1), max(v2, v3))
    target = pick_nb(
        np.int64(v0 == best), np.int64(v1 == best), np.int64(v2 == best), np.int64(v3 == best), rng
    )
    obs[MEMORY] = target
    # Pass from the held non-target suit that scores lowest.
    big = 1e300
    w0 = v0 if (obs[SUIT_COUNT] > 0) & (target != 0) else big
    w1 = v1 if (obs[SUIT_COUNT + 1] > 0) & (target != 1) else big
    w2 = v2 if (obs[SUIT_COUNT + 2] > 0) & (target != 2) else big
    w3 = v3 if (obs[SUIT_COUNT + 3] > 0) & (target != 3) else big
    worst = min(min(w0, w1), min(w2, w3))
    if worst == big:  # all six of the target suit
        return obs[HAND + below_nb(rng, MAX_HAND)]
    dump = pick_nb(
        np.int64(w0 == worst), np.int64(w1 == worst), np.int64(w2 == worst), np.int64(w3 == worst), rng
    )
    return pass_of_suit_nb(obs, dump, params, rng)


# --- the registry entries, in builtin-id order ----------------------------------------

GAME = "gris"
READER_PARAMS = (
    Param("flow", -0.1, -5, 5, 0, "score per card of the suit received from the right"),
    Param("spent", -0.1, -5, 5, 0, "score taken off per card of the suit this player passed"),
    Param("stick", 1, 0, 5, 0, "bonus for the suit targeted at the previous decision"),
    Param("hold", 1, 0, 1, 1, "1: keep the card just received when passing its suit"),
    Param("patience", 40, 0, 10000, 1, "hold only while the round has had fewer passes"),
)

register(
    Family(
        GAME,
        "random",
        random_nb,
        (),
        """Pass a uniformly random card of the six in hand (RULES.md §5).

        A baseline with no plan at all: rounds last hundreds of passes and end
        mostly when somebody happens onto five of a suit.""",
        builtin_id=0,
    )
)
register(
    Family(
        GAME,
        "greedy",
        greedy_nb,
        (),
        """The canonical baseline (RULES.md §5).  At every decision the target is the
        suit held most (a tie broken at random, afresh each time); pass a card of the
        non-target suit held least (a tie between suits at random, the card within the
        suit at random).  If all six cards are of the target suit, pass any card.""",
        builtin_id=1,
    )
)
register(
    Family(
        GAME,
        "commit",
        commit_nb,
        (Param("after", 0, 0, 10000, 1, "own passes after which the target suit is locked"),),
        """Play greedy until the target suit is locked, then keep it for the rest of the
        round (RULES.md §5).  The target is locked right after the player's t-th pass
        (t = `after`) on the hand it then holds, the way greedy picks (most held, a tie
        at random); t = 0 locks it on the hand as dealt.  Once locked, pass a card of
        the non-target suit held least, or any card if all are of the target suit.  A
        large t is greedy for the whole round.  Answers "is committing early worth it".""",
        builtin_id=2,
    )
)
register(
    Family(
        GAME,
        "reader",
        reader_nb,
        READER_PARAMS,
        """Greedy that remembers what it has seen.  Each suit scores the cards of it in
        hand, plus `flow` for every card of it received from the right this round, minus
        `spent` for every card of it this player has passed, plus `stick` for the suit it
        targeted at its previous decision; the target is the best score (a tie at
        random), and it passes a random card of the held non-target suit that scores
        lowest.  With the defaults (flow = spent = -0.1, stick = 1) the counts decide and
        the rest breaks ties: a suit one card ahead of its target only ties with it
        (broken at random), two ahead takes over; between suits held equally it prefers
        the one it was dealt over one
        that came in from the right (received minus passed is what arrived), and passes
        on the one that came in.  A positive `flow` ("the right neighbour throws this
        suit away, so more will come") measured worse.  With `hold` = 1, when it passes
        the suit of the card that just arrived and holds another card of that suit, it
        passes the other one: the arriving card's trip stops being straight, so its
        owner gets it back instead of a fresh stock card, and the passed card starts a
        trip of this player's own that may come back to be exchanged.  Holding is
        dropped after `patience` passes in the round, which keeps rounds from stalling.""",
        builtin_id=3,
    )
)
register(
    Family(
        GAME,
        "belief",
        belief_nb,
        (
            *READER_PARAMS,
            Param("rival", 0.5, 0, 5, 0, "taken off a suit's score per card of it passed and not come back"),
            Param("feed", 0.5, 0, 5, 0, "a suit is kept by this per card of it gone, given up per card back"),
        ),
        """`reader` with a belief over what its neighbours collect, from its own cards.  A
        card it passed that comes back from the right went past every other seat, so nobody
        collects its suit; one that has not come back is held by somebody, most often the
        left neighbour, the first to see it.  A suit loses `rival` per card of it passed
        away and not come back as a target; among the suits to pass from, each is kept by
        `feed` per card of it that went away and given up by `feed` per card that came
        back, so the left neighbour is not fed its suit.  With rival = feed = 0 it is
        `reader` draw for draw.  It beats `reader` at 4 and 6 seats (docs/search.md).  It is
        compiled on its first run and kept in the cache, not built into every kernel.""",
        on_demand=True,
    )
)

#: Dispatch to a shipped strategy by its id, generated from the entries above.
decide_builtin_nb = plain_dispatch(builtin_decides(GAME))

__all__ = [
    "READER_PARAMS",
    "belief_nb",
    "card_of_suit_except_nb",
    "card_of_suit_nb",
    "commit_nb",
    "decide_builtin_nb",
    "greedy_nb",
    "most_held_nb",
    "pass_avoiding_nb",
    "pick_nb",
    "random_nb",
    "reader_nb",
]
