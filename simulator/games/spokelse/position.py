"""A Spøkelse position as a person writes it: cards and rows in text, the checked
:class:`Position` (what one player knows at one decision) and the observation a strategy
would be handed there.  ``advise``, its exact end of round and the table's advice read it.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from simulator.engine.cards import N_CARDS, N_RANKS, N_SUITS, RANKS, SUITS, name, rank_of
from simulator.errors import InputError
from simulator.games.spokelse import observation as ob
from simulator.games.spokelse.variants import Rules

MAX_STOCK = N_CARDS - 2 * 5 - 1  # RULES.md §3: 41 cards once the deal and the first discard are out
ASCII_SUITS = {"s": "♠", "h": "♥", "d": "♦", "c": "♣"}
_CARD = re.compile(r"^(?:([♠♥♦♣SHDC])(10|[2-9AJQKT])|(10|[2-9AJQKT])([♠♥♦♣SHDC]))$", re.IGNORECASE)
UNKNOWN = ("?", "_", "-", "x")


def parse_card_text(text: str) -> int:
    """A card code from ``♣Q``, ``Q♣``, ``cQ``, ``QC``, ``h10``, ``Th`` (any case).

    Raises
    ------
    InputError
        For anything else (one line naming the text)."""
    m = _CARD.match(text.strip())
    if not m:
        raise InputError(f"unknown card {text!r}: write suit and rank, e.g. ♣Q, cQ, h10 or 10h")
    suit, rank = (m.group(1), m.group(2)) if m.group(1) else (m.group(4), m.group(3))
    suit = ASCII_SUITS.get(suit.lower(), suit)
    rank = {"T": "10"}.get(rank.upper(), rank.upper())
    return SUITS.index(suit) * N_RANKS + RANKS.index(rank)


def parse_row(text: str, what: str) -> list[int]:
    """Four slots, cards or ``?`` for one the player does not know (-1)."""
    items = text.replace(",", " ").split()
    if len(items) != 4:
        raise InputError(f"{what} must be 4 slots (cards or ?), got {len(items)}: {text!r}")
    return [-1 if t.lower() in UNKNOWN else parse_card_text(t) for t in items]


def parse_cards(text: str | Sequence[str] | None) -> list[int]:
    """A list of cards, space- or comma-separated (or a list of card texts)."""
    if text is None:
        return []
    items = text.replace(",", " ").split() if isinstance(text, str) else list(text)
    return [parse_card_text(t) for t in items]


@dataclass(frozen=True)
class Position:
    """What the player sees; cards are codes, -1 an unknown slot (own) or hidden (opponent)."""

    row: tuple[int, ...]
    stock: int
    hand: int = -1
    discard: int = -1
    from_discard: bool = False
    seen: tuple[int, ...] = ()
    opp: tuple[int, ...] = (-1, -1, -1, -1)
    totals: tuple[float, float] = (0.0, 0.0)
    rules: Rules = field(default_factory=Rules)

    @property
    def phase(self) -> int:
        return ob.PLACE if self.hand >= 0 else ob.SOURCE

    def check(self) -> None:
        """Refuse a position that cannot happen, in one line (:class:`InputError`)."""
        places = {"row": self.row, "opponent's row": self.opp, "seen": self.seen}
        shown: list[tuple[int, str]] = [(c, k) for k, cards in places.items() for c in cards if c >= 0]
        shown += [(c, k) for c, k in ((self.hand, "hand"), (self.discard, "discard top")) if c >= 0]
        where: dict[int, str] = {}
        for c, k in shown:
            if c in where:
                raise InputError(f"{name(c)} is there twice ({where[c]} and {k}): every card exists once")
            where[c] = k
        top_stock = MAX_STOCK - (1 if self.hand >= 0 and not self.from_discard else 0)
        if not 0 <= self.stock <= top_stock:
            raise InputError(f"the stock holds 0 to {top_stock} cards in this position, not {self.stock}")
        if self.phase == ob.SOURCE and self.stock == 0:
            raise InputError("the stock is empty: the round is over, there is no decision left")
        if self.phase == ob.SOURCE and self.discard < 0:
            raise InputError(
                "nothing to decide: give --hand (the card to place) or --discard (the pile's top)"
            )
        if self.from_discard and self.hand < 0:
            raise InputError("--from-discard needs --hand (the card taken from the pile)")
        if self.from_discard and self.stock == 0:
            raise InputError(
                "the stock is empty: the round ended with the turn that drew the last card, so no "
                "card can have been taken from the pile since"
            )
        if self.discard < 0 and self.seen:
            raise InputError("--seen lists cards under the discard top, but the pile is empty (no --discard)")
        faces_down = 4 + 4 + 2 + self.stock  # both rows, both ghosts, the stock
        in_sight = (1 if self.hand >= 0 else 0) + (1 if self.discard >= 0 else 0) + len(self.seen)
        if faces_down + in_sight > N_CARDS:
            raise InputError(
                f"too many cards: 10 in the rows and ghosts, {self.stock} in the stock and {in_sight} "
                f"in hand, on the pile or seen make {faces_down + in_sight}, but the deck has {N_CARDS}"
            )
        if self.discard < 0 and faces_down + in_sight < N_CARDS:
            raise InputError(
                f"the cards do not add up: with no discard pile, {N_CARDS - faces_down - in_sight} cards "
                "are nowhere (give --discard)"
            )


def position_obs(pos: Position) -> np.ndarray:
    """The observation the player decides on (observation.py's layout), seat 0."""
    pos.check()
    values = pos.rules.values_half()
    obs = np.full(ob.OBS_SIZE, -1, np.int64)
    obs[ob.PHASE] = pos.phase
    obs[ob.HAND] = pos.hand
    obs[ob.HAND_VALUE] = values[rank_of(pos.hand)] if pos.hand >= 0 else -1
    obs[ob.FROM_DISCARD] = int(pos.from_discard and pos.hand >= 0)
    obs[ob.DISCARD_TOP] = pos.discard
    obs[ob.DISCARD_VALUE] = values[rank_of(pos.discard)] if pos.discard >= 0 else -1
    obs[ob.STOCK_LEFT] = pos.stock
    # Turns so far if every draw came from the stock (a guess: only search's opponent model reads it).
    obs[ob.TURN] = MAX_STOCK - pos.stock - (1 if pos.phase == ob.PLACE and not pos.from_discard else 0)
    obs[ob.SEAT] = 0
    obs[ob.MY_TOTAL], obs[ob.OPP_TOTAL] = (round(2 * t) for t in pos.totals)
    obs[ob.TARGET] = pos.rules.target_half() if any(pos.totals) else 0
    for i in range(4):
        obs[ob.SLOT + i] = pos.row[i]
        obs[ob.SLOT_VALUE + i] = values[rank_of(pos.row[i])] if pos.row[i] >= 0 else -1
        obs[ob.OPP_SLOT + i] = pos.opp[i]
    known = [i for i in range(4) if pos.row[i] >= 0]
    if known:
        obs[ob.HIGH] = max(obs[ob.SLOT_VALUE + i] for i in known)
        obs[ob.HIGH_SLOT] = min(i for i in known if obs[ob.SLOT_VALUE + i] == obs[ob.HIGH])
    obs[ob.UNKNOWN_SLOT] = next((i for i in range(4) if pos.row[i] < 0), -1)
    obs[ob.VALUE : ob.VALUE + N_RANKS] = values
    seen = [c for c in (*pos.row, *pos.opp, pos.hand, pos.discard, *pos.seen) if c >= 0]
    count = Counter(rank_of(c) for c in seen)
    for r in range(N_RANKS):
        obs[ob.UNSEEN + r] = N_SUITS - count[r]
    return obs


__all__ = [
    "ASCII_SUITS",
    "MAX_STOCK",
    "UNKNOWN",
    "Position",
    "parse_card_text",
    "parse_cards",
    "parse_row",
    "position_obs",
]
