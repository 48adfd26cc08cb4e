"""The profile's figures read plainly: every axis that carries numbers is labelled with its
unit, intervals are drawn, and nothing drawn leaves the figure."""

import re

import pytest
from matplotlib.backends.backend_agg import FigureCanvasAgg

import simulator
from simulator.analysis.profiling.charts import all_charts
from simulator.reporting import plots

UNIT = re.compile(r"\(([^)]+)\)")  # "turns per round (turns)", "share of rounds (%)"


@pytest.fixture(scope="module")
def charts():
    prof = simulator.profile("gris", players="3,4", rounds=600, matches=40, seed=9)
    return all_charts(prof.summary)


def _inside(fig) -> bool:
    canvas = FigureCanvasAgg(fig)
    fig.set_dpi(plots.STYLE["savefig.dpi"])
    canvas.draw()
    bb = fig.get_tightbbox(canvas.get_renderer())
    w, h = fig.get_size_inches()
    return bb.x0 >= -0.01 and bb.y0 >= -0.01 and bb.x1 <= w + 0.01 and bb.y1 <= h + 0.01


def test_every_figure_is_made(charts):
    assert set(charts) == {
        "round length",
        "match length",
        "seat advantage",
        "skill: paired differences",
        "skill: variance shares",
        "memory and care",
        "match finishes",
    }


def test_every_numeric_axis_is_labelled_with_its_unit(charts):
    for name, fig in charts.items():
        for ax in fig.axes:
            assert UNIT.search(ax.get_xlabel()), f"{name}: x axis {ax.get_xlabel()!r} names no unit"
            # A y axis is either categorical (tick labels name the rows) or numeric with a unit.
            ticks = [t.get_text() for t in ax.get_yticklabels()]
            categorical = any(re.search(r"[a-z]", t) for t in ticks)
            assert categorical or UNIT.search(ax.get_ylabel()), f"{name}: y axis {ax.get_ylabel()!r}"
            assert ax.get_title(), f"{name}: an axis without a title"


def test_intervals_are_drawn_and_nothing_is_clipped(charts):
    for name, fig in charts.items():
        assert _inside(fig), f"{name}: something drawn leaves the figure"
    forest = charts["seat advantage"].axes[0]
    assert forest.containers, "the seat advantage has no interval whiskers"
    # Gris declares two round roles (six cards, dealing), one row per role and table size.
    assert len(forest.get_yticklabels()) == 4


GAP = 0.5  # neighbouring tick labels stand at least this many font sizes apart (one space or so)


def _overlapping_ticks(fig) -> list[str]:
    """Neighbouring x tick labels that overlap or stand closer than :data:`GAP` (``1011121314``
    reads as one number even when the boxes do not quite touch)."""
    canvas = FigureCanvasAgg(fig)
    canvas.draw()
    out = []
    for ax in fig.axes:
        labels = [t for t in ax.get_xticklabels() if t.get_text() and t.get_visible()]
        boxes = [t.get_window_extent(canvas.get_renderer()) for t in labels]
        for (a, ta), (b, tb) in zip(zip(boxes, labels), zip(boxes[1:], labels[1:])):
            gap = GAP * ta.get_fontsize() * fig.dpi / 72
            if b.x0 - a.x1 < gap:
                out.append(f"{ta.get_text()!r} runs into {tb.get_text()!r}")
    return out


def test_no_tick_labels_run_into_each_other(charts):
    for name, fig in charts.items():
        assert _overlapping_ticks(fig) == [], name


def test_match_finishes_label_a_wide_range_of_margins_legibly():
    from simulator.analysis.profiling.charts import margin_chart

    values = list(range(1, 26))  # margins 1..25, as long Gris matches give
    page = {"label": "as played", "matches": {"matches": 500, "margin": {"unit": "points"},
                                              "margin_histogram": {"value": values, "matches": [20] * 25}}}  # fmt: skip
    fig = margin_chart({"pages": [page]})
    assert _overlapping_ticks(fig) == []
    shown = [t.get_text() for t in fig.axes[0].get_xticklabels() if t.get_text()]
    assert 4 <= len(shown) <= 14 and all(s.lstrip("−-").isdigit() for s in shown), shown
