"""Figures read plainly: zoomed past outliers, intervals drawn, one colour for better,
no clipped labels, legible cells, no "-0.0", and cells without data marked."""

import itertools
import re

import numpy as np
import pytest
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

from simulator.reporting import plots

SAVE_DPI = plots.STYLE["savefig.dpi"]


def _sweep_like(n_outliers: int = 2):
    """A sweep of k=0..13 like Spøkelse's: k=0 and k=0.5 far off, the rest within 0.2."""
    x = np.arange(27) / 2
    y = 6.66 + 0.0125 * x
    y[0], y[1] = 14.5, 7.48
    if n_outliers == 1:
        y[1] = 6.66
    d = y - y[8]
    return x, y, y - 0.04, y + 0.04, d, d - 0.005, d + 0.005


def _draw(fig: Figure):
    canvas = FigureCanvasAgg(fig)
    fig.set_dpi(SAVE_DPI)
    canvas.draw()
    return canvas.get_renderer()


def _texts_outside(fig: Figure) -> list[str]:
    """What leaves the figure: [] when everything drawn (titles, labels, ticks, colour-bar
    labels, notes) lies within the saved figure even without a tight bounding box."""
    renderer = _draw(fig)
    bb = fig.get_tightbbox(renderer)  # inches, over what is drawn
    w, h = fig.get_size_inches()
    tol = 0.01
    if bb.x0 >= -tol and bb.y0 >= -tol and bb.x1 <= w + tol and bb.y1 <= h + tol:
        return []
    return [f"drawn extent {bb.bounds} leaves the {w:.2f} x {h:.2f} in figure"]


def _sweep_figure(**kw):
    x, y, lo, hi, d, dlo, dhi = _sweep_like()
    return plots.sweep_panels(
        x,
        y,
        lo,
        hi,
        d,
        dlo,
        dhi,
        xlabel="k (points)",
        ylabel="mean score (points per round)",
        title="Score by k against k=4",
        baseline="threshold:k=4",
        mark_best="min",
        diff_unit="points per round",
        xname="k",
        **kw,
    )


def test_the_sweep_plot_zooms_past_the_outliers_and_annotates_them():
    fig = _sweep_figure()
    top, bottom = fig.axes[0], fig.axes[1]
    _, _, lo, hi, d, dlo, _ = _sweep_like()
    low, high = top.get_ylim()
    # The informative range 6.66..6.83 (with its intervals) fills the axis: not 6.6..14.6.
    assert low <= lo[2:].min() and high >= hi[2:].max()
    assert high - low < 0.5 and high < 7.0
    notes = [t.get_text() for t in top.texts]
    assert any("k=0: 14.5" in s and "k=0.5: 7.48" in s for s in notes), notes
    # Each outlier is a triangle at the top edge, not a point off the scale.
    edge = [ln for ln in top.get_lines() if ln.get_marker() == "^"]
    assert len(edge) == 2 and all(np.isclose(ln.get_ydata()[0], high) for ln in edge)
    # The difference panel zooms too, and keeps its zero line in view.
    dlow, dhigh = bottom.get_ylim()
    assert dlow < 0 < dhigh and dhigh < 0.5 and dlow <= dlo[2:].min()
    assert any(f"k=0: {plots.number(d[0])}" in t.get_text() for t in bottom.texts)


def test_the_sweep_plot_draws_intervals_and_says_which_way_is_better():
    fig = _sweep_figure()
    top, bottom = fig.axes[0], fig.axes[1]
    assert top.collections and bottom.collections  # the 95% bands
    band = top.collections[0].get_paths()[0].vertices
    assert band[:, 1].max() - band[:, 1].min() > 0.05  # a band, not a line
    assert "lower is better" in top.get_ylabel() and "points per round" in top.get_ylabel()
    assert "lower is better" in bottom.get_ylabel() and "points per round" in bottom.get_ylabel()
    higher = plots.metric_vs_param(
        [0, 1, 2],
        [1, 2, 3],
        [0.5, 1.5, 2.5],
        [1.5, 2.5, 3.5],
        xlabel="x",
        ylabel="wins",
        title="t",
        lower_is_better=False,
    )
    assert "higher is better" in higher.axes[0].get_ylabel()
    assert _texts_outside(fig) == []


def test_shared_points_are_hollow():
    shared = np.zeros(27, bool)
    shared[[3, 5, 15, 16]] = True
    fig = _sweep_figure(shared=shared)
    hollow = [ln for ln in fig.axes[0].get_lines() if ln.get_markerfacecolor() == "white"]
    assert sum(len(ln.get_xdata()) for ln in hollow) == 4
    legend = [t.get_text() for t in fig.legends[0].get_texts()]
    assert any("same result" in s for s in legend)


def test_robust_limits_find_outliers_but_never_noise():
    rng = np.random.default_rng(1)
    noisy = rng.normal(5.0, 1.0, 40)
    low, high, out = plots.robust_limits(noisy, noisy - 0.3, noisy + 0.3)
    assert not out.any() and low < noisy.min() and high > noisy.max()
    spiked = noisy.copy()
    spiked[7] = 60.0
    low, high, out = plots.robust_limits(spiked)
    assert list(np.flatnonzero(out)) == [7] and high < 60
    # Too few points to call any of them an outlier; include keeps 0 in range.
    low, high, out = plots.robust_limits([1.0, 1.1, 50.0], include=(0.0,))
    assert not out.any() and low < 0 < 50 < high


def _colour_of(ax, value: float):
    im = ax.images[0]
    return np.asarray(im.cmap(im.norm(value)))


def test_heatmap_panels_give_better_the_same_colour_in_every_panel():
    grid = np.array([[1.0, -2.0, 0.5], [-0.5, 2.0, 0.0]])
    fig = plots.heatmap_panels(
        [(grid, "P(signal first)", None), (grid, "P(losing the match)", None), (grid, "P(letter)", None)],
        [0, 2, 4],
        [3, 5],
        xlabel="commit:after",
        ylabel="players",
        title="commit:after minus greedy",
        colorbar="difference (percentage points)",
        lower_is_better=[False, True, True],
    )
    panels = [ax for ax in fig.axes if ax.images]
    assert len(panels) == 3
    best = [_colour_of(panels[0], 2.0), _colour_of(panels[1], -2.0), _colour_of(panels[2], -2.0)]
    worst = [_colour_of(panels[0], -2.0), _colour_of(panels[1], 2.0), _colour_of(panels[2], 2.0)]
    for c in best:
        assert np.allclose(c, best[0]) and c[2] > c[0]  # the blue end
    for c in worst:
        assert np.allclose(c, worst[0]) and c[0] > c[2]  # the red end
    # Every colour bar says better → and runs from worse (left) to better (right).
    bars = [ax for ax in fig.axes if not ax.images]
    assert len(bars) == 3
    for bar, lower in zip(bars, [False, True, True]):
        assert bar.get_xlabel().endswith("better →")
        left, right = bar.get_xlim()
        assert (left > right) == lower
    assert _texts_outside(fig) == []


def test_a_heatmap_without_a_direction_claims_none():
    fig = plots.heatmap(
        np.array([[1.0, -1.0]]), ["a", "b"], ["x"], xlabel="x", ylabel="y", title="t", colorbar="points"
    )
    assert fig.axes[0].images[0].cmap.name == plots.NEUTRAL_CMAP
    assert "better" not in fig.axes[1].get_xlabel()


def test_cells_are_legible_never_minus_zero_and_no_data_is_marked():
    grid = np.array([[-0.04, -0.0004, 0.0], [0.04, np.nan, -1e-9], [1.25, -2.5, np.nan]])
    marks = np.zeros_like(grid, dtype=bool)
    marks[0, 0] = True
    fig = plots.heatmap(
        grid,
        ["21-40", "11-20", "0-10"],
        ["1", "3", "6"],
        xlabel="stock cards left",
        ylabel="points of the card",
        title="Unknown minus known slot",
        colorbar="points per round",
        marks=marks,
        digits=1,
        lower_is_better=True,
    )
    ax = fig.axes[0]
    texts = [t.get_text() for t in ax.texts]
    assert not [s for s in texts if re.fullmatch(r"[-−+]?0\.0*\*?", s)], texts
    assert {"−0.04*", "−2.5", "+0.04"} <= set(texts)
    # 0, -1e-9 and -0.0004 (zero at 1 + 2 digits) all read 0
    assert texts.count("0") == 3 and texts.count("no data") == 2
    assert all(t.get_fontsize() >= 9 for t in ax.texts)
    hatched = [p for p in ax.patches if p.get_hatch()]
    assert len(hatched) == 2
    assert fig.get_figwidth() <= plots.MAX_WIDTH
    assert _texts_outside(fig) == []


@pytest.mark.parametrize("value", [-0.0, -0.00001, 0.0, 1e-12])
def test_signed_never_writes_minus_zero(value):
    assert plots.signed(value, 1) == "0"


def test_signed_adds_digits_before_giving_up():
    assert plots.signed(-0.04, 1) == "−0.04" and plots.signed(0.3, 1) == "+0.3"
    assert plots.signed(0.3, 1, sign=False) == "0.3"


def test_forest_plot_gives_each_unit_its_own_axis_and_ticks_do_not_overlap():
    fig = plots.diff_bars(
        [
            "threshold:k=4",
            "expect:k=1,patience=3,pile=0.5,open=25",
            "threshold:k=4",
            "expect:k=1,patience=3,pile=0.5,open=25",
        ],
        [0.052, -0.051, 0.042, 0.007],
        [0.029, -0.076, 0.007, -0.022],
        [0.075, -0.026, 0.077, 0.036],
        xlabel={"round": "difference to the best k (points per round)", "match": "difference in loss rate"},
        groups=["round", "round", "match", "match"],
        lower_is_better=True,
        percent={"match": True},
        significant=[True, True, True, False],
        title="Against threshold at its best k",
    )
    axes = [ax for ax in fig.axes if ax.get_xlabel()]
    assert len(axes) == 2
    assert "points per round" in axes[0].get_xlabel() and "percentage points" in axes[1].get_xlabel()
    assert all("lower is better" in ax.get_xlabel() for ax in axes)
    renderer = _draw(fig)
    for ax in axes:
        boxes = [t.get_window_extent(renderer) for t in ax.get_xticklabels() if t.get_text()]
        lo, hi = ax.get_xlim()
        boxes = [b for b, tick in zip(boxes, ax.get_xticks()) if lo <= tick <= hi]
        for a, b in itertools.pairwise(boxes):
            assert a.x1 <= b.x0 or b.x1 <= a.x0
    # Better and worse are told apart by colour, the same colours as the heatmaps' ends.
    colours = {ln.get_color() for ln in axes[0].get_lines()}
    assert plots.BETTER in colours and plots.WORSE in colours
    assert _texts_outside(fig) == []


def test_bars_give_each_unit_its_own_axis():
    fig = plots.seat_bars(
        ["k=2", "k=4", "k=2", "k=4"],
        [0.53, 0.52, 0.057, 0.01],
        [0.48, 0.47, 0.024, -0.02],
        [0.58, 0.57, 0.09, 0.04],
        ylabel={
            "round play": "never-take minus take (points per round)",
            "match play": "never-take minus take (loss rate, percentage points)",
        },
        title="What never taking the discard top costs",
        reference=0.0,
        groups=["round play", "round play", "match play", "match play"],
        lower_is_better=True,
        percent={"match play": "points"},
    )
    axes = fig.axes
    assert len(axes) == 2 and axes[0].get_ylabel() != axes[1].get_ylabel()
    assert all(ax.containers for ax in axes)  # bars with whiskers
    assert _texts_outside(fig) == []
