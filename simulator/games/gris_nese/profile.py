"""What ``kortsim profile`` reads of Gris-nese: the seat dealt to first (the deal is the only
order in a game of simultaneous passing)."""

from __future__ import annotations

import numpy as np

from simulator.games.base import SeatRole

BASELINE = "greedy"  # RULES.md §5: the canonical baseline
BEST = "follow"
LENGTH = {"round": ("passes", "pass steps"), "match": ("deals", "deals")}
IRREGULAR = {
    "round": (
        ("stalled", "rounds stalled (no four of a kind after 10,000 pass steps)", "rate"),
        ("replayed", "rounds replayed (the two latest touches within the unclear margin)", "rate"),
    ),
    "match": (
        ("stalled", "stalled deals, re-dealt", "count"),
        ("replayed", "replayed deals", "count"),
        ("abandoned", "matches abandoned after 100 stalled or replayed deals in a row", "rate"),
    ),
}


def seat_roles(unit: str, n_seats: int) -> tuple[SeatRole, ...]:
    """RULES.md §2 and docs/random-streams.md: the deal starts with the lowest seat still in;
    a match has no dealer to follow (every player out is out: no standings either)."""
    if unit == "round":
        return (SeatRole("being dealt the first card", seat=0),)
    return ()


def decisions(cols, seat: int, n_seats: int) -> np.ndarray:
    """Every player picks a card at every pass step: one decision per step."""
    return np.asarray(cols["passes"], dtype=np.float64)
