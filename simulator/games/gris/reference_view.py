"""Gris, what a player sees in the readable reference, and how its answer is read and checked.

A *player* is any object with ``name: str``, ``params`` (a float64 array) and
``decide(obs, params, rng) -> int``, the card code to pass.  It is asked with
six cards in hand and an observation laid out as in
:mod:`simulator.games.gris.observation`; each seat keeps one observation array
for the whole round, so the strategy's MEMORY fields survive between its turns.
Its ``rng`` is its seat's DECIDE stream for the deal, a one-element uint64
array it draws from itself (``simulator.engine.rng.below_nb``).
"""

from __future__ import annotations

import operator
from collections.abc import Callable
from typing import Protocol

import numpy as np

from simulator.engine.cards import N_CARDS, N_SUITS, name, suit_of
from simulator.errors import IllegalMove
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


class IllegalAction(IllegalMove):
    """A strategy answered with a card it does not hold."""


class Player(Protocol):
    """Anything that can sit at the table: a name, parameters and a decision function."""

    name: str
    params: np.ndarray
    decide: Callable[[np.ndarray, np.ndarray, np.ndarray], int]


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


def as_card(value: object) -> int | None:
    """The answer as an int, or None when it is not an integer at all."""
    try:
        return operator.index(value)  # type: ignore[arg-type]
    except TypeError:
        return None


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
