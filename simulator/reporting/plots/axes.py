"""What every figure's axes share: labels that say which way is better, signed numbers that
never read ``-0.0``, limits that zoom past outliers (drawn at the edge with their value),
wrapped titles and legends."""

from __future__ import annotations

import textwrap
from collections.abc import Callable, Sequence

import numpy as np
from matplotlib import ticker
from matplotlib.figure import Figure
from matplotlib.text import OffsetFrom

from simulator.reporting.plots.style import MINUS, WHISKER


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


def balanced_wrap(text: str, width: int) -> str:
    """Wrap each line of ``text`` into as few lines of at most ``width`` characters as
    :func:`_wrap` would, but with the words spread evenly, so no line is left with a word
    or two of its own (``(paired, 95%`` / ``CI)``)."""
    lines = []
    for line in str(text).split("\n"):
        if len(line) <= width:
            lines.append(line)
            continue
        n = len(textwrap.wrap(line, width, break_long_words=True))
        for w in range(-(-len(line) // n), width + 1):
            pieces = textwrap.wrap(line, w, break_long_words=False, break_on_hyphens=False)
            if len(pieces) == n and all(len(p) <= width for p in pieces):
                break
        else:
            pieces = textwrap.wrap(line, width, break_long_words=True)
        lines += pieces
    return "\n".join(lines)


def title_text(fig: Figure, title: str, share: float = 1.0) -> str:
    """``title`` wrapped evenly to ``share`` of the width of ``fig`` (see :func:`balanced_wrap`)."""
    return balanced_wrap(title, _title_width(fig, share=share))


def _title_width(fig: Figure, fontsize: float = 11.5, share: float = 1.0) -> int:
    """How many characters of a bold title fit ``share`` of the figure's width."""
    return max(30, int(share * fig.get_figwidth() * 72 / (0.62 * fontsize)))


def _finish(ax, title: str | None, xlabel: str | None, ylabel: str | None) -> None:
    if title:
        # An axes title starts at the axes' left edge: it has the axes' width, not the figure's.
        share = min(0.85, ax.get_position().width)
        ax.set_title(title_text(ax.figure, title, share=share), loc="left")
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


def _legend(ax, extra: Sequence = ()) -> None:
    """The legend of ``ax`` and ``extra`` handles, below the figure: it never covers a
    line, a band or an outlier's note."""
    handles, _ = ax.get_legend_handles_labels()
    handles = list(handles) + list(extra)
    if handles:
        longest = max(len(h.get_label()) for h in handles)
        ncols = max(1, min(len(handles), 3, 64 // max(longest, 1)))
        ax.figure.legend(handles=handles, loc="outside lower center", ncols=ncols)


def _short(text, width: int = 28) -> str:
    """Shorten each line of a label to ``width`` characters."""
    lines = str(text).split("\n")
    return "\n".join(s if len(s) <= width else s[: width - 1] + "…" for s in lines)
