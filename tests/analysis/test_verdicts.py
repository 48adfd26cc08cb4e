"""compare and sweep end with one plain sentence per candidate: the size of its difference
to the baseline with the interval, the unit and the direction, and "better", "worse" or "no
difference detected at this size" exactly as the Holm-corrected test decided; the same
sentences in the JSON (``verdicts``) and in the report."""

from __future__ import annotations

import json
import math

import pytest
from typer.testing import CliRunner

from simulator.analysis.compare import compare
from simulator.analysis.compare_report import compare_report
from simulator.analysis.sweep import sweep, sweep_report
from simulator.analysis.verdicts import BETTER, NO_DIFFERENCE, NOT_TESTED, WORSE, sentence, verdict
from simulator.cli import app
from simulator.engine.fields import Field

POINTS = Field("mean", "points per round", "lower")
WON = Field("rate", "share of rounds won", "higher")
LETTERS = Field("mean", "letters per match", "lower")
PLACE = Field("mean", "place in the match", "lower", note="1 is best")


def row(diff, lo, hi, p_holm):
    return {"diff": diff, "diff_ci": [lo, hi], "p_holm": p_holm}


# --- the wording, on rows whose answer is known -------------------------------------------


def test_fewer_points_under_a_holm_rejection_is_better():
    r = row(-0.0814, -0.0853, -0.0775, 1e-30)
    assert verdict(r, lower_is_better=True) == BETTER
    assert sentence("expect", "threshold:k=4", r, POINTS, "round", True) == (
        "expect scores 0.081 [0.077, 0.085] fewer points per round than threshold:k=4 on the same "
        "deals: better"
    )


def test_more_points_is_worse_and_a_higher_win_rate_better():
    r = row(21.52, 21.44, 21.59, 1e-30)
    assert sentence("passive", "threshold:k=4", r, POINTS, "round", True).endswith(
        "scores 21.52 [21.44, 21.59] more points per round than threshold:k=4 on the same deals: worse"
    )
    won = row(0.0065, 0.0048, 0.0081, 1e-14)
    assert verdict(won, lower_is_better=False) == BETTER
    assert sentence("expect", "threshold:k=4", won, WON, "round", False) == (
        "expect's share of rounds won is 0.65 [0.48, 0.81] percentage points higher than threshold:k=4's "
        "on the same deals: better"
    )


def test_an_interval_off_zero_is_not_enough_without_the_holm_test():
    """Several comparisons: the plain interval excludes 0, the corrected p-value is 0.08."""
    r = row(-0.03, -0.055, -0.005, 0.08)
    assert verdict(r, lower_is_better=True) == NO_DIFFERENCE
    said = sentence("a", "b", r, POINTS, "round", True)
    assert said.endswith(": no difference detected at this size") and "better" not in said


def test_an_interval_across_zero_is_no_difference_with_its_magnitude_said():
    r = row(-0.012, -0.040, 0.016, 0.41)
    assert sentence("threshold:k=5", "threshold:k=4", r, POINTS, "round", True) == (
        "threshold:k=5 scores 0.012 [-0.016, 0.040] fewer points per round than threshold:k=4 on the same "
        "deals: no difference detected at this size"
    )


def test_other_units_read_in_their_own_words():
    assert sentence("commit", "greedy", row(-0.2, -0.3, -0.1, 1e-5), LETTERS, "match", True).startswith(
        "commit gets 0.20 [0.10, 0.30] fewer letters per match than greedy"
    )
    assert sentence("follow", "greedy", row(-0.21, -0.27, -0.15, 1e-9), PLACE, "match", True).startswith(
        "follow's place in the match is 0.21 [0.15, 0.27] lower than greedy's on the same deals: better"
    )


def test_a_difference_that_rounds_to_zero_is_said_signed():
    said = sentence("commit:after=3", "greedy", row(0.0001, -0.02, 0.02, 1.0), LETTERS, "match", True)
    assert said == (
        "commit:after=3 minus greedy: 0.000 [-0.020, +0.020] letters per match on the same deals: "
        "no difference detected at this size"
    )


def test_no_test_and_no_spread():
    untested = row(1.0, math.nan, math.nan, None)
    assert verdict(untested, True) == NOT_TESTED
    assert "not tested" in sentence("a", "b", untested, POINTS, "round", True)
    alike = row(0.0, 0.0, 0.0, 1.0)
    assert verdict(alike, True) == NO_DIFFERENCE
    assert "exactly alike on every deal" in sentence("a", "b", alike, POINTS, "round", True)
    constant = row(-1.0, -1.0, -1.0, 2.0**-99)  # the exact sign-flip test on 100 deals
    assert sentence("a", "b", constant, POINTS, "round", True) == (
        "a scores 1 fewer points per round than b on every deal: better"
    )


# --- runs with a known answer -------------------------------------------------------------


@pytest.fixture(scope="module")
def known():
    """passive is far worse than threshold:k=4; threshold:k=4.5 plays exactly as k=4 (the
    jack is worth ½); k=5 is a hair worse, far too little for 300 deals to show."""
    return compare("spokelse", ["threshold:k=4", "passive", "threshold:k=4.5", "threshold:k=5"], rounds=300,
                   seed=11)  # fmt: skip


def test_the_verdicts_follow_the_holm_test_on_a_run_with_a_known_answer(known):
    said = {(v["metric"], v["player"]): v for v in known.summary["verdicts"]}
    assert said[("score", "passive")]["verdict"] == WORSE
    assert said[("score", "passive")]["sentence"].startswith("passive scores ")
    assert said[("win", "passive")]["verdict"] == WORSE
    assert said[("score", "threshold:k=4.5")]["verdict"] == NO_DIFFERENCE
    assert "exactly alike on every deal" in said[("score", "threshold:k=4.5")]["sentence"]
    assert said[("score", "threshold:k=5")]["verdict"] == NO_DIFFERENCE
    for name, block in known.summary["metrics"].items():
        for r in block["strategies"]:
            if "diff" not in r:
                continue
            v = said[(name, r["player"])]
            assert v["baseline"] == "threshold:k=4"
            if r["significant"]:  # Holm rejects: better or worse by the sign and the direction
                good = (r["diff"] < 0) == block["lower_is_better"]
                assert v["verdict"] == (BETTER if good else WORSE)
                assert v["sentence"].endswith(": better" if good else ": worse")
            else:
                assert v["verdict"] == NO_DIFFERENCE
                assert (
                    v["sentence"].endswith("no difference detected at this size")
                    or "exactly alike" in v["sentence"]
                )


def test_the_other_way_round_the_same_run_says_better(known):
    r = compare("spokelse", ["passive", "threshold:k=4"], rounds=300, seed=11)
    said = {v["metric"]: v for v in r.summary["verdicts"]}
    assert said["score"]["verdict"] == BETTER and said["win"]["verdict"] == BETTER
    assert (
        said["score"]["sentence"].startswith("threshold:k=4 scores ")
        and " fewer points per round " in (said["score"]["sentence"])
    )


def test_the_cli_json_and_report_carry_the_same_sentences(tmp_path, known):
    args = ["compare", "spokelse", "-s", "threshold:k=4", "-s", "passive", "-s", "threshold:k=4.5", "-s",
            "threshold:k=5", "--rounds", "300", "--seed", "11"]  # fmt: skip
    doc = json.loads(CliRunner().invoke(app, [*args, "--json"]).stdout)
    sentences = [v["sentence"] for v in doc["verdicts"]]
    assert sentences == [v["sentence"] for v in known.summary["verdicts"]]
    text = CliRunner().invoke(app, args, env={"COLUMNS": None}).stdout
    tail = text.splitlines()[-len(sentences) :]
    assert tail == [f"• {s}" for s in sentences]  # the output ends with them, one per line
    compare_report(known, tmp_path / "c")
    md = (tmp_path / "c" / "report.md").read_text()
    assert all(f"{s}." in md for s in sentences)
    assert "In plain words" in md


def test_a_sweep_ends_with_one_sentence_per_point_played(tmp_path):
    r = sweep("spokelse", "threshold:k=3..5/1", vs="passive", rounds=200, seed=3, baseline="threshold:k=3")
    said = [v for v in r.summary["verdicts"] if v["metric"] == r.metric]
    assert [v["player"] for v in said] == ["threshold:k=4", "threshold:k=5"]
    assert all(v["baseline"] == "threshold:k=3" for v in said)
    res = CliRunner().invoke(
        app, ["sweep", "spokelse", "-s", "threshold:k=3..5/1", "--vs", "passive", "--baseline", "threshold:k=3",
              "--rounds", "200", "--seed", "3"], env={"COLUMNS": None},
    )  # fmt: skip
    assert res.exit_code == 0, res.output
    assert res.stdout.splitlines()[-2:] == [f"• {v['sentence']}" for v in said]
    doc = json.loads(CliRunner().invoke(app, ["sweep", "spokelse", "-s", "threshold:k=3..5/1", "--vs", "passive",
                     "--baseline", "threshold:k=3", "--rounds", "200", "--seed", "3", "--json"]).stdout)  # fmt: skip
    assert [v["sentence"] for v in doc["verdicts"] if v["metric"] == r.metric] == [
        v["sentence"] for v in said
    ]
    sweep_report(r, tmp_path / "s")
    md = (tmp_path / "s" / "report.md").read_text()
    assert all(f"{v['sentence']}." in md for v in said)
