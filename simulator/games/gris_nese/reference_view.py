"""Gris-nese, what a player sees in the readable reference, and how its answer is read and checked.

A *player* is any object with ``name: str``, ``params`` (its float64 parameter
row: ``strategies.registry.PARAM_ROW`` values, the strategy's own then ``forget`` and
``slip``; a shorter row plays plain) and ``decide(obs, params, rng) -> int``, the card
code to lay to the left.
``obs`` follows :mod:`simulator.games.gris_nese.observation`; it is one
persistent array per player per round, whose MEMORY fields belong to the
strategy.  ``rng`` is the player's DECIDE stream for the deal, keyed by its
original seat: a one-element uint64 array it draws from itself
(``simulator.engine.rng.below_nb``), the same array for all its decisions in the deal.
"""

from __future__ import annotations

from collections import Counter

import numpy as np

from simulator.engine.cards import name
from simulator.games import illegal as wording
from simulator.games.gris_nese.observation import (
    GROUP_COUNT,
    HAND,
    HAND_SIZE,
    INCOMING,
    MAX_GROUPS,
    N_PLAYERS,
    PASSED_GROUP,
    RECEIVED_GROUP,
    SEAT,
    STEPS,
)
from simulator.games.gris_nese.reference_table import Table, group_of
from simulator.games.reference_player import IllegalAction, Player
from simulator.games.reference_player import as_answer as as_card

__all__ = ["IllegalAction", "Player", "as_card", "choose_card", "observe"]


# --- what a player sees, and what it answers ----------------------------------------


def observe(table: Table, i: int) -> np.ndarray:
    """Refresh position ``i``'s observation (every field but MEMORY) and return it."""
    obs = table.obs[i]
    hand = sorted(table.hands[i])
    counts = Counter(group_of(c) for c in hand)
    obs[SEAT] = table.seats[i]
    obs[N_PLAYERS] = table.m
    obs[STEPS] = table.steps
    obs[HAND : HAND + HAND_SIZE] = hand
    for g in range(MAX_GROUPS):
        obs[GROUP_COUNT + g] = counts[g]
        obs[RECEIVED_GROUP + g] = table.received[i][g]
        obs[PASSED_GROUP + g] = table.passed[i][g]
    obs[INCOMING] = table.incoming[i]
    return obs


def choose_card(table: Table, i: int, player: Player, rng: np.ndarray) -> int:
    """Ask position ``i`` which card it lays to the left; it must be one it holds."""
    value = player.decide(observe(table, i), player.params, rng)
    card = as_card(value)
    hand = table.hands[i]
    if card is None or card not in hand:
        card_name = name(card) if card is not None and 0 <= card < 52 else None
        when = f"pass step {table.steps + 1} (STEPS={table.steps})"
        raise IllegalAction(  # the wording is shared with runs (simulator/games/illegal.py)
            wording.not_held(
                player.name,
                table.seats[i],
                value,
                card_name,
                "choosing a card to lay down",
                when,
                [name(c) for c in sorted(hand)],
            )
        )
    return card
