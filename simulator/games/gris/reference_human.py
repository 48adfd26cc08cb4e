"""Gris, human-like players in the readable reference: slips and forgetting.

Written from docs/human-players.md (the Gris section) and docs/random-streams.md,
independently of the kernel's :mod:`simulator.games.gris.human`.  A player's ``forget``
and ``slip`` are the last two values of its parameter row (``FORGET_AT``, ``SLIP_AT``);
both draw from the seat's own decision stream, the one its strategy draws from, and only
when they are above 0:

* ``slip``, before the decision: ``uniform()``; below ``slip`` the card passed is the
  hand's ``below(6)``-th card in ascending code, and the strategy is not asked;
* ``forget``, right after the seat's pass: one ``uniform()`` per thing remembered,
  forgotten when below ``forget``: each card counted in ``received_suit`` (suit by suit,
  ♠ ♥ ♦ ♣), each in ``passed_suit`` likewise, then each card of the seat's claims (the
  cards it remembers passing that are away on a trip it started) in ascending code.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from simulator.engine.cards import N_SUITS
from simulator.engine.rng import GOLDEN, MASK64, mix64
from simulator.games.gris.reference_table import Table
from strategies.registry import FORGET_AT, SLIP_AT


def human_values(params: Sequence[float]) -> tuple[float, float]:
    """``(forget, slip)`` from a player's parameter row; a row too short to hold them
    (a hand-made player) counts as 0, as in the kernel."""
    row = np.asarray(params, dtype=np.float64)
    forget = float(row[FORGET_AT]) if row.shape[0] > FORGET_AT else 0.0
    slip = float(row[SLIP_AT]) if row.shape[0] > SLIP_AT else 0.0
    return forget, slip


# --- draws on a seat's stream (the one-element array its strategy draws from) --------------


def _next_u64(rng: np.ndarray) -> int:
    """docs/random-streams.md: ``state += GOLDEN; return mix64(state)``."""
    state = (int(rng[0]) + GOLDEN) & MASK64
    rng[0] = state
    return mix64(state)


def uniform(rng: np.ndarray) -> float:
    """docs/random-streams.md ``uniform()``: ``(u64 >> 11) * 2^-53``."""
    return (_next_u64(rng) >> 11) * 2.0**-53


def below(rng: np.ndarray, n: int) -> int:
    """docs/random-streams.md ``below(n)``: ``((u64 >> 32) * n) >> 32``."""
    return ((_next_u64(rng) >> 32) * n) >> 32


# --- a slip and forgetting --------------------------------------------------------------


def slipped_card(table: Table, seat: int, slip: float, rng: np.ndarray) -> int | None:
    """The card ``seat`` passes by a slip, or None when the strategy decides."""
    if slip <= 0 or uniform(rng) >= slip:
        return None
    hand = table.hands[seat]  # ascending card code
    return hand[below(rng, len(hand))]


def forget_after_pass(table: Table, seat: int, forget: float, rng: np.ndarray) -> None:
    """The end of ``seat``'s turn: each thing it remembers is forgotten with probability
    ``forget`` (nothing is drawn when it is 0)."""
    if forget <= 0:
        return
    for counts in (table.received_suit[seat], table.passed_suit[seat]):
        for s in range(N_SUITS):
            lost = 0
            for _ in range(counts[s]):
                if uniform(rng) < forget:
                    lost += 1
            counts[s] -= lost
    kept = set()
    for card in sorted(table.claims[seat]):
        if uniform(rng) >= forget:
            kept.add(card)
    table.claims[seat] = kept
