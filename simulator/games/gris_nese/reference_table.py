"""Gris-nese, the cards, the deal and the table of the readable reference (RULES.md §2).

The rank groups in play for a number of players, the shuffle and the deal
(``docs/random-streams.md``, section Gris-nese), and the state of a round
(:class:`Table`): per position the hand, the observation array and what it has
received and passed.  The pass steps and the round are in
:mod:`simulator.games.gris_nese.reference`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from simulator.engine.cards import N_RANKS, RANKS, rank_of
from simulator.engine.param_row import seat_salt
from simulator.engine.rng import DEAL, DECIDE, Stream
from simulator.games.gris_nese.observation import (
    GROUP_RANKS,
    HAND_SIZE,
    MAX_GROUPS,
    MEMORY,
    N_MEMORY,
    OBS_SIZE,
)
from simulator.games.gris_nese.variants import MAX_PLAYERS, MIN_PLAYERS, Rules

N_SUITS = 4  # RULES.md §2: a rank group is four cards of one rank, suits ♠ ♥ ♦ ♣
WINNERS = 2  # RULES.md §2: when two players remain they are joint winners

Event = tuple[int, int, int]  # (pass step from 0, original seat, card laid to the left)


# --- the cards ------------------------------------------------------------------


def rank_groups(m: int) -> tuple[int, ...]:
    """RULES.md §2: one rank group per player, A K Q J then 10 9 8 7 as players are added."""
    return tuple(GROUP_RANKS[:m])


def cards_in_play(m: int) -> list[int]:
    """The 4m cards in play, listed group by group, suits ♠ ♥ ♦ ♣ within a group.

    docs/random-streams.md: this is the list ``cards[0 .. 4m-1]`` the deal indexes.
    """
    return [suit * N_RANKS + rank for rank in rank_groups(m) for suit in range(N_SUITS)]


def group_of(card: int) -> int:
    """The card's rank group, numbered in joining order (0 = A, 1 = K, …)."""
    return GROUP_RANKS.index(rank_of(card))


def four_of_a_kind(hand: Sequence[int]) -> bool:
    """RULES.md §2: four cards of one rank (suits do not matter)."""
    return len(hand) == HAND_SIZE and len({rank_of(c) for c in hand}) == 1


# --- the deal ---------------------------------------------------------------------


def shuffle_cards(seed: int, game: int, deal: int, m: int) -> list[int]:
    """docs/random-streams.md: ``perm = shuffled(4m)`` from the DEAL stream ``(seed, game, 1, deal, 0)``."""
    return Stream(seed, game, DEAL, deal).shuffled(HAND_SIZE * m)


def deal_hands(perm: Sequence[int], m: int) -> list[list[int]]:
    """Deal all the cards in play, four each: ``cards[perm[k]]`` goes to position ``k mod m``."""
    cards = cards_in_play(m)
    hands: list[list[int]] = [[] for _ in range(m)]
    for k, index in enumerate(perm):
        hands[k % m].append(cards[index])  # RULES.md §2: deal all of them, four cards each
    return [sorted(h) for h in hands]


def decide_streams(
    seed: int, game: int, deal: int, seats: Sequence[int], salts: Sequence[int] = ()
) -> list[np.ndarray]:
    """Each position's DECIDE stream for the deal, keyed by its original seat.

    ``salts[seat]`` is the copy salt of the player in original seat ``seat``
    (``simulator.engine.param_row.row_salt``; 0, or a seat past the end of ``salts``: the stream as
    keyed)."""
    # docs/random-streams.md: DECIDE is keyed by (seed, game, 2, deal, original seat)
    return [Stream(seed, game, DECIDE, deal, seat, seat_salt(salts, seat)).as_array() for seat in seats]


# --- the table ----------------------------------------------------------------------


@dataclass
class Table:
    """The state of one round.

    Per position: the hand, the persistent observation array, the card that
    arrived at the last step (-1 before the first), and counts by rank group
    of the cards received and passed this round, as the player remembers them
    (all of them unless it forgets, docs/human-players.md).
    """

    rules: Rules
    seats: list[int]
    hands: list[list[int]]
    obs: list[np.ndarray]
    incoming: list[int]
    received: list[list[int]]
    passed: list[list[int]]
    steps: int = 0  # pass steps completed
    events: list[Event] = field(default_factory=list)

    @property
    def m(self) -> int:
        return len(self.seats)


def new_table(rules: Rules, seats: Sequence[int], hands: Sequence[Sequence[int]]) -> Table:
    """A round about to start from ``hands`` (per position, ring order of ``seats``)."""
    m = len(seats)
    if not MIN_PLAYERS <= m <= MAX_PLAYERS:
        raise ValueError(f"a Gris-nese round needs 3 to 8 players, got {m}")
    if len(hands) != m or any(len(h) != HAND_SIZE for h in hands):
        raise ValueError(f"{m} hands of four cards are needed")
    if sorted(c for h in hands for c in h) != sorted(cards_in_play(m)):
        # RULES.md §2: all the cards in play are dealt, and no others
        ranks = " ".join(RANKS[r] for r in rank_groups(m))
        raise ValueError(f"the hands must hold exactly the {4 * m} cards of the ranks {ranks}")
    obs = []
    for _ in range(m):
        o = np.zeros(OBS_SIZE, dtype=np.int64)
        o[MEMORY : MEMORY + N_MEMORY] = -1  # the strategy's own fields start at -1 each deal
        obs.append(o)
    return Table(
        rules=rules,
        seats=list(seats),
        hands=[sorted(h) for h in hands],
        obs=obs,
        incoming=[-1] * m,
        received=[[0] * MAX_GROUPS for _ in range(m)],
        passed=[[0] * MAX_GROUPS for _ in range(m)],
    )


def left_of(i: int, m: int) -> int:
    """RULES.md §2: cards go to the left, the next player round the ring."""
    return (i + 1) % m
