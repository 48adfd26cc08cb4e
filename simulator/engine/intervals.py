"""The normal quantile and the Wilson interval exactly as scipy and statsmodels compute them,
without importing either at the 95% level every run uses.

Importing ``statsmodels.stats.proportion`` loads statsmodels, scipy and pandas: about a second
of a run's start on a quiet machine, for two lines of arithmetic and one quantile.  Here the
arithmetic is statsmodels' own (``proportion_confint(..., method="wilson")``, the same numpy
float64 operations in the same order) and the quantile is scipy's value at the 95% level,
kept as the float scipy gives (``tests/engine/test_intervals.py`` checks both bit for bit).  Any other
level, or another method, is handed to scipy or statsmodels themselves.

Used as :mod:`simulator.engine.stats` uses them::

    from simulator.engine import intervals as sps          # sps.norm.ppf(0.975)
    from simulator.engine.intervals import proportion_confint
"""

from __future__ import annotations

from typing import Any

import numpy as np

#: scipy.stats.norm.ppf(p) for the probabilities of a two-sided 95% interval, as scipy gives
#: them: ``0.5 + 0.95 / 2`` (stats.z_value) and ``1 - (1 - 0.95) / 2.0`` (its complement).
_PPF = {0.5 + 0.95 / 2: 1.959963984540054}
#: scipy.stats.norm.isf(q) for ``(1 - 0.95) / 2.0``, the tail statsmodels asks for at alpha 0.05.
_ISF = {(1 - 0.95) / 2.0: 1.959963984540054}


class _Norm:
    """``ppf`` and ``isf`` of the standard normal distribution (``scipy.stats.norm``'s)."""

    def ppf(self, p: float) -> np.float64:
        known = _PPF.get(float(p))
        if known is not None:
            return np.float64(known)
        from scipy import stats

        return stats.norm.ppf(p)

    def isf(self, q: float) -> np.float64:
        known = _ISF.get(float(q))
        if known is not None:
            return np.float64(known)
        from scipy import stats

        return stats.norm.isf(q)


norm = _Norm()


def proportion_confint(count: int, nobs: int, alpha: float = 0.05, method: str = "normal") -> Any:
    """``statsmodels.stats.proportion.proportion_confint`` for scalar counts, two-sided.

    The Wilson interval is computed here, as statsmodels computes it; any other method is
    statsmodels' own."""
    if method != "wilson" or not (np.isscalar(count) and np.isscalar(nobs)):
        from statsmodels.stats.proportion import proportion_confint as confint

        return confint(count, nobs, alpha=alpha, method=method)
    count_a = np.asarray(count, dtype=np.float64)  # statsmodels' array_like gives float64
    nobs_a = np.asarray(nobs, dtype=np.float64)
    q_ = count_a / nobs_a
    alpha = alpha / 2.0
    crit = norm.isf(alpha)
    crit2 = crit**2
    denom = 1 + crit2 / nobs_a
    center = (q_ + crit2 / (2 * nobs_a)) / denom
    dist = crit * np.sqrt(q_ * (1.0 - q_) / nobs_a + crit2 / (4.0 * nobs_a**2))
    dist /= denom
    ci_low = np.clip(center - dist, 0, 1)
    ci_upp = np.clip(center + dist, 0, 1)
    return float(ci_low), float(ci_upp)


__all__ = ["norm", "proportion_confint"]
