"""The result of a comparison: its JSON-ready summary and tables, pairwise differences
between any two candidates, a short ``repr``, HTML for Jupyter and a plot."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd

from simulator.engine import formatting
from simulator.engine.stats import z_value
from simulator.errors import InputError
from simulator.running.results import (
    MAX_SHOWN,
    Shown,
    html_table,
    interval_plot,
    metric_shown,
    plain,
    short,
    unit_words,
)

if TYPE_CHECKING:
    from matplotlib.axes import Axes

from simulator.analysis.compare_stats import PairedSums, _deal_covariance, _difference_row


@dataclass(repr=False, eq=False)
class CompareResult:
    """Per-candidate figures, paired differences and ranking; ``summary`` is JSON-ready.

    ``frames`` holds one DataFrame per metric (``frames["score"]``: one row per
    candidate, the figure, its paired difference to the baseline, p-values; intervals
    as ``_lo``/``_hi``) and ``frames["ranking"]`` (Bradley–Terry, three candidates or
    more).  ``repr`` is a few lines on the primary metric, Jupyter shows HTML tables,
    :meth:`plot` draws the paired differences (or the figures) with their intervals.
    """

    summary: dict[str, Any]
    frames: dict[str, pd.DataFrame]
    sums: dict[str, PairedSums] | None = None
    appearances: np.ndarray | None = None
    scales: dict[str, float] | None = None

    def __post_init__(self) -> None:
        self.summary = plain(self.summary)

    def pairwise(self, metric: str, a: str, b: str) -> dict[str, Any]:
        """The paired difference ``a − b`` in ``metric`` between two compared strategies
        (names as in ``summary["strategies"]``), computed as every difference to the baseline
        is: ``diff``, ``diff_ci``, ``p_value`` (not corrected), ``test``, ``same_every_deal``.

        Only a comparison played in this session holds the sums this needs; one read back
        from a folder raises :class:`InputError`."""
        if self.sums is None or self.appearances is None or self.scales is None:
            raise InputError("this comparison holds only its summary; pairwise differences need the run")
        if metric not in self.sums:
            raise InputError(f"no metric {metric!r} in this comparison (metrics: {', '.join(self.sums)})")
        names = list(self.summary["strategies"])
        for who in (a, b):
            if who not in names:
                raise InputError(f"{who!r} is not one of the compared strategies")
        s = self.sums[metric]
        means, cov = _deal_covariance(s, self.appearances.astype(np.float64))
        i, j = names.index(a), names.index(b)
        return _difference_row(s, self.appearances, means, cov, i, j, z_value(), self.scales[metric])

    def to_json(self, indent: int | None = 2) -> str:
        """The summary as strict JSON: a figure nothing was counted for is ``null``."""
        from simulator.running.results import dumps_json

        return dumps_json(self.summary, indent=indent)

    def _shown(self, metric: str | None = None) -> tuple[str, Shown]:
        metrics = self.summary["metrics"]
        name = metric or next(iter(metrics))
        if name not in metrics:
            raise InputError(f"no metric {name!r} in this comparison (metrics: {', '.join(metrics)})")
        return name, metric_shown(self.summary, name)

    def _heading(self) -> str:
        s = self.summary
        against = f" against {s['field']}" if s.get("field") else ""
        return (
            f"{s['game']}: {len(s['strategies'])} strategies{against} on {s['n']:,} deals "
            f"({unit_words(s['unit'])}), seed {s['seed']}"
        )

    def __repr__(self) -> str:
        s = self.summary
        name, shown = self._shown()
        rows = s["metrics"][name]["strategies"]
        lines = [f"<kortsim CompareResult> {self._heading()}"]
        lines.append(f"{s['design']}; differences against {s['baseline']}")
        lines.append(", ".join(p for p in (shown.label, shown.direction) if p) + "; [95% interval]:")
        width = max(len(short(r["player"])) for r in rows[:MAX_SHOWN])
        values = [shown.text(r[name], r[f"{name}_ci"]) for r in rows[:MAX_SHOWN]]
        v_width = max(len(v) for v in values)
        for r, value in zip(rows, values):
            if "diff" in r:
                diff = shown.diff_text(r["diff"], r["diff_ci"])
                extra = f"  diff {diff}  p (Holm) {formatting.p_value(r.get('p_holm'))}"
            else:
                extra = "  (baseline)"
            lines.append(f"  {short(r['player']):<{width}}  {value:<{v_width}}{extra}")
        if len(rows) > MAX_SHOWN:
            lines.append(f"  ... and {len(rows) - MAX_SHOWN} more (see .frames[{name!r}])")
        lines.append(f".frames: {', '.join(self.frames)}; .plot(); .summary: the JSON document")
        return "\n".join(lines)

    def _repr_html_(self) -> str:
        s = self.summary
        parts = []
        for name in s["metrics"]:
            _, shown = self._shown(name)
            head = ["player", shown.label, "difference to baseline", "p (Holm)", "variance reduction"]
            rows = []
            for r in s["metrics"][name]["strategies"]:
                diff = shown.diff_text(r.get("diff"), r.get("diff_ci"))
                vr = r.get("variance_reduction")
                rows.append(
                    [
                        r["player"],
                        shown.text(r[name], r[f"{name}_ci"]),
                        diff if "diff" in r else "(baseline)",
                        formatting.p_value(r.get("p_holm")) if "diff" in r else "",
                        f"{vr:.1f}×" if vr else "",
                    ]
                )
            caption = (
                f"{self._heading()}. {shown.caption}. Differences are paired on the same deals "
                f"(pp: percentage points), against {s['baseline']}; in brackets: 95% intervals."
            )
            parts.append(html_table(caption, head, rows, "kortsim-compare", left=1))
        if s.get("ranking"):
            rows = [
                [r["rank"], r["player"], formatting.mean(r["strength"], r["strength_ci"])]
                for r in s["ranking"]
            ]
            parts.append(
                html_table(
                    f"Bradley–Terry ranking on deals won ({s['head_to_head']['metric']}): "
                    f"log-strength, {s['baseline']} = 0, higher is stronger; 95% intervals.",
                    ["rank", "player", "log-strength"],
                    rows,
                    "kortsim-ranking",
                )
            )
        return "\n".join(parts)

    def plot(self, metric: str | None = None, kind: str = "diff", ax: Axes | None = None) -> Axes:
        """The candidates' paired differences to the baseline (``kind="diff"``) or their
        figures (``kind="value"``) for ``metric`` (default: the primary one), with 95%
        intervals.

        Parameters
        ----------
        metric
            A metric of ``summary["metrics"]`` (``"score"``, ``"loss"``, ...).
        kind
            ``"diff"`` (the baseline is the dashed zero line) or ``"value"``.
        ax
            Draw into these Axes; default: a new figure.

        Returns
        -------
        matplotlib.axes.Axes
        """
        if kind not in ("diff", "value"):
            raise InputError(f"kind must be 'diff' or 'value', not {kind!r}")
        name, shown = self._shown(metric)
        s = self.summary
        rows = s["metrics"][name]["strategies"]
        if kind == "value":
            return interval_plot(
                [r["player"] for r in rows],
                [r[name] for r in rows],
                [r[f"{name}_ci"] for r in rows],
                shown=shown,
                xlabel="strategy",
                title=f"{s['game']}: {shown.title} per strategy, 95% intervals",
                ax=ax,
            )
        rows = [r for r in rows if "diff" in r]
        unit = "percentage points" if shown.percent else shown.unit
        diff_shown = Shown(name, f"difference in {shown.title}", unit, shown.direction, percent=shown.percent)
        return interval_plot(
            [r["player"] for r in rows],
            [r["diff"] for r in rows],
            [r["diff_ci"] for r in rows],
            shown=diff_shown,
            xlabel="strategy",
            title=(
                f"{s['game']}: {shown.title} minus {s['baseline']}'s, paired on the same deals, "
                "with 95% intervals"
            ),
            ax=ax,
            reference=0.0,
            reference_label=f"{s['baseline']} (baseline)",
        )
