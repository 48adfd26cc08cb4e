"""One plain sentence per candidate of a comparison (or point of a sweep): how far it is
from the baseline on the same deals, in the metric's own unit and direction, and what the
Holm-corrected test decided::

    expect scores 0.059 [0.053, 0.064] fewer points per round than threshold:k=4 on the
    same deals: better
    passive's share of rounds won is 71.39 [71.21, 71.58] percentage points lower than
    threshold:k=4's on the same deals: worse
    threshold:k=5 scores 0.004 [-0.003, 0.011] more points per round than threshold:k=4 on
    the same deals: no difference detected at this size

A candidate is called better or worse only when its interval excludes 0 *and* the
Holm-corrected test rejects "no difference" at 5%, as the reports say it
(:func:`simulator.reporting.sentences.verdict`); the size and its 95% interval have the
digits the interval supports (:mod:`simulator.engine.formatting`) and are said as a
magnitude in the direction named ("fewer", "higher").  The same sentences are in the
JSON summary (``verdicts``), the terminal and the report.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from simulator.analysis.compare_seatings import copies_of_one
from simulator.engine import formatting
from simulator.engine.fields import Field, metric_field
from simulator.games import fields_for
from simulator.reporting import sentences

BETTER = "better"
WORSE = "worse"
NO_DIFFERENCE = "no difference detected"
NOT_TESTED = "not tested"
#: what a sentence ends with, by verdict
ENDINGS = {
    BETTER: "better",
    WORSE: "worse",
    NO_DIFFERENCE: "no difference detected at this size",
    NOT_TESTED: "not tested (fewer than 2 deals say nothing about the spread)",
}


def _number(x: Any) -> float:
    return float(x) if x is not None else math.nan


def verdict(row: Mapping[str, Any], lower_is_better: bool) -> str:
    """:data:`BETTER`, :data:`WORSE`, :data:`NO_DIFFERENCE` or :data:`NOT_TESTED` for a
    candidate's row of a comparison (``diff``, ``diff_ci``, ``p_holm``)."""
    lo, hi = (_number(v) for v in row["diff_ci"])
    if row.get("p_holm") is None or not (math.isfinite(lo) and math.isfinite(hi)):
        return NOT_TESTED
    said = sentences.verdict(_number(row["diff"]), lo, hi, row["p_holm"], lower_is_better)
    return {"better": BETTER, "worse": WORSE}.get(said, NO_DIFFERENCE)


def _counted(unit: str) -> str | None:
    """The verb for a mean counted in a plural noun (``points per round``: "scores";
    ``letters per match``: "gets"), None for any other unit (``place in the match``)."""
    noun, _, rest = unit.partition(" ")
    if not rest.startswith("per ") or not noun.endswith("s"):
        return None
    return "scores" if noun == "points" else "gets"


def _comparison(who: str, other: str, size: str, less: bool, f: Field, unit: str) -> str:
    """``who`` against ``other`` by ``size`` (a magnitude) in the metric's words."""
    words = f.unit_text(unit)
    if f.kind == "rate":
        way = "lower" if less else "higher"
        return f"{who}'s {words} is {size} percentage points {way} than {other}'s"
    verb = _counted(words)
    if verb is not None:
        return f"{who} {verb} {size} {'fewer' if less else 'more'} {words} than {other}"
    return f"{who}'s {words} is {size} {'lower' if less else 'higher'} than {other}'s"


def sentence(who: str, other: str, row: Mapping[str, Any], f: Field, unit: str, lower_is_better: bool) -> str:
    """The plain sentence on ``who`` minus ``other`` (a comparison's row): the size with its
    95% interval, the unit and the direction, then the verdict (see the module)."""
    said = verdict(row, lower_is_better)
    if said == NOT_TESTED:
        return f"{who} against {other}: {ENDINGS[said]}"
    k = 100.0 if f.kind == "rate" else 1.0
    d = _number(row["diff"]) * k
    lo, hi = (_number(v) * k for v in row["diff_ci"])
    if formatting.no_spread([lo, hi]):
        if d == 0 and copies_of_one(who, other):
            # Two copies of one strategy meet the same deals with the same streams.
            return (
                f"{who} and {other} ({f.caption(unit)}): identical play on every deal: difference exactly 0"
            )
        if d == 0:
            return f"{who} and {other} do exactly alike on every deal ({f.caption(unit)}): no difference"
        size = formatting.number(abs(d))
        where = "on every deal"
    else:
        less = d < 0
        interval = [-hi, -lo] if less else [lo, hi]
        size = formatting.with_interval(abs(d), interval)
        where = "on the same deals"
        if _rounds_to_zero(size):  # "0.000 more" says nothing: give the signed difference
            units = "percentage points" if f.kind == "rate" else f.unit_text(unit)
            signed = formatting.with_interval(d, [lo, hi], sign=True)
            return f"{who} minus {other}: {signed} {units} {where}: {ENDINGS[said]}"
    return f"{_comparison(who, other, size, d < 0, f, unit)} {where}: {ENDINGS[said]}"


def _rounds_to_zero(shown: str) -> bool:
    """Whether the value of ``shown`` (``0.000 [-0.020, 0.020]``) reads as zero."""
    return shown.partition(" ")[0].strip("0.,") == ""


def paragraphs(said: list[dict[str, Any]]) -> list[str]:
    """The sentences of :func:`verdicts` as a report's paragraphs (each with its full stop;
    a sentence opens with a strategy's name, which keeps its own case)."""
    return [v["sentence"] + "." for v in said]


def verdicts(summary: Mapping[str, Any]) -> list[dict[str, Any]]:
    """One entry per metric and candidate other than the baseline, the primary metric first:
    ``metric``, ``player``, ``baseline``, ``verdict`` (:func:`verdict`) and ``sentence``."""
    unit, base = summary["unit"], summary["baseline"]
    declared = fields_for(summary["game"], unit)
    out = []
    for name, block in summary["metrics"].items():
        f = metric_field(declared, name, block)
        lower = bool(block["lower_is_better"])
        for r in block["strategies"]:
            if "diff" not in r:
                continue
            out.append(
                {
                    "metric": name,
                    "player": r["player"],
                    "baseline": base,
                    "verdict": verdict(r, lower),
                    "sentence": sentence(r["player"], base, r, f, unit, lower),
                }
            )
    return out


__all__ = [
    "BETTER",
    "ENDINGS",
    "NOT_TESTED",
    "NO_DIFFERENCE",
    "WORSE",
    "paragraphs",
    "sentence",
    "verdict",
    "verdicts",
]
