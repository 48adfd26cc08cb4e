"""The experiments' headlines from constructed numbers: the k with the lowest observed score
is called best only when it beats every other k on the same deals (Holm), else it is the
lowest observed and the k it is not clearly better than are named; committing early is
called worse only where the corrected test says so, with the range of the differences and
their intervals."""

from types import SimpleNamespace

import numpy as np
import pandas as pd
import pytest

import experiments
from experiments.commit_early import report as commit_early_report
from experiments.spokelse_strategy import thresholds
from simulator.analysis import leader

N = 2000


def _deals(k2_minus_k1: np.ndarray) -> np.ndarray:
    """Per-deal scores of k=1, k=2 and k=4 on the same deals: k=4 three points worse than
    k=1 on every deal, k=2 as k=1 but for ``k2_minus_k1``."""
    common = np.random.default_rng(7).integers(0, 40, N)  # how hard each deal is, for every k
    k1 = common
    return np.column_stack([k1, k1 + k2_minus_k1, k1 + 3])


NAMES = ["threshold:k=1", "threshold:k=2", "threshold:k=4"]


def _top(found: dict, values: np.ndarray) -> dict:
    """A sweep's ``top`` (:meth:`SweepResult.top`) for the leader :func:`from_deals` found."""
    col = values[:, NAMES.index(found["leader"])]
    half = 1.96 * col.std(ddof=1) / np.sqrt(len(col))
    return {
        "player": found["leader"],
        "point": {"k": float(found["leader"].rpartition("=")[2])},
        "value": col.mean(),
        "ci": [col.mean() - half, col.mean() + half],
        "vs_others": found["tests"],
        "vs_baseline": None,
        "best": found["best"],
    }


def test_a_leader_that_ties_its_neighbour_on_most_deals_is_the_lowest_observed_not_best():
    # k=2 scores one point less than k=1 on a single deal of 2000: lowest observed, but no test
    # tells it from k=1; it is clearly better than k=4.
    step = np.zeros(N, dtype=np.int64)
    step[0] = -1
    values = _deals(step)
    found = leader.from_deals(values, NAMES, lower_is_better=True)
    assert found["leader"] == "threshold:k=2" and found["best"] is False
    by = {t["other"]: t for t in found["tests"]}
    assert [t["other"] for t in found["tests"]] == ["threshold:k=1", "threshold:k=4"]  # the closest first
    assert by["threshold:k=1"]["diff"] == pytest.approx(-1 / N) and not by["threshold:k=1"]["significant"]
    assert by["threshold:k=4"]["diff"] == pytest.approx(-3 - 1 / N) and by["threshold:k=4"]["significant"]
    top = _top(found, values)
    line = thresholds._k_headline(top, "lowest", "points per round")
    assert line.startswith(
        "Not settled at this size: k=2 is the lowest observed (not clearly better than k=1)"
    )
    assert "best" not in line.replace("no k is called best", "")
    res = SimpleNamespace(baseline="threshold:k=4", table=pd.DataFrame({"k": [1, 2, 4]}))
    text, kind = thresholds._best_k_text("Round play, jack ½", top, res, N, False, "points per round")
    assert kind == "lowest" and "it is not called best: k=2 minus k=1 is -0.0005 [" in text
    assert "Holm-corrected p = " in text and "over 2 comparisons" in text


def test_a_leader_lower_than_every_other_k_on_the_same_deals_is_best():
    # k=2 scores one point less than k=1 on every other deal: better than both others
    values = _deals(-(np.arange(N) % 2))
    found = leader.from_deals(values, NAMES, lower_is_better=True)
    assert found["leader"] == "threshold:k=2" and found["best"] is True
    assert all(t["significant"] and t["p_holm"] < 0.05 for t in found["tests"])
    top = _top(found, values)
    line = thresholds._k_headline(top, "best", "points per round")
    assert line.startswith("k=2: the lowest mean score, lower than every other k tried on the same deals")
    assert "the closest, k=1, scores 0.500 points per round (95% CI" in line
    res = SimpleNamespace(baseline="threshold:k=4", table=pd.DataFrame({"k": [1, 2, 4]}))
    text, kind = thresholds._best_k_text("Round play, jack ½", top, res, N, False, "points per round")
    assert kind == "best" and "lower than every other k played on the same deals" in text


def test_best_needs_every_test_after_holms_correction():
    def tests(*ps: float) -> list[tuple[str, dict]]:
        return [(f"k={i}", {"diff": -0.01, "p_value": p}) for i, p in enumerate(ps)]

    raw_each_below = tests(0.03, 0.04)  # each below 0.05 alone; Holm: 0.06, 0.06
    assert leader.holm_against(raw_each_below, lower_is_better=True) is False
    assert [t["p_holm"] for _, t in raw_each_below] == pytest.approx([0.06, 0.06])
    assert leader.holm_against(tests(0.001, 0.04), lower_is_better=True) is True  # 0.002, 0.04
    worse = [("k=1", {"diff": +0.01, "p_value": 1e-9})]  # rejected, but in the other direction
    assert leader.holm_against(worse, lower_is_better=True) is False
    untested = [("k=1", {"diff": -0.01, "p_value": None})]  # fewer than 2 deals
    assert leader.holm_against(untested, lower_is_better=True) is False


def test_a_leader_not_tested_against_the_others_is_never_best():
    # a sweep read back from a run folder made before the tests were kept: no vs_others
    top = {"player": "threshold:k=2", "value": 6.7, "ci": [6.6, 6.8], "best": False, "vs_baseline": None}
    assert leader.standing("lowest", None) == "lowest observed (not tested against every other point)"
    line = thresholds._k_headline(top, "lowest", "points per round")
    assert line.startswith("Not settled at this size: k=2 is the lowest observed (not tested")


def _rows(diffs, los, his, ps, players=(3, 4, 5)):
    return pd.DataFrame(
        {
            "players": list(players),
            "metric": "lose_match",
            "diff_vs_greedy": diffs,
            "diff_vs_greedy_lo": los,
            "diff_vs_greedy_hi": his,
            "p_holm": ps,
            "deals": 2000,
        }
    )


def test_worse_everywhere_is_said_with_its_range():
    rows = _rows([0.003, 0.012, 0.024], [0.001, 0.006, 0.016], [0.005, 0.018, 0.030], [0.01, 0.001, 1e-9])
    kind, phrase = commit_early_report._field_phrase(rows, "lose_match")
    assert kind == "worse"
    assert phrase == (
        "it is worse than greedy at every table size tried (3-5 players), by 0.30–2.4 percentage points "
        "of lost matches (95% intervals from 0.10 to 3.0)"
    )


def test_an_uncorrected_interval_alone_names_no_loser():
    # Every interval excludes 0, but the corrected p at 4 players is 0.21.
    rows = _rows([0.003, 0.012, 0.024], [0.001, 0.006, 0.016], [0.005, 0.018, 0.030], [0.01, 0.21, 1e-9])
    kind, phrase = commit_early_report._field_phrase(rows, "lose_match")
    assert kind == "mixed" and "no difference detected at 4 players" in phrase
    rows = _rows([0.003, 0.01, 0.02], [0.001, 0.002, 0.004], [0.005, 0.018, 0.036], [0.3, 0.21, 0.4])
    kind, phrase = commit_early_report._field_phrase(rows, "lose_match")
    assert kind == "none" and "no difference from greedy is detected at this size" in phrase
    assert "would usually show (80% power; an estimate from the observed paired spread)" in phrase
    assert "would take about" not in phrase


def test_the_commit_headline_says_no_when_worse_everywhere():
    rows = []
    for field in ("greedy", "commit:after=0"):
        t = _rows([0.003, 0.012, 0.024], [0.001, 0.006, 0.016], [0.005, 0.018, 0.030], [0.01, 0.001, 1e-9])
        t["game"], t["field"], t["player"] = "gris", field, "commit:after=0"
        rows.append(t)
    b = SimpleNamespace(headlines=[], tables={}, answer=[])
    b.headline = lambda q, a: b.headlines.append((q, a))
    b.table = lambda name, df, formats=None: b.tables.setdefault(name, df)
    commit_early_report._headlines(
        b,
        pd.concat(rows),
        {"games": ["gris"], "afters": [0], "players": [3, 4, 5], "fields": ["greedy", "commit:after=0"]},
    )
    (q1, a1), (q2, a2) = b.headlines
    assert q2.startswith("Gris: where does")
    assert q1 == "Gris: is committing on the deal (commit:after=0) worth it, in matches lost?"
    assert a1.startswith(
        "No: committing on the deal loses more matches than greedy at every table size tried"
    )
    assert b.answer[0].startswith(
        "Gris, committing on the deal (commit:after=0), lost matches: against greedy players, "
        "it is worse than greedy at every table size tried"
    )
    assert a2.startswith("It does not flip")
    assert list(b.tables["summary"]["verdict"]) == ["worse"] * 6


def test_every_experiment_has_a_plan():
    for name in experiments.EXPERIMENTS:
        for size in experiments.SIZES:
            steps = experiments.plan(name, size)
            assert steps and len({s.key for s in steps}) == len(steps)
