"""Spøkelse's rule variants (RULES.md §3) as a validated dataclass."""

from __future__ import annotations

from dataclasses import asdict, dataclass

import numpy as np

from simulator.engine.cards import N_RANKS

TURN_CAP = 400  # RULES.md §3: a round that reaches 400 turns ends there, counted as capped
N_SLOTS = 4
# The variants' ranges.  `target`: a match ends when a total reaches it; every round adds at
# least ½ point to each total (about 6 for a good strategy, 30 for passive), so a match to
# 1000 points lasts some 35 to 170 rounds and at most 2000: every match ends.
JACK_VALUES = (0.5, 11)
TARGET_RANGE = (1, 1000)


@dataclass(frozen=True)
class Rules:
    """Rule variants.  ``jack``: points of a jack, 0.5 (default) or 11.
    ``target``: match total that ends a match, a whole number of points from 1 to 1000
    (``TARGET_RANGE``; default 21)."""

    jack: float = 0.5
    target: int = 21

    def __post_init__(self) -> None:
        if self.jack not in JACK_VALUES:
            raise ValueError(f"rule jack must be 0.5 or 11, not {self.jack!r}")
        lo, hi = TARGET_RANGE
        if not (isinstance(self.target, int) and lo <= self.target <= hi):
            raise ValueError(
                f"rule target must be a whole number of points from {lo} to {hi}, not {self.target!r}"
            )

    def as_dict(self) -> dict:
        return asdict(self)

    def values_half(self) -> np.ndarray:
        """Points of each rank A..K in half points."""
        v = np.array([2, 4, 6, 8, 10, 12, 14, 0, 18, 20, 1, 24, 26], dtype=np.int64)
        v[10] = int(round(self.jack * 2))
        assert v.shape[0] == N_RANKS
        return v

    def target_half(self) -> int:
        return 2 * self.target
