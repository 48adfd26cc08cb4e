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

from simulator.reporting.plots.axes import (  # noqa: F401
    _wrap,
    axis_label,
    balanced_wrap,
    direction,
    number,
    robust_limits,
    signed,
    title_text,
)
from simulator.reporting.plots.bars import (  # noqa: F401
    diff_bars,
    histogram,
    seat_bars,
)
from simulator.reporting.plots.heatmaps import (  # noqa: F401
    heatmap,
    heatmap_panels,
)
from simulator.reporting.plots.lines import (  # noqa: F401
    band,
    metric_vs_param,
    sweep_panels,
)
from simulator.reporting.plots.style import (  # noqa: F401
    BAND_ALPHA,
    BETTER,
    BETTER_CMAP,
    CELL_FONT,
    MAX_WIDTH,
    MINUS,
    NEUTRAL,
    NEUTRAL_CMAP,
    PALETTE,
    STYLE,
    WHISKER,
    WORSE,
    colour,
    new_figure,
    save,
    style,
)
