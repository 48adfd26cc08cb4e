"""What the games' readable references share about a player: what sits at the table, how its
answer is read, and its ``forget`` and ``slip`` (docs/human-players.md)."""

from __future__ import annotations

import operator
from collections.abc import Callable, Sequence
from typing import Protocol

import numpy as np

from simulator.engine.param_row import FORGET_AT, SLIP_AT
from simulator.errors import IllegalMove


class IllegalAction(IllegalMove):
    """A strategy answered with an action the rules do not allow (a card it does not hold,
    or no card at all)."""


class Player(Protocol):
    """Anything that can sit at the table: a name, parameters and a decision function."""

    name: str
    params: np.ndarray
    decide: Callable[[np.ndarray, np.ndarray, np.ndarray], int]


def as_answer(value: object) -> int | None:
    """A strategy's answer as an int, or None when it is not an integer at all."""
    try:
        return operator.index(value)  # type: ignore[arg-type]
    except TypeError:
        return None


def human_values(params: Sequence[float]) -> tuple[float, float]:
    """``(forget, slip)`` from a player's parameter row; each that a row too short to hold
    it (a hand-made player) lacks counts as 0, as in the kernel."""
    row = np.asarray(params, dtype=np.float64)
    forget = float(row[FORGET_AT]) if row.shape[0] > FORGET_AT else 0.0
    slip = float(row[SLIP_AT]) if row.shape[0] > SLIP_AT else 0.0
    return forget, slip
