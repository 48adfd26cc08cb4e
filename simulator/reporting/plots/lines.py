"""A metric against a parameter: lines with 95% interval bands, one panel per metric or group."""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np
from matplotlib.figure import Figure
from matplotlib.lines import Line2D

from simulator.reporting.plots.axes import (
    _finish,
    _legend,
    _mark_outliers,
    _percent_axis,
    _short,
    _wrap,
    axis_label,
    number,
    robust_limits,
)
from simulator.reporting.plots.style import BAND_ALPHA, NEUTRAL, colour, new_figure, style


def band(
    ax,
    x,
    y,
    lo,
    hi,
    *,
    label: str | None = None,
    colour_index: int = 0,
    marker: str = "o",
    limits: tuple[float, float] | None = None,
    outliers: np.ndarray | None = None,
    shared: np.ndarray | None = None,
    fmt: Callable[[float], str] = number,
    xname: str | None = None,
) -> None:
    """A line with markers and its 95% interval as a shaded band (sorted by ``x``).

    ``outliers`` (a mask) are drawn at the edge of ``limits`` with their value, joined by
    dotted lines; ``shared`` points (that play as another point) get hollow markers."""
    c = colour(colour_index)
    x = np.asarray(x, dtype=float)
    y, lo, hi = (np.asarray(v, dtype=float) for v in (y, lo, hi))
    out = np.zeros(len(x), bool) if outliers is None else np.asarray(outliers, dtype=bool)
    keep = np.isfinite(y) & ~out
    ax.fill_between(x, lo, hi, where=keep, color=c, alpha=BAND_ALPHA, lw=0, interpolate=False)
    alone = keep & ~np.r_[False, keep[:-1]] & ~np.r_[keep[1:], False]
    if alone.any():  # a band needs two neighbours; a lone point gets whiskers
        ax.errorbar(
            x[alone], y[alone], yerr=[y[alone] - lo[alone], hi[alone] - y[alone]], fmt="none", ecolor=c
        )
    ax.plot(x, np.where(keep, y, np.nan), color=c, label=label)
    sh = np.zeros(len(x), bool) if shared is None else np.asarray(shared, dtype=bool)
    ax.plot(x[keep & ~sh], y[keep & ~sh], marker, color=c, ls="none")
    if (keep & sh).any():
        ax.plot(x[keep & sh], y[keep & sh], marker, color=c, mfc="white", ls="none", zorder=3)
    if out.any() and limits is not None:
        clamped = np.where(out, np.clip(y, *limits), y)
        for i in np.flatnonzero(out):
            for j in (i - 1, i + 1):
                if 0 <= j < len(x) and np.isfinite(clamped[j]):
                    ax.plot([x[i], x[j]], [clamped[i], clamped[j]], ":", color=c, lw=1.2)
        _mark_outliers(ax, x, y, out, limits, colour_=c, fmt=fmt, xname=xname)


def _lines(
    ax,
    x,
    y,
    lo,
    hi,
    *,
    groups,
    group_label: str,
    mark_best: str | None,
    include: Sequence[float] = (),
    shared=None,
    fmt: Callable[[float], str] = number,
    xname: str | None = None,
) -> None:
    """One banded line per group on ``ax``, zoomed to the informative range."""
    low, high, out = robust_limits(y, lo, hi, include=include)
    keys = [None] if groups is None else list(dict.fromkeys(groups))
    g = None if groups is None else np.asarray(list(groups), dtype=object)
    sh = np.zeros(len(x), bool) if shared is None else np.asarray(shared, dtype=bool)
    for i, key in enumerate(keys):
        sel = np.ones(len(x), bool) if g is None else g == key
        o = np.argsort(x[sel])
        lab = None if key is None else _wrap(f"{group_label}{key}", 34)
        band(
            ax,
            x[sel][o],
            y[sel][o],
            lo[sel][o],
            hi[sel][o],
            label=lab,
            colour_index=i,
            limits=(low, high),
            outliers=out[sel][o],
            shared=sh[sel][o],
            fmt=fmt,
            xname=xname,
        )
        if mark_best and np.isfinite(y[sel]).any():
            j = int(np.nanargmin(y[sel]) if mark_best == "min" else np.nanargmax(y[sel]))
            yb = float(np.clip(y[sel][j], low, high))
            ax.plot(x[sel][j], yb, "o", ms=11, mfc="none", mec=colour(i), mew=1.6)
    ax.set_ylim(low, high)


def _best_handles(mark_best: str | None, shared) -> list:
    out = []
    if mark_best:
        out.append(
            Line2D([], [], ls="none", marker="o", ms=11, mfc="none", mec=NEUTRAL, mew=1.6, label="best")
        )
    if shared is not None and np.asarray(shared, dtype=bool).any():
        out.append(
            Line2D(
                [],
                [],
                ls="none",
                marker="o",
                mfc="white",
                mec=NEUTRAL,
                label="same result as a point played (not played again)",
            )
        )
    return out


def metric_vs_param(
    x: Sequence[float],
    y: Sequence[float],
    lo: Sequence[float],
    hi: Sequence[float],
    *,
    xlabel: str,
    ylabel: str,
    title: str,
    groups: Sequence | None = None,
    group_label: str = "",
    reference: float | None = None,
    reference_label: str | None = None,
    mark_best: str | None = None,
    lower_is_better: bool | None = None,
    percent: bool = False,
    xname: str | None = None,
) -> Figure:
    """A metric against a parameter, with 95% bands; ``groups`` draws one line per value.

    ``mark_best`` = ``"min"`` or ``"max"`` rings the best point of each line; it also gives
    the direction when ``lower_is_better`` is not given.  ``percent`` writes a rate's ticks
    as percentages.  The y axis zooms to the informative range (:func:`robust_limits`)."""
    if lower_is_better is None and mark_best:
        lower_is_better = mark_best == "min"
    with style():
        fig, axes = new_figure()
        ax = axes[0, 0]
        x, y, lo, hi = (np.asarray(v, dtype=float) for v in (x, y, lo, hi))
        include = () if reference is None else (reference,)
        _lines(
            ax,
            x,
            y,
            lo,
            hi,
            groups=groups,
            group_label=group_label,
            mark_best=mark_best,
            include=include,
            fmt=lambda v: number(v, percent),
            xname=xname,
        )
        if reference is not None:
            ax.axhline(reference, color=NEUTRAL, ls="--", lw=1, label=reference_label)
        _percent_axis(ax.yaxis, percent)
        _finish(ax, title, xlabel, axis_label(ylabel, lower_is_better))
        if groups is not None or reference_label or mark_best:
            _legend(ax, _best_handles(mark_best, None))
    return fig


def sweep_panels(
    x: Sequence[float],
    y: Sequence[float],
    lo: Sequence[float],
    hi: Sequence[float],
    diff: Sequence[float],
    diff_lo: Sequence[float],
    diff_hi: Sequence[float],
    *,
    xlabel: str,
    ylabel: str,
    title: str,
    baseline: str,
    groups: Sequence | None = None,
    group_label: str = "",
    mark_best: str | None = None,
    diff_unit: str = "",
    lower_is_better: bool | None = None,
    percent: bool = False,
    shared: Sequence[bool] | None = None,
    xname: str | None = None,
) -> Figure:
    """Top: the metric with its 95% band.  Bottom: the paired difference to the baseline on
    the same deals, with its (much narrower) 95% band and the zero line.

    Both panels zoom to their informative range, an outlier drawn at the edge with its
    value; both y axes say which way is better (``lower_is_better``, else from
    ``mark_best``).  ``percent``: the metric is a rate (ticks in %, differences in
    percentage points).  ``shared`` marks points that play as another point (hollow);
    ``xname`` names the parameter in outlier notes (``k=0: 14.53``)."""
    if lower_is_better is None and mark_best:
        lower_is_better = mark_best == "min"
    with style():
        fig, axes = new_figure(2, 1, size=(6.2, 6.8), sharex=True, gridspec_kw={"height_ratios": [5, 4]})
        top, bottom = axes[0, 0], axes[1, 0]
        arrays = [np.asarray(v, dtype=float) for v in (x, y, lo, hi, diff, diff_lo, diff_hi)]
        x, y, lo, hi, d, dlo, dhi = arrays
        _lines(
            top,
            x,
            y,
            lo,
            hi,
            groups=groups,
            group_label=group_label,
            mark_best=mark_best,
            shared=shared,
            fmt=lambda v: number(v, percent),
            xname=xname,
        )
        _lines(
            bottom,
            x,
            d,
            dlo,
            dhi,
            groups=groups,
            group_label="",
            mark_best=None,
            include=(0.0,),
            shared=shared,
            fmt=lambda v: number(v, percent, points=True),
            xname=xname,
        )
        bottom.axhline(0.0, color=NEUTRAL, lw=1)
        _percent_axis(top.yaxis, percent)
        _percent_axis(bottom.yaxis, percent, points=True)
        _finish(top, title, None, axis_label(ylabel, lower_is_better))
        unit = "percentage points" if percent else diff_unit
        unit_text = f"\n({unit})" if unit else ""
        _finish(
            bottom, None, xlabel, axis_label(f"difference vs {_short(baseline)}{unit_text}", lower_is_better)
        )
        if groups is not None or mark_best or shared is not None:
            _legend(top, _best_handles(mark_best, shared))
    return fig
