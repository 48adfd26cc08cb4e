"""Whether the point that leads a sweep is better than every other point played.

The leader is the point with the best *observed* figure.  It is called best only when its
paired difference to *every* other point, on the same deals, is in its favour and survives
Holm's correction over those comparisons; otherwise it is the lowest (or highest) observed,
and the words name the points it is not clearly better than.  A sweep tests its leader from
its paired sums (:meth:`simulator.analysis.sweep_result.SweepResult.top`); :func:`from_deals`
tests per-deal values given directly (one column per point, on the same deals), in the
same way.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from simulator.analysis.compare_stats import PairedSums, _deal_covariance, _difference_row
from simulator.engine.stats import LEVEL, z_value


def holm_against(tests: Sequence[tuple[str, dict[str, Any]]], lower_is_better: bool) -> bool:
    """Holm-correct the leader's tests against the others (in place: ``p_holm`` and
    ``significant``, true when the test rejects and the difference favours the leader) and
    say whether every one does.  A test without a p-value (fewer than 2 deals) leaves every
    ``p_holm`` None and nothing significant."""
    p_raw = [t["p_value"] for _, t in tests]
    p_holm: list[float | None] = [None] * len(tests)
    reject = [False] * len(tests)
    if tests and all(p is not None for p in p_raw):
        from statsmodels.stats.multitest import multipletests

        rej, ph, _, _ = multipletests(p_raw, alpha=1 - LEVEL, method="holm")
        p_holm, reject = [float(v) for v in ph], [bool(v) for v in rej]
    for i, (_, t) in enumerate(tests):
        t["p_holm"] = p_holm[i]
        t["significant"] = bool(reject[i] and ((t["diff"] < 0) == lower_is_better))
    return bool(tests) and all(t["significant"] for _, t in tests)


def from_deals(values: Any, names: Sequence[str], *, lower_is_better: bool = True) -> dict[str, Any]:
    """The leader of per-deal values and its tests against every other point.

    Parameters
    ----------
    values
        Integers, one row per deal and one column per point, all on the same deals.
    names
        The points' names, in column order.
    lower_is_better
        Whether a lower value is better.

    Returns
    -------
    dict
        ``leader`` (its name; the first on a tie), ``observed`` (``"lowest"`` or
        ``"highest"``), ``tests`` (one per other point, the closest first: ``other``,
        ``diff`` = leader − other, ``diff_ci``, ``p_value``, ``p_holm``, ``significant``)
        and ``best``.
    """
    t = np.asarray(values, dtype=np.int64)
    k = t.shape[1]
    if len(names) != k:
        raise ValueError(f"{len(names)} names for {k} columns")
    ones = np.ones(k, dtype=np.int64)
    sums = PairedSums(k)
    sums.add(t, ones, lower_is_better)
    means, cov = _deal_covariance(sums, ones.astype(np.float64))
    lead = int(np.argmin(means) if lower_is_better else np.argmax(means))
    order = sorted(
        (j for j in range(k) if j != lead), key=lambda j: (means[j] if lower_is_better else -means[j], j)
    )
    tests = [(names[j], _difference_row(sums, ones, means, cov, lead, j, z_value(), 1.0)) for j in order]
    best = holm_against(tests, lower_is_better)
    return {
        "leader": names[lead],
        "observed": "lowest" if lower_is_better else "highest",
        "tests": [{"other": name, **row} for name, row in tests],
        "best": best,
    }


def not_clearly_beaten(tests: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """The leader's tests that do not show it better (closest first)."""
    return [t for t in tests if not t.get("significant", False)]


def standing(
    observed: str, tests: Sequence[dict[str, Any]] | None, name: Callable[[str], str] = str, most: int = 3
) -> str:
    """The leader's standing in words: ``"best"``, or ``"lowest observed (not clearly better
    than k=1, k=3)"`` naming at most ``most`` of the points it is not shown to beat;
    ``tests`` None: the comparisons with the other points are not at hand."""
    if tests is None:
        return f"{observed} observed (not tested against every other point)"
    if tests and all(t.get("significant", False) for t in tests):
        return "best"
    if not tests:
        return f"{observed} observed (the only point)"
    close = [name(t["other"]) for t in not_clearly_beaten(tests)]
    shown = ", ".join(close[:most]) + (f" and {len(close) - most} more" if len(close) > most else "")
    return f"{observed} observed (not clearly better than {shown})"


__all__ = ["from_deals", "holm_against", "not_clearly_beaten", "standing"]
