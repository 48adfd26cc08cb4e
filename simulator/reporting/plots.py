"""Figures in one style: metric against a parameter with interval bands, seat-advantage
bars, paired differences, histograms of scores and match lengths, and heatmaps.

Every function returns a :class:`matplotlib.figure.Figure` (no pyplot state, so it is
safe in threads, tests and notebooks) and :func:`save` writes it as PNG and SVG.  The
palette is Okabe–Ito (distinguishable with the common colour-vision deficiencies);
every axis is labelled with its unit and every title says what is plotted.

Every figure keeps these rules:

- **One colour means better, everywhere.**  A diverging colour scale runs from red
  (worse) through white to blue (better) whichever way the metric points, and its colour
  bar says so (``better →``); an axis of a metric says which way is better
  (``← lower is better``).  Without a stated direction a scale claims nothing (purple to
  orange) and the axis says nothing about it.
- **Axes zoom to the informative range.**  Limits hold the estimates and their intervals,
  less the outliers (an estimate more than :data:`WHISKER` interquartile spans beyond the
  quartiles, see :func:`robust_limits`); an outlier is drawn at the edge with an arrow and
  its value instead of on a scale that flattens everything else.
- **Intervals are drawn** (95% bands or whiskers); **labels are never clipped**
  (constrained layout; :func:`save` writes with a tight bounding box); **cells without
  data are hatched and say so**; numbers on cells are at least 9 pt at the saved size and
  never read ``-0.0``.
- A figure is at most :data:`MAX_WIDTH` inches wide where it can be, so a 980 px page
  shows it at its saved size (150 dpi).
"""

from __future__ import annotations

import textwrap
from collections.abc import Callable, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path

import matplotlib
import numpy as np
from matplotlib import ticker
from matplotlib.figure import Figure
from matplotlib.lines import Line2D
from matplotlib.patches import Patch, Rectangle
from matplotlib.text import OffsetFrom

# Okabe–Ito: blue, vermilion, green, purple, orange, sky blue, yellow, black.
PALETTE = ("#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#F0E442", "#000000")
NEUTRAL = "#555555"
BAND_ALPHA = 0.22
#: Better and worse, wherever a figure colours by direction (the ends of :data:`BETTER_CMAP`).
BETTER, WORSE = "#2166AC", "#B2182B"
#: The diverging scale whose high end means better: red (worse), white, blue (better).
BETTER_CMAP = "RdBu"
#: A diverging scale that claims no direction (used when none is given).
NEUTRAL_CMAP = "PuOr"
#: Widest figure (inches) that a 980 px page shows unscaled at ``savefig.dpi``.
MAX_WIDTH = 6.3
#: Font size (pt) of the numbers written on heatmap cells.
CELL_FONT = 9.5
#: Outlier rule of :func:`robust_limits`: this many interquartile spans beyond the quartiles.
WHISKER = 3.0
MINUS = "\u2212"

STYLE = {
    "figure.dpi": 110,
    "savefig.dpi": 150,
    "savefig.bbox": "tight",
    "font.size": 10,
    "axes.titlesize": 11.5,
    "axes.titleweight": "bold",
    "axes.labelsize": 10,
    "axes.spines.top": False,
    "axes.spines.right": False,
    "axes.grid": True,
    "grid.alpha": 0.3,
    "grid.linewidth": 0.6,
    "axes.prop_cycle": matplotlib.cycler(color=PALETTE),
    "legend.frameon": False,
    "legend.fontsize": 9,
    "lines.linewidth": 1.8,
    "lines.markersize": 4.5,
    "xtick.labelsize": 9.5,
    "ytick.labelsize": 9.5,
    "svg.fonttype": "none",  # text stays text in the SVG
}


@contextmanager
def style():
    """The house style, applied while figures are made."""
    with matplotlib.rc_context(STYLE):
        yield


def colour(i: int) -> str:
    return PALETTE[i % len(PALETTE)]


def new_figure(nrows: int = 1, ncols: int = 1, size: tuple[float, float] = (6.2, 4.0), **kw):
    with style():
        fig = Figure(figsize=size, layout="constrained")
        axes = fig.subplots(nrows, ncols, squeeze=False, **kw)
    return fig, axes


def direction(lower_is_better: bool | None) -> str:
    """``← lower is better`` or ``higher is better →`` (empty when no direction is given).

    The arrow points along the axis towards better values; on a y axis (text turned a
    quarter to the left) ``←`` points down and ``→`` up."""
    if lower_is_better is None:
        return ""
    return "← lower is better" if lower_is_better else "higher is better →"


def axis_label(label: str, lower_is_better: bool | None = None) -> str:
    """An axis label with, on a second line, which way is better."""
    d = direction(lower_is_better)
    return f"{label}\n{d}" if d else label


def signed(value: float, digits: int = 2, sign: bool = True) -> str:
    """A number for a cell or an annotation: ``+1.20``, ``−0.004``, never ``-0.0``.

    A value that rounds to zero at ``digits`` gets up to two more digits; one that still
    rounds to zero is written ``0``."""
    v = float(value)
    if not np.isfinite(v):
        return "n/a"
    for d in range(digits, digits + 3):
        r = round(v, d)
        if r != 0:
            text = f"{r:+.{d}f}" if sign else f"{r:.{d}f}"
            return text.replace("-", MINUS)
    return "0"


def number(value: float, percent: bool = False, points: bool = False) -> str:
    """An estimate for an annotation, four significant digits; ``percent``: a rate as a
    percentage, or with ``points`` a difference of rates in percentage points."""
    v = float(value)
    if percent and points:
        return f"{100 * v:+.3g} pp".replace("-", MINUS)
    if percent:
        return f"{100 * v:.3g}%"
    return f"{v:.4g}".replace("-", MINUS)


def robust_limits(
    values: Sequence[float],
    lo: Sequence[float] | None = None,
    hi: Sequence[float] | None = None,
    *,
    include: Sequence[float] = (),
    whisker: float = WHISKER,
    pad: float = 0.08,
) -> tuple[float, float, np.ndarray]:
    """Axis limits that hold the informative range, and which estimates are outliers.

    Parameters
    ----------
    values, lo, hi
        The estimates and their interval ends (``lo``/``hi`` default to the estimates).
    include
        Values the range must hold as well (a reference line, 0 for differences).
    whisker
        An estimate is an outlier when it lies more than ``whisker`` spans beyond the
        quartiles of the estimates; the span is the interquartile range of the estimates
        or the median interval width, whichever is larger (so noise is never an outlier).
        Outliers are sought only among five or more estimates, and never more than a third.
    pad
        Share of the range added at each end.

    Returns
    -------
    low, high, outliers
        The limits (over the non-outliers' intervals and ``include``) and a boolean mask.
    """
    v = np.asarray(values, dtype=float)
    lo_a = v if lo is None else np.asarray(lo, dtype=float)
    hi_a = v if hi is None else np.asarray(hi, dtype=float)
    finite = np.isfinite(v)
    out = np.zeros(v.shape, dtype=bool)
    if finite.sum() >= 5:
        q1, q3 = np.percentile(v[finite], [25, 75])
        widths = (hi_a - lo_a)[finite]
        widths = widths[np.isfinite(widths)]
        scale = max(float(q3 - q1), float(np.median(widths)) if widths.size else 0.0)
        if scale > 0:
            cand = finite & ((v < q1 - whisker * scale) | (v > q3 + whisker * scale))
            if cand.sum() <= finite.sum() // 3:
                out = cand
    keep = finite & ~out
    pts = np.concatenate([v[keep], lo_a[keep], hi_a[keep], np.asarray(list(include), dtype=float)])
    pts = pts[np.isfinite(pts)]
    if not pts.size:
        return -1.0, 1.0, out
    a, b = float(pts.min()), float(pts.max())
    if a == b:
        half = 0.5 * abs(a) or 0.5
        return a - half, b + half, out
    span = b - a
    return a - pad * span, b + pad * span, out


def _wrap(text: str, width: int) -> str:
    """Wrap each line of ``text`` at ``width`` characters (after spaces or commas)."""
    lines = []
    for line in str(text).split("\n"):
        if len(line) <= width:
            lines.append(line)
            continue
        pieces = textwrap.wrap(line.replace(",", ", "), width, break_long_words=True)
        lines += [p.replace(", ", ",") for p in pieces]
    return "\n".join(lines)


def _title_width(fig: Figure, fontsize: float = 11.5, share: float = 1.0) -> int:
    """How many characters of a bold title fit ``share`` of the figure's width."""
    return max(30, int(share * fig.get_figwidth() * 72 / (0.62 * fontsize)))


def _finish(ax, title: str | None, xlabel: str | None, ylabel: str | None) -> None:
    if title:
        # An axes title starts at the axes' left edge: it has the axes' width, not the figure's.
        share = min(0.85, ax.get_position().width)
        ax.set_title(_wrap(title, _title_width(ax.figure, share=share)), loc="left")
    if xlabel:
        ax.set_xlabel(xlabel)
    if ylabel:
        ax.set_ylabel(ylabel)


def _percent_axis(axis, percent: bool | str, points: bool = False) -> None:
    """Rates as percentages on ``axis``; differences of rates (``points``, or ``percent``
    given as ``"points"``) in percentage points."""
    if not percent:
        return
    if points or percent == "points":
        axis.set_major_formatter(ticker.FuncFormatter(lambda v, _: f"{100 * v:g}".replace("-", MINUS)))
    else:
        axis.set_major_formatter(ticker.FuncFormatter(lambda v, _: f"{100 * v:.4g}%".replace("-", MINUS)))


def _mark_outliers(
    ax, x, y, out, limits, *, colour_: str, fmt: Callable[[float], str] = number, xname: str | None = None
) -> None:
    """Each outlier as a triangle at the edge it lies beyond; the outliers beyond one edge
    share one note (``k=0: 14.53``, one line each, "off scale") with an arrow to each."""
    low, high = limits
    for above in (True, False):
        idx = [i for i in np.flatnonzero(out) if (y[i] > high) == above]
        if not idx:
            continue
        idx.sort(key=lambda i: x[i])
        edge = high if above else low
        where = (lambda v: f"{xname}={v:g}") if xname else (lambda v: f"at {v:g}")
        text = ("above the scale:\n" if above else "below the scale:\n") + "\n".join(
            f"{where(x[i])}: {fmt(y[i])}" for i in idx
        )
        anchor = OffsetFrom(ax.transData, (x[idx[0]], edge), unit="points")
        for n, i in enumerate(idx):
            ax.plot(x[i], edge, "^" if above else "v", color=colour_, ms=7, clip_on=False, zorder=4)
            ax.annotate(
                text if n == 0 else "",
                xy=(x[i], edge),
                xytext=(30, -14 if above else 14),
                textcoords=anchor,
                ha="left",
                va="top" if above else "bottom",
                fontsize=9,
                color=colour_,
                arrowprops={"arrowstyle": "->", "color": colour_, "lw": 1.0, "shrinkA": 0, "shrinkB": 4},
                bbox={"facecolor": "white", "edgecolor": "none", "alpha": 0.85, "pad": 1.5}
                if n == 0
                else None,
                annotation_clip=False,
            )


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


def _legend(ax, extra: Sequence = ()) -> None:
    """The legend of ``ax`` and ``extra`` handles, below the figure: it never covers a
    line, a band or an outlier's note."""
    handles, _ = ax.get_legend_handles_labels()
    handles = list(handles) + list(extra)
    if handles:
        longest = max(len(h.get_label()) for h in handles)
        ncols = max(1, min(len(handles), 3, 64 // max(longest, 1)))
        ax.figure.legend(handles=handles, loc="outside lower center", ncols=ncols)


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
        fig.suptitle(_wrap(title, _title_width(fig)), x=0.01, ha="left", fontweight="bold", fontsize=11.5)
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
        fig.suptitle(_wrap(title, _title_width(fig)), x=0.01, ha="left", fontweight="bold", fontsize=11.5)
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


def _scale(v: np.ndarray, centre: float) -> tuple[float, bool]:
    """Half-width of a diverging colour scale around ``centre``: the largest distance,
    unless a few cells are outliers (then the largest non-outlier; those cells saturate)."""
    dist = np.abs(v[np.isfinite(v)] - centre)
    if not dist.size:
        return 1.0, False
    top = float(dist.max())
    if dist.size < 10:  # too few cells to call any of them an outlier
        return top or 1.0, False
    _, _, out = robust_limits(dist)
    span = float(dist[~out].max()) if out.any() else top
    return (span or top or 1.0), bool(out.any())


def _grid(
    fig: Figure,
    ax,
    v: np.ndarray,
    xlabels: Sequence,
    ylabels: Sequence,
    *,
    centre: float | None,
    lower_is_better: bool | None,
    marks: np.ndarray | None,
    digits: int,
    colorbar: str,
):
    """One heatmap panel with its horizontal colour bar below (better to the right)."""
    if centre is not None:
        span, clipped = _scale(v, centre)
        if lower_is_better is None:
            cmap = NEUTRAL_CMAP
        else:
            cmap = BETTER_CMAP + ("_r" if lower_is_better else "")
        im = ax.imshow(
            np.ma.masked_invalid(v), cmap=cmap, vmin=centre - span, vmax=centre + span, aspect="auto"
        )
    else:
        clipped = False
        finite = v[np.isfinite(v)]
        im = ax.imshow(
            np.ma.masked_invalid(v),
            cmap="viridis_r" if lower_is_better else "viridis",
            vmin=float(finite.min()) if finite.size else 0.0,
            vmax=float(finite.max()) if finite.size else 1.0,
            aspect="auto",
        )
    ax.set_xticks(range(len(xlabels)), [str(x) for x in xlabels])
    ax.set_yticks(range(len(ylabels)), [str(y) for y in ylabels])
    ax.grid(False)
    for side in ("top", "right"):
        ax.spines[side].set_visible(True)
    for i in range(v.shape[0]):
        for j in range(v.shape[1]):
            if np.isfinite(v[i, j]):
                star = "*" if marks is not None and marks[i, j] else ""
                ax.text(
                    j,
                    i,
                    f"{signed(v[i, j], digits, sign=centre is not None)}{star}",
                    ha="center",
                    va="center",
                    fontsize=CELL_FONT,
                    color=_ink(im, v[i, j]),
                )
            else:
                ax.add_patch(
                    Rectangle(
                        (j - 0.5, i - 0.5), 1, 1, facecolor="#EEEEEE", edgecolor="#9A9A9A", hatch="///", lw=0
                    )
                )
                ax.text(
                    j,
                    i,
                    "no data",
                    ha="center",
                    va="center",
                    fontsize=CELL_FONT,
                    color="#333333",
                    bbox={"facecolor": "#EEEEEE", "edgecolor": "none", "pad": 1.0},
                )
    cb = fig.colorbar(
        im,
        ax=ax,
        orientation="horizontal",
        location="bottom",
        shrink=0.8,
        aspect=32,
        pad=0.02,
        extend="both" if clipped else "neither",
    )
    if lower_is_better is not None:
        if lower_is_better:
            cb.ax.invert_xaxis()
        label = f"{colorbar}  ·  better →"
    else:
        label = colorbar
    cb.set_label(label, fontsize=9.5)
    cb.ax.xaxis.set_major_locator(ticker.MaxNLocator(nbins=5, symmetric=centre is not None))
    cb.ax.tick_params(labelsize=9)
    return im, cb


def _grid_size(rows: int, cols: int) -> tuple[float, float]:
    """Width and height (inches) of one heatmap panel whose cells hold 9 pt numbers."""
    return max(4.2, 0.66 * cols + 1.7), 0.44 * rows + 1.9


def heatmap(
    values: np.ndarray,
    xlabels: Sequence,
    ylabels: Sequence,
    *,
    xlabel: str,
    ylabel: str,
    title: str,
    colorbar: str,
    centre: float | None = 0.0,
    marks: np.ndarray | None = None,
    digits: int = 2,
    lower_is_better: bool | None = None,
) -> Figure:
    """A grid of numbers as colours, each cell written out; ``centre`` makes a diverging
    scale around it; ``marks`` (bool) adds a star to cells (e.g. significant after Holm).

    ``lower_is_better`` fixes the colours: blue is better, red worse, whatever the metric's
    direction, and the colour bar (below, better to the right) says ``better →``.  Cells
    without data (NaN) are hatched and say ``no data``."""
    with style():
        v = np.asarray(values, dtype=float)
        w, h = _grid_size(v.shape[0], v.shape[1])
        fig, axes = new_figure(size=(w, h + 0.3))
        ax = axes[0, 0]
        _grid(
            fig,
            ax,
            v,
            xlabels,
            ylabels,
            centre=centre,
            lower_is_better=lower_is_better,
            marks=marks,
            digits=digits,
            colorbar=colorbar,
        )
        _finish(ax, title, xlabel, ylabel)
    return fig


def heatmap_panels(
    panels: Sequence[tuple],
    xlabels: Sequence,
    ylabels: Sequence,
    *,
    xlabel: str,
    ylabel: str,
    title: str,
    colorbar: str,
    digits: int = 1,
    lower_is_better: bool | Sequence[bool | None] | None = None,
) -> Figure:
    """Heatmaps one above the other, one per ``(values, panel title, marks)`` (a fourth
    element, when given, is that panel's ``lower_is_better``), each on its own diverging
    scale around 0 with its colour bar below it; a star marks a cell (e.g. significant
    after Holm).

    ``lower_is_better`` (one for all, or one per panel) fixes the colours so that blue is
    better in every panel, whatever each metric's direction; every colour bar says
    ``better →`` with better to the right.  Cells without data are hatched."""
    with style():
        n = len(panels)
        rows = np.asarray(panels[0][0]).shape[0]
        cols = np.asarray(panels[0][0]).shape[1]
        w, h = _grid_size(rows, cols)
        fig, axes = new_figure(n, 1, size=(w, h * n + 0.5))
        if lower_is_better is None or isinstance(lower_is_better, bool):
            directions = [lower_is_better] * n
        else:
            directions = list(lower_is_better)
        for k, panel in enumerate(panels):
            values, sub, marks = panel[:3]
            lib = panel[3] if len(panel) > 3 else directions[k]
            ax = axes[k, 0]
            v = np.asarray(values, dtype=float)
            _grid(
                fig,
                ax,
                v,
                xlabels,
                ylabels,
                centre=0.0,
                lower_is_better=lib,
                marks=marks,
                digits=digits,
                colorbar=colorbar,
            )
            ax.set_title(sub, loc="left", fontsize=10.5)
            ax.set_xlabel(xlabel)
            ax.set_ylabel(ylabel)
        fig.suptitle(_wrap(title, _title_width(fig)), x=0.01, ha="left", fontweight="bold", fontsize=11.5)
    return fig


def save(fig: Figure, out_dir: str | Path, stem: str) -> dict[str, Path]:
    """Write ``stem.png`` and ``stem.svg`` into ``out_dir`` (tight bounding box: nothing
    clipped); returns their paths."""
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    paths = {}
    with style():
        for ext in ("png", "svg"):
            p = out / f"{stem}.{ext}"
            fig.savefig(p, format=ext, metadata={"Date": None} if ext == "svg" else None)
            paths[ext] = p
    return paths


def _ink(im, value: float) -> str:
    """Black or white text, whichever reads better on the cell's colour."""
    r, g, b, _ = im.cmap(im.norm(value))
    return "white" if 0.299 * r + 0.587 * g + 0.114 * b < 0.5 else "black"


def _short(text, width: int = 28) -> str:
    """Shorten each line of a label to ``width`` characters."""
    lines = str(text).split("\n")
    return "\n".join(s if len(s) <= width else s[: width - 1] + "…" for s in lines)
