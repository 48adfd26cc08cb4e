"""Intervals: known values and coverage."""

import math

import numpy as np

from simulator.engine.stats import hist_mean_ci, mean_ci, rate_ci


def test_wilson_interval_known_value():
    # Wilson 95% interval for 50/100: [0.4038, 0.5962].
    rate, (lo, hi) = rate_ci(50, 100)
    assert rate == 0.5
    assert abs(lo - 0.40383) < 1e-4 and abs(hi - 0.59617) < 1e-4


def test_rate_interval_at_zero_is_not_degenerate():
    _, (lo, hi) = rate_ci(0, 1000)
    assert lo == 0.0 and 0 < hi < 0.01


def test_mean_interval_from_sums_matches_numpy():
    x = np.random.default_rng(1).normal(3.0, 2.0, 10_000)
    mean, (lo, hi) = mean_ci(x.sum(), (x**2).sum(), x.size)
    se = x.std(ddof=1) / math.sqrt(x.size)
    assert abs(mean - x.mean()) < 1e-12
    assert abs((hi - lo) / 2 - 1.959964 * se) < 1e-9


def test_histogram_mean():
    hist = np.array([0, 2, 0, 2])  # values 1, 1, 3, 3
    mean, _ = hist_mean_ci(hist)
    assert mean == 2.0


def test_mean_interval_covers_the_truth_about_95_percent():
    rng = np.random.default_rng(5)
    hits = 0
    for _ in range(400):
        x = rng.exponential(1.0, 200)
        _, (lo, hi) = mean_ci(x.sum(), (x**2).sum(), x.size)
        hits += lo <= 1.0 <= hi
    assert 0.90 <= hits / 400 <= 0.98


def test_counts_of_rare_events_have_the_exact_poisson_interval_never_below_0():
    from simulator.engine.stats import count_ci

    # Garwood's interval for 2 events: [0.2422, 7.2247]; for none: [0, -ln(0.025)] = [0, 3.6889]
    value, (lo, hi) = count_ci(2, 10_000)
    assert value == 2e-4
    assert abs(lo * 10_000 - 0.24220928) < 1e-6 and abs(hi * 10_000 - 7.22468767) < 1e-6
    value, (lo, hi) = count_ci(0, 10_000)
    assert value == 0 and lo == 0 and abs(hi * 10_000 - 3.68887945) < 1e-6
