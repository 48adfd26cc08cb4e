"""Figures in one style: metric against a parameter with interval bands, seat-advantage
bars, paired differences, histograms of scores and match lengths, and heatmaps.

Every function returns a :class:`matplotlib.figure.Figure` (no pyplot state, so it is
safe in threads, tests and notebooks) and :func:`save` writes it as PNG and SVG.  The
palette is Okabe–Ito (distinguishable with the common colour-vision deficiencies);
every axis is labelled with its unit and every title says what is plotted.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path

import matplotlib
import numpy as np
from matplotlib.figure import Figure

# Okabe–Ito: blue, vermilion, green, purple, orange, sky blue, yellow, black.
PALETTE = ("#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#F0E442", "#000000")
NEUTRAL = "#555555"
BAND_ALPHA = 0.22

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
    "svg.fonttype": "none",  # text stays text in the SVG
}


@contextmanager
def style():
    """The house style, applied while figures are made."""
    with matplotlib.rc_context(STYLE):
        yield


def colour(i: int) -> str:
    return PALETTE[i % len(PALETTE)]


def new_figure(nrows: int = 1, ncols: int = 1, size: tuple[float, float] = (6.4, 4.0), **kw):
    with style():
        fig = Figure(figsize=size, layout="constrained")
        axes = fig.subplots(nrows, ncols, squeeze=False, **kw)
    return fig, axes


def _finish(ax, title: str | None, xlabel: str | None, ylabel: str | None) -> None:
    if title:
        ax.set_title(title, loc="left")
    if xlabel:
        ax.set_xlabel(xlabel)
    if ylabel:
        ax.set_ylabel(ylabel)


def band(ax, x, y, lo, hi, *, label: str | None = None, colour_index: int = 0, marker: str = "o") -> None:
    """A line with markers and its 95% interval as a shaded band."""
    c = colour(colour_index)
    x = np.asarray(x, dtype=float)
    ax.fill_between(
        x, np.asarray(lo, dtype=float), np.asarray(hi, dtype=float), color=c, alpha=BAND_ALPHA, lw=0
    )
    ax.plot(x, np.asarray(y, dtype=float), marker=marker, color=c, label=label)


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
) -> Figure:
    """A metric against a parameter, with 95% bands; ``groups`` draws one line per value.

    ``mark_best`` = ``"min"`` or ``"max"`` rings the best point of each line."""
    with style():
        fig, axes = new_figure()
        ax = axes[0, 0]
        x, y, lo, hi = (np.asarray(v, dtype=float) for v in (x, y, lo, hi))
        keys = [None] if groups is None else list(dict.fromkeys(groups))
        g = None if groups is None else np.asarray(list(groups), dtype=object)
        for i, key in enumerate(keys):
            sel = np.ones(len(x), bool) if g is None else g == key
            order = np.argsort(x[sel])
            lab = None if key is None else f"{group_label}{_short(key)}"
            band(ax, x[sel][order], y[sel][order], lo[sel][order], hi[sel][order], label=lab, colour_index=i)
            if mark_best and sel.any():
                j = int(np.nanargmin(y[sel]) if mark_best == "min" else np.nanargmax(y[sel]))
                ax.plot(x[sel][j], y[sel][j], "o", ms=11, mfc="none", mec=colour(i), mew=1.6)
        if reference is not None:
            ax.axhline(reference, color=NEUTRAL, ls="--", lw=1, label=reference_label)
        _finish(ax, title, xlabel, ylabel)
        if groups is not None or reference_label:
            ax.legend()
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
) -> Figure:
    """Top: the metric with its 95% band.  Bottom: the paired difference to the baseline on
    the same deals, with its (much narrower) 95% band and the zero line."""
    with style():
        fig, axes = new_figure(2, 1, size=(6.4, 6.0), sharex=True, gridspec_kw={"height_ratios": [3, 2]})
        top, bottom = axes[0, 0], axes[1, 0]
        arrays = [np.asarray(v, dtype=float) for v in (x, y, lo, hi, diff, diff_lo, diff_hi)]
        x, y, lo, hi, d, dlo, dhi = arrays
        keys = [None] if groups is None else list(dict.fromkeys(groups))
        g = None if groups is None else np.asarray(list(groups), dtype=object)
        for i, key in enumerate(keys):
            sel = np.ones(len(x), bool) if g is None else g == key
            o = np.argsort(x[sel])
            lab = None if key is None else f"{group_label}{_short(key)}"
            band(top, x[sel][o], y[sel][o], lo[sel][o], hi[sel][o], label=lab, colour_index=i)
            dd = np.where(np.isnan(d[sel]), 0.0, d[sel])
            dl = np.where(np.isnan(dlo[sel]), 0.0, dlo[sel])
            dh = np.where(np.isnan(dhi[sel]), 0.0, dhi[sel])
            band(bottom, x[sel][o], dd[o], dl[o], dh[o], colour_index=i)
            if mark_best and sel.any():
                j = int(np.nanargmin(y[sel]) if mark_best == "min" else np.nanargmax(y[sel]))
                top.plot(x[sel][j], y[sel][j], "o", ms=11, mfc="none", mec=colour(i), mew=1.6)
        bottom.axhline(0.0, color=NEUTRAL, lw=1)
        _finish(top, title, None, ylabel)
        unit = f"\n({diff_unit})" if diff_unit else ""
        _finish(bottom, None, xlabel, f"difference vs {_short(baseline)}{unit}")
        if groups is not None:
            top.legend()
    return fig


def seat_bars(
    labels: Sequence[str],
    values: Sequence[float],
    lo: Sequence[float],
    hi: Sequence[float],
    *,
    ylabel: str,
    title: str,
    reference: float | None = None,
    reference_label: str | None = None,
    groups: Sequence[str] | None = None,
) -> Figure:
    """Bars with 95% interval whiskers (e.g. a rate per seat); ``groups`` colours them."""
    with style():
        fig, axes = new_figure(size=(max(4.0, 0.9 * len(labels) + 2.0), 4.0))
        ax = axes[0, 0]
        v, lo, hi = (np.asarray(a, dtype=float) for a in (values, lo, hi))
        keys = list(dict.fromkeys(groups)) if groups is not None else []
        colours = [colour(keys.index(gk)) for gk in groups] if groups is not None else [colour(0)] * len(v)
        xs = np.arange(len(v))
        ax.bar(xs, v, color=colours, alpha=0.85, width=0.65)
        ax.errorbar(xs, v, yerr=[v - lo, hi - v], fmt="none", ecolor="black", capsize=4, lw=1.2)
        ax.set_xticks(
            xs,
            [_short(lab) for lab in labels],
            rotation=20 if len(labels) > 4 else 0,
            ha="right" if len(labels) > 4 else "center",
        )
        if reference is not None:
            ax.axhline(reference, color=NEUTRAL, ls="--", lw=1, label=reference_label)
        if groups is not None:
            from matplotlib.patches import Patch

            handles = [Patch(color=colour(i), label=k) for i, k in enumerate(keys)]
            ax.legend(handles=handles + ([ax.get_lines()[-1]] if reference_label else []))
        elif reference_label:
            ax.legend()
        ax.grid(axis="x", visible=False)
        _finish(ax, title, None, ylabel)
    return fig


def diff_bars(
    labels: Sequence[str],
    diff: Sequence[float],
    lo: Sequence[float],
    hi: Sequence[float],
    *,
    xlabel: str,
    title: str,
    significant: Sequence[bool] | None = None,
) -> Figure:
    """Paired differences with 95% intervals, one row each, and the zero line (a forest plot).
    Filled markers: significant after Holm's correction; hollow: not."""
    with style():
        n = len(labels)
        fig, axes = new_figure(size=(6.4, max(2.2, 0.42 * n + 1.3)))
        ax = axes[0, 0]
        d, lo, hi = (np.asarray(a, dtype=float) for a in (diff, lo, hi))
        ys = np.arange(n)[::-1]
        sig = np.ones(n, bool) if significant is None else np.asarray(significant, dtype=bool)
        for i in range(n):
            c = colour(0) if sig[i] else NEUTRAL
            ax.plot([lo[i], hi[i]], [ys[i], ys[i]], color=c, lw=2)
            ax.plot(d[i], ys[i], "o", color=c, mfc=c if sig[i] else "white", ms=7)
        ax.axvline(0.0, color="black", lw=1)
        ax.set_yticks(ys, [_short(lab, 40) for lab in labels])
        ax.grid(axis="y", visible=False)
        _finish(ax, title, xlabel, None)
    return fig


def histogram(
    series: Mapping[str, np.ndarray],
    *,
    xlabel: str,
    title: str,
    scale: float = 1.0,
    ylabel: str = "share of games",
    trim: float = 0.999,
) -> Figure:
    """Distributions from integer histograms (bin ``i`` holds value ``i``, times ``scale``),
    as shares, one step line per series; the long tail past ``trim`` of the mass is cut."""
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
        _finish(ax, title, xlabel, ylabel)
        ax.set_ylim(bottom=0)
        if len(series) > 1:
            ax.legend()
    return fig


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
) -> Figure:
    """A grid of numbers as colours, each cell written out; ``centre`` makes a diverging
    scale around it; ``marks`` (bool) adds a star to cells (e.g. significant after Holm)."""
    with style():
        v = np.asarray(values, dtype=float)
        fig, axes = new_figure(size=(max(4.5, 0.75 * v.shape[1] + 2.5), max(3.0, 0.5 * v.shape[0] + 1.6)))
        ax = axes[0, 0]
        finite = v[np.isfinite(v)]
        if centre is not None:
            span = float(np.max(np.abs(finite - centre))) if finite.size else 1.0
            span = span or 1.0
            im = ax.imshow(v, cmap="RdBu_r", vmin=centre - span, vmax=centre + span, aspect="auto")
        else:
            im = ax.imshow(v, cmap="viridis", aspect="auto")
        ax.set_xticks(range(len(xlabels)), [str(x) for x in xlabels])
        ax.set_yticks(range(len(ylabels)), [str(y) for y in ylabels])
        ax.grid(False)
        for i in range(v.shape[0]):
            for j in range(v.shape[1]):
                if np.isfinite(v[i, j]):
                    star = "*" if marks is not None and marks[i, j] else ""
                    ax.text(
                        j,
                        i,
                        f"{v[i, j]:.{digits}f}{star}",
                        ha="center",
                        va="center",
                        fontsize=7.5,
                        color=_ink(im, v[i, j]),
                    )
        cb = fig.colorbar(im, ax=ax, shrink=0.9)
        cb.set_label(colorbar)
        _finish(ax, title, xlabel, ylabel)
    return fig


def heatmap_panels(
    panels: Sequence[tuple[np.ndarray, str, np.ndarray | None]],
    xlabels: Sequence,
    ylabels: Sequence,
    *,
    xlabel: str,
    ylabel: str,
    title: str,
    colorbar: str,
    digits: int = 1,
) -> Figure:
    """Heatmaps side by side, one per ``(values, panel title, marks)``, each on its own
    diverging scale around 0; a star marks a cell (e.g. significant after Holm)."""
    with style():
        n = len(panels)
        rows = np.asarray(panels[0][0]).shape[0]
        cols = np.asarray(panels[0][0]).shape[1]
        fig, axes = new_figure(1, n, size=(max(4.0, 0.62 * cols + 1.8) * n, max(3.0, 0.42 * rows + 1.9)))
        for k, (values, sub, marks) in enumerate(panels):
            ax = axes[0, k]
            v = np.asarray(values, dtype=float)
            finite = v[np.isfinite(v)]
            span = float(np.max(np.abs(finite))) if finite.size else 1.0
            im = ax.imshow(v, cmap="RdBu_r", vmin=-(span or 1.0), vmax=span or 1.0, aspect="auto")
            ax.set_xticks(range(len(xlabels)), [str(x) for x in xlabels])
            ax.set_yticks(range(len(ylabels)), [str(y) for y in ylabels])
            ax.grid(False)
            for i in range(v.shape[0]):
                for j in range(v.shape[1]):
                    if np.isfinite(v[i, j]):
                        star = "*" if marks is not None and marks[i, j] else ""
                        ax.text(
                            j,
                            i,
                            f"{v[i, j]:.{digits}f}{star}",
                            ha="center",
                            va="center",
                            fontsize=7,
                            color=_ink(im, v[i, j]),
                        )
            cb = fig.colorbar(im, ax=ax, shrink=0.85)
            if k == n - 1:
                cb.set_label(colorbar)
            ax.set_title(sub, loc="left", fontsize=10)
            ax.set_xlabel(xlabel)
            if k == 0:
                ax.set_ylabel(ylabel)
        fig.suptitle(title, x=0.01, ha="left", fontweight="bold")
    return fig


def save(fig: Figure, out_dir: str | Path, stem: str) -> dict[str, Path]:
    """Write ``stem.png`` and ``stem.svg`` into ``out_dir``; returns their paths."""
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
