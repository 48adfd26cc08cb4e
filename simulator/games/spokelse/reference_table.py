"""Spøkelse, the table and the deal of the readable reference (RULES.md §3).

Where every card lies and who knows what (:class:`Table`), the streams a deal
draws from (``docs/random-streams.md``), the deal with its two looks, and the
record of one turn (:class:`Turn`), the move log shared with the kernel.  The
moves, the score and the round are in :mod:`simulator.games.spokelse.reference`.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from simulator.engine.cards import N_CARDS
from simulator.engine.param_row import seat_salt
from simulator.engine.rng import DEAL, DECIDE, Stream
from simulator.games.spokelse.variants import N_SLOTS, Rules

N_SEATS = 2
CARDS_PER_PLAYER = 5  # RULES.md §3: five cards to each, one of them the ghost
LOOKED_AT = (0, 1)  # RULES.md §3: each player looks at two slots; the engine fixes slots 0 and 1


@dataclass(frozen=True)
class Turn:
    """One turn as it was played.

    ``turn`` counts from 0 (turns finished before this one); ``source`` is a
    :class:`Source`, ``place`` a :class:`Place`; ``taken`` is the card taken;
    ``discarded`` the card that went face up on the discard pile (the taken
    card itself when ``place == Place.DISCARD``, else the card swapped out).
    A human-like player (docs/human-players.md) adds what it forgot as the turn
    began (``forgotten``, in card order) and which of its two decisions were slips
    (``slips``: source, place); the kernel's move log holds the first six fields.
    """

    turn: int
    seat: int
    source: int
    taken: int
    place: int
    discarded: int
    forgotten: tuple[int, ...] = ()
    slips: tuple[bool, bool] = (False, False)


# --- the table ----------------------------------------------------------------


@dataclass
class Table:
    """The state of one round: where every card lies and who knows what.

    Every one of the 52 cards is in exactly one place: a ghost, a slot, the
    stock or the discard pile (a card in a player's hand is there only in the
    middle of :func:`play_turn`).
    """

    rules: Rules
    dealer: int
    ghosts: list[int]  # ghosts[seat]: face down, never seen, never moved
    slots: list[list[int]]  # slots[seat][i]: the row, face down
    stock: deque[int]  # face down; stock[0] is the top, drawn next
    discard: list[int]  # face up; discard[-1] is the top
    knows_slot: list[list[bool]]  # knows_slot[seat][i]: the owner knows its slot i
    public_slot: list[list[bool]]  # public_slot[seat][i]: both know it (taken from the discard pile)
    seen: list[set[int]]  # seen[seat]: every card whose place the seat knows (less what it forgot)
    totals_half: tuple[int, int] = (0, 0)  # match totals before this round (observation only)
    target_half: int = 0  # the match target in half points; 0 in round play
    turn: int = 0  # turns finished
    turns: list[Turn] = field(default_factory=list)


def other(seat: int) -> int:
    return 1 - seat


def shuffle_deck(seed: int, game: int, deal: int = 0) -> list[int]:
    """The deal's deck: the DEAL stream's Fisher-Yates shuffle of the 52 cards."""
    # docs/random-streams.md: deck = shuffled(52) from the DEAL stream (seed, game, 1, deal, 0)
    return Stream(seed, game, DEAL, deal).shuffled(N_CARDS)


def decide_streams(seed: int, game: int, deal: int = 0, salts: Sequence[int] = ()) -> list[np.ndarray]:
    """Each seat's DECIDE stream for the deal, as the one-element array its strategy draws from.

    ``salts[seat]`` is the copy salt of the seat's player (``simulator.engine.param_row.row_salt``;
    0, or a seat past the end of ``salts``: the stream as keyed)."""
    # docs/random-streams.md: DECIDE is keyed by (seed, game, 2, deal, seat); only strategies draw
    return [
        Stream(seed, game, DECIDE, deal, seat, seat_salt(salts, seat)).as_array() for seat in range(N_SEATS)
    ]


def deal_cards(
    rules: Rules,
    deck: Sequence[int],
    *,
    dealer: int = 1,
    totals_half: tuple[int, int] = (0, 0),
    target_half: int = 0,
) -> Table:
    """Deal a round from ``deck`` (dealt from ``deck[0]`` onwards) and lay out the table."""
    if dealer not in (0, 1):
        raise ValueError(f"dealer must be seat 0 or 1, not {dealer!r}")
    if sorted(deck) != list(range(N_CARDS)):
        raise ValueError("the deck must hold each of the 52 cards exactly once")
    hands: list[list[int]] = [[], []]
    # RULES.md §3: five cards each, one at a time, starting with the non-dealer
    order = (other(dealer), dealer)
    for k in range(N_SEATS * CARDS_PER_PLAYER):
        hands[order[k % N_SEATS]].append(deck[k])
    # RULES.md §3: each puts one card aside as the ghost, blind (the engine takes the first dealt)
    ghosts = [hands[seat][0] for seat in range(N_SEATS)]
    # RULES.md §3: the other four go face down in a row, slots 0-3 in the order dealt
    slots = [hands[seat][1:] for seat in range(N_SEATS)]
    # RULES.md §3: the rest is the stock; its top card is turned face up to start the discard pile
    rest = deque(deck[N_SEATS * CARDS_PER_PLAYER :])
    discard = [rest.popleft()]
    table = Table(
        rules=rules,
        dealer=dealer,
        ghosts=ghosts,
        slots=slots,
        stock=rest,
        discard=discard,
        knows_slot=[[False] * N_SLOTS for _ in range(N_SEATS)],
        public_slot=[[False] * N_SLOTS for _ in range(N_SEATS)],
        seen=[set(discard) for _ in range(N_SEATS)],  # RULES.md §3: the discard top is seen by both
        totals_half=(int(totals_half[0]), int(totals_half[1])),
        target_half=int(target_half),
    )
    for seat in range(N_SEATS):
        for i in LOOKED_AT:
            # RULES.md §3: each player looks at two of its four slots (the engine fixes 0 and 1)
            look_at_slot(table, seat, i)
    return table


def look_at_slot(table: Table, seat: int, i: int) -> None:
    """``seat`` now knows the card in its own slot ``i``."""
    table.knows_slot[seat][i] = True
    table.seen[seat].add(table.slots[seat][i])
