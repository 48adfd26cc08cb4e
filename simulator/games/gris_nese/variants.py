"""Gris-nese's rule variants (RULES.md §2) as a validated dataclass."""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass

STALL_CAP = 10_000  # RULES.md §2: no signal after this many pass steps = a stalled round
ABANDON_AFTER = 100  # RULES.md §6: this many stalled or replayed rounds in a row abandon a match
MIN_PLAYERS = 3
MAX_PLAYERS = 8
DEFAULT_PLAYERS = 5
# The range of `unclear_margin` in seconds.  Touches follow each other by tenths of a second
# (RULES.md §4), so a margin of 10 s already replays nearly every round; above that it would
# only turn every match into an abandoned one.
UNCLEAR_MARGIN_RANGE = (0.0, 10.0)


@dataclass(frozen=True)
class Rules:
    """Rule variants.  ``unclear_margin``: seconds; when the two latest touches differ by
    less, nobody can tell who was last and the round is replayed (0 = off, the default; at
    most 10 s, ``UNCLEAR_MARGIN_RANGE``)."""

    unclear_margin: float = 0.0

    def __post_init__(self) -> None:
        v = self.unclear_margin
        if isinstance(v, bool) or not isinstance(v, int | float):
            raise ValueError(f"rule unclear_margin must be a number of seconds, not {v!r}")
        lo, hi = UNCLEAR_MARGIN_RANGE
        if not math.isfinite(v) or not lo <= v <= hi:
            raise ValueError(
                f"rule unclear_margin must be a number of seconds from {lo:g} to {hi:g}, not {v!r}"
            )
        object.__setattr__(self, "unclear_margin", float(v))

    def as_dict(self) -> dict:
        return asdict(self)
