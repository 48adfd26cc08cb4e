"""Confirmation on fresh deals: the tuned parameters against the start and the field.

The best candidate of a search is the best *observed* on the search's deals, so its
estimate there is biased upwards (the winner's curse).  The confirmation plays the tuned
parameters, the starting parameters and the field's strategy as candidates against the
field with :func:`simulator.analysis.compare.compare_setup`, on deals of a seed whose games the
search never played (:func:`simulator.analysis.tuning.seeds.confirm_seed`), and reports the paired
differences ``tuned − start`` and ``tuned − field`` (compare's sign: candidate minus the
other) with 95% intervals, and a sentence for each.
"""

from __future__ import annotations

import math
from typing import Any

from simulator.analysis.compare import compare_setup
from simulator.analysis.sweep import UNITS
from simulator.engine import formatting
from simulator.games.base import Metric
from simulator.running.setup import Execution, Setup
from strategies.registry import Player


def metric_unit(metric: Metric, unit: str) -> str:
    """What a difference in ``metric`` is counted in: ``points per round``,
    ``percentage points of matches lost``."""
    if metric.kind == "rate":
        return f"percentage points of {unit}s ({metric.name})".replace("matchs", "matches")
    return f"{UNITS.get(metric.name, metric.name)} per {unit}"


def sentence(who: str, other: str, diff: float, ci: list[float], metric: Metric, unit: str, n: int) -> str:
    """``tuned expect is 0.012 [0.010, 0.014] points per round better than its defaults``:
    the size with its interval, the unit and the direction; better or worse only when the
    interval excludes 0."""
    k = 100.0 if metric.kind == "rate" else 1.0
    lo, hi = (ci[0] * k, ci[1] * k) if ci and None not in ci else (math.nan, math.nan)
    d = diff * k
    direction = "lower" if metric.lower_is_better else "higher"
    shown = formatting.with_interval(d, [lo, hi], sign=True)
    where = f"(paired difference {shown}; {direction} {metric.name} is better; {n:,} fresh deals)"
    if not (math.isfinite(lo) and math.isfinite(hi)):
        return f"{who} against {other}: no interval on {n:,} deals {where}"
    gain = -1.0 if metric.lower_is_better else 1.0
    g, g_lo, g_hi = d * gain, min(lo * gain, hi * gain), max(lo * gain, hi * gain)
    size = formatting.with_interval(abs(g), sorted([abs(g_lo), abs(g_hi)]))
    units = metric_unit(metric, unit)
    if g_lo > 0:
        return f"{who} is {size} {units} better than {other} {where}"
    if g_hi < 0:
        return f"{who} is {size} {units} worse than {other} {where}"
    return f"{who} is not distinguishable from {other}: the interval includes 0 {where}"


def confirm(
    setup: Setup,
    execution: Execution,
    tuned: Player,
    start: Player,
    field_player: Player,
    metric: Metric,
    tuned_name: str,
    start_name: str,
) -> dict[str, Any]:
    """Play the confirmation (``setup``: the fresh seed and number of deals) and return its
    JSON block: the comparison's summary for ``metric`` and the two paired differences."""
    cands = list(dict.fromkeys([tuned.spec, start.spec, field_player.spec]))
    players = {p.spec: p for p in (tuned, start, field_player)}
    result = compare_setup(setup.with_players([players[s] for s in cands]), execution, field=field_player)
    s = result.summary
    out: dict[str, Any] = {
        "seed": s["seed"],
        "n": s["n"],
        "deals_used": s["deals_used"],
        "games_played": s["games_played"],
        "elapsed_s": s["elapsed_s"],
        "strategies": cands,
        "field": field_player.spec,
        "metric": metric.name,
        "lower_is_better": metric.lower_is_better,
        "sign": (
            "vs_start, vs_field: the tuned parameters minus the other; figures: each strategy minus "
            "the first of strategies (the tuned parameters), as compare reports it; "
            "negative is better when lower is better"
        ),
        "figures": s["metrics"][metric.name]["strategies"],
    }
    pairs = [
        ("vs_start", start, f"{start_name} ({start.spec})"),
        ("vs_field", field_player, f"the field ({field_player.spec})"),
    ]
    if start.spec != field_player.spec and start.spec != tuned.spec:
        row = result.pairwise(metric.name, start.spec, field_player.spec)
        out["start_vs_field"] = {"other": field_player.spec, "diff": row["diff"], "diff_ci": row["diff_ci"]}
    for key, other, other_words in pairs:
        if other.spec == tuned.spec:
            out[key] = {
                "other": other.spec,
                "same_player": True,
                "sentence": f"{tuned_name} is {other_words}",
            }
            continue
        row = result.pairwise(metric.name, tuned.spec, other.spec)
        out[key] = {
            "other": other.spec,
            "diff": row["diff"],
            "diff_ci": row["diff_ci"],
            "p_value": row["p_value"],
            "variance_reduction": row["variance_reduction"],
            "sentence": sentence(
                tuned_name, other_words, row["diff"], row["diff_ci"], metric, setup.unit, s["deals_used"]
            ),
        }
    return out
