"""Gris, the table and the deal of the readable reference: RULES.md §1's cards laid out.

Where every card lies during a round (:class:`Table`), the seats round it, the
streams a deal draws from (``docs/random-streams.md``) and the deal itself; the
rulebook's numbers and the move log (:class:`Event`) that the kernel shares.
The moves and the round are in :mod:`simulator.games.gris.reference`.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

import numpy as np

from simulator.engine.cards import N_CARDS, N_SUITS
from simulator.engine.param_row import player_salts, seat_salt
from simulator.engine.rng import DEAL, DEALER, DECIDE, Stream
from simulator.games.gris.observation import OBS_SIZE
from simulator.games.gris.variants import MAX_SEATS, MIN_SEATS, Rules

CARDS_PER_PLAYER = 5  # RULES.md §1: five cards to each player ...
GOAL = 5  # RULES.md §1: five cards of one suit in hand
LETTERS = "GRIS"  # RULES.md §1: the first player to hold all four letters loses
NO_OWNER = -1
NO_CARD = -1

# Event kinds (the shared interface with the kernel's log).
PASS = 0
EXCHANGE = 1


class Event(NamedTuple):
    """One move: ``(PASS, seat, card, to_seat)`` or ``(EXCHANGE, seat, card, drawn)``."""

    kind: int
    seat: int
    card: int
    other: int


# --- the table ----------------------------------------------------------------


@dataclass
class Table:
    """The state of one round: where every card lies and where each card's trip stands.

    Every one of the 52 cards is in exactly one place at all times: a hand or
    the stock.  A card being passed goes straight from one hand to the next.
    """

    rules: Rules
    n: int
    dealer: int
    hands: list[list[int]]  # hands[seat], kept in ascending card code
    stock: deque[int]  # face down, a queue: stock[0] is the top (drawn next), stock[-1] the bottom
    owner: list[int]  # owner[card]: the seat that started the card's current trip, NO_OWNER if none
    straight: list[bool]  # straight[card]: nobody has kept the card for a turn on its current trip
    to_play: int  # the seat holding six cards, about to pass
    incoming: list[int]  # incoming[seat]: the card that arrived this turn (received or drawn), or NO_CARD
    incoming_drawn: list[bool]  # incoming[seat] was drawn from the stock in an exchange
    received_suit: list[list[int]]  # received_suit[seat][s]: cards of suit s received from the right
    passed_suit: list[list[int]]  # passed_suit[seat][s]: cards of suit s this seat passed
    my_passes: list[int]  # my_passes[seat]: passes this seat has made
    # claims[seat]: the cards seat remembers passing that are away on a trip it started; it
    # claims such a card when it comes back (docs/human-players.md: only forgetting empties it)
    claims: list[set[int]]
    obs: list[np.ndarray]  # one observation array per seat for the round (MEMORY survives in it)
    events: list[Event]
    passes: int = 0  # passes made in the round, by anyone


def left_of(seat: int, n: int) -> int:
    """RULES.md §1: "left" is the next seat, (i + 1) % n."""
    return (seat + 1) % n


def six_card_seat(dealer: int, n: int) -> int:
    """RULES.md §1: the player left of the dealer gets a sixth card (and passes first)."""
    return left_of(dealer, n)


def shuffle_deck(seed: int, game: int, deal: int = 0) -> list[int]:
    """The deal's deck: the DEAL stream's Fisher-Yates shuffle of the 52 cards."""
    # docs/random-streams.md: deck = shuffled(52) from the DEAL stream (seed, game, 1, deal, 0)
    return Stream(seed, game, DEAL, deal).shuffled(N_CARDS)


def decide_streams(seed: int, game: int, deal: int, n: int, salts: Sequence[int] = ()) -> list[np.ndarray]:
    """Each seat's DECIDE stream for the deal, as the one-element array its strategy draws from.

    ``salts[seat]`` is the copy salt of the seat's player (``simulator.engine.param_row.row_salt``;
    0, or a seat past the end of ``salts``: the stream as keyed)."""
    # docs/random-streams.md: DECIDE is keyed by (seed, game, 2, deal, seat); only strategies draw
    return [Stream(seed, game, DECIDE, deal, seat, seat_salt(salts, seat)).as_array() for seat in range(n)]


def seat_streams(seed: int, game: int, deal: int, players: Sequence[Any]) -> list[np.ndarray]:
    """Each seat's DECIDE stream for the deal, from its player's copy salt (:func:`decide_streams`)."""
    return decide_streams(seed, game, deal, len(players), player_salts(players))


def first_dealer(seed: int, game: int, n: int) -> int:
    """RULES.md §1: round 1's dealer is drawn at random (docs/random-streams.md: DEALER.below(n))."""
    return Stream(seed, game, DEALER).below(n)


def check_table(n: int, dealer: int) -> None:
    if not MIN_SEATS <= n <= MAX_SEATS:
        raise ValueError(f"Gris is for {MIN_SEATS} to {MAX_SEATS} players, got {n}")
    if not 0 <= dealer < n:
        raise ValueError(f"dealer must be a seat 0..{n - 1}, not {dealer!r}")


def deal_cards(rules: Rules, deck: Sequence[int], n: int, dealer: int) -> Table:
    """Deal a round from ``deck`` (dealt from ``deck[0]`` onwards) and lay out the table."""
    check_table(n, dealer)
    if sorted(deck) != list(range(N_CARDS)):
        raise ValueError("the deck must hold each of the 52 cards exactly once")
    six = six_card_seat(dealer, n)
    hands: list[list[int]] = [[] for _ in range(n)]
    # RULES.md §1: five cards to each, one at a time, starting left of the dealer and going left
    for k in range(CARDS_PER_PLAYER * n):
        hands[(six + k) % n].append(deck[k])
    # RULES.md §1: the player left of the dealer gets a sixth
    hands[six].append(deck[CARDS_PER_PLAYER * n])
    # RULES.md §1: the remaining 52 - 5n - 1 cards form the stock, a queue (top = drawn first)
    stock = deque(deck[CARDS_PER_PLAYER * n + 1 :])
    return Table(
        rules=rules,
        n=n,
        dealer=dealer,
        hands=[sorted(h) for h in hands],
        stock=stock,
        owner=[NO_OWNER] * N_CARDS,  # RULES.md §1: a card dealt has no owner until it is passed
        straight=[False] * N_CARDS,
        to_play=six,
        incoming=[NO_CARD] * n,
        incoming_drawn=[False] * n,
        received_suit=[[0] * N_SUITS for _ in range(n)],
        passed_suit=[[0] * N_SUITS for _ in range(n)],
        my_passes=[0] * n,
        claims=[set() for _ in range(n)],
        obs=[np.full(OBS_SIZE, -1, dtype=np.int64) for _ in range(n)],  # MEMORY is -1 at the deal
        events=[],
    )


def cards_in_play(table: Table) -> list[int]:
    """How many times each card lies on the table (hands and stock); all ones when nothing is lost."""
    count = [0] * N_CARDS
    for hand in table.hands:
        for c in hand:
            count[c] += 1
    for c in table.stock:
        count[c] += 1
    return count
