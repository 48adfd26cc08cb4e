"""The layout of every player's parameter row, as the kernels read it.

The strategy's own :data:`MAX_PARAMS` values, then the two human parameters every strategy
takes (``forget`` and ``slip``, docs/human-players.md), which the engine applies around the
strategy, not the strategy itself, then the copy salt: 0, or the position of a later copy of
a strategy given more than once in a comparison, whose decisions then draw from a stream of
their own (docs/random-streams.md).  A row narrower than :data:`PARAM_ROW` has salt 0.
Imports: none (the engine's random streams and the strategies' parameters both read it).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

MAX_PARAMS = 8
FORGET_AT = MAX_PARAMS
SLIP_AT = MAX_PARAMS + 1
SALT_AT = MAX_PARAMS + 2
PARAM_ROW = MAX_PARAMS + 3


def row_salt(row: Any) -> int:
    """The copy salt of a parameter row (0 for a row narrower than ``PARAM_ROW``)."""
    return int(row[SALT_AT]) if len(row) > SALT_AT else 0


def player_salts(players: Sequence[Any]) -> list[int]:
    """Each player's copy salt, read from its parameter row (docs/random-streams.md)."""
    return [row_salt(p.params) for p in players]


def seat_salt(salts: Sequence[int], seat: int) -> int:
    """The copy salt of ``seat`` (0 for a seat past the end of ``salts``)."""
    return int(salts[seat]) if seat < len(salts) else 0


__all__ = [
    "FORGET_AT",
    "MAX_PARAMS",
    "PARAM_ROW",
    "SALT_AT",
    "SLIP_AT",
    "player_salts",
    "row_salt",
    "seat_salt",
]
