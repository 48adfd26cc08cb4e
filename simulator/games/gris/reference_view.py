"""Gris, what a player sees in the readable reference, and how its answer is read and checked.

A *player* is any object with ``name: str``, ``params`` (a float64 array) and
``decide(obs, params, rng) -> int``, the card code to pass.  It is asked with
six cards in hand and an observation laid out as in
:mod:`simulator.games.gris.observation`; each seat keeps one observation array
for the whole round, so the strategy's MEMORY fields survive between its turns.
Its ``rng`` is its seat's DECIDE stream for the deal, a one-element uint64
array it draws from itself (``simulator.engine.rng.below_nb``).

A player who forgets or slips (docs/human-players.md, Gris) has ``forget`` and ``slip``
as the last two values of its parameter row (``FORGET_AT``, ``SLIP_AT``); both draw from
the seat's decision stream, only when above 0, independently of the kernel's
:mod:`simulator.games.gris.human`:

* ``slip``, before the decision: ``uniform()``; below ``slip`` the card passed is the
  hand's ``below(6)``-th card in ascending code, and the strategy is not asked;
* ``forget``, right after the seat's pass: one ``uniform()`` per thing remembered,
  forgotten when below ``forget``: each card counted in ``received_suit`` (suit by suit,
  ♠ ♥ ♦ ♣), each in ``passed_suit`` likewise, then each card of the seat's claims (the
  cards it remembers passing that are away on a trip it started) in ascending code.
"""

from __future__ import annotations

import numpy as np

from simulator.engine.cards import N_CARDS, N_SUITS, name, suit_of
from simulator.engine.rng import below_in, uniform_in
from simulator.games import illegal as wording
from simulator.games.gris.observation import (
    HAND,
    HAND_SIZE,
    INCOMING,
    INCOMING_DRAWN,
    MAX_HAND,
    MY_PASSES,
    N_PLAYERS,
    PASSED_SUIT,
    PASSES,
    RECEIVED_SUIT,
    SEAT,
    SUIT_COUNT,
)
from simulator.games.gris.reference_table import NO_CARD, Table
from simulator.games.reference_player import IllegalAction, Player, human_values
from simulator.games.reference_player import as_answer as as_card

__all__ = [
    "IllegalAction",
    "Player",
    "as_card",
    "choose_card",
    "forget_after_pass",
    "human_values",
    "observe",
    "slipped_card",
]


# --- what a player sees ---------------------------------------------------------


def observe(table: Table, seat: int) -> np.ndarray:
    """Refresh ``seat``'s observation array (layout: ``observation.py``); MEMORY is left alone."""
    obs = table.obs[seat]
    hand = table.hands[seat]
    obs[SEAT] = seat
    obs[N_PLAYERS] = table.n
    obs[PASSES] = table.passes
    obs[MY_PASSES] = table.my_passes[seat]
    obs[HAND_SIZE] = len(hand)
    obs[INCOMING] = table.incoming[seat]  # -1 for the six-card seat's first pass
    obs[INCOMING_DRAWN] = 1 if table.incoming_drawn[seat] else 0
    obs[HAND : HAND + MAX_HAND] = list(hand) + [NO_CARD] * (MAX_HAND - len(hand))  # ascending
    for s in range(N_SUITS):
        obs[SUIT_COUNT + s] = sum(1 for c in hand if suit_of(c) == s)
        obs[RECEIVED_SUIT + s] = table.received_suit[seat][s]
        obs[PASSED_SUIT + s] = table.passed_suit[seat][s]
    return obs


def choose_card(table: Table, player: Player, seat: int, rng: np.ndarray) -> int:
    """RULES.md §1: the holder of six cards chooses one card to pass; it must be in the hand."""
    hand = table.hands[seat]
    value = player.decide(observe(table, seat), player.params, rng)
    card = as_card(value)
    if card is None or card not in hand:
        card_name = name(card) if card is not None and 0 <= card < N_CARDS else None
        when = f"pass {table.passes + 1} (PASSES={table.passes})"
        raise IllegalAction(  # the wording is shared with runs (simulator/games/illegal.py)
            wording.not_held(
                player.name, seat, value, card_name, "choosing a card to pass", when, [name(c) for c in hand]
            )
        )
    return card


# --- players who forget and slip (docs/human-players.md) ------------------------------------


def slipped_card(table: Table, seat: int, slip: float, rng: np.ndarray) -> int | None:
    """The card ``seat`` passes by a slip, or None when the strategy decides."""
    if slip <= 0 or uniform_in(rng) >= slip:
        return None
    hand = table.hands[seat]  # ascending card code
    return hand[below_in(rng, len(hand))]


def forget_after_pass(table: Table, seat: int, forget: float, rng: np.ndarray) -> None:
    """The end of ``seat``'s turn: each thing it remembers is forgotten with probability
    ``forget`` (nothing is drawn when it is 0)."""
    if forget <= 0:
        return
    for counts in (table.received_suit[seat], table.passed_suit[seat]):
        for s in range(N_SUITS):
            lost = 0
            for _ in range(counts[s]):
                if uniform_in(rng) < forget:
                    lost += 1
            counts[s] -= lost
    kept = set()
    for card in sorted(table.claims[seat]):
        if uniform_in(rng) >= forget:
            kept.add(card)
    table.claims[seat] = kept
