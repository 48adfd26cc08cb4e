"""What a tune returns: the JSON summary, the trials table and the plot of the search."""

from __future__ import annotations

import io
import math
import platform
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
import optuna
import pandas as pd
from matplotlib.ticker import MaxNLocator
from optuna.trial import TrialState

from simulator.analysis.tuning.confirm import metric_unit
from simulator.analysis.tuning.evaluate import RUNG_STEPS, Sums
from simulator.analysis.tuning.search import REDUCTION
from simulator.engine import formatting
from simulator.engine.files import atomic_write
from simulator.engine.summary import with_interval
from simulator.running.results import SCHEMA_VERSION, dumps_json, plain
from simulator.running.results import provenance as make_provenance
from strategies.registry import parse_spec

if TYPE_CHECKING:
    from matplotlib.axes import Axes

    from simulator.analysis.tuning.plan import TunePlan
    from simulator.analysis.tuning.search import Search


def trials_frame(searches: list[Search]) -> pd.DataFrame:
    """One row per finished trial of every iteration: its parameters, the point it plays
    as, how far it got, the deals it played (0: all from the cache) and its figures."""
    rows = []
    for search in searches:
        ev, dims = search.evaluator, search.space.dims
        for t in search.finished:
            last = Sums.of_json(t.user_attrs["rungs"][-1])
            fig = ev.figures(last)
            row: dict[str, Any] = {"iteration": search.iteration, "trial": t.number}
            row.update({d.name: float(t.params.get(d.name, math.nan)) for d in dims})
            row.update(
                {
                    "spec": t.user_attrs["spec"],
                    "plays_as": t.user_attrs["plays_as"],
                    "state": "pruned" if t.state == TrialState.PRUNED else "complete",
                    "rung": len(t.user_attrs["rungs"]),
                    "deals": last.deals,
                    "deals_played": int(t.user_attrs["deals_played"]),
                    "cached": int(t.user_attrs["deals_played"]) == 0,
                    "repeat": bool(t.user_attrs.get("repeat", False)),
                    **with_interval(fig, "value"),
                    **with_interval(fig, "diff"),
                }
            )
            rows.append(row)
    return pd.DataFrame(rows)


def _budget(searches: list[Search], table: pd.DataFrame, search_s: float, wall_s: float) -> dict[str, Any]:
    spent = [s.evaluator.budget for s in searches]
    seatings = searches[0].evaluator.seatings
    in_all = sum(s.evaluator.setup.n for s in searches) + int(table["deals_played"].sum())
    counted = table[~table["repeat"]]
    return {
        "deals_played_in_all": in_all,
        "games_played_in_all": in_all * seatings,
        "trials": len(counted),
        "trials_complete": int((counted["state"] == "complete").sum()),
        "trials_pruned": int((counted["state"] == "pruned").sum()),
        "trials_repeated": int(table["repeat"].sum()),
        "trials_from_cache": int(table["cached"].sum()),
        "points_played": int(table.drop_duplicates(["iteration", "plays_as"]).shape[0]),
        "deals_played": sum(b.deals for b in spent),
        "games_played": sum(b.games for b in spent),
        "play_s": sum(b.play_s for b in spent),
        "search_s": search_s,
        "wall_s": wall_s,
    }


def _best_rows(plan: TunePlan, searches: list[Search], table: pd.DataFrame) -> list[dict[str, Any]]:
    out = []
    for s in searches:
        t = table[(table["iteration"] == s.iteration) & (table["state"] == "complete")]
        t = t.sort_values(["diff", "trial"], ascending=[plan.metric.lower_is_better, True], kind="stable")
        r = t.iloc[0]
        out.append(
            {
                "iteration": s.iteration,
                "trial": int(r["trial"]),
                "spec": r["plays_as"],
                "search_diff": r["diff"],
                "search_diff_ci": [r["diff_lo"], r["diff_hi"]],
                "search_value": r["value"],
                "search_value_ci": [r["value_lo"], r["value_hi"]],
                "coverage": coverage(s, table[table["iteration"] == s.iteration]),
            }
        )
    return out


def coverage(search: Search, trials: pd.DataFrame) -> dict[str, Any]:
    """How much of the space one iteration tried: the distinct points (ways of playing) its
    trials played, of how many the space has (None: a parameter takes any real value), and
    the words its best may be said in."""
    tried = int(trials["plays_as"].nunique())
    size = None if search.grid is None else len(search.grid)
    covered = size is not None and search.covered()
    what = "values" if len(search.space.dims) == 1 else "points"
    if covered:
        words = f"the best of all {size} distinct {what}, each played on all the search's deals"
    elif size is not None:
        words = f"the best of the {tried} {what} tried (of {size})"
    else:
        words = f"the best of the {tried} {what} tried (the range is continuous)"
    return {
        "points": size,
        "tried": tried,
        "covered": covered,
        "enumerated": search.enumerating,
        "stopped": search.stopped,
        "words": words,
    }


def build_summary(
    plan: TunePlan,
    searches: list[Search],
    iterations: list[dict[str, Any]],
    settled: dict[str, Any] | None,
    conf: dict[str, Any],
    table: pd.DataFrame,
    search_s: float,
    wall_s: float,
) -> dict[str, Any]:
    """The JSON summary of a tune, provenance included."""
    s, m = plan.search, plan.metric
    best = _best_rows(plan, searches, table)
    for it, b in zip(iterations, best):
        it.update(b)
    tuned = iterations[-1]["winner"]
    summary = {
        "schema_version": SCHEMA_VERSION,
        "kind": "tune",
        "game": s.game.name,
        "unit": s.unit,
        "players": s.table.n_seats,
        "rules": s.table.rules_dict(),
        "spec": plan.space.text,
        "space": [
            {"name": d.name, "low": d.low, "high": d.high, "step": d.step, "note": d.note}
            for d in plan.space.dims
        ],
        "fixed": plan.space.fixed,
        "notes": plan.space.notes(),
        "start": plan.start.spec,
        "vs": plan.field.spec,
        "metric": {"name": m.name, "doc": m.doc, "lower_is_better": m.lower_is_better, "kind": m.kind},
        "estimate": f"paired difference to the starting parameters on the search's deals, {metric_unit(m, s.unit)}",
        "n": s.n,
        "rungs": [int(d) for d in searches[0].evaluator.rungs],
        "seed": plan.seed,
        "search_seed": s.seed,
        "confirm_seed": plan.confirm.seed,
        "optimiser": {
            "optuna": optuna.__version__,
            "sampler": "TPESampler(multivariate=True, n_startup_trials=8), seeded before every trial",
            "pruner": f"SuccessiveHalvingPruner(reduction_factor={REDUCTION}) at steps {list(RUNG_STEPS)} (sixteenths of n)",
            "trials_asked": plan.trials,
        },
        "iterations": iterations,
        "settled": settled,
        "tuned": tuned,
        "confirmation": conf,
        "budget": _budget(searches, table, search_s, wall_s),
    }
    players = list({p.spec: p for p in (plan.start, plan.field, parse_spec(tuned, s.game.name))}.values())
    extra = {"kind": "tune", "plugins": list(s.plugins), "machine": platform.machine()}
    summary["provenance"] = make_provenance(plan.seed, s.table.rules_dict(), players, extra)
    return plain(summary)


class TuneResult:
    """A finished tune: ``summary`` (JSON-ready), ``trials`` (one row per trial) and
    :meth:`plot` (each trial's estimate with its interval, and the best so far)."""

    def __init__(self, summary: dict[str, Any], trials: pd.DataFrame) -> None:
        self.summary = summary
        self.trials = trials

    @property
    def tuned(self) -> str:
        """The tuned strategy's spec (the last iteration's winner)."""
        return self.summary["tuned"]

    def to_json(self, indent: int | None = 2) -> str:
        return dumps_json(self.summary, indent=indent)

    def sentences(self) -> list[str]:
        c = self.summary["confirmation"]
        return [c["vs_start"]["sentence"], c["vs_field"]["sentence"]]

    def __repr__(self) -> str:
        s, b = self.summary, self.summary["budget"]
        lines = [
            f"<kortsim TuneResult> {s['game']}: {s['spec']} against {s['vs']}, {s['metric']['name']}, "
            f"{s['n']:,} deals per trial, seed {s['seed']}",
            f"tuned: {s['tuned']} (started at {s['start']}; {s['iterations'][-1]['coverage']['words']})",
            f"{b['trials']} trials ({b['trials_pruned']} pruned, {b['trials_repeated']} repeats not counted), "
            f"{b['deals_played']:,} deals played in the search",
        ]
        lines += self.sentences()
        return "\n".join(lines)

    def plot(self, iteration: int | None = None, ax: Axes | None = None) -> Axes:
        """Each trial's paired difference to the starting parameters with its 95% interval
        against the trial number (hollow: pruned, on the deals it reached), and the best
        complete trial so far."""
        return plot_trials(self.summary, self.trials, iteration, ax)


def plot_trials(
    summary: dict[str, Any], trials: pd.DataFrame, iteration: int | None, ax: Axes | None
) -> Axes:
    import matplotlib.pyplot as plt

    from simulator.reporting.plots import balanced_wrap, style

    m = summary["metric"]
    it = iteration if iteration is not None else int(trials["iteration"].max())
    t = trials[trials["iteration"] == it].sort_values("trial")
    k = 100.0 if m["kind"] == "rate" else 1.0
    with style():
        if ax is None:
            _, ax = plt.subplots(figsize=(8, 4.5))
        for state, face in (("complete", "C0"), ("pruned", "none")):
            r = t[t["state"] == state]
            x, y = np.arange(len(t))[t["state"].to_numpy() == state], r["diff"].to_numpy() * k
            err = np.vstack([y - r["diff_lo"].to_numpy() * k, r["diff_hi"].to_numpy() * k - y])
            ax.errorbar(x, y, yerr=np.nan_to_num(err), fmt="o", mfc=face, mec="C0", ecolor="0.6", ms=4,
                        capsize=2, label=f"{state} trial (95% interval)")  # fmt: skip
        done = t["state"].to_numpy() == "complete"
        vals = np.where(done, t["diff"].to_numpy() * k, np.nan)
        pick = np.fmin.accumulate if m["lower_is_better"] else np.fmax.accumulate
        ax.step(np.arange(len(t)), pick(vals), where="post", color="C3", label="best complete trial so far")
        # from the second iteration on, the start and the field are the previous winner
        this = next((r for r in summary.get("iterations", ()) if r["iteration"] == it), summary)
        start, vs = this.get("start", summary["start"]), this.get("field", summary["vs"])
        ax.axhline(0.0, color="0.3", ls="--", lw=1, label=f"starting parameters ({start})")
        _clip_far(ax, t, k, bool(m["lower_is_better"]))
        unit = metric_unit_of(m, summary["unit"])
        better = "lower" if m["lower_is_better"] else "higher"
        ax.set_xlabel("trial (in the order played)")
        ax.set_ylabel(f"{m['name']} minus the start's\n({unit}; {better} is better)")
        ax.xaxis.set_major_locator(MaxNLocator(integer=True))  # trials are counted
        title = f"{summary['game']}: tuning {summary['spec']} against {vs}, iteration {it}"
        ax.set_title("\n".join([balanced_wrap(title, 90), "paired on the search's deals"]), fontsize=9)
        ax.legend(fontsize=7, loc="upper center", bbox_to_anchor=(0.5, -0.2), ncol=2, frameon=False)
    return ax


def _clip_far(ax: Axes, t: pd.DataFrame, k: float, lower: bool) -> None:
    """Keep the axis on the trials that matter: candidates whose estimate lies far on the
    worse side of the complete ones are drawn as triangles at the edge (their values are in
    the trials table); no claim is made that they are worse than the start."""
    sign = 1.0 if lower else -1.0  # worse is up when lower is better
    worse = sign * t["diff"].to_numpy() * k
    good = worse[(t["state"] == "complete").to_numpy()]
    if not len(good) or not np.isfinite(worse).all():
        return
    # the axis reaches at least as far above the start as the best trial lies below it, and
    # at least a typical interval's half-width (when only the start completed, alone at 0)
    half = (t["diff_hi"].to_numpy() - t["diff_lo"].to_numpy()) * k / 2
    typical = float(np.nanmedian(half)) if np.isfinite(half).any() else 0.0
    span = max(float(good.max() - good.min()), float(np.abs(good).max()), -float(worse.min()), typical, 1e-12)
    edge = float(good.max()) + 3.0 * span
    far = worse > edge
    if not far.any():
        return
    best = float(sign * min(worse.min(), 0.0))
    lim = sorted([best - 0.5 * span * sign, sign * edge])
    ax.set_ylim(*lim)
    ax.plot(np.arange(len(t))[far], np.full(far.sum(), sign * edge), "^" if lower else "v", color="0.4", ms=6,
            clip_on=False, label=f"estimate off the scale ({int(far.sum())}; see the trials table)")  # fmt: skip


def metric_unit_of(m: dict[str, Any], unit: str) -> str:
    from simulator.games.base import Metric

    return metric_unit(Metric(m["name"], m["doc"], m["lower_is_better"], 1.0, m["kind"]), unit)


def shown(v: float, ci: list[float], rate: bool) -> str:
    """A difference with its interval for people (percentage points for a rate)."""
    k = 100.0 if rate else 1.0
    return formatting.with_interval(v * k, [c * k for c in ci], sign=True)


def write_outputs(result: TuneResult, out: Path) -> list[Path]:
    """``tune.json``, ``trials.parquet`` and the plot (PNG and SVG) in ``out``."""
    import matplotlib.pyplot as plt

    from simulator.reporting import plots

    out.mkdir(parents=True, exist_ok=True)
    atomic_write(out / "tune.json", result.to_json())
    table = result.trials.copy()
    table.attrs = {}
    buf = io.BytesIO()
    table.to_parquet(buf, index=False)
    atomic_write(out / "trials.parquet", buf.getvalue())
    ax = result.plot()
    paths = plots.save(ax.figure, out / "figures", "tune")
    plt.close(ax.figure)
    return [out / "tune.json", out / "trials.parquet", paths["png"]]
