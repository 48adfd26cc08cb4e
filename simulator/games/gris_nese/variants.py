"""Gris-nese's rule variants (RULES.md §2) as a validated dataclass."""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass

STALL_CAP = 10_000  # RULES.md §2: no signal after this many pass steps = a stalled round
ABANDON_AFTER = 100  # RULES.md §6: this many stalled or replayed rounds in a row abandon a match
MIN_PLAYERS = 3
MAX_PLAYERS = 8
DEFAULT_PLAYERS = 5


@dataclass(frozen=True)
class Rules:
    """Rule variants.  ``unclear_margin``: seconds; when the two latest touches differ by
    less, nobody can tell who was last and the round is replayed (0 = off, the default)."""

    unclear_margin: float = 0.0

    def __post_init__(self) -> None:
        v = self.unclear_margin
        if isinstance(v, bool) or not isinstance(v, int | float):
            raise ValueError(f"rule unclear_margin must be a number of seconds, not {v!r}")
        if not math.isfinite(v) or v < 0:
            raise ValueError(f"rule unclear_margin must be a finite number of seconds >= 0, not {v!r}")
        object.__setattr__(self, "unclear_margin", float(v))

    def as_dict(self) -> dict:
        return asdict(self)
