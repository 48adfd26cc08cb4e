"""A/A comparisons reject at the nominal rate: a randomised strategy compared with itself.

Each copy of a strategy given more than once draws its decisions from a stream of its own
(docs/random-streams.md, the copy salt), so two copies of ``random``, or of a strategy that
slips, differ by chance only.  Over many seeds the share of such comparisons whose
Holm-corrected test rejects at 5% must then be 5%, up to chance: it is checked against an
exact (Clopper-Pearson) 99.9% interval.  A pair with a real difference, tested the same
way, must be rejected far more often, so the check can fail.
"""

import pytest
from scipy.stats import binomtest

import simulator
from simulator.engine.stats import LEVEL

SEEDS = 1000  # comparisons per game
DEALS = 400  # deals per comparison
NOMINAL = 1 - LEVEL  # 0.05
CASES = {
    # game: (keyword arguments, strategy, the primary metric)
    "spokelse": ({}, "random", "score"),
    "gris": ({"players": 4}, "greedy:slip=0.2", "letter"),
    "gris-nese": ({"players": 5}, "random", "eliminated"),
}


def rejections(game: str, specs: list[str], kw: dict, metric: str, seeds: int) -> int:
    """How many of ``seeds`` comparisons reject: the candidate differs from the baseline."""
    hits = 0
    for seed in range(seeds):
        res = simulator.compare(game, specs, rounds=DEALS, seed=seed, **kw)
        row = res.summary["metrics"][metric]["strategies"][1]
        hits += bool(row["significant"])
    return hits


def interval(hits: int, n: int) -> tuple[float, float]:
    """The exact 99.9% interval of a rejection rate from ``hits`` of ``n``."""
    ci = binomtest(hits, n).proportion_ci(confidence_level=0.999, method="exact")
    return ci.low, ci.high


@pytest.mark.slow
@pytest.mark.parametrize("game", sorted(CASES))
def test_a_strategy_against_itself_is_rejected_at_the_nominal_rate(game):
    kw, spec, metric = CASES[game]
    hits = rejections(game, [spec, spec], kw, metric, SEEDS)
    low, high = interval(hits, SEEDS)
    assert low <= NOMINAL <= high, f"{game}: {hits} of {SEEDS} A/A comparisons rejected"


def test_a_real_difference_is_rejected_far_more_often():
    kw, spec, metric = CASES["spokelse"]
    seeds = 40
    hits = rejections("spokelse", [spec, "threshold:k=4"], kw, metric, seeds)
    _, high = interval(round(NOMINAL * seeds), seeds)  # where a calibrated test would land
    assert hits / seeds > high
