"""Comparisons on too few deals, and differences without spread: one deal gives no interval
and no test; a difference the same on every deal gets the exact sign-flip test, never a
blind p = 0; the compare report's tables and sentences print numbers as the CLI does; a
sweep calls a point best only when the Holm-corrected tests say so."""

import json
import math

import numpy as np
import pytest
from typer.testing import CliRunner

from simulator.analysis.compare import PairedSums, _metric_block, compare, paired_test
from simulator.analysis.compare_report import compare_report
from simulator.analysis.sweep import sweep, sweep_report
from simulator.cli import app
from simulator.games.base import Metric
from simulator.reporting import pages as report

runner = CliRunner()


def _strict(text: str):
    return json.loads(text, parse_constant=lambda c: pytest.fail(f"{c} in JSON"))


def test_one_deal_gives_null_intervals_and_no_test():
    res = runner.invoke(
        app, ["compare", "spokelse", "-s", "threshold:k=4", "-s", "threshold:k=5", "--rounds", "1", "--seed", "1", "--json"]
    )  # fmt: skip
    assert res.exit_code == 0, res.output
    doc = _strict(res.stdout)
    for block in doc["metrics"].values():
        base, other = block["strategies"]
        assert base[f"{block['name']}_ci"] == [None, None]
        assert other["diff_ci"] == [None, None] and other["unpaired_diff_ci"] == [None, None]
        assert other["p_value"] is None and other["p_holm"] is None and other["test"] is None
        assert other["significant"] is False and other["variance_reduction"] is None
    # The table people read says so: no interval, no p-value.
    res = runner.invoke(
        app, ["compare", "spokelse", "-s", "threshold:k=4", "-s", "threshold:k=5", "--rounds", "1", "--seed", "1"]
    )  # fmt: skip
    assert res.exit_code == 0, res.output
    assert (
        "< 1e-16" not in res.stdout
        and "[7.00, 7.00]" not in res.stdout
        and "[+1.00, +1.00]" not in res.stdout
    )


def test_one_match_of_gris_gives_no_zero_width_rate():
    r = compare("gris", ["greedy", "commit:after=0"], matches=1, seed=1)
    for block in r.summary["metrics"].values():
        for row in block["strategies"]:
            assert all(math.isnan(v) for v in row[f"{block['name']}_ci"])
            if "diff" in row:
                assert row["p_holm"] is None and row["significant"] is False
    assert "null" in r.to_json() and "NaN" not in r.to_json()


def _sums(t: np.ndarray) -> PairedSums:
    s = PairedSums(t.shape[1])
    s.add(t.astype(np.int64), np.ones(t.shape[1], dtype=np.int64), True)
    return s


def test_a_constant_difference_gets_the_exact_sign_flip_test():
    m = Metric("score", "points", True, 1.0, "mean")
    # Two deals, the candidate 1 point worse on both: zero paired spread, nonzero difference.
    rows, _ = _metric_block(m, _sums(np.array([[3, 4], [7, 8]])), np.ones(2, np.int64), ["a", "b"], 0)
    b = rows[1]
    assert b["same_every_deal"] is True and b["test"] == "exact sign-flip"
    assert b["diff"] == 1.0 and b["diff_ci"] == [1.0, 1.0]
    assert b["p_value"] == 0.5 and b["significant"] is False  # 2 of 2² sign patterns
    # Identical play: p = 1, never significant.
    rows, _ = _metric_block(m, _sums(np.array([[3, 3], [7, 7]])), np.ones(2, np.int64), ["a", "b"], 0)
    assert rows[1]["p_value"] == 1.0 and rows[1]["significant"] is False
    # The exact p halves with every deal: 2·2⁻ⁿ; significant from 6 deals on (1/32 < 5%).
    assert paired_test(1.0, 0.0, 5, True) == (2.0**-4, "exact sign-flip")
    assert paired_test(1.0, 0.0, 6, True)[0] == pytest.approx(1 / 32)
    assert paired_test(1.0, 0.0, 1, True) == (None, None)
    # A spread: the z-test, unchanged.
    assert paired_test(0.1, 1.0, 100, False)[1] == "paired z-test"


def test_two_deals_of_identical_play_are_not_significant():
    r = compare("spokelse", ["threshold:k=4", "threshold:k=4.5"], rounds=2, seed=1)
    row = r.summary["metrics"]["score"]["strategies"][1]
    assert row["same_every_deal"] is True and row["significant"] is False and row["p_holm"] == 1.0
    _strict(r.to_json())


def test_a_sweep_of_one_round_tests_nothing_and_calls_nothing_best():
    res = runner.invoke(
        app, ["sweep", "spokelse", "-s", "threshold:k=1..5/1", "--rounds", "1", "--seed", "1", "--json"]
    )
    assert res.exit_code == 0, res.output
    doc = _strict(res.stdout)
    assert doc["best"] is None and doc["top"]["best"] is False
    assert doc["top"]["vs_runner_up"]["p_holm"] is None
    for row in doc["table"]:
        assert row["score_lo"] is None and row["score_p_holm"] is None and row["score_significant"] is False
    r = sweep("spokelse", "threshold:k=1..5/1", rounds=1, seed=1)
    assert "best" not in r.top_note().split(":")[0] and "not tested" in r.top_note()
    assert r.top_label().startswith("lowest observed")


def test_the_sweep_says_best_only_with_a_test(tmp_path):
    # k=1 and k=2 are close: on 400 rounds the runner-up test cannot tell them apart.
    r = sweep("spokelse", "threshold:k=1..4/1", vs="threshold:k=4", rounds=400, seed=2)
    top = r.top()
    assert top["others_tested"] == 3 and top["vs_runner_up"]["p_holm"] is not None
    text = r.top_note()
    if top["best"]:
        assert text.startswith("best") and top["vs_runner_up"]["significant"]
    else:
        assert text.startswith("lowest observed") and "not called best" in text
        assert r.summary["best"] is None
    # The legend of the figure says the same.
    fig = r.plot()
    labels = [t.get_text() for leg in fig.legends for t in leg.get_texts()]
    assert "best" not in labels and any(lab.startswith(("lowest observed", "best:")) for lab in labels)
    rep = sweep_report(r, tmp_path)
    md = (tmp_path / "report.md").read_text()
    if not top["best"]:
        assert "Best point" not in md and "best score" not in md
    assert rep.question == "" and md.count("Which k gives") == 1


def test_a_clear_best_is_called_best_with_its_tests():
    r = sweep("spokelse", "threshold:k=0|4", vs="threshold:k=4", rounds=400, seed=1)
    top = r.top()
    assert top["player"] == "threshold:k=4" and top["best"] is True  # k=0 is far worse
    assert r.summary["best"] == "threshold:k=4" and r.top_note().startswith("best score")


@pytest.fixture(scope="module")
def compare_folder(tmp_path_factory):
    out = tmp_path_factory.mktemp("cmp")
    r = compare("spokelse", ["threshold:k=4", "threshold:k=5"], rounds=3000, seed=1)
    compare_report(r, out)
    return out, r


def test_compare_report_tables_print_numbers_as_the_cli(compare_folder):
    out, r = compare_folder
    md = (out / "report.md").read_text()
    win = r.summary["metrics"]["win"]["strategies"]
    # A rate as a percentage with digits from its interval, the difference in percentage points.
    from simulator.engine import formatting

    assert formatting.rate(win[0]["win"], win[0]["win_ci"]) in md
    assert formatting.diff(win[1]["diff"], win[1]["diff_ci"], percent=True) in md
    assert (
        formatting.diff(*(r.summary["metrics"]["score"]["strategies"][1][k] for k in ("diff", "diff_ci")))
        in md
    )
    assert formatting.p_value(win[1]["p_holm"]) in md
    assert "e-04 [" not in md and f"{win[0]['win']:.3f} [" not in md  # no raw fractions or exponents
    res = runner.invoke(
        app, ["compare", "spokelse", "-s", "threshold:k=4", "-s", "threshold:k=5", "--rounds", "3000", "--seed", "1"]
    )  # fmt: skip
    cli_diff = formatting.diff(win[1]["diff"], win[1]["diff_ci"], percent=True)
    assert cli_diff in res.stdout  # the same text in both


def test_compare_report_headline_is_one_plain_sentence(compare_folder):
    out, r = compare_folder
    md = (out / "report.md").read_text()
    line = md.splitlines()[2]
    q, _, answer = line.partition("** ")
    assert q.startswith("**Does any strategy do better than threshold:k=4")
    assert "lower is better" in answer and "points per round" in answer
    assert answer.endswith(".") and ". " not in answer  # one sentence
    assert "No: none does better at this size; worse:" not in md
    assert "\n*Does any strategy" not in md  # the question is not repeated in italics
    assert "has a higher points" not in md and "has a lower points" not in md
    # p-values in sentences as the CLI prints them.
    p = r.summary["metrics"]["score"]["strategies"][1]["p_holm"]
    assert report.p_text(p) in md


def test_a_report_rebuilt_from_its_folder_keeps_the_formats(compare_folder):
    out, _ = compare_folder
    before = (out / "report.md").read_text()
    (out / "report.md").unlink()
    report.refresh(out)
    assert (out / "report.md").read_text() == before
