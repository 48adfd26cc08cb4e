"""The result of a sweep: one row per requested point (figure, paired difference to the
baseline, shared points), the best point when the test names one, a plot, and the words of
its metrics."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import pandas as pd

from simulator.analysis.compare import CompareResult
from simulator.analysis.leader import holm_against
from simulator.analysis.sweep_spec import Axis, SweepSpec, _nan_none
from simulator.errors import InputError
from simulator.running.results import plain
from strategies.registry import format_value


@dataclass
class SweepResult:
    """One row per point (``table``) plus the comparison it came from."""

    spec: SweepSpec
    game: str
    unit: str
    metric: str
    vs: str
    baseline: str
    table: pd.DataFrame
    comparison: CompareResult
    summary: dict[str, Any] = field(default_factory=dict)

    @property
    def axes(self) -> tuple[Axis, ...]:
        return self.spec.axes

    def metric_info(self, metric: str | None = None) -> dict[str, Any]:
        return self.comparison.summary["metrics"][metric or self.metric]

    def best(self, metric: str | None = None) -> pd.Series:
        """The played point with the best *observed* value of ``metric`` (lowest when lower
        is better).  Observed only: whether it is better than the others is
        :meth:`top`'s question (a point is called best only when the test says so)."""
        m = metric or self.metric
        info = self.metric_info(m)
        t = self.table[~self.table["shared"]] if "shared" in self.table else self.table
        i = t[m].idxmin() if info["lower_is_better"] else t[m].idxmax()
        return self.table.loc[i]

    def top(self, metric: str | None = None) -> dict[str, Any]:
        """The point with the best observed value of ``metric`` and what the tests say of it.

        Returns a JSON-ready dict: ``player``, ``point`` (the swept values), ``observed``
        (``"lowest"``/``"highest"``), ``value`` and ``ci``; ``vs_baseline`` (its paired
        difference to the baseline, Holm-corrected over the points, as in the table) and
        ``vs_runner_up`` (its paired difference to the second-best played point);
        ``others_tested`` (how many other played points it was tested against);
        ``best`` is true only when it is better than *every* other played point on the same
        deals, Holm-corrected over those comparisons (``vs_runner_up.p_holm`` is the
        runner-up's corrected p; ``vs_others`` every such test, the closest first, see
        :mod:`simulator.analysis.leader`).  Below 2 deals nothing is tested and ``best`` is
        false."""
        m = metric or self.metric
        info = self.metric_info(m)
        lower = bool(info["lower_is_better"])
        row = self.best(m)
        played = self.table[~self.table["shared"]] if "shared" in self.table else self.table
        others = played[played["player"] != row["player"]]
        others = others.sort_values(m, ascending=lower, kind="stable")
        out: dict[str, Any] = {
            "metric": m,
            "observed": "lowest" if lower else "highest",
            "player": row["player"],
            "point": {a.name: float(row[a.name]) for a in self.axes},
            "shares_result_with": [
                r["player"]
                for r in self.table.to_dict("records")
                if r.get("plays_as") == row["player"] and r["player"] != row["player"]
            ],
            "value": _nan_none(row[m]),
            "ci": [_nan_none(row[f"{m}_lo"]), _nan_none(row[f"{m}_hi"])],
            "vs_baseline": None,
            "vs_runner_up": None,
            "others_tested": 0,
            "best": False,
        }
        if row["player"] != self.baseline:
            out["vs_baseline"] = {
                "baseline": self.baseline,
                "diff": _nan_none(row[f"{m}_diff"]),
                "diff_ci": [_nan_none(row[f"{m}_diff_lo"]), _nan_none(row[f"{m}_diff_hi"])],
                "p_holm": _nan_none(row[f"{m}_p_holm"]),
                "significant": bool(row.get(f"{m}_significant", False)),
            }
        if others.empty:
            return plain(out)
        tests = []
        try:
            for other in others["player"]:
                tests.append((other, self.comparison.pairwise(m, row["player"], other)))
        except InputError:  # a comparison read back from disk: no pairwise sums
            return plain(out)
        best = holm_against(tests, lower)
        first, t = tests[0]
        out["vs_runner_up"] = {
            "runner_up": first,
            **{
                k: _nan_none(t[k]) if k in ("diff", "p_value", "p_holm") else t[k]
                for k in ("diff", "diff_ci", "p_value", "p_holm", "significant", "test", "same_every_deal")
            },
        }
        out["vs_runner_up"]["diff_ci"] = [_nan_none(v) for v in t["diff_ci"]]
        out["others_tested"] = len(tests)
        # every test of the leader, the closest first: what a headline may name it against
        keys = ("diff", "diff_ci", "p_value", "p_holm", "significant")
        out["vs_others"] = [{"other": name, **{k: t[k] for k in keys}} for name, t in tests]
        out["best"] = best
        return plain(out)

    def top_note(self, metric: str | None = None) -> str:
        """One line on the top point for people: what was observed, and whether the
        Holm-corrected tests call it best (against the runner-up and the baseline)."""
        from simulator.engine import formatting
        from simulator.engine.fields import metric_field
        from simulator.games import fields_for

        t = self.top(metric)
        m = t["metric"]
        info = self.metric_info(m)
        f = metric_field(fields_for(self.game, self.unit), m, info)
        rate = f.kind == "rate"
        value = (formatting.rate if rate else formatting.mean)(t["value"], t["ci"])
        unit = "" if rate else f" {f.unit_text(self.unit)}"
        also = f" (shared with {', '.join(t['shares_result_with'])})" if t["shares_result_with"] else ""
        word = "best" if t["best"] else f"{t['observed']} observed"
        line = f"{word} {m}: {t['player']}{also}, {value}{unit}"
        ru = t["vs_runner_up"]
        if ru is not None:
            d = formatting.diff(ru["diff"], ru["diff_ci"], percent=rate)
            p = formatting.p_value(ru["p_holm"])
            line += f"; minus the runner-up {ru['runner_up']} {d}, p (Holm) {p}"
        if t["best"]:
            line += (
                f": {t['observed'].replace('est', 'er')} than every other point played "
                f"({t['others_tested']} tests, Holm-corrected)"
            )
        elif ru is not None and ru["p_holm"] is None:
            line += ": not tested (fewer than 2 deals), so no point is called best"
        elif ru is not None:
            line += ": not shown to beat every other point at this size, so it is not called best"
        else:
            line += ": the only point played"
        b = t["vs_baseline"]
        if b is not None:
            d = formatting.diff(b["diff"], b["diff_ci"], percent=rate)
            verdict = (
                "differs from the baseline"
                if b["significant"]
                else "no difference from the baseline detected at this size"
            )
            line += f"; minus the baseline {b['baseline']} {d}, p (Holm) {formatting.p_value(b['p_holm'])}: {verdict}"
        return line

    def shared_note(self) -> str | None:
        """One line on the points not played because they play exactly as another, e.g.
        ``13 of 27 points played; the others play exactly as a played point (skipped, their
        rows repeat its result): k=1.5 plays as k=1; ...`` (``None`` when every point was
        played)."""
        t = self.table
        if "shared" not in t or not t["shared"].any():
            return None
        names = [a.name for a in self.axes]

        def point(row) -> str:
            return ",".join(f"{n}={format_value(row[n])}" for n in names)

        played = {r["player"]: point(r) for r in t.to_dict("records") if not r["shared"]}
        parts = [f"{point(r)} plays as {played[r['plays_as']]}" for r in t.to_dict("records") if r["shared"]]
        n_played = int((~t["shared"]).sum())
        return (
            f"{n_played} of {len(t)} points played; the others play exactly as a played point "
            f"(skipped, their rows repeat its result): {'; '.join(parts)}"
        )

    def plot(self, metric: str | None = None, title: str | None = None):
        """The metric against the first swept parameter with its 95% band (one line per
        value of the second), and below it the paired difference to the baseline."""
        from simulator.reporting import plots

        m = metric or self.metric
        info = self.metric_info(m)
        x_axis = self.axes[0].name
        groups = self.table[self.axes[1].name].tolist() if len(self.axes) == 2 else None
        t = self.table
        unit_word = "round" if self.unit == "round" else "match"
        param = next(p for p in self.spec.family.params if p.name == x_axis)
        doc = f"; {param.doc}" if param.doc else ""
        fig = plots.sweep_panels(
            t[x_axis],
            t[m],
            t[f"{m}_lo"],
            t[f"{m}_hi"],
            t[f"{m}_diff"],
            t[f"{m}_diff_lo"],
            t[f"{m}_diff_hi"],
            xlabel=plots._wrap(f"{x_axis} ({self.spec.family.name} parameter{doc})", 70),
            ylabel=metric_label(m, info, unit_word),
            title=title or f"{self.game}: {metric_title(m, info)} by {x_axis}, against {self.vs}",
            baseline=self.baseline,
            groups=groups,
            group_label=f"{self.axes[1].name}=" if len(self.axes) == 2 else "",
            mark_best="min" if info["lower_is_better"] else "max",
            diff_unit=metric_unit(m, info, unit_word),
            lower_is_better=bool(info["lower_is_better"]),
            percent=info.get("kind") == "rate",
            shared=t["shared"].to_numpy() if "shared" in t else None,
            xname=x_axis,
        )
        _label_top(fig, self.top_label(m))
        return fig

    def top_label(self, metric: str | None = None) -> str:
        """The legend entry of the ringed point: ``best (...)`` only when the tests say so,
        else ``lowest observed (...)`` with what the Holm-corrected tests found."""
        from simulator.engine import formatting

        t = self.top(metric)
        name = ",".join(f"{k}={format_value(v)}" for k, v in t["point"].items())
        if t["best"]:
            return f"best: {name}, {t['observed'].replace('est', 'er')} than every other point (Holm)"
        text = f"{t['observed']} observed: {name}"
        ru = t["vs_runner_up"]
        if ru is None:
            return text
        if ru["p_holm"] is None:
            return text + " (not tested: fewer than 2 deals; not called best)"
        ru_name = ru["runner_up"].partition(":")[2] or ru["runner_up"]
        return (
            text + f"; vs runner-up {ru_name}: p (Holm) {formatting.p_value(ru['p_holm'])}, "
            "not shown better, so not called best"
        )


def _sentence(text: str) -> str:
    """``text`` as a sentence: a capital first letter and a full stop."""
    return text[:1].upper() + text[1:] + ("" if text.endswith(".") else ".")


def _label_top(fig: Any, text: str) -> None:
    """Relabel the legend entry of the ringed point (drawn as ``best``) with ``text``."""
    from simulator.reporting import plots

    for legend in fig.legends:
        for item in legend.get_texts():
            if item.get_text() == "best":
                item.set_text(plots._wrap(text, 60))


UNITS = {"score": "points", "total": "points", "letters": "letters", "place": "places"}


def metric_title(name: str, info: Mapping[str, Any]) -> str:
    """``loss rate``, ``mean score``: what a metric is, in two words."""
    return (
        f"{name.replace('_', ' ')} rate" if info.get("kind") == "rate" else f"mean {name.replace('_', ' ')}"
    )


def metric_unit(name: str, info: Mapping[str, Any], unit_word: str = "round") -> str:
    """The unit of a metric: ``share of rounds``, ``points per round``."""
    if info.get("kind") == "rate":
        return f"share of {unit_word}es".replace("roundes", "rounds")
    return f"{UNITS.get(name, name)} per {unit_word}"


def metric_label(name: str, info: Mapping[str, Any], unit_word: str = "round") -> str:
    """An axis label with its unit: a rate per game, or a mean in points, letters, places."""
    return f"{metric_title(name, info)} ({metric_unit(name, info, unit_word)})"
