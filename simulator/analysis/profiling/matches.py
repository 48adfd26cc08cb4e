"""How matches unfold, round by round: lead changes, comebacks, close finishes.

The match records of a run hold only how a match ended, so these figures are computed
from each match's rounds as the game's readable reference plays them
(:meth:`simulator.games.Game.match_standings`): it draws from the same streams as the
kernel, so match ``i`` here is match ``i`` of the run (the conformance tests hold the two
to the same records).

* **The lead** after a round is held by the one seat with the best standing (the lowest
  total, the fewest letters); when several share the best standing nobody leads.  The lead
  *changes* when a seat takes it from another (a tie in between does not count).
* **Behind after the first round**: the seats whose standing after round 1 is below the
  best; the figure is the share of those seats that go on to win the match (over the
  matches in which somebody was behind).
* **How close**: the game's margin at the end (``Game.margin_words``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from simulator.analysis.profiling.intervals import NAN, mean_of, quantiles, rate_of
from simulator.games.base import Standings, Table


def lead_changes(after_round: np.ndarray) -> int:
    """How many times the lead passed from one seat to another."""
    changes, leader = 0, -1
    for row in after_round:
        best = np.flatnonzero(row == row.max())
        if best.size != 1:
            continue
        if leader >= 0 and best[0] != leader:
            changes += 1
        leader = int(best[0])
    return changes


def behind_won(st: Standings) -> float:
    """The share of the seats behind after round 1 that won the match (NaN: nobody behind)."""
    first = st.after_round[0]
    behind = np.flatnonzero(first < first.max())
    if behind.size == 0:
        return NAN
    return float(np.isin(behind, st.winners).mean())


def dynamics(table: Table, players: Sequence, seed: int, n_matches: int) -> tuple[dict[str, Any], dict]:
    """The match figures of matches ``0 .. n_matches − 1`` of the run with ``seed``
    (``{}`` when the game declares no standings), and the per-match values."""
    g = table.game
    rows = []
    for i in range(n_matches):
        st = g.match_standings(table, players, seed, i)
        if st is None:
            rows.append((NAN, NAN, NAN))
            continue
        rows.append((float(lead_changes(st.after_round)), behind_won(st), float(st.margin)))
    if not rows or all(np.isnan(r[0]) for r in rows):
        return {}, {}
    a = np.array(rows, dtype=np.float64)
    changes, behind, margin = a[:, 0], a[:, 1], a[:, 2]
    ok = np.isfinite(margin)
    values, counts = np.unique(margin[ok], return_counts=True)
    figures = {
        "matches": int(ok.sum()),
        "lead_changes": mean_of(changes),
        "any_lead_change": rate_of(changes[ok] > 0),
        "behind_after_first_round_wins": mean_of(behind),
        "margin": {"unit": g.margin_words, "mean": mean_of(margin), **quantiles(margin[ok])},
        "margin_histogram": {"value": values.tolist(), "matches": counts.tolist()},
    }
    return figures, {"lead_changes": changes, "behind_wins": behind, "margin": margin}
