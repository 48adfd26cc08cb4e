"""Estimates with their 95% intervals, as the profile reports them: ``{"value", "ci", "n"}``.

Means use the normal interval over the per-game values (thousands of games); rates the
Wilson interval of :mod:`simulator.engine.stats`; counts of rare events per game (stalls,
replays) the exact Poisson interval, never below 0; a paired difference is the mean of the
per-game differences, so the interval is that of a mean.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from simulator.engine.stats import LEVEL, count_ci, rate_ci, z_value

NAN = float("nan")


def estimate(value: float, lo: float, hi: float, n: int) -> dict[str, Any]:
    """The JSON shape of one figure: value, ``ci`` ``[lo, hi]`` and the number it rests on."""
    return {"value": float(value), "ci": [float(lo), float(hi)], "n": int(n)}


def mean_of(x: np.ndarray, level: float = LEVEL) -> dict[str, Any]:
    """The mean of per-game values with its normal interval (NaN bounds below 2 values)."""
    x = np.asarray(x, dtype=np.float64)
    x = x[np.isfinite(x)]
    n = int(x.size)
    if n == 0:
        return estimate(NAN, NAN, NAN, 0)
    m = float(x.mean())
    if n < 2:
        return estimate(m, NAN, NAN, n)
    half = z_value(level) * float(x.std(ddof=1)) / math.sqrt(n)
    return estimate(m, m - half, m + half, n)


def rate_of(flags: np.ndarray, level: float = LEVEL) -> dict[str, Any]:
    """The share of true values among per-game 0/1 flags, with its Wilson interval."""
    flags = np.asarray(flags)
    n = int(flags.size)
    k = int(np.count_nonzero(flags))
    value, (lo, hi) = rate_ci(k, n, level)
    return estimate(value, lo, hi, n)


def count_rate_of(counts: np.ndarray, level: float = LEVEL) -> dict[str, Any]:
    """Events per game from per-game counts, with the exact Poisson interval of their total."""
    counts = np.asarray(counts)
    value, (lo, hi) = count_ci(int(counts.sum()), int(counts.size), level)
    return estimate(value, lo, hi, counts.size)


def excludes_zero(est: dict[str, Any]) -> bool:
    """Whether the interval lies wholly on one side of 0."""
    lo, hi = est["ci"]
    return bool(np.isfinite(lo) and np.isfinite(hi) and (lo > 0 or hi < 0))


def scaled(est: dict[str, Any], factor: float) -> dict[str, Any]:
    """The same estimate in another unit (a factor, e.g. 100 for percentage points)."""
    lo, hi = est["ci"]
    a, b = sorted((lo * factor, hi * factor))
    return estimate(est["value"] * factor, a, b, est["n"])


def quantiles(x: np.ndarray) -> dict[str, float]:
    """The 10th, 50th and 90th percentiles and the largest value of per-game values."""
    x = np.asarray(x, dtype=np.float64)
    if x.size == 0:
        return {"p10": NAN, "median": NAN, "p90": NAN, "max": NAN}
    p10, p50, p90 = np.percentile(x, [10, 50, 90])
    return {"p10": float(p10), "median": float(p50), "p90": float(p90), "max": float(x.max())}
