"""What ``kortsim profile`` reads of Spøkelse: who starts, and each match round by round."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from simulator.games.base import SeatRole, Standings, Table
from simulator.games.spokelse import reference

BASELINE = "threshold"  # RULES.md §5: the canonical baseline
BEST = "expect"
LENGTH = {"round": ("turns", "turns"), "match": ("rounds", "rounds")}
IRREGULAR = {
    "round": (("capped", "rounds stopped at the 400-turn cap", "rate"),),
    "match": (("capped_rounds", "rounds stopped at the 400-turn cap", "count"),),
}
MARGIN_WORDS = "points between the two match totals"


def seat_roles(unit: str, n_seats: int) -> tuple[SeatRole, ...]:
    """RULES.md §3: the non-dealer starts; round play: seat 1 deals, seat 0 starts; match play:
    the first dealer is drawn and the deal alternates."""
    if unit == "round":
        return (SeatRole("starting first", seat=0),)
    return (SeatRole("starting the first round of the match", column="first_dealer", offset=1),)


def match_standings(table: Table, players: Sequence, seed: int, game_index: int) -> Standings:
    """Minus each seat's running total (points) after every round of the match."""
    m = reference.play_match(table.rules, players, seed=seed, game=game_index)
    totals = np.cumsum([r.scores_half for r in m.rounds], axis=0) / 2.0
    winners = () if m.loser < 0 else (1 - m.loser,)
    margin = abs(m.totals_half[0] - m.totals_half[1]) / 2.0
    return Standings(-totals, winners, margin)


def decisions(cols, seat: int, n_seats: int) -> np.ndarray:
    """Two decisions a turn (where to draw from, where to put the card); in round play seat 0
    starts, so of ``turns`` turns seat 0 played the odd ones out."""
    turns = np.asarray(cols["turns"], dtype=np.int64)
    return 2.0 * ((turns + 1 - seat) // 2)
