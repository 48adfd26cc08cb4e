"""The house style of every figure: the Okabe–Ito palette, the colour scales, the sizes and the
matplotlib settings, a new figure in that style, and :func:`save` (PNG and SVG)."""

from __future__ import annotations

from contextlib import contextmanager
from pathlib import Path

import matplotlib
from matplotlib.figure import Figure

from simulator.engine.files import atomic_path

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


def save(fig: Figure, out_dir: str | Path, stem: str) -> dict[str, Path]:
    """Write ``stem.png`` and ``stem.svg`` into ``out_dir`` (tight bounding box: nothing
    clipped); returns their paths."""
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    paths = {}
    with style():
        for ext in ("png", "svg"):
            p = out / f"{stem}.{ext}"
            with atomic_path(p) as tmp:
                fig.savefig(tmp, format=ext, metadata={"Date": None} if ext == "svg" else None)
            paths[ext] = p
    return paths
