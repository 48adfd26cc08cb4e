"""Gris's rule variants (RULES.md §1) as a validated dataclass, and the round's fixed limits."""

from __future__ import annotations

from dataclasses import asdict, dataclass

STALL_CAP = 10_000  # RULES.md §1 stall guard: a round with no signal after 10,000 passes is stalled
ABANDON_AFTER = 100  # RULES.md §6: a match with 100 stalled rounds in a row is abandoned
MIN_SEATS, MAX_SEATS, DEFAULT_SEATS = 2, 10, 4  # RULES.md §1: 2 <= n <= 10, default 4

# RULES.md §1 variant `circulation`, as the kernel's integer code.
CIRCULATION_CODES = {"straight": 0, "always": 1, "off": 2}
STRAIGHT, ALWAYS, OFF = 0, 1, 2


@dataclass(frozen=True)
class Rules:
    """Rule variants.  ``circulation``: which card arriving back at its owner is exchanged
    for the top of the stock: ``straight`` (default: after a straight trip), ``always``
    or ``off`` (never)."""

    circulation: str = "straight"

    def __post_init__(self) -> None:
        if self.circulation not in CIRCULATION_CODES:
            known = ", ".join(CIRCULATION_CODES)
            raise ValueError(f"rule circulation must be one of {known}, not {self.circulation!r}")

    def as_dict(self) -> dict:
        return asdict(self)

    @property
    def circulation_code(self) -> int:
        return CIRCULATION_CODES[self.circulation]
