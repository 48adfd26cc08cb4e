"""Reports: sentences made from numbers, honest about intervals covering 0; the HTML page
embeds its figures; `kortsim report` refreshes a folder and rejects one without results."""

import base64
import re

import numpy as np
import pandas as pd
import pytest
from typer.testing import CliRunner

from simulator import api
from simulator.analysis.sweep import sweep, sweep_report
from simulator.cli import app
from simulator.errors import InputError
from simulator.reporting import pages as report

runner = CliRunner()


def test_an_interval_covering_zero_is_said_honestly():
    s = report.difference(
        "A", "B", 0.013, -0.02, 0.046, what="mean score", unit="points per round", p_holm=0.43
    )
    assert s.startswith("No difference detected at this size between A and B")
    # Digits matched to the interval, signed, as the CLI prints them.
    assert "+0.013 points per round" in s and "-0.020 to +0.046" in s and "covers 0" in s and "p = 0.43" in s


def test_a_difference_says_which_is_better_from_the_numbers():
    s = report.difference(
        "A", "B", -0.52, -0.6, -0.44, what="mean score", unit="points per round", p_holm=1e-9
    )
    assert "A minus B is -0.52 points per round in mean score" in s and "0.52 points per round less" in s
    assert "so A does better" in s and "p = 1e-09" in s and "lower is better" in s
    s = report.difference("A", "B", 0.031, 0.01, 0.05, what="loss rate", percent=True)
    assert "+3.1 percentage points" in s and "3.1 percentage points more" in s and "A does worse" in s
    s = report.difference("A", "B", 0.031, 0.01, 0.05, what="win rate", percent=True, lower_is_better=False)
    assert "A does better" in s


def test_numbers_and_estimates():
    assert report.num(0.123456) == "0.123" and report.num(1234.5) == "1,234" and report.num(-2.5) == "−2.50"
    assert report.pct(0.4731) == "47.3%"
    s = report.estimate("k=2", "mean score", 6.76, 6.61, 6.9, unit="points per round")
    assert s == "k=2: mean score 6.76 points per round (95% CI 6.61 to 6.90)."
    assert "100 times smaller" in report.variance_sentence(100.0)


def test_display_table_merges_intervals():
    df = pd.DataFrame(
        {"player": ["a"], "score": [1.23456], "score_lo": [1.1], "score_hi": [1.3], "p_holm": [1e-20]}
    )
    d = report.display_table(df)
    assert list(d.columns) == ["player", "score [95% CI]", "p_holm"]
    assert d.iloc[0, 1] == "1.23 [1.10, 1.30]" and d.iloc[0, 2] == "< 1e-16"  # digits from the interval
    md = report.markdown_table(df)
    assert md.splitlines()[0] == "| player | score [95% CI] | p_holm |"


@pytest.fixture(scope="module")
def sweep_folder(tmp_path_factory):
    out = tmp_path_factory.mktemp("sweep")
    r = sweep("spokelse", "threshold:k=0|4", vs="threshold:k=4", rounds=800, seed=3)
    sweep_report(r, out)
    return out, r


def test_the_html_report_renders_and_embeds_its_figures(sweep_folder):
    out, r = sweep_folder
    html = (out / "report.html").read_text()
    imgs = re.findall(r'src="data:image/svg\+xml;base64,([A-Za-z0-9+/=]+)"', html)
    assert imgs, "the figure is embedded (as its SVG: a fraction of the PNG's size)"
    assert b"<svg" in base64.b64decode(imgs[0])[:2000]
    assert "<table" in html and "score [95% CI]" in html
    assert 'src="figures/' not in html  # self-contained: no links to files
    best = r.best()
    assert report.num(best["score"]) in html  # the sentence carries the computed number
    md = (out / "report.md").read_text()
    assert "![sweep](figures/sweep.png)" in md and "| k |" in md
    assert (out / "figures" / "sweep.svg").is_file()


def test_refresh_rebuilds_from_the_folder(sweep_folder):
    out, _ = sweep_folder
    (out / "report.html").unlink()
    res = runner.invoke(app, ["report", str(out)])
    assert res.exit_code == 0, res.output
    assert (out / "report.html").is_file() and "base64" in (out / "report.html").read_text()
    loaded = report.load(out)
    assert "sweep" in loaded.tables and loaded.provenance["sweep"] == "threshold:k=0|4"


def test_report_from_a_simulate_folder(tmp_path):
    r = api.simulate("spokelse", ["threshold:k=4", "passive"], rounds=2000, seed=1)
    r.write(tmp_path)
    paths = report.refresh(tmp_path)
    html = paths["html"].read_text()
    assert "base64" in html and "Seat 0 (threshold:k=4)" in html
    assert (tmp_path / "figures" / "score_half.png").is_file()


def test_a_folder_without_results_is_one_line_exit_2(tmp_path):
    with pytest.raises(InputError, match="holds no results"):
        report.refresh(tmp_path)
    res = runner.invoke(app, ["report", str(tmp_path)])
    assert res.exit_code == 2
    assert [line for line in res.stderr.splitlines() if line.strip()] == [
        f"error: {str(tmp_path)!r} holds no results (no report.json or summary.parquet)"
    ]
    res = runner.invoke(app, ["report", str(tmp_path / "missing")])
    assert res.exit_code == 2 and "is not a folder" in res.stderr


def test_the_page_escapes_every_text_and_embeds_its_figures(tmp_path):
    """report.html comes from the shipped Jinja2 template with autoescape on: text from a report
    (titles, sentences, table cells, provenance) cannot open a tag, and figures are data URIs."""
    from importlib.resources import files

    from simulator.reporting import plots

    for name in ("report.html.j2", "report.css"):
        assert files("simulator.reporting").joinpath("templates", name).is_file()  # shipped as package data
    fig = plots.histogram({"seat 0": np.array([1, 3, 2])}, xlabel="points", title="t")
    png = plots.save(fig, tmp_path / "figures", "h")["png"]
    evil = "<script>alert('x')</script> & \"q\""
    rep = report.Report(
        title=evil,
        headlines=[report.Headline(evil, evil)],
        answer=[evil],
        sections=[report.Section(evil, text=[evil], tables=["t"], figures=["h"])],
        tables={"t": pd.DataFrame({"who": [evil], "n": [1]})},
        figures={"h": png},
        provenance={"who": evil},
        notes=[evil],
    )
    page = report.render_html(rep)
    assert "<script>" not in page and "alert(&#39;x&#39;)" in page and "&amp; &#34;q&#34;" in page
    # title, heading, headline (2), answer, section, text, note, provenance, and the table cell
    assert page.count("&lt;script&gt;") == 10
    assert page.count('data-label="who"><span>&lt;script&gt;') == 1  # the table cell, escaped
    assert '<img alt="h" src="data:image/svg+xml;base64,' in page and "figures/" not in page
    assert page.startswith("<!doctype html>") and page.endswith("</body></html>")
