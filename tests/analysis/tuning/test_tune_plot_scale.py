"""The tune plot's axis: a trial is drawn off the scale only when its estimate lies further
on the worse side than the best trial lies on the better side, and the legend claims no
direction for it."""

import pandas as pd

from simulator.analysis.tuning.result import plot_trials


def _summary(lower: bool) -> dict:
    metric = {"name": "score", "doc": "points", "lower_is_better": lower, "kind": "mean"}
    return {"metric": metric, "unit": "round", "start": "s", "game": "g", "spec": "x", "vs": "f"}


def _trials(diffs: list[float], states: list[str]) -> pd.DataFrame:
    return pd.DataFrame(
        {
            "iteration": 1,
            "trial": range(len(diffs)),
            "state": states,
            "diff": diffs,
            "diff_lo": [d - 0.01 for d in diffs],
            "diff_hi": [d + 0.01 for d in diffs],
        }
    )


def _labels(ax) -> list[str]:
    return [h.get_label() for h in ax.get_legend().legend_handles]


def test_a_worse_trial_as_far_as_the_best_is_better_stays_on_the_axis():
    # the case met in a real search: complete trials near 0, a pruned one 0.006 better,
    # another pruned one 0.0058 worse, whose interval includes 0
    t = _trials(
        [0.0, 0.0058, 0.001, 0.0004, 0.0004, -0.006],
        ["complete", "pruned", "pruned"] + ["complete"] * 2 + ["pruned"],
    )
    ax = plot_trials(_summary(True), t, None, None)
    low, high = ax.get_ylim()
    assert low <= -0.006 and high >= 0.0058
    assert not any("off the scale" in label for label in _labels(ax))


def test_a_trial_far_off_is_marked_without_calling_it_worse():
    t = _trials([0.0, 0.0004, -0.0002, 5.0], ["complete", "complete", "complete", "pruned"])
    ax = plot_trials(_summary(True), t, None, None)
    assert ax.get_ylim()[1] < 5.0
    labels = _labels(ax)
    assert any("off the scale (1" in label for label in labels)
    assert not any("worse" in label for label in labels)


def test_higher_is_better_mirrors_the_axis():
    t = _trials([0.0, -0.0058, 0.006, 0.0004], ["complete", "pruned", "pruned", "complete"])
    ax = plot_trials(_summary(False), t, None, None)
    low, high = ax.get_ylim()
    assert low <= -0.0058 and high >= 0.006


def test_a_later_iteration_names_its_own_start_and_field():
    summary = _summary(True) | {
        "iterations": [
            {"iteration": 1, "start": "s", "field": "f", "winner": "w1"},
            {"iteration": 2, "start": "w1", "field": "w1", "winner": "w1"},
        ]
    }
    t = pd.concat([_trials([0.0, 0.001], ["complete"] * 2).assign(iteration=i) for i in (1, 2)])
    ax = plot_trials(summary, t, 2, None)
    assert "against w1, iteration 2" in ax.get_title()
    assert "starting parameters (w1)" in _labels(ax)
    ax1 = plot_trials(summary, t, 1, None)
    assert "against f, iteration 1" in ax1.get_title()
    assert "starting parameters (s)" in _labels(ax1)


def test_when_only_the_start_completed_the_axis_is_not_a_width_of_nothing():
    # iteration 2 of an --iterate search: the start alone is complete (its interval 0 wide),
    # every candidate was pruned after a few deals; only the one far off is off the scale
    t = _trials([0.0, 0.007, 0.015, 0.001, 7.89], ["complete"] + ["pruned"] * 4)
    t["diff_lo"], t["diff_hi"] = [0.0, -0.03, -0.02, -0.03, 7.5], [0.0, 0.044, 0.051, 0.032, 8.28]
    ax = plot_trials(_summary(True), t, None, None)
    assert ax.get_ylim()[1] > 0.015
    assert "estimate off the scale (1; see the trials table)" in _labels(ax)
