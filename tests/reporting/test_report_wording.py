"""Reports open with one plain headline per question; a strategy is called better only when
the Holm-corrected test says so (otherwise "no difference detected" and the size that would
detect it); zero-width intervals are explained; a partial run is flagged at the top; a big
table is linked as CSV/Parquet with a short preview inline."""

import math
import re

import numpy as np
import pandas as pd
import pytest

from simulator import api
from simulator.reporting import pages as report


def test_better_only_when_the_corrected_test_says_so():
    # The interval excludes 0 (uncorrected), but the Holm-corrected p is 0.21: no winner.
    s = report.difference(
        "k=2", "k=4", -0.05, -0.09, -0.01, what="mean score", unit="points per round", p_holm=0.21,
        n=1500, tests=13, n_unit="rounds",
    )  # fmt: skip
    assert s.startswith("No difference detected at this size between k=2 and k=4")
    assert "better" not in s and "does better" not in s and "does worse" not in s
    assert "p = 0.21" in s and "corrected test does not reject" in s
    need = re.search(
        r"To detect a difference of 0\.05 points per round \(the observed one\), about ([\d,]+) rounds would be needed",
        s,
    )
    assert need, s
    assert int(need.group(1).replace(",", "")) > 1500 and "an estimate" in s
    assert report.verdict(-0.05, -0.09, -0.01, 0.21, True) == "none"
    assert not report.is_significant(-0.09, -0.01, 0.21)
    # The same numbers with a corrected p below 5%: now it is better.
    s = report.difference("k=2", "k=4", -0.05, -0.09, -0.01, what="mean score", p_holm=0.004)
    assert "so k=2 does better" in s and report.verdict(-0.05, -0.09, -0.01, 0.004, True) == "better"


def test_the_size_that_would_detect_a_difference():
    # sd of the paired difference 1 (an interval ±1.96/√100), true difference 0.1:
    # n ≈ ((1.96 + 0.84) · 1 / 0.1)² ≈ 785.
    z = 1.959963984540054
    n = report.detectable_n(0.1, 0.1 - z / 10, 0.1 + z / 10, 100)
    assert n == math.ceil((z + 0.8416212335729143) ** 2 * 100)
    assert 780 <= n <= 790
    # More comparisons corrected for need more deals; no difference or no spread: no answer.
    assert report.detectable_n(0.1, 0.1 - z / 10, 0.1 + z / 10, 100, tests=13) > n
    assert report.detectable_n(0.0, -0.1, 0.1, 100) is None
    assert report.detectable_n(0.1, 0.1, 0.1, 100) is None


def test_an_interval_covering_0_gives_what_the_size_can_detect_not_a_size_from_the_observed_difference():
    z = 1.959963984540054
    s = report.difference("k=1", "k=2", 0.002, -0.008, 0.012, what="mean score", unit="points per round",
                          n=4000, tests=6, n_unit="rounds")  # fmt: skip
    assert "would be needed" not in s and "the observed one" not in s
    assert "At this size a true difference of " in s and "points per round or more would usually show" in s
    assert "over 6 comparisons" in s and "no size to plan on" in s
    se = 0.01 / z
    assert report.detectable_effect(-0.008, 0.012, 4000) == pytest.approx((z + 0.8416212335729143) * se)
    assert report.detectable_effect(-0.008, 0.012, 4000, tests=6) > report.detectable_effect(
        -0.008, 0.012, 4000
    )
    assert report.detectable_effect(0.1, 0.1, 100) is None


def test_zero_width_intervals_are_explained():
    s = report.estimate("greedy", "stall rate", 0.0, 0.0, 0.0, percent=True, n=1000)
    assert "0 of 1,000; 95% upper bound 0.38%" in s
    s = report.estimate("seat", "letters", 0.25, 0.25, 0.25, unit="per round")
    assert "the same on every deal" in s and "zero width" in s
    s = report.difference("greedy", "greedy", 0.0, 0.0, 0.0, what="letter rate", percent=True)
    assert "played alike on every deal" in s and "exactly 0" in s
    df = pd.DataFrame({"player": ["a", "b"], "x": [0.2, 0.3], "x_lo": [0.2, 0.25], "x_hi": [0.2, 0.35]})
    d = report.display_table(df)
    assert d.iloc[0, 1].endswith(report.ZERO_WIDTH_MARK) and not d.iloc[1, 1].endswith(report.ZERO_WIDTH_MARK)
    page = report.render_html(
        report.Report("t", tables={"x": df}, sections=[report.Section("s", tables=["x"])])
    )
    assert "zero width" in page


def test_p_values_never_print_as_zero():
    assert report.p_text(0.0) == "p < 1e-16" and report.p_text(1e-20) == "p < 1e-16"
    # As the CLI prints them (simulator.engine.formatting.p_value): two significant digits.
    assert report.p_text(0.0004) == "p = 0.0004" and report.p_text(0.21) == "p = 0.21"
    df = pd.DataFrame({"p_holm": [0.0, 0.03]})
    assert list(report.display_table(df)["p_holm"]) == ["< 1e-16", "0.03"]


def _report(**kw) -> report.Report:
    return report.Report(
        title="A study",
        question="Is A better than B?",
        headlines=[
            report.Headline("Is A better than B?", "No: A is worse by 1.2 points (95% CI 0.3 to 2.1).")
        ],
        answer=["A long sentence with the details."],
        sections=[report.Section("Details", ["Text."], tables=list(kw.get("tables", {})))],
        **kw,
    )


def test_the_report_opens_with_its_headlines(tmp_path):
    rep = _report()
    md = report.render_markdown(rep)
    first = md.splitlines()[2]
    assert first == "**Is A better than B?** No: A is worse by 1.2 points (95% CI 0.3 to 2.1)."
    assert md.index("Is A better") < md.index("## ")
    page = report.render_html(rep)
    assert page.index("id='headlines'") < page.index("<h2>")
    assert "Partial run" not in page
    report.write(rep, tmp_path)
    assert report.load(tmp_path).headlines == rep.headlines


def test_a_partial_run_is_flagged_at_the_top(tmp_path):
    r = api.simulate("spokelse", ["threshold:k=4", "passive"], rounds=400, seed=1)
    r.provenance["run"] = {"complete": False, "games": 400, "planned": 1000}
    r.write(tmp_path)
    paths = report.refresh(tmp_path)
    md = paths["md"].read_text()
    assert md.splitlines()[2].startswith("> **Partial run: only 400 of 1,000 rounds finished")
    page = paths["html"].read_text()
    assert page.index("class='partial'") < page.index("id='headlines'") < page.index("<h2>")
    # A finished run carries no such flag.
    r.provenance["run"] = {"complete": True, "games": 400, "planned": 400}
    r.write(tmp_path / "done")
    assert "Partial run" not in report.refresh(tmp_path / "done")["html"].read_text()


def test_a_big_table_is_linked_not_inlined(tmp_path):
    rng = np.random.default_rng(1)
    big = pd.DataFrame(
        {
            "game": ["gris"] * 504,
            "player": [f"commit:after={i % 9}" for i in range(504)],
            "value": rng.random(504),
            "value_lo": rng.random(504) / 2,
            "value_hi": 0.5 + rng.random(504) / 2,
            "p_holm": rng.random(504),
        }
    )
    small = big.head(5)
    rep = _report(tables={"commit": big, "summary": small})
    paths = report.write(rep, tmp_path)
    page = paths["html"].read_text()
    assert len(page.encode()) < 300_000
    body = page.split("<b>commit</b>")[1].split("</table>")[0]
    assert body.count("<tr") == report.PREVIEW_ROWS + 1  # the header and the preview rows
    assert "The first 8 of 504 rows" in page and "href='tables/commit.csv'" in page
    assert pd.read_csv(tmp_path / "tables" / "commit.csv").shape == (504, 6)
    assert (tmp_path / "tables" / "commit.parquet").is_file()
    # A short table is shown whole (and linked too).
    assert page.split("<b>summary</b>")[1].split("</table>")[0].count("<tr") == 6
    md = paths["md"].read_text()
    assert "[CSV](tables/commit.csv)" in md and md.count("| gris |") == report.PREVIEW_ROWS + 5


def test_tables_and_figures_fit_the_page():
    css = report.CSS
    assert "max-width:100%" in css and "overflow-x:auto" in css and "overflow-wrap:anywhere" in css
    page = report.render_html(_report(tables={"t": pd.DataFrame({"a": [1]})}))
    assert "<div class='table'><table" in page.replace("\n", "")
    assert "name='viewport'" in page


@pytest.mark.parametrize("p,expected", [(0.21, "none"), (0.01, "worse")])
def test_the_verdict_follows_the_direction(p, expected):
    # A loss rate that went up: worse when significant.
    assert report.verdict(0.02, 0.01, 0.03, p, lower_is_better=True) == expected
