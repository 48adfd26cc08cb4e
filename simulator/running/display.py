"""How results show their figures: words, units and directions, short text, HTML tables and
interval plots (for :class:`simulator.running.results.Result` and
:class:`simulator.analysis.compare.CompareResult`)."""

from __future__ import annotations

import html
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from simulator.engine import formatting
from simulator.engine.fields import Field, games_word
from simulator.games import fields_for

if TYPE_CHECKING:
    from matplotlib.axes import Axes

MAX_SHOWN = 10  # rows a repr shows before it says how many it left out


@dataclass(frozen=True)
class Shown:
    """One figure as it is displayed: its key, words, unit and direction.

    Built from the game's declaration of the figure (``Game.fields``,
    :mod:`simulator.engine.fields`), so it says what the CLI's tables say."""

    key: str
    title: str
    unit: str
    direction: str = ""
    doc: str = ""
    percent: bool = False

    @property
    def label(self) -> str:
        """An axis label or column head: ``mean score (points per round)``."""
        return f"{self.title} ({self.unit})"

    @property
    def caption(self) -> str:
        """``mean score: points per round, lower is better (points at the end of the round)``."""
        text = f"{self.title}: " + ", ".join(p for p in (self.unit, self.direction) if p)
        return text + (f" — {self.doc}" if self.doc else "")

    def text(self, value: Any, ci: Sequence[Any] | None) -> str:
        """``5.87 [5.69, 6.05]``, ``98.7% [98.1, 99.1]`` (digits matched to the interval)."""
        return formatting.rate(value, ci) if self.percent else formatting.mean(value, ci)

    def diff_text(self, value: Any, ci: Sequence[Any] | None) -> str:
        """A paired difference: ``-0.073 [-0.094, -0.051]``, ``+0.74 pp [+0.09, +1.40]``."""
        return formatting.diff(value, ci, percent=self.percent)


def unit_words(unit: str) -> str:
    return games_word(unit)


def shown_of(key: str, unit: str, declared: Mapping[str, Field], metric: Any = None) -> Shown:
    """How the figure ``key`` is shown: from its declaration, else from the game's
    :class:`~simulator.games.base.Metric` ``metric``, else from its name alone."""
    base = key.removesuffix("_rate").removeprefix("mean_")
    f = declared.get(key) or (declared.get(metric.name) if metric is not None else None)
    kind = f.kind if f is not None else (metric.kind if metric is not None else None)
    if kind is None:
        kind = "rate" if key.endswith("_rate") else "mean"
    title = f"{base.replace('_', ' ')} rate" if kind == "rate" else f"mean {base.replace('_', ' ')}"
    if f is not None:
        unit_text = f.unit_text(unit)
        if kind == "rate":
            unit_text = unit_text.replace("share of", "% of", 1)
        doc = "; ".join(p for p in (f.words_text(unit), f.remark_text(unit)) if p)
        return Shown(key, title, unit_text, f.direction(), doc, kind == "rate")
    direction = ""
    if metric is not None:
        direction = "lower is better" if metric.lower_is_better else "higher is better"
    unit_text = f"% of {games_word(unit)}" if kind == "rate" else f"per {unit}"
    return Shown(key, title, unit_text, direction, getattr(metric, "doc", ""), kind == "rate")


def _declared(game: str, unit: str) -> tuple[Mapping[str, Field], tuple]:
    try:
        from simulator.games import get_game

        g = get_game(game)
        return fields_for(g, unit), tuple(g.metrics(unit))
    except Exception:  # a summary of a game this version does not know: show what it holds
        return {}, ()


def metric_shown(summary: Mapping[str, Any], name: str) -> Shown:
    """How the metric ``name`` of a comparison is shown (``summary["metrics"][name]``)."""
    declared, metrics = _declared(summary["game"], summary["unit"])
    metric = next((m for m in metrics if m.name == name), None)
    shown = shown_of(name, summary["unit"], declared, metric)
    info = summary.get("metrics", {}).get(name, {})
    title = (
        f"{name.replace('_', ' ')} rate" if info.get("kind") == "rate" else f"mean {name.replace('_', ' ')}"
    )
    return Shown(name, title, shown.unit, shown.direction, shown.doc, info.get("kind", "rate") == "rate")


def seat_figures(summary: Mapping[str, Any]) -> list[Shown]:
    """The per-seat figures of a simulate summary that have intervals, the headline first:
    the game's metrics (``Game.metrics``) in its order, found under ``<name>_rate`` or
    ``mean_<name>``, then the seats' other figures with intervals."""
    seats = summary.get("seats") or []
    if not seats:
        return []
    have = [k for k in seats[0] if f"{k}_ci" in seats[0]]
    declared, metrics = _declared(summary.get("game", ""), summary.get("unit", "round"))
    shown: list[Shown] = []
    for m in metrics:
        key = f"{m.name}_rate" if m.kind == "rate" else f"mean_{m.name}"
        if key in have:
            shown.append(shown_of(key, summary["unit"], declared, m))
    used = {f.key for f in shown}
    shown += [shown_of(k, summary.get("unit", "round"), declared) for k in have if k not in used]
    return shown


def short(text: str, width: int = 28) -> str:
    return text if len(text) <= width else text[: width - 1] + "…"


def html_table(
    caption: str, head: Sequence[str], rows: Sequence[Sequence[Any]], css: str, left: int = 2
) -> str:
    """A small HTML table (every cell escaped): the first ``left`` columns left-aligned,
    the figures right-aligned, a caption above."""
    out = [f'<table class="{css}">', f'<caption style="text-align:left">{html.escape(caption)}</caption>']
    out.append("<thead><tr>" + "".join(f"<th>{html.escape(str(h))}</th>" for h in head) + "</tr></thead>")
    out.append("<tbody>")
    for r in rows:
        cells = []
        for i, c in enumerate(r):
            align = "left" if i < left else "right"
            cells.append(f'<td style="text-align:{align}">{html.escape(str(c))}</td>')
        out.append("<tr>" + "".join(cells) + "</tr>")
    out.append("</tbody></table>")
    return "\n".join(out)


def interval_plot(
    labels: Sequence[str],
    values: Sequence[Any],
    cis: Sequence[Sequence[Any]],
    *,
    shown: Shown,
    xlabel: str,
    title: str,
    ax: Axes | None = None,
    reference: float | None = None,
    reference_label: str | None = None,
) -> Axes:
    """Points with 95% interval whiskers, one per label; returns the Axes.

    Without ``ax`` a new pyplot figure is made (so Jupyter shows it inline).  The
    vertical axis zooms to the intervals; its label carries the unit and which way is
    better."""
    import matplotlib.pyplot as plt
    import numpy as np

    from simulator.reporting import plots

    k = 100.0 if shown.percent else 1.0
    nan = float("nan")
    v = np.array([nan if x is None else float(x) * k for x in values])
    lo = np.array([nan if c is None or c[0] is None else float(c[0]) * k for c in cis])
    hi = np.array([nan if c is None or c[1] is None else float(c[1]) * k for c in cis])
    import textwrap

    width = max(6.0, 1.3 * len(labels) + 2.5)
    with plots.style():
        if ax is None:
            _, ax = plt.subplots(figsize=(width, 4.2), layout="constrained")
        xs = np.arange(len(labels))
        yerr = np.vstack([np.nan_to_num(v - lo), np.nan_to_num(hi - v)])
        ax.errorbar(xs, v, yerr=yerr, fmt="o", color=plots.colour(0), ecolor="black", capsize=5, lw=1.2)
        if reference is not None:
            ax.axhline(reference, color="0.5", ls="--", lw=1, label=reference_label)
            if reference_label:
                ax.legend()
        ax.set_xticks(xs, [short(lab, 22) for lab in labels])
        ax.set_xlim(-0.6, len(labels) - 0.4)
        chars = int(ax.figure.get_figwidth() * 10)
        ax.set_xlabel(textwrap.fill(xlabel, chars))
        direction = f"; {shown.direction}" if shown.direction else ""
        unit_line = textwrap.fill(f"({shown.unit}{direction})", int(ax.figure.get_figheight() * 10))
        ax.set_ylabel(f"{shown.title}\n{unit_line}")
        ax.set_title(textwrap.fill(title, int(chars * 0.85)), loc="left")
        ax.grid(axis="x", visible=False)
    return ax


__all__ = [
    "MAX_SHOWN",
    "Shown",
    "html_table",
    "interval_plot",
    "metric_shown",
    "seat_figures",
    "short",
    "shown_of",
    "unit_words",
]
