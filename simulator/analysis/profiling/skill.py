"""How much skill matters: paired differences between strategies, and the share of the
outcome's variance the strategies explain.

**The design.**  A *ladder* of strategies (``random``, the canonical baseline, the best
shipped one) takes one seat in turn against a field of the baseline in every other seat,
on the same deals (the same game indices of one seed: the same shuffles, reaction times
and per-seat random streams, docs/random-streams.md).  A strategy's outcome on deal ``i``
is its primary outcome (Spøkelse: its score; Gris: whether it got the letter; ...) averaged
over the seats it sat in.  That gives a table ``y[i, k]``: deals by strategies.

**The shares.**  ``y`` is split as in a two-way analysis of variance without replication::

    SS_total = SS_strategy + SS_deal + SS_rest

``SS_strategy`` is the spread of the strategies' means, ``SS_deal`` the spread of the
deals' means (the cards, the reaction times and the random streams of that deal, which
every strategy meets alike), and ``SS_rest`` how differently the same deal turns out for
different strategies beyond their average difference (deal × strategy).  Each share is
estimated without the bias of the raw ratio (omega squared):
``share_strategy = (SS_strategy − (K−1)·MS_rest) / (SS_total + MS_rest)``, likewise for the
deal with ``N−1``, and the rest is what is left.  So two strategies that play alike have a
strategy share of 0 within its interval (exactly 0 when they are the same strategy: on
common deals their outcomes are the same), and the share grows as the ladder's strategies
differ in strength.  The 95% intervals are percentile bootstrap intervals over deals
(``BOOTSTRAP`` resamples of the deals, drawn from a generator seeded by the run's seed).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

import numpy as np

from simulator.analysis.profiling.intervals import NAN, estimate, mean_of
from simulator.analysis.profiling.measures import Records, metric_unit
from simulator.games.base import Game

BOOTSTRAP = 300
PARTS = ("strategy", "deal", "rest")


def _shares(y: np.ndarray) -> np.ndarray:
    """The three shares (strategy, deal, rest) of a deals × strategies table."""
    n, k = y.shape
    grand = y.mean()
    ss_total = float(((y - grand) ** 2).sum())
    if ss_total <= 0 or n < 2 or k < 2:
        return np.array([0.0, 0.0, 0.0]) if ss_total <= 0 else np.full(3, NAN)
    ss_s = n * float(((y.mean(axis=0) - grand) ** 2).sum())
    ss_d = k * float(((y.mean(axis=1) - grand) ** 2).sum())
    ms_e = max(ss_total - ss_s - ss_d, 0.0) / ((n - 1) * (k - 1))
    s = (ss_s - (k - 1) * ms_e) / (ss_total + ms_e)
    d = (ss_d - (n - 1) * ms_e) / (ss_total + ms_e)
    return np.array([s, d, 1.0 - s - d])


def variance_shares(
    y: np.ndarray, seed: int = 0, boot: int = BOOTSTRAP, other: np.ndarray | None = None
) -> dict[str, Any]:
    """The strategy, deal and rest shares of ``y`` (deals × strategies), with bootstrap
    intervals; with ``other`` (the same deals under another variant), also the paired
    difference ``y − other`` of each share, resampling the same deals for both.

    Parameters
    ----------
    y : float array [deals, strategies]
    seed : int
        Seeds the bootstrap's generator (numpy's default generator, never global state).
    boot : int
        Bootstrap resamples.
    other : float array [deals, strategies], optional

    Returns
    -------
    dict
        ``{part: {"value", "ci", "n"}}`` for ``strategy``, ``deal`` and ``rest`` (and
        ``"difference"``: the same for ``y − other`` when ``other`` is given).
    """
    y = np.asarray(y, dtype=np.float64)
    n = y.shape[0]
    point = _shares(y)
    base = _shares(other) if other is not None else None
    rng = np.random.default_rng(np.random.SeedSequence([int(seed) & (2**63 - 1), 0x5EED]))
    draws, diffs = np.empty((boot, 3)), np.empty((boot, 3))
    for b in range(boot):
        idx = rng.integers(0, n, n)
        draws[b] = _shares(y[idx])
        if other is not None:
            diffs[b] = draws[b] - _shares(other[idx])
    # A share of variance is at least 0: the estimator can dip below (a share of nothing plus
    # sampling noise); such a share is reported as 0 with its interval clipped there.
    out: dict[str, Any] = {p: _clipped(_interval(point[i], draws[:, i], n)) for i, p in enumerate(PARTS)}
    if base is not None:
        out["difference"] = {p: _interval(point[i] - base[i], diffs[:, i], n) for i, p in enumerate(PARTS)}
    return out


def _clipped(est: dict[str, Any]) -> dict[str, Any]:
    lo, hi = est["ci"]
    return {**est, "value": max(est["value"], 0.0), "ci": [max(lo, 0.0), max(hi, 0.0)]}


def _interval(value: float, draws: np.ndarray, n: int) -> dict[str, Any]:
    ok = draws[np.isfinite(draws)]
    if ok.size < 2:
        return estimate(value, NAN, NAN, n)
    lo, hi = np.percentile(ok, [2.5, 97.5])
    return estimate(value, min(lo, value), max(hi, value), n)


def ladder_table(
    play: Callable[[tuple[str, ...]], Records],
    ladder: Sequence[str],
    field: str,
    n_seats: int,
    extra: Mapping[str, Callable[[Records, int], np.ndarray]] | None = None,
) -> tuple[dict[str, np.ndarray], np.ndarray]:
    """Each ladder strategy in every seat in turn against ``field`` everywhere else.

    ``play(specs)`` plays one seating (a spec per seat) on the profile's deals and returns
    its records.  Returns ``{metric: float64[deals, strategies]}`` (the strategy's outcome
    averaged over its seats) and the bool mask of the deals counted in every seating.
    ``extra`` names more per-seat values read from the records (``value(records, seat)``),
    averaged over the seats alike."""
    runs: dict[tuple[str, ...], Records] = {}
    tables: dict[str, list[np.ndarray]] = {}
    counted: np.ndarray | None = None
    for spec in ladder:
        per_metric: dict[str, list[np.ndarray]] = {}
        for seat in range(n_seats):
            specs = tuple(spec if s == seat else field for s in range(n_seats))
            rec = runs[specs] if specs in runs else runs.setdefault(specs, play(specs))
            counted = rec.counted if counted is None else counted & rec.counted
            for m in rec.game.metrics(rec.unit):
                per_metric.setdefault(m.name, []).append(rec.outcome(m, seat))
            for name, value in (extra or {}).items():
                per_metric.setdefault(name, []).append(np.asarray(value(rec, seat), dtype=np.float64))
        for name, cols in per_metric.items():
            tables.setdefault(name, []).append(np.mean(cols, axis=0))
    assert counted is not None
    return {name: np.stack(cols, axis=1) for name, cols in tables.items()}, counted


def skill(
    g: Game,
    unit: str,
    y: dict[str, np.ndarray],
    counted: np.ndarray,
    ladder: Sequence[str],
    seed: int,
) -> tuple[dict[str, Any], dict[str, np.ndarray]]:
    """The skill figures: for every metric, the paired difference of the best (last) ladder
    strategy to each other one; for the primary metric, the variance shares of the whole
    ladder and of each strategy with ``random`` (the first).  Also the per-deal tables kept
    for comparing variants."""
    metrics = g.metrics(unit)
    best = len(ladder) - 1
    diffs = []
    for m in metrics:
        factor = 100.0 if m.kind == "rate" else 1.0
        t = y[m.name][counted]
        for k in range(best):
            d = mean_of(factor * (t[:, best] - t[:, k]))
            diffs.append(
                {
                    "metric": m.name,
                    "unit": metric_unit(g, unit, m),
                    "better": "lower" if m.lower_is_better else "higher",
                    "strategy": ladder[best],
                    "against": ladder[k],
                    "difference": d,
                }
            )
    means = []
    for m in metrics:
        factor = 100.0 if m.kind == "rate" else 1.0
        t = y[m.name][counted]
        for k, spec in enumerate(ladder):
            means.append({"metric": m.name, "strategy": spec, **_scaled_mean(t[:, k], factor)})
    t0 = y[metrics[0].name][counted]
    shares = {"ladder": list(ladder), "metric": metrics[0].name, **variance_shares(t0, seed)}
    pairs = [
        {"strategies": [ladder[0], ladder[k]], **variance_shares(t0[:, [0, k]], seed)}
        for k in range(1, len(ladder))
    ]
    if len(ladder) > 2:  # the baseline against the best: how much skill matters beyond the basics
        pairs.append({"strategies": [ladder[-2], ladder[-1]], **variance_shares(t0[:, [-2, -1]], seed)})
    figures = {"ladder": list(ladder), "differences": diffs, "means": means, "shares": shares, "pairs": pairs}
    return figures, {"primary": t0}


def _scaled_mean(x: np.ndarray, factor: float) -> dict[str, Any]:
    est = mean_of(factor * x)
    return {**est, "percent": factor != 1.0}
