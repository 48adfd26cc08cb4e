"""Bars and histograms: seat advantages, paired differences with their intervals, and
distributions of scores and match lengths."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np
from matplotlib import ticker
from matplotlib.figure import Figure
from matplotlib.lines import Line2D
from matplotlib.patches import Patch

from simulator.reporting.plots.axes import (
    _finish,
    _percent_axis,
    _short,
    _wrap,
    axis_label,
    number,
    robust_limits,
    title_text,
)
from simulator.reporting.plots.style import BETTER, MAX_WIDTH, NEUTRAL, WORSE, colour, new_figure, style


def _per_group(value, key, default=None):
    """``value[key]`` when ``value`` is a mapping, else ``value`` itself."""
    if isinstance(value, Mapping):
        return value.get(key, default)
    return value


def seat_bars(
    labels: Sequence[str],
    values: Sequence[float],
    lo: Sequence[float],
    hi: Sequence[float],
    *,
    ylabel: str | Mapping[str, str],
    title: str,
    reference: float | None = None,
    reference_label: str | None = None,
    groups: Sequence[str] | None = None,
    lower_is_better: bool | Mapping[str, bool | None] | None = None,
    percent: bool | str | Mapping[str, bool | str] = False,
) -> Figure:
    """Bars with 95% interval whiskers (e.g. a rate per seat); ``groups`` colours them.

    When ``ylabel`` maps each group to its own label (say points per round for round play,
    share of matches for match play), each group gets its own panel and y axis, so no axis
    mixes units; ``lower_is_better`` and ``percent`` may then be given per group too.
    ``percent``: ``True`` writes rates as percentages, ``"points"`` differences of rates
    in percentage points.  Bars start at 0, so their axis is not zoomed."""
    v, lo, hi = (np.asarray(a, dtype=float) for a in (values, lo, hi))
    labels = [str(s) for s in labels]
    keys = list(dict.fromkeys(groups)) if groups is not None else []
    split = isinstance(ylabel, Mapping) and groups is not None
    panels = keys if split else [None]
    g = np.asarray(list(groups), dtype=object) if groups is not None else None
    with style():
        counts = [len(v) if k is None else int((g == k).sum()) for k in panels]
        width = min(MAX_WIDTH, max(4.0, 0.95 * sum(counts) + 1.6 * len(panels)))
        fig, axes = new_figure(
            1, len(panels), size=(width, 4.2), gridspec_kw={"width_ratios": [max(c, 1) for c in counts]}
        )
        for n, key in enumerate(panels):
            ax = axes[0, n]
            sel = np.ones(len(v), bool) if key is None else g == key
            idx = np.flatnonzero(sel)
            xs = np.arange(len(idx))
            colours = [colour(keys.index(groups[i])) if groups is not None else colour(0) for i in idx]
            ax.bar(xs, v[idx], color=colours, alpha=0.85, width=0.65)
            ax.errorbar(
                xs,
                v[idx],
                yerr=[v[idx] - lo[idx], hi[idx] - v[idx]],
                fmt="none",
                ecolor="black",
                capsize=4,
                lw=1.2,
            )
            per_panel_width = width * len(idx) / max(sum(counts), 1)
            wrap = max(8, int(per_panel_width * 72 / max(len(idx), 1) / 5.6))
            ax.set_xticks(xs, [_wrap(_short(labels[i], 40), wrap) for i in idx])
            if reference is not None:
                ax.axhline(reference, color=NEUTRAL, ls="--", lw=1, label=reference_label)
            _percent_axis(ax.yaxis, _per_group(percent, key, False))
            ax.grid(axis="x", visible=False)
            lib = _per_group(lower_is_better, key)
            ylab = _per_group(ylabel, key, "") if split else ylabel
            _finish(ax, None, None, axis_label(str(ylab), lib))
            if split:
                ax.set_title(str(key), loc="left", fontsize=10)
        # The legend goes below the panels, where it never covers a bar.
        handles = (
            [] if split or groups is None else [Patch(color=colour(i), label=k) for i, k in enumerate(keys)]
        )
        if reference_label:
            handles.append(Line2D([], [], color=NEUTRAL, ls="--", lw=1, label=reference_label))
        if handles:
            fig.legend(handles=handles, loc="outside lower center", ncols=min(len(handles), 4))
        fig.suptitle(title_text(fig, title), x=0.01, ha="left", fontweight="bold", fontsize=11.5)
    return fig


def diff_bars(
    labels: Sequence[str],
    diff: Sequence[float],
    lo: Sequence[float],
    hi: Sequence[float],
    *,
    xlabel: str | Mapping[str, str],
    title: str,
    significant: Sequence[bool] | None = None,
    groups: Sequence[str] | None = None,
    lower_is_better: bool | Mapping[str, bool | None] | None = None,
    percent: bool | Mapping[str, bool] = False,
) -> Figure:
    """Paired differences with 95% intervals, one row each, and the zero line (a forest plot).

    Filled markers: significant after Holm's correction, blue when better and red when
    worse (given ``lower_is_better``); hollow grey: no difference detected.  When
    ``xlabel`` maps each of ``groups`` to its own label, each group gets its own panel and
    x axis, so no axis mixes units (points per round and a loss rate, say);
    ``lower_is_better`` and ``percent`` (differences of rates, in percentage points) may
    then be given per group.  Each axis zooms to its informative range around 0."""
    d, lo, hi = (np.asarray(a, dtype=float) for a in (diff, lo, hi))
    n_all = len(labels)
    sig = np.ones(n_all, bool) if significant is None else np.asarray(significant, dtype=bool)
    keys = list(dict.fromkeys(groups)) if groups is not None else []
    split = isinstance(xlabel, Mapping) and groups is not None
    panels = keys if split else [None]
    g = np.asarray(list(groups), dtype=object) if groups is not None else None
    with style():
        counts = [n_all if k is None else int((g == k).sum()) for k in panels]
        heights = [0.5 * c + 1.0 for c in counts]
        fig, axes = new_figure(
            len(panels), 1, size=(MAX_WIDTH, sum(heights) + 0.6), gridspec_kw={"height_ratios": heights}
        )
        any_better = any_worse = any_none = any_plain = False
        for p, key in enumerate(panels):
            ax = axes[p, 0]
            idx = np.flatnonzero(np.ones(n_all, bool) if key is None else g == key)
            ys = np.arange(len(idx))[::-1]
            lib = _per_group(lower_is_better, key)
            pct = bool(_per_group(percent, key, False))
            low, high, _ = robust_limits(d[idx], lo[idx], hi[idx], include=(0.0,))
            for y, i in zip(ys, idx):
                if sig[i] and lib is not None:
                    better = d[i] < 0 if lib else d[i] > 0
                    c = BETTER if better else WORSE
                    any_better |= better
                    any_worse |= not better
                elif sig[i]:
                    c = colour(0)
                    any_plain = True
                else:
                    c = NEUTRAL
                    any_none = True
                ax.plot([max(lo[i], low), min(hi[i], high)], [y, y], color=c, lw=2)
                if np.isfinite(d[i]) and low <= d[i] <= high:
                    ax.plot(d[i], y, "o", color=c, mfc=c if sig[i] else "white", ms=7)
                elif np.isfinite(d[i]):
                    right = d[i] > high
                    edge = high if right else low
                    ax.plot(edge, y, ">" if right else "<", color=c, ms=8, clip_on=False)
                    ax.annotate(
                        f"{number(d[i], pct)} (off scale)",
                        xy=(edge, y),
                        xytext=(-10 if right else 10, 7),
                        textcoords="offset points",
                        ha="right" if right else "left",
                        fontsize=9,
                        color=c,
                    )
            ax.axvline(0.0, color="black", lw=1)
            ax.set_xlim(low, high)
            ax.set_ylim(-0.6, len(idx) - 0.4)
            ax.set_yticks(ys, [_wrap(labels[i], 30) for i in idx])
            ax.xaxis.set_major_locator(ticker.MaxNLocator(nbins=5))
            _percent_axis(ax.xaxis, pct, points=True)
            ax.grid(axis="y", visible=False)
            lab = _per_group(xlabel, key, "") if split else xlabel
            if pct and "percentage points" not in str(lab):
                lab = f"{lab} (percentage points)"
            _finish(ax, None, axis_label(str(lab), lib), None)
            if split:
                ax.set_title(str(key), loc="left", fontsize=10)
        handles = []
        if any_better:
            handles.append(Line2D([], [], ls="-", marker="o", color=BETTER, label="better (Holm)"))
        if any_worse:
            handles.append(Line2D([], [], ls="-", marker="o", color=WORSE, label="worse (Holm)"))
        if any_plain and significant is not None:
            handles.append(Line2D([], [], ls="-", marker="o", color=colour(0), label="difference (Holm)"))
        if any_none:
            handles.append(
                Line2D([], [], ls="-", marker="o", color=NEUTRAL, mfc="white", label="no difference detected")
            )
        if handles:
            fig.legend(handles=handles, loc="outside lower center", ncols=len(handles))
        fig.suptitle(title_text(fig, title), x=0.01, ha="left", fontweight="bold", fontsize=11.5)
    return fig


def histogram(
    series: Mapping[str, np.ndarray],
    *,
    xlabel: str,
    title: str,
    scale: float = 1.0,
    ylabel: str = "share of games",
    trim: float = 0.999,
    lower_is_better: bool | None = None,
) -> Figure:
    """Distributions from integer histograms (bin ``i`` holds value ``i``, times ``scale``),
    as shares (ticks in %), one step line per series; the long tail past ``trim`` of the
    mass is cut.  ``lower_is_better`` says on the x axis which way is better."""
    with style():
        fig, axes = new_figure()
        ax = axes[0, 0]
        upper = 0
        for h in series.values():
            h = np.asarray(h, dtype=float)
            if h.sum() > 0:
                c = np.cumsum(h) / h.sum()
                upper = max(upper, int(np.searchsorted(c, trim)) + 1)
        upper = max(upper, 1)
        for i, (name, h) in enumerate(series.items()):
            h = np.asarray(h, dtype=float)[: upper + 1]
            total = float(np.asarray(series[name]).sum())
            if total <= 0:
                continue
            share = h / total
            xs = np.arange(len(h)) * scale
            ax.step(xs, share, where="mid", color=colour(i), label=name)
            if len(series) <= 2:
                ax.fill_between(xs, share, step="mid", color=colour(i), alpha=0.12)
        _percent_axis(ax.yaxis, True)
        _finish(ax, title, axis_label(xlabel, lower_is_better), ylabel)
        ax.set_ylim(bottom=0)
        if len(series) > 1:
            ax.legend()
    return fig
