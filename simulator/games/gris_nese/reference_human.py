"""Gris-nese, human-like players in the readable reference: ``forget`` and ``slip``.

docs/human-players.md (section Gris-nese) in plain Python, written from the docs and
independently of :mod:`simulator.games.gris_nese.human`, which the kernel runs.  What a
Gris-nese player knows but cannot see is the round's history: the cards of each rank group
it received from the right and those it passed on (``Table.received``, ``Table.passed``,
which hold what the player *remembers*).  The card that came in at the last step is in the
hand at every turn, so it is seen and never forgotten.

At each of its turns, before it picks:

1. ``forget`` P > 0: each remembered card is forgotten with probability P, one
   ``uniform()`` per card, forgotten when the draw is below P; the received cards group by
   group (A K Q ... as in play), then the passed cards group by group;
2. ``slip`` E > 0: one ``uniform()``; below E, the player lays down a uniformly random card
   of its four (``below(4)`` over the hand in ascending code) and its strategy is not asked.

Every draw is from the seat's own DECIDE stream (docs/random-streams.md), the array its
strategy draws from, and only when the value is above 0.
"""

from __future__ import annotations

import numpy as np

from simulator.engine.rng import below_in, uniform_in
from simulator.games.gris_nese.observation import HAND_SIZE
from simulator.games.gris_nese.reference_table import Table
from strategies.registry import FORGET_AT, SLIP_AT


def human_values(params: np.ndarray) -> tuple[float, float]:
    """``(forget, slip)`` of a parameter row; a row too narrow to reach ``SLIP_AT`` has
    neither and plays plain, as in the kernel."""
    if len(params) <= SLIP_AT:
        return 0.0, 0.0
    return float(params[FORGET_AT]), float(params[SLIP_AT])


# --- the two ways to play worse ---------------------------------------------------------------


def kept(count: int, forget: float, rng: np.ndarray) -> int:
    """How many of ``count`` remembered cards of one group survive this turn."""
    survivors = 0
    for _ in range(count):
        if uniform_in(rng) >= forget:
            survivors += 1
    return survivors


def forget_history(table: Table, i: int, forget: float, rng: np.ndarray) -> None:
    """Position ``i`` forgets each card of its history with probability ``forget``."""
    received, passed = table.received[i], table.passed[i]
    for g in range(table.m):
        received[g] = kept(received[g], forget, rng)
    for g in range(table.m):
        passed[g] = kept(passed[g], forget, rng)


def slipped_card(table: Table, i: int, slip: float, rng: np.ndarray) -> int | None:
    """With probability ``slip`` a uniformly random card of position ``i``'s hand, else None
    (the strategy picks)."""
    if uniform_in(rng) >= slip:
        return None
    return sorted(table.hands[i])[below_in(rng, HAND_SIZE)]
