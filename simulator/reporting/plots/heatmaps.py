"""Heatmaps over two parameters: cells coloured better or worse (or neutral), numbers written
on them, cells without data hatched; one or several panels."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from matplotlib import ticker
from matplotlib.figure import Figure
from matplotlib.patches import Rectangle

from simulator.reporting.plots.axes import _finish, robust_limits, signed, title_text
from simulator.reporting.plots.style import BETTER_CMAP, CELL_FONT, NEUTRAL_CMAP, new_figure, style

#: How much of a cell's colour shows when its 95% interval includes the centre (the rest is white).
MUTED = 0.3


def _scale(v: np.ndarray, centre: float, lo=None, hi=None) -> tuple[float, bool]:
    """Half-width of a diverging colour scale around ``centre``: the largest distance,
    unless a few cells are outliers (then the largest non-outlier; those cells saturate).

    With intervals (``lo``, ``hi``), a cell's distance is that of the far end of its interval,
    so a small effect measured with a wide interval is not drawn at full strength."""
    if lo is not None and hi is not None:
        far = np.fmax(np.abs(v - centre), np.fmax(np.abs(lo - centre), np.abs(hi - centre)))
        v = np.where(np.isfinite(v), far + centre, np.nan)
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
    lo: np.ndarray | None = None,
    hi: np.ndarray | None = None,
):
    """One heatmap panel with its horizontal colour bar below (better to the right).

    Given the cells' 95% intervals (``lo``, ``hi``), the scale reaches the largest interval
    end, and a cell whose interval includes ``centre`` is drawn pale: its colour
    is no finding."""
    muted = np.zeros(v.shape, bool)
    if lo is not None and hi is not None and centre is not None:
        lo, hi = np.asarray(lo, dtype=float), np.asarray(hi, dtype=float)
        muted = np.isfinite(v) & (lo <= centre) & (hi >= centre)
    if centre is not None:
        span, clipped = _scale(v, centre, lo, hi)
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
            if muted[i, j]:
                ax.add_patch(
                    Rectangle(
                        (j - 0.5, i - 0.5),
                        1,
                        1,
                        facecolor=(1, 1, 1, 1 - MUTED),
                        lw=0,
                    )
                )
            if np.isfinite(v[i, j]):
                star = "*" if marks is not None and marks[i, j] else ""
                ax.text(
                    j,
                    i,
                    f"{signed(v[i, j], digits, sign=centre is not None)}{star}",
                    ha="center",
                    va="center",
                    fontsize=CELL_FONT,
                    color="black" if muted[i, j] else _ink(im, v[i, j]),
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
    if muted.any():
        label += "\npale: the 95% interval includes 0"
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
    lo: np.ndarray | None = None,
    hi: np.ndarray | None = None,
) -> Figure:
    """A grid of numbers as colours, each cell written out; ``centre`` makes a diverging
    scale around it; ``marks`` (bool) adds a star to cells (e.g. significant after Holm).

    ``lo`` and ``hi`` (the cells' 95% intervals) size the scale to the largest interval end
    and draw a cell whose interval includes ``centre`` pale.

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
            lo=lo,
            hi=hi,
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
    intervals: Sequence[tuple[np.ndarray, np.ndarray]] | None = None,
) -> Figure:
    """Heatmaps one above the other, one per ``(values, panel title, marks)`` (a fourth
    element, when given, is that panel's ``lower_is_better``), each on its own diverging
    scale around 0 with its colour bar below it; a star marks a cell (e.g. significant
    after Holm).

    ``lower_is_better`` (one for all, or one per panel) fixes the colours so that blue is
    better in every panel, whatever each metric's direction; every colour bar says
    ``better →`` with better to the right.  Cells without data are hatched.  ``intervals``
    (one ``(lo, hi)`` per panel) draw cells whose 95% interval includes 0 pale,
    as :func:`heatmap` does."""
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
                lo=None if intervals is None else intervals[k][0],
                hi=None if intervals is None else intervals[k][1],
            )
            ax.set_title(sub, loc="left", fontsize=10.5)
            ax.set_xlabel(xlabel)
            ax.set_ylabel(ylabel)
        fig.suptitle(title_text(fig, title), x=0.01, ha="left", fontweight="bold", fontsize=11.5)
    return fig


def _ink(im, value: float) -> str:
    """Black or white text, whichever reads better on the cell's colour."""
    r, g, b, _ = im.cmap(im.norm(value))
    return "white" if 0.299 * r + 0.587 * g + 0.114 * b < 0.5 else "black"
