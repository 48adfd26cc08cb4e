"""Intervals for rates and means, from the integer aggregates the kernels return.

* Rates: Wilson score interval (``statsmodels`` ``proportion_confint``,
  method ``"wilson"``), good near 0 and 1 where the normal one is not.
* Means: the normal (central-limit) interval ``mean ± z·sd/√n`` from the sum
  and the sum of squares; the sample sizes here are thousands to billions.
* Counts of rare events per game: the exact Poisson (Garwood) interval of the total,
  never below 0, where a normal one on a handful of events would dip below it.

Every interval is 95% unless ``level`` says otherwise.
"""

from __future__ import annotations

import math

import numpy as np

LEVEL = 0.95


def z_value(level: float = LEVEL) -> float:
    from simulator.engine import intervals as sps  # scipy.stats.norm, without scipy at 95%

    return float(sps.norm.ppf(0.5 + level / 2))


def rate_ci(k: int, n: int, level: float = LEVEL) -> tuple[float, list[float]]:
    """``k`` successes in ``n`` trials: the rate and its Wilson interval."""
    if n <= 0:
        return float("nan"), [float("nan"), float("nan")]
    from simulator.engine.intervals import proportion_confint  # statsmodels' Wilson, without it

    lo, hi = proportion_confint(int(k), int(n), alpha=1 - level, method="wilson")
    # The Wilson bounds are exactly 0 and 1 at k = 0 and k = n; clear rounding dust.
    lo = 0.0 if k == 0 else float(lo)
    hi = 1.0 if k == n else float(hi)
    return k / n, [lo, hi]


def count_ci(k: int, n: int, level: float = LEVEL) -> tuple[float, list[float]]:
    """``k`` events in ``n`` games: the events per game and the exact Poisson (Garwood)
    interval of the total, divided by ``n`` (0 at the bottom when ``k`` is 0)."""
    if n <= 0:
        return float("nan"), [float("nan"), float("nan")]
    from scipy import stats as sps

    alpha = 1 - level
    lo = 0.0 if k == 0 else float(sps.chi2.ppf(alpha / 2, 2 * k)) / 2
    hi = float(sps.chi2.ppf(1 - alpha / 2, 2 * k + 2)) / 2
    return k / n, [lo / n, hi / n]


def mean_sd(total: float, total_sq: float, n: int) -> tuple[float, float]:
    """Mean and sample standard deviation from a sum and a sum of squares."""
    if n <= 0:
        return float("nan"), float("nan")
    mean = total / n
    if n < 2:
        return mean, float("nan")
    var = max(total_sq - n * mean * mean, 0.0) / (n - 1)
    return mean, math.sqrt(var)


def mean_ci(total: float, total_sq: float, n: int, level: float = LEVEL, scale: float = 1.0):
    """The mean of ``n`` values from their sum and sum of squares, with its normal interval.

    ``scale`` multiplies the result (e.g. 0.5 to turn half points into points)."""
    mean, sd = mean_sd(total, total_sq, n)
    if n < 2 or not math.isfinite(sd):
        return mean * scale, [float("nan"), float("nan")]
    half = z_value(level) * sd / math.sqrt(n)
    return mean * scale, [(mean - half) * scale, (mean + half) * scale]


def hist_mean_ci(hist: np.ndarray, level: float = LEVEL, scale: float = 1.0):
    """Mean of a histogram's values (bin index = value), with its normal interval."""
    x = np.arange(hist.shape[0], dtype=np.float64)
    n = int(hist.sum())
    return mean_ci(float((hist * x).sum()), float((hist * x * x).sum()), n, level, scale)
