"""Shipped Gris-nese strategies: one small jitted decision function each.

Every function answers one decision: given ``obs`` (layout in
``simulator.games.gris_nese.observation``), its parameters and its seat's
random stream, it returns the code of the card to lay down to the left, one
of the four in ``HAND``.  Random choices follow docs/random-streams.md: one
``below(k)`` per choice among k >= 2 options, options in ascending order
(rank groups in group order A K Q J 10 9 8 7, cards in ascending code).

Each function is compiled on its own and marked ``forceinline`` (LLVM's always-inline), so
the kernel still runs it inline; numba's ``inline="always"`` would instead re-type the whole
tree of functions at every call site, which cost most of the kernel's compile time.
The building blocks (a rank group, a card of it, `follow`'s scores) are in ``choices.py``;
`belief`, compiled only for the runs that play it, is in ``belief.py``.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from simulator.engine.dispatching import plain_dispatch
from simulator.engine.rng import advanced_nb, ahead_nb, below_nb, below_of_nb
from simulator.games.gris_nese.belief import belief_nb

# The building blocks live in choices.py; users' strategies import them from here too.
from simulator.games.gris_nese.choices import (
    card_of_group_nb,
    follow_score_nb,
    follow_weights_nb,
    most_held_nb,
    nth_group_nb,
    pass_away_nb,
)
from simulator.games.gris_nese.observation import (
    GROUP_COUNT,
    HAND,
    HAND_SIZE,
    MAX_GROUPS,
    MEMORY,
    N_PLAYERS,
    STEPS,
)
from simulator.games.gris_nese.rules import CARD_GROUP
from strategies.registry import Family, Param, builtin_decides, register

TARGET = MEMORY  # commit and follow keep their target group here (-1 = none yet)


@njit(cache=True, forceinline=True)
def random_nb(obs, params, rng):
    """A uniformly random card of the four."""
    return obs[HAND + below_nb(rng, HAND_SIZE)]


def _greedy_choices(groups: tuple[int, ...]) -> tuple[int, int, list[list[int]]]:
    """RULES.md §5 `greedy` on a hand whose four cards (ascending code) are of the rank
    groups ``groups``, in its draws: ``(n1, n2, slot)``, with the moduli of its first and
    second ``below`` (1 where it makes none) and ``slot[k1][k2]`` the hand slot it lays down
    when they give ``k1`` and ``k2``.

    The choices and their order are those of ``pass_away_nb(obs, rng, most_held_nb(obs,
    rng))``: the target among the groups held most, then the group among the others held
    least, then the card within it (ascending code), one ``below(k)`` for each choice among
    k >= 2 (in group order); four of one group: ``below(4)`` over the hand.  A hand of four
    makes at most two draws: a target among several (2 + 2, 1 + 1 + 1 + 1) leaves one
    group to pass from or one card per group."""
    held = sorted(set(groups))
    count = {g: groups.count(g) for g in held}
    if len(held) == 1:
        return HAND_SIZE, 1, [[k] for k in range(HAND_SIZE)]
    best = max(count.values())
    most = [g for g in held if count[g] == best]
    moduli, slots = None, {}
    for k_target in range(len(most)):
        target = most[k_target]
        others = [g for g in held if g != target]
        low = min(count[g] for g in others)
        least = [g for g in others if count[g] == low]
        options = [len(most), len(least), low]  # target, group, card
        for k_group in range(len(least)):
            cards = [i for i, g in enumerate(groups) if g == least[k_group]]
            for k_card in range(low):
                ks = [k for k, n in zip((k_target, k_group, k_card), options) if n > 1]
                slots[tuple(ks)] = cards[k_card]
        used = [n for n in options if n > 1]
        assert moduli in (None, used) and len(used) <= 2
        moduli = used
    n1, n2 = [*moduli, 1, 1][:2]
    return n1, n2, [[slots[tuple([k1, k2][: len(moduli)])] for k2 in range(n2)] for k1 in range(n1)]


def _greedy_by_order() -> np.ndarray:
    """`greedy`'s choices for every hand, by the order of its cards' groups among the groups
    it holds (entry ``r0 + 4 r1 + 16 r2 + 64 r3``, card ``i`` of the hand of the ``r_i``-th
    lowest group held): ``n1`` in bits 0-2, ``n2`` in bits 3-4, and the slot for draws
    ``k1``, ``k2`` in the two bits at ``8 + 2 (3 k1 + k2)``; 0 for orders no hand has."""
    table = np.zeros(4**HAND_SIZE, np.uint32)
    for key in range(4**HAND_SIZE):
        ranks = tuple((key >> (2 * i)) & 3 for i in range(HAND_SIZE))
        if set(ranks) != set(range(max(ranks) + 1)):
            continue
        n1, n2, slot = _greedy_choices(ranks)
        entry = n1 | n2 << 3
        for k1 in range(n1):
            for k2 in range(n2):
                entry |= slot[k1][k2] << (8 + 2 * (3 * k1 + k2))
        table[key] = entry
    return table


def _bits_set(x: np.ndarray) -> np.ndarray:
    """How many of the low ``MAX_GROUPS`` bits of each entry are set (numpy's own
    ``bitwise_count`` needs numpy 2, which kortsim does not require)."""
    return sum((x >> np.uint32(b)) & np.uint32(1) for b in range(MAX_GROUPS))


def _greedy_table() -> np.ndarray:
    """:func:`_greedy_by_order` keyed by the four cards' groups themselves, ``g0 + 8 g1 + 64
    g2 + 512 g3`` (16 KiB): the key is then three shifts, not the groups' order."""
    keys = np.arange(MAX_GROUPS**HAND_SIZE, dtype=np.uint32)
    groups = [(keys >> (3 * i)) & 7 for i in range(HAND_SIZE)]
    held = np.zeros_like(keys)
    for g in groups:
        held |= np.uint32(1) << g
    order = sum(_bits_set(held & ((np.uint32(1) << g) - 1)) << (2 * i) for i, g in enumerate(groups))
    return _greedy_by_order()[order]


GREEDY_TABLE = _greedy_table()


@njit(cache=True, forceinline=True)
def greedy_nb(obs, params, rng):
    """RULES.md §5 `greedy`: target the group held most, pass from the one held least.

    The same choices and draws as ``pass_away_nb(obs, rng, most_held_nb(obs, rng))``, read
    from ``GREEDY_TABLE`` (greedy is the baseline everything is measured against, so it is
    worth keeping fast, and its cost does not grow with the groups in play): what greedy
    does depends only on which of the four cards share a group and on the order of those
    groups, so the table is keyed by the four cards' groups.  ``below(n)`` is ``(u * n) >>
    32`` of the next draw's top half ``u``, which is 0 for n = 1, so the stream's next two
    draws are computed at once and the state advances by the draws the hand makes: no
    branch on the cards (random, so mispredicted)."""
    h0, h1, h2, h3 = obs[HAND], obs[HAND + 1], obs[HAND + 2], obs[HAND + 3]
    # Card codes index unsigned: no check for a negative index on the way.
    g0, g1 = np.uint64(CARD_GROUP[np.uint64(h0)]), np.uint64(CARD_GROUP[np.uint64(h1)])
    g2, g3 = np.uint64(CARD_GROUP[np.uint64(h2)]), np.uint64(CARD_GROUP[np.uint64(h3)])
    entry = np.uint64(GREEDY_TABLE[g0 | g1 << np.uint64(3) | g2 << np.uint64(6) | g3 << np.uint64(9)])
    one = np.uint64(1)
    n1, n2 = entry & np.uint64(7), (entry >> np.uint64(3)) & np.uint64(3)
    s = rng[0]
    k1 = np.uint64(below_of_nb(ahead_nb(s, 1), n1))
    k2 = np.uint64(below_of_nb(ahead_nb(s, 2), n2))
    rng[0] = advanced_nb(s, np.uint64(n1 > one) + np.uint64(n2 > one))
    slot = (entry >> (np.uint64(8) + np.uint64(2) * (np.uint64(3) * k1 + k2))) & np.uint64(3)
    return obs[HAND + np.int64(slot)]


@njit(cache=True, forceinline=True)
def commit_nb(obs, params, rng):
    """RULES.md §5 `commit`: greedy until the target is locked after pass step ``after``."""
    target = obs[TARGET]
    if target < 0:
        if obs[STEPS] < params[0]:
            return greedy_nb(obs, params, rng)
        target = most_held_nb(obs, rng)
        obs[TARGET] = target
    return pass_away_nb(obs, rng, target)


@njit(cache=True, forceinline=True)
def scored_group_nb(obs, rng, value, tied, skip, current, w_received, w_passed, w_stick):
    """A held group (not ``skip``) whose score is ``value``; ``tied`` of them, one at random."""
    k = below_nb(rng, tied) if tied > 1 else 0
    for g in range(obs[N_PLAYERS]):
        held = obs[GROUP_COUNT + g] > 0 and g != skip
        if held and follow_score_nb(obs, g, current, w_received, w_passed, w_stick) == value:
            if k == 0:
                return g
            k -= 1
    return -1


@njit(cache=True, forceinline=True)
def follow_nb(obs, params, rng):
    """Target the held group with the best score, pass from the other one with the worst."""
    current = obs[TARGET]
    w_received, w_passed, w_stick = follow_weights_nb(obs, params)
    best, n_best = -1e300, 0
    for g in range(obs[N_PLAYERS]):
        if obs[GROUP_COUNT + g] > 0:
            score = follow_score_nb(obs, g, current, w_received, w_passed, w_stick)
            if score > best:
                best, n_best = score, 1
            elif score == best:
                n_best += 1
    target = scored_group_nb(obs, rng, best, n_best, -1, current, w_received, w_passed, w_stick)
    obs[TARGET] = target
    least, n_least = 1e300, 0
    for g in range(obs[N_PLAYERS]):
        if obs[GROUP_COUNT + g] > 0 and g != target:
            score = follow_score_nb(obs, g, current, w_received, w_passed, w_stick)
            if score < least:
                least, n_least = score, 1
            elif score == least:
                n_least += 1
    if n_least == 0:  # four of the target: never asked in play, as greedy then
        return obs[HAND + below_nb(rng, HAND_SIZE)]
    group = scored_group_nb(obs, rng, least, n_least, target, current, w_received, w_passed, w_stick)
    return card_of_group_nb(obs, rng, group, obs[GROUP_COUNT + group])


# --- the registry entries, in builtin-id order --------------------------------

GAME = "gris-nese"
FOLLOW_PARAMS = (
    Param("follow", 0.5, -4, 4, 0, "score of each card of a rank received from the right"),
    Param("spent", -1.0, -4, 4, 0, "score of each card of a rank this player passed on"),
    Param("stick", 1.0, 0, 4, 0, "bonus for the rank chosen at the previous step"),
)

register(
    Family(
        GAME,
        "random",
        random_nb,
        (),
        """Lay down a uniformly random card of the four at every pass step (RULES.md §5).""",
        builtin_id=0,
    )
)
register(
    Family(
        GAME,
        "greedy",
        greedy_nb,
        (),
        """The canonical baseline (RULES.md §5).  At every pass step the target is the rank
        held most (a tie broken at random, afresh each step); lay down a card of the other
        rank held least (a tie between ranks at random, the card within it at random).
        Breaking ties at random matters: with a fixed tie rule whole tables can pass the
        same cards round for ever.""",
        builtin_id=1,
    )
)
register(
    Family(
        GAME,
        "commit",
        commit_nb,
        (Param("after", 0, 0, 10_000, 1, "pass steps played greedy before the target is locked"),),
        """Play greedy until `after` pass steps are done, then lock the target: the rank
        held most at that moment (a tie at random; after=0 uses the hand as dealt).  From
        then on always keep it and lay down a card of the other rank held least (ties at
        random).  A large `after` is greedy for the whole round (RULES.md §5).""",
        builtin_id=2,
    )
)
register(
    Family(
        GAME,
        "follow",
        follow_nb,
        FOLLOW_PARAMS,
        """Collect what the player on the right lets through, and stay on course.  Every
        rank held gets a score: the cards of it in hand, plus a weight for each card of it
        received from the right this round (that player is not collecting it, so more may
        come), plus a weight for each card of it this player has passed on (a negative
        weight: those went left and would have to come all the way round), plus a bonus
        for the rank targeted at the previous step.  How much each counts depends on how
        many ranks are in play: with three, what arrives from the right says most and
        loyalty is worth nothing (two players after one rank must be able to give way);
        with eight, what was passed on and loyalty count in full.  At m ranks in play the
        weights are `follow` x (8 - m)/5, `spent` x (m - 3)/5 and `stick` x min(1, (m - 3)/2).
        The target is the best score (a tie at random); lay down a card of the
        worst-scoring other rank held (a tie at random, the card within it at random).
        With all three parameters 0 this is greedy, draw for draw.  Defaults tuned on
        duplicate deals against a greedy field at 3 to 8 players.""",
        builtin_id=3,
    )
)
register(
    Family(
        GAME,
        "belief",
        belief_nb,
        (
            *FOLLOW_PARAMS,
            Param("rival", 0.5, 0, 4, 0, "taken off a rank's score per card of it passed and not come back"),
            Param("feed", 0.5, 0, 4, 0, "a rank is kept by this per card of it gone, given up per card back"),
        ),
        """`follow` with a belief over what its neighbours collect, from its own cards.  A
        card it laid down that comes back from the right went past every other seat, so
        nobody collects its rank; one that has not come back is held by somebody, most
        often the left neighbour.  A rank loses `rival` per card of it passed away and not
        come back as a target; among the ranks to pass from, each is kept by `feed` per
        card of it that went away and given up by `feed` per card that came back.  With
        rival = feed = 0 it is `follow` draw for draw.  It beats `follow` at 4 seats and
        plays as `follow` at 6 (docs/search.md).  It is compiled on its first run and kept
        in the cache, not built into every kernel.""",
        on_demand=True,
    )
)

#: Dispatch to a shipped strategy by its id, generated from the entries above.
decide_builtin_nb = plain_dispatch(builtin_decides(GAME))

__all__ = [
    "FOLLOW_PARAMS",
    "belief_nb",
    "card_of_group_nb",
    "commit_nb",
    "decide_builtin_nb",
    "follow_nb",
    "follow_score_nb",
    "follow_weights_nb",
    "greedy_nb",
    "most_held_nb",
    "nth_group_nb",
    "pass_away_nb",
    "random_nb",
]
