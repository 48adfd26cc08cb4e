"""The Wilson interval and the normal quantile computed without statsmodels and scipy are
theirs, bit for bit."""

import random

import pytest
import scipy.stats
from statsmodels.stats.proportion import proportion_confint as statsmodels_confint

from simulator.engine import intervals, stats


def _pairs():
    rng = random.Random(5)
    fixed = [(0, 1), (1, 1), (0, 7), (7, 7), (3, 10), (1, 2), (500, 1000), (1, 10**12), (10**12 - 1, 10**12)]
    drawn = []
    for _ in range(2000):
        n = rng.choice([rng.randrange(1, 100), rng.randrange(1, 10**6), rng.randrange(1, 10**13)])
        drawn.append((rng.randrange(0, n + 1), n))
    return fixed + drawn


def test_the_wilson_interval_is_statsmodels_bit_for_bit():
    for k, n in _pairs():
        ours = intervals.proportion_confint(k, n, alpha=1 - 0.95, method="wilson")
        theirs = statsmodels_confint(k, n, alpha=1 - 0.95, method="wilson")
        assert ours == theirs, (k, n)
        assert all(type(x) is float for x in ours)


@pytest.mark.parametrize("level", [0.9, 0.99])
def test_another_level_is_statsmodels_own(level):
    for k, n in _pairs()[:50]:
        got = intervals.proportion_confint(k, n, alpha=1 - level, method="wilson")
        assert got == statsmodels_confint(k, n, alpha=1 - level, method="wilson")


def test_the_normal_quantiles_are_scipys():
    for level in (0.95, 0.9, 0.99, 0.5):
        assert intervals.norm.ppf(0.5 + level / 2) == scipy.stats.norm.ppf(0.5 + level / 2)
        assert intervals.norm.isf((1 - level) / 2.0) == scipy.stats.norm.isf((1 - level) / 2.0)
    assert stats.z_value() == float(scipy.stats.norm.ppf(0.975))


def test_rate_ci_is_what_it_was():
    for k, n in _pairs()[:300]:
        lo, hi = statsmodels_confint(int(k), int(n), alpha=1 - 0.95, method="wilson")
        want = [0.0 if k == 0 else float(lo), 1.0 if k == n else float(hi)]
        assert stats.rate_ci(k, n) == (k / n, want)
