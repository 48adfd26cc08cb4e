"""The paired statistics of a comparison: integer sums over deals per block, paired
differences with intervals and tests (z-test, or the exact sign-flip test when a difference
is the same on every deal), Holm correction, the Bradley–Terry ranking, and the summary and
its tables."""

from __future__ import annotations

import math
import warnings
from collections.abc import Sequence
from dataclasses import dataclass, field
from itertools import combinations
from typing import Any

import numpy as np
import pandas as pd

from simulator.analysis.compare_seatings import FIELD, Design
from simulator.analysis.verdicts import verdicts
from simulator.engine.stats import LEVEL, z_value
from simulator.games.base import Game, Metric, Table
from simulator.running.results import SCHEMA_VERSION, package_version
from strategies.registry import Player


@dataclass
class PairedSums:
    """Integer sums over deals of each candidate's per-deal total outcome ``T_c``."""

    k: int
    n: int = 0
    total: np.ndarray = field(default=None)  # type: ignore[assignment]
    cross: np.ndarray = field(default=None)  # type: ignore[assignment]
    better: np.ndarray = field(default=None)  # type: ignore[assignment]

    def __post_init__(self) -> None:
        self.total = np.zeros(self.k, dtype=np.int64)
        self.cross = np.zeros((self.k, self.k), dtype=np.int64)
        self.better = np.zeros((self.k, self.k), dtype=np.int64)

    def merge(self, other: PairedSums) -> None:
        """Add the sums of other deals (blocks merge in any order: integer sums)."""
        self.n += other.n
        self.total += other.total
        self.cross += other.cross
        self.better += other.better

    def add(self, t: np.ndarray, appearances: np.ndarray, lower_is_better: bool) -> None:
        """``t``: int64[deals, k] per-deal totals over each candidate's seatings."""
        self.n += t.shape[0]
        self.total += t.sum(axis=0)
        self.cross += t.T @ t
        # Candidate i did better than j on a deal: compare t_i / a_i with t_j / a_j exactly
        # (one candidate at a time, so a sweep of many candidates stays small in memory).
        for i in range(self.k):
            scaled = t[:, i : i + 1] * appearances[None, :]
            other = t * appearances[i]
            wins = scaled < other if lower_is_better else scaled > other
            self.better[i] += wins.sum(axis=0)


def _outcome_totals(
    game: Game, table: Table, unit: str, recs: list[np.ndarray], design: Design, k: int, metric: str
) -> tuple[np.ndarray, np.ndarray]:
    """Per deal and candidate: the sum of its outcomes over its seatings, and the valid mask."""
    n = recs[0].shape[0]
    t = np.zeros((n, k), dtype=np.int64)
    valid = np.ones(n, dtype=bool)
    for s, rec in enumerate(recs):
        outs, ok = game.outcomes(rec, unit, table.n_seats)
        valid &= ok
        vals = outs[metric]
        for seat, c in enumerate(design.seatings[s]):
            if c != FIELD:
                t[:, c] += vals[:, seat]
    return t, valid


def block_sums(
    g: Game,
    table: Table,
    unit: str,
    design: Design,
    k: int,
    metrics: Sequence[Metric],
    appearances: np.ndarray,
    keep_records: bool,
    first: int,
    recs: list[np.ndarray],
) -> tuple[dict[str, PairedSums], int, list[np.ndarray] | None]:
    """One block's paired sums per metric and dropped deals, from every seating's records
    (a pure function of the block: it runs wherever the block is played)."""
    valid = None
    per_metric = {}
    for m in metrics:
        t, ok = _outcome_totals(g, table, unit, recs, design, k, m.name)
        per_metric[m.name] = t
        valid = ok if valid is None else valid & ok
    assert valid is not None
    sums = {m.name: PairedSums(k) for m in metrics}
    for m in metrics:
        sums[m.name].add(per_metric[m.name][valid], appearances, m.lower_is_better)
    return sums, int((~valid).sum()), recs if keep_records else None


def _same_every_deal(s: PairedSums, a: np.ndarray, c: int, base: int) -> bool:
    """Whether candidate ``c`` minus the baseline was the same on every deal, decided exactly
    from the integer sums: with ``u = a_base·T_c − a_c·T_base`` per deal, the spread is 0
    exactly when ``n·Σu² = (Σu)²`` (Python integers: no rounding)."""
    ac, ab = int(a[c]), int(a[base])
    sum_u = ab * int(s.total[c]) - ac * int(s.total[base])
    sum_u2 = (
        ab * ab * int(s.cross[c, c])
        + ac * ac * int(s.cross[base, base])
        - 2 * ab * ac * int(s.cross[c, base])
    )
    return s.n * sum_u2 == sum_u * sum_u


def paired_test(
    diff: float, var_paired: float, n: int, same_every_deal: bool
) -> tuple[float | None, str | None]:
    """The two-sided p-value of a paired difference and the test that gave it.

    * fewer than 2 deals: no test (``None, None``): one deal says nothing about the spread;
    * the difference the same on every deal: the exact sign-flip (randomisation) test.  If
      the two strategies were interchangeable, each deal's difference would be as likely
      ``+d`` as ``−d``; of the ``2ⁿ`` sign patterns only the two constant ones reach the
      observed ``|mean|``, so ``p = 2·2⁻ⁿ`` (0.5 on 2 deals; 1 when ``d = 0``);
    * otherwise the normal (z) test on the mean of the per-deal differences.
    """
    from scipy import stats as sps

    if n < 2:
        return None, None
    if same_every_deal:
        return (1.0 if diff == 0 else math.ldexp(1.0, 1 - n)), "exact sign-flip"
    se_d = math.sqrt(var_paired / n)
    if se_d > 0:
        return float(2 * sps.norm.sf(abs(diff) / se_d)), "paired z-test"
    return (1.0 if diff == 0 else math.ldexp(1.0, 1 - n)), "exact sign-flip"


def _deal_covariance(s: PairedSums, a: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The means per deal ``m_c = T_c / a_c`` and their covariance (NaN below 2 deals)."""
    k, n = s.k, s.n
    if n < 1:
        return np.full(k, math.nan), np.full((k, k), math.nan)
    mean_t = s.total / n
    if n < 2:  # one deal: no spread to estimate
        return mean_t / a, np.full((k, k), math.nan)
    cov_t = (s.cross - n * np.outer(mean_t, mean_t)) / (n - 1)
    return mean_t / a, cov_t / np.outer(a, a)


def _interval(centre: float, var: float, n: int, z: float, scale: float) -> list[float]:
    """``centre ± z·√(var/n)``, scaled; NaN (JSON null) when it rests on fewer than 2 deals."""
    if n < 2 or not math.isfinite(var):
        return [math.nan, math.nan]
    se = math.sqrt(max(var, 0.0) / n)
    return [(centre - z * se) * scale, (centre + z * se) * scale]


def _difference_row(
    s: PairedSums,
    a: np.ndarray,
    means: np.ndarray,
    cov: np.ndarray,
    c: int,
    base: int,
    z: float,
    scale: float,
) -> dict[str, Any]:
    """Candidate ``c`` minus the baseline: the paired difference, its interval and test."""
    n = s.n
    diff = means[c] - means[base]
    same = n >= 2 and _same_every_deal(s, a, c, base)
    var_paired = 0.0 if same else max(cov[c, c] + cov[base, base] - 2 * cov[c, base], 0.0)
    var_unpaired = cov[c, c] + cov[base, base]
    p, test = paired_test(diff, var_paired, n, same)
    return {
        "diff": diff * scale,
        "diff_ci": _interval(diff, var_paired, n, z, scale),
        "p_value": p,
        "test": test,
        "same_every_deal": bool(same),
        "variance_reduction": (var_unpaired / var_paired) if n >= 2 and var_paired > 0 else None,
        "unpaired_diff_ci": _interval(diff, var_unpaired, n, z, scale),
    }


def holm(p_values: Sequence[float], alpha: float) -> tuple[np.ndarray, np.ndarray]:
    """Holm's step-down correction: which p-values are rejected at family-wise level
    ``alpha``, and the corrected p-values, in the order given.

    The same operations in the same order as statsmodels'
    ``multipletests(p_values, alpha, method="holm")`` (the same doubles; a test checks
    it), without the garbage collection that call makes every time, which cost a small
    comparison most of its run time.

    Parameters
    ----------
    p_values
        The uncorrected p-values.
    alpha
        The family-wise level (0.05 for the 95% level).

    Returns
    -------
    reject, corrected
        Boolean and float arrays, one entry per p-value.
    """
    p = np.asarray(p_values)
    order = np.argsort(p)
    p = np.take(p, order)
    n = len(p)
    not_reject = p > alpha / np.arange(n, 0, -1)
    nr_index = np.nonzero(not_reject)[0]
    first = len(p) if nr_index.size == 0 else np.min(nr_index)
    not_reject[first:] = True
    reject = ~not_reject
    corrected = np.maximum.accumulate(p * np.arange(n, 0, -1))
    corrected[corrected > 1] = 1
    out_p, out_reject = np.empty_like(corrected), np.empty_like(reject)
    out_p[order] = corrected
    out_reject[order] = reject
    return out_reject, out_p


def _holm(rows: list[dict[str, Any]], base: int) -> None:
    """Holm-correct the p-values of the tested differences in ``rows`` (in place); a
    difference that was not tested (fewer than 2 deals) gets ``p_holm`` None and is never
    significant."""
    tested = [c for c, r in enumerate(rows) if c != base and r.get("p_value") is not None]
    for c, r in enumerate(rows):
        if c != base:
            r["p_holm"], r["significant"] = None, False
    if not tested:
        return
    reject, p_holm = holm([rows[c]["p_value"] for c in tested], alpha=1 - LEVEL)
    for i, c in enumerate(tested):
        rows[c]["p_holm"] = float(p_holm[i])
        rows[c]["significant"] = bool(reject[i])


def _metric_block(
    m: Metric, s: PairedSums, appearances: np.ndarray, specs: list[str], base: int
) -> tuple[list[dict], dict]:
    """Per-candidate means and paired differences to the baseline for one metric.

    Below 2 deals every interval is NaN (``null`` in JSON) and no difference is tested."""
    z = z_value()
    a = appearances.astype(np.float64)
    means, cov = _deal_covariance(s, a)
    rows = []
    for c in range(s.k):
        row: dict[str, Any] = {
            "player": specs[c],
            m.name: means[c] * m.scale,
            f"{m.name}_ci": _interval(means[c], cov[c, c], s.n, z, m.scale),
        }
        if c != base:
            row.update(_difference_row(s, appearances, means, cov, c, base, z, m.scale))
        rows.append(row)
    _holm(rows, base)
    info = {"name": m.name, "doc": m.doc, "lower_is_better": m.lower_is_better, "kind": m.kind}
    return rows, info


def bradley_terry(better: np.ndarray, specs: list[str], base: int) -> list[dict] | None:
    """Log-strengths from head-to-head deal wins (statsmodels GLM, logit link); baseline = 0."""
    import statsmodels.api as sm

    k = len(specs)
    if k < 3:
        return None
    rows, y, w = [], [], []
    for i, j in combinations(range(k), 2):
        wins_i, wins_j = int(better[i, j]), int(better[j, i])
        if wins_i + wins_j == 0:
            continue
        x = np.zeros(k)
        x[i], x[j] = 1.0, -1.0
        rows.append(np.delete(x, base))
        y.append([wins_i, wins_j])
        w.append(1)
    if not rows:
        return None
    try:
        with warnings.catch_warnings():
            # Small runs can separate perfectly; the intervals then say how little is known.
            warnings.simplefilter("ignore")
            model = sm.GLM(np.array(y), np.array(rows), family=sm.families.Binomial())
            fit = model.fit()
    except Exception:  # separation or a singular design: no ranking rather than a wrong one
        return None
    params = np.insert(np.asarray(fit.params), base, 0.0)
    ci = np.asarray(fit.conf_int(alpha=1 - LEVEL))
    if not (np.all(np.isfinite(params)) and np.all(np.isfinite(ci))):
        return None
    ci = np.insert(ci, base, [0.0, 0.0], axis=0)
    order = np.argsort(-params)
    return [
        {
            "rank": int(r + 1),
            "player": specs[c],
            "strength": float(params[c]),
            "strength_ci": [float(ci[c, 0]), float(ci[c, 1])],
        }
        for r, c in enumerate(order)
    ]


def summarise(
    g: Game,
    table: Table,
    unit: str,
    n: int,
    seed: int,
    cands: list[Player],
    field_player: Player | None,
    base: int,
    design: Design,
    metrics: Sequence[Metric],
    sums: dict[str, PairedSums],
    appearances: np.ndarray,
    names: Sequence[str] | None = None,
) -> dict[str, Any]:
    """The JSON summary; ``names`` label the candidates (default: their specs)."""
    specs = list(names) if names is not None else [p.spec for p in cands]
    per_metric = {}
    for m in metrics:
        rows, info = _metric_block(m, sums[m.name], appearances, specs, base)
        per_metric[m.name] = {**info, "strategies": rows}
    primary = metrics[0]
    better = sums[primary.name].better
    summary = {
        "schema_version": SCHEMA_VERSION,
        "kind": "compare",
        "game": g.name,
        "unit": unit,
        "n": n,
        "deals_used": sums[primary.name].n,
        "seed": seed,
        "players": table.n_seats,
        "rules": table.rules_dict(),
        "strategies": specs,
        "field": field_player.spec if field_player else None,
        "baseline": specs[base],
        "design": design.description,
        "seatings": design.seatings.tolist(),
        "games_played": int(n * len(design.seatings)),
        "metrics": per_metric,
        "head_to_head": {
            "metric": primary.name,
            "better": better.tolist(),
        },
        "ranking": bradley_terry(better, specs, base),
        "kortsim": package_version(),
    }
    # each candidate against the baseline in one sentence (simulator.analysis.verdicts)
    summary["verdicts"] = verdicts(summary)
    return summary


def _flat(row: dict[str, Any]) -> dict[str, Any]:
    """A JSON row with its ``<name>_ci`` pairs as ``<name>_lo`` / ``<name>_hi`` columns."""
    flat: dict[str, Any] = {}
    for key, v in row.items():
        if key.endswith("_ci"):
            flat[key[:-3] + "_lo"], flat[key[:-3] + "_hi"] = v
        else:
            flat[key] = v
    return flat


def frames_of(summary: dict[str, Any]) -> dict[str, pd.DataFrame]:
    """One DataFrame per metric (one row per candidate) and ``ranking`` (Bradley–Terry,
    with more than two candidates); intervals as ``_lo``/``_hi`` columns in all of them."""
    out = {}
    for name, block in summary["metrics"].items():
        out[name] = pd.DataFrame([_flat(r) for r in block["strategies"]])
    if summary.get("ranking"):
        out["ranking"] = pd.DataFrame([_flat(r) for r in summary["ranking"]])
    return out
