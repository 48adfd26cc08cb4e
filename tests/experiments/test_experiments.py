"""Every experiment runs at its tiny size and writes a complete results folder; the
registry and the `kortsim experiment` commands."""

import json
import re
from html import unescape

import numpy as np
import pyarrow.parquet as pq
import pytest
from typer.testing import CliRunner

import experiments
from experiments import spokelse_strategy
from experiments.reaction_vs_cards import break_even, crossing
from simulator.api import make_table, resolve_game
from simulator.cli import app
from simulator.errors import InputError
from simulator.running.runner import BlockRunner
from strategies.registry import parse_spec

runner = CliRunner()


@pytest.fixture(scope="module", params=list(experiments.EXPERIMENTS))
def tiny_run(request, tiny_results):
    return request.param, tiny_results(request.param)


def test_every_experiment_runs_tiny_and_writes_its_folder(tiny_run):
    name, res = tiny_run
    mod = experiments.get(name)
    out = res.out_dir
    assert res.name == name and res.size == "tiny" and res.version == mod.VERSION
    # Summary Parquet with provenance: the study, its version and config, the seed, the strategies.
    meta = pq.read_schema(out / "summary.parquet").metadata
    prov = json.loads(meta[b"kortsim.provenance"])
    assert prov["experiment"] == name and prov["version"] == mod.VERSION and prov["size"] == "tiny"
    assert prov["config"] == res.config and prov["seed"] == res.seed == mod.CONFIG["tiny"]["seed"]
    assert prov["strategies"] and all(len(s["source_sha256"]) == 16 for s in prov["strategies"])
    assert pq.read_table(out / "summary.parquet").num_rows > 0
    for table in res.tables:
        assert (out / "tables" / f"{table}.parquet").is_file()
    # Figures as PNG and SVG.
    assert res.figures
    for fig in res.figures.values():
        assert fig.read_bytes()[:4] == b"\x89PNG" and fig.with_suffix(".svg").is_file()
    # The reports: the answer in sentences, figures embedded in the HTML.
    html = res.report_html.read_text()
    assert len(re.findall(r"data:image/svg\+xml;base64,", html)) == len(res.figures)
    assert len(html.encode()) < 600_000  # figures as SVG, big tables linked: not megabytes
    assert res.answer and all(a in unescape(html) for a in res.answer[:1])
    assert res.headlines and all(h.answer in unescape(html) for h in res.headlines)
    md = res.report_md.read_text()
    assert "## The answer in more detail" in md
    # The headlines open the report, before any section.
    assert res.headlines and md.index(f"**{res.headlines[0].question}**") < md.index("\n## ")


def test_the_answers_are_made_from_the_tables(tiny_run):
    name, res = tiny_run
    if name == "spokelse-strategy":
        sweep = res.tables["sweep"]
        sub = sweep[(sweep.unit == "round") & (sweep.jack == 0.5)]
        best = sub.loc[sub["score"].idxmin()]
        assert f"k={best['k']:g}" in res.answer[0]
        discard = res.tables["discard"]
        assert set(discard["unit"]) == {"round", "match"}
        swap = res.tables["swap"]
        assert len(swap) == len(res.config["swap_values"]) * len(res.config["swap_bins"])
    elif name == "commit-early":
        t = res.tables["commit"]
        assert set(t["players"]) == set(res.config["players"]) and set(t["game"]) == {"gris", "gris-nese"}
        assert set(t["metric"]) == {"signal_first", "letter_or_out", "lose_match"}
        greedy = t[(t.player == "greedy") & (t.field == "greedy") & (t.metric == "letter_or_out")]
        # A whole table of greedy players: the focal seat gets exactly 1/n of the letters.
        np.testing.assert_allclose(greedy["value"], 1 / greedy["players"])
        assert any("committing on the deal" in a for a in res.answer)
    else:
        grid = res.tables["grid"]
        fast = grid[(grid.strategy == "random")].sort_values("median_s")
        assert fast["eliminated"].is_monotonic_increasing  # slower reactions, more eliminations
        assert len(res.tables["break_even"]) == len(res.config["strategies"])
        assert any("break-even" in a or "no break-even" in a for a in res.answer)


def test_the_lab_strategy_is_threshold_exactly():
    table = make_table(resolve_game("spokelse"))
    lab = spokelse_strategy.lab(4)
    thr = parse_spec("threshold:k=4", "spokelse")
    for unit in ("round", "match"):
        a = BlockRunner(table, [lab, lab], unit, 17).records(0, 400)
        b = BlockRunner(table, [thr, thr], unit, 17).records(0, 400)
        np.testing.assert_array_equal(a, b)
    never = spokelse_strategy.lab(4, discard=0)
    c = BlockRunner(table, [never, lab], "round", 17).records(0, 400)
    assert not np.array_equal(c, BlockRunner(table, [lab, lab], "round", 17).records(0, 400))


def test_break_even_interpolates_and_brackets():
    m = np.array([0.5, 0.6, 0.7, 0.8])
    d = np.array([-0.2, -0.1, 0.0, 0.1])
    assert crossing(m, d) == pytest.approx(0.7)
    assert crossing(m, d - 0.05) == pytest.approx(0.75)
    assert crossing(m, d + 1) is None
    be = break_even(m, d - 0.05, d - 0.08, d - 0.02)
    assert be["break_even_lo"] < be["break_even"] < be["break_even_hi"]
    assert not be["lo_open"] and not be["hi_open"]


def test_registry_and_sizes():
    names = [e["name"] for e in experiments.list_experiments()]
    assert names == ["spokelse-strategy", "commit-early", "reaction-vs-cards"]
    for name in names:
        mod = experiments.get(name)
        assert set(mod.CONFIG) == set(experiments.SIZES)
        assert all("seed" in mod.CONFIG[s] for s in experiments.SIZES)
    with pytest.raises(InputError, match="unknown experiment"):
        experiments.get("nope")
    with pytest.raises(InputError, match="unknown size"):
        experiments.run("commit-early", size="huge")


def test_experiment_commands():
    res = runner.invoke(app, ["experiment", "list"])
    assert res.exit_code == 0 and "commit-early" in res.stdout and "reaction-vs-cards" in res.stdout
    res = runner.invoke(app, ["experiment", "run", "nope", "--tiny"])
    assert res.exit_code == 2
    assert [line for line in res.stderr.splitlines() if line.strip()] == [
        "error: unknown experiment 'nope' (experiments: spokelse-strategy, commit-early, reaction-vs-cards)"
    ]
    res = runner.invoke(app, ["experiment", "run", "commit-early", "--tiny", "--quick"])
    assert res.exit_code == 2 and "at most one" in res.stderr


def test_experiment_run_command_tiny(tmp_path):
    res = runner.invoke(
        app, ["experiment", "run", "reaction-vs-cards", "--tiny", "--out", str(tmp_path), "--seed", "8"]
    )
    assert res.exit_code == 0, res.output
    assert (tmp_path / "report.html").is_file()
    prov = json.loads(pq.read_schema(tmp_path / "summary.parquet").metadata[b"kortsim.provenance"])
    assert prov["seed"] == 8
    lines = res.stdout.splitlines()
    assert lines[0].endswith("?") and lines[1].startswith("  ")  # a question, then its answer
    assert "report.md" in lines[-1]
