"""Figures: one style, labelled axes with units, titles, PNG and SVG."""

import numpy as np
from matplotlib.figure import Figure

from simulator.reporting import plots


def _labels(fig: Figure) -> list[str]:
    out = []
    for ax in fig.axes:
        out += [ax.get_title(loc="left"), ax.get_xlabel(), ax.get_ylabel()]
    return [s for s in out if s]


def test_metric_vs_param_draws_bands_per_group_and_marks_the_best():
    x = [0, 1, 2, 0, 1, 2]
    y = np.array([3.0, 2.0, 2.5, 4.0, 3.5, 3.0])
    fig = plots.metric_vs_param(
        x,
        y,
        y - 0.1,
        y + 0.1,
        groups=["a", "a", "a", "b", "b", "b"],
        group_label="g=",
        xlabel="k (points)",
        ylabel="mean score (points per round)",
        title="Score by k",
        reference=2.8,
        reference_label="baseline",
        mark_best="min",
    )
    ax = fig.axes[0]
    assert ax.get_title(loc="left") == "Score by k" and "points" in ax.get_ylabel()
    assert len(ax.collections) == 2  # one band per group
    assert {t.get_text() for t in fig.legends[0].get_texts()} >= {"g=a", "g=b", "baseline"}


def test_sweep_panels_show_the_paired_difference_with_a_zero_line():
    x = np.arange(4)
    y = np.array([5.0, 4.0, 4.5, 6.0])
    d = y - 4.5
    fig = plots.sweep_panels(
        x,
        y,
        y - 0.5,
        y + 0.5,
        d,
        d - 0.05,
        d + 0.05,
        xlabel="k",
        ylabel="mean score (points per round)",
        title="t",
        baseline="threshold:k=2",
        diff_unit="points per round",
    )
    bottom = fig.axes[1]
    assert "difference vs threshold:k=2" in bottom.get_ylabel() and "points per round" in bottom.get_ylabel()
    assert any(np.allclose(line.get_ydata(), 0) for line in bottom.get_lines())


def test_seat_bars_diff_bars_histogram_and_heatmaps(tmp_path):
    figs = [
        plots.seat_bars(
            ["seat 0", "seat 1"],
            [0.52, 0.48],
            [0.5, 0.46],
            [0.54, 0.5],
            ylabel="win rate (share of rounds)",
            title="Seats",
            reference=0.5,
            reference_label="fair",
        ),
        plots.diff_bars(
            ["a", "b"],
            [0.1, -0.2],
            [0.0, -0.3],
            [0.2, -0.1],
            xlabel="difference (points)",
            title="Differences",
            significant=[False, True],
        ),
        plots.histogram(
            {"seat 0": np.array([0, 5, 10, 5, 1, 0, 0]), "seat 1": np.array([1, 4, 9, 6, 1, 0, 0])},
            xlabel="points",
            title="Scores",
            scale=0.5,
        ),
        plots.heatmap(
            np.array([[0.1, -0.2], [np.nan, 0.3]]),
            ["a", "b"],
            ["x", "y"],
            xlabel="stock left",
            ylabel="card points",
            title="Heat",
            colorbar="points",
            marks=np.array([[True, False], [False, False]]),
        ),
        plots.heatmap_panels(
            [(np.ones((2, 3)), "p1", None), (-np.ones((2, 3)), "p2", np.ones((2, 3), bool))],
            [0, 1, 2],
            [3, 4],
            xlabel="after",
            ylabel="players",
            title="Panels",
            colorbar="pp",
        ),
    ]
    for i, fig in enumerate(figs):
        assert isinstance(fig, Figure)
        labels = _labels(fig)
        assert labels, "every figure has a title and axis labels"
        paths = plots.save(fig, tmp_path, f"f{i}")
        assert paths["png"].read_bytes()[:4] == b"\x89PNG"
        svg = paths["svg"].read_text()
        assert svg.lstrip().startswith("<?xml") and "<svg" in svg
    # The histogram normalises to shares; the heatmap writes its numbers, a star marks a cell.
    hist_ax = figs[2].axes[0]
    assert hist_ax.get_ylabel() == "share of games"
    assert "+0.10*" in [t.get_text() for t in figs[3].axes[0].texts]  # differences are signed
    assert (
        "Panels" in figs[4].texts[0].get_text() if figs[4].texts else figs[4]._suptitle.get_text() == "Panels"
    )


def test_palette_is_consistent():
    assert plots.colour(0) == plots.PALETTE[0] and plots.colour(len(plots.PALETTE)) == plots.PALETTE[0]
    fig = plots.metric_vs_param([0, 1], [1, 2], [0.9, 1.9], [1.1, 2.1], xlabel="x", ylabel="y", title="t")
    assert fig.axes[0].get_lines()[0].get_color() == plots.PALETTE[0]
