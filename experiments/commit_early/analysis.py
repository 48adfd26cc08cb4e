"""commit-early's analysis: one row per candidate, metric and table size from each comparison,
each candidate classed better, worse or not distinguished from greedy, and where that flips."""

from __future__ import annotations

import itertools

import numpy as np
import pandas as pd

from experiments.commit_early.plan import LOWER_IS_BETTER, METRICS
from simulator.reporting import pages as words


def _rows(game: str, field: str, n: int, unit: str, s: dict) -> list[dict]:
    out = []
    for metric, name, flip in METRICS[(game, unit)]:
        for r in s["metrics"][metric]["strategies"]:
            v, (lo, hi) = r[metric], r[f"{metric}_ci"]
            d, (dlo, dhi) = r.get("diff", 0.0), r.get("diff_ci", [0.0, 0.0])
            if flip:  # P(losing) = 1 - P(win)
                v, lo, hi = 1 - v, 1 - hi, 1 - lo
                d, dlo, dhi = -d, -dhi, -dlo
            player = r["player"]
            after = float(player.split("=")[1]) if player.startswith("commit") else np.nan
            out.append(
                {
                    "game": game,
                    "players": n,
                    "field": field,
                    "unit": unit,
                    "metric": name,
                    "player": player,
                    "after": after,
                    "value": v,
                    "value_lo": lo,
                    "value_hi": hi,
                    "diff_vs_greedy": d,
                    "diff_vs_greedy_lo": dlo,
                    "diff_vs_greedy_hi": dhi,
                    "p_holm": r.get("p_holm", np.nan),
                    "significant": words.is_significant(dlo, dhi, r.get("p_holm")),
                    "variance_reduction": r.get("variance_reduction") or np.nan,
                    "deals": s["deals_used"],
                }
            )
    return out


def _classify(rows: pd.DataFrame) -> dict[int, str]:
    """Per player count: better / worse / none (no difference detected), for lower-is-better."""
    out = {}
    for r in rows.itertuples():
        lower = LOWER_IS_BETTER[r.metric]
        if not r.significant:
            out[r.players] = "none"
        else:
            out[r.players] = "better" if (r.diff_vs_greedy < 0) == lower else "worse"
    return out


def _ranges(ns: list[int]) -> str:
    if not ns:
        return ""
    parts, start, prev = [], ns[0], ns[0]
    for n in [*ns[1:], None]:
        if n is not None and n == prev + 1:
            prev = n
            continue
        parts.append(f"{start}" if start == prev else f"{start}-{prev}")
        if n is not None:
            start = prev = n
    return ", ".join(parts)


def _flips(rows: pd.DataFrame, metric: str) -> list[tuple[int, int, str, str]]:
    """Where a significant verdict changes between neighbouring table sizes (no-difference sizes skipped)."""
    lower = LOWER_IS_BETTER[metric]
    seq = [
        (
            int(r.players),
            words.verdict(r.diff_vs_greedy, r.diff_vs_greedy_lo, r.diff_vs_greedy_hi, r.p_holm, lower),
        )
        for r in rows.sort_values("players").itertuples()
    ]
    seq = [(n, k) for n, k in seq if k != "none"]
    return [(a, c, x, y) for (a, x), (c, y) in itertools.pairwise(seq) if x != y]
