"""What ``kortsim profile`` reads of Gris: the dealer and the six-card seat, and each match
round by round."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from simulator.games.base import SeatRole, Standings, Table
from simulator.games.gris import reference

BASELINE = "greedy"  # RULES.md §5: the canonical baseline
BEST = "reader"
LENGTH = {"round": ("passes", "passes"), "match": ("rounds", "rounds")}
IRREGULAR = {
    "round": (("stalled", "rounds stalled (no signal after 10,000 passes)", "rate"),),
    "match": (
        ("stalled_rounds", "stalled deals, re-dealt", "count"),
        ("abandoned", "matches abandoned after 100 stalled deals in a row", "rate"),
    ),
}
MARGIN_WORDS = "letters the nearest other player lacked of G-R-I-S"


def seat_roles(unit: str, n_seats: int) -> tuple[SeatRole, ...]:
    """RULES.md §1: the player left of the dealer holds six; round play: seat n−1 deals and
    seat 0 holds six; match play: the first dealer is drawn and the deal moves left."""
    if unit == "round":
        return (
            SeatRole("holding six cards (left of the dealer)", seat=0),
            SeatRole("dealing", seat=-1),
        )
    return (
        SeatRole("dealing the first round of the match", column="first_dealer"),
        SeatRole("holding six cards in the first round of the match", column="first_dealer", offset=1),
    )


def match_standings(table: Table, players: Sequence, seed: int, game_index: int) -> Standings | None:
    """Minus each seat's letters after every counted round; None for an abandoned match."""
    m = reference.play_match(table.rules, players, seed=seed, game=game_index, profiles=table.reaction)
    if m.abandoned:
        return None
    n = len(players)
    letters = np.zeros((m.counted_rounds, n))
    for r, rec in enumerate(x for x in m.rounds if not x.stalled):
        letters[r, rec.loser] = 1.0
    letters = np.cumsum(letters, axis=0)
    winners = tuple(s for s in range(n) if s != m.loser)
    others = [m.letters[s] for s in winners]
    return Standings(-letters, winners, float(4 - max(others)))


def decisions(cols, seat: int, n_seats: int) -> np.ndarray:
    """One decision a pass; in round play seat 0 holds six and passes first, and every pass
    goes one seat left, so pass ``j`` (from 0) is seat ``j mod n``'s."""
    passes = np.asarray(cols["passes"], dtype=np.int64)
    return np.maximum(passes - seat + n_seats - 1, 0) // n_seats * 1.0
