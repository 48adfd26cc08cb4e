"""Card codes, ranks, suits and pretty names.

A card is an integer ``code = suit * 13 + rank`` with suits ♠ ♥ ♦ ♣ (0-3, no
ranking) and ranks A 2 3 4 5 6 7 8 9 10 J Q K (0-12).  Jitted code only ever
sees these integers.
"""

from __future__ import annotations

N_CARDS = 52
N_SUITS = 4
N_RANKS = 13

SUITS = ("♠", "♥", "♦", "♣")
RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")

ACE, EIGHT, JACK, QUEEN, KING = 0, 7, 10, 11, 12


def card(rank: str, suit: str) -> int:
    """The code of a card from its rank and suit symbols, e.g. ``card("Q", "♣")``."""
    return SUITS.index(suit) * N_RANKS + RANKS.index(rank)


def parse_card(text: str) -> int:
    """The code of a card written as suit then rank, e.g. ``"♣Q"`` or ``"♥10"``."""
    return card(text[1:], text[0])


def suit_of(code: int) -> int:
    return code // N_RANKS


def rank_of(code: int) -> int:
    return code % N_RANKS


def name(code: int) -> str:
    """The card's readable name, suit first as in the rulebook (``♣Q``); ``--`` for none."""
    if code < 0:
        return "--"
    return SUITS[suit_of(code)] + RANKS[rank_of(code)]
