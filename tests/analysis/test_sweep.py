"""Sweep specs (ranges, steps, lists, grids), sweeps on common deals, and the sweep command."""

import json

import pytest
from typer.testing import CliRunner

from simulator.analysis.sweep import parse_sweep, sweep
from simulator.cli import app
from simulator.errors import InputError

runner = CliRunner()


def test_range_uses_the_parameters_own_step():
    s = parse_sweep("threshold:k=0..2", "spokelse")
    assert [a.name for a in s.axes] == ["k"]
    assert s.axes[0].values == (0.0, 0.5, 1.0, 1.5, 2.0)


def test_range_with_a_step_list_and_fixed_values():
    assert parse_sweep("threshold:k=0..13/1", "spokelse").axes[0].values == tuple(float(k) for k in range(14))
    assert parse_sweep("threshold:k=1|2|5", "spokelse").axes[0].values == (1.0, 2.0, 5.0)
    s = parse_sweep("commit:after=0..6/2", "gris")
    assert s.axes[0].values == (0.0, 2.0, 4.0, 6.0)
    assert [p["after"] for p in s.points()] == [0.0, 2.0, 4.0, 6.0]


def test_a_grid_of_two_parameters():
    fam = parse_sweep("expect:k=0|1", "spokelse").family
    names = [p.name for p in fam.params]
    a, b = names[0], names[-1]
    s = parse_sweep(f"expect:{a}=0|1,{b}=0|1", "spokelse")
    assert len(s.axes) == 2 and len(s.points()) == 4
    specs = {s.spec(p) for p in s.points()}
    assert len(specs) == 4


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("threshold:k=5..3", "empty range"),
        ("threshold:k=0..20", "outside"),
        ("threshold:k=-1|2", "outside"),
        ("threshold:k=0.25|1", "multiple of"),
        ("threshold:k=0..2/-1", "step must be positive"),
        ("threshold:k=4", "nothing to sweep"),
        ("threshold:q=0..3", "unknown parameter"),
        ("threshold:k=a..3", "not a number"),
        ("greedy:x=1..2", "is for gris"),
        ("nosuch:k=1..2", "unknown strategy"),
        ("threshold:k=0..2,k=1|2", "given twice"),
    ],
)
def test_bad_sweep_specs_are_one_clear_error(spec, message):
    with pytest.raises(InputError, match=message):
        parse_sweep(spec, "spokelse")


def test_continuous_parameters_need_a_step():
    with pytest.raises(InputError, match="give a step"):
        parse_sweep("follow:follow=0..1", "gris-nese")
    assert parse_sweep("follow:follow=0..1/0.5", "gris-nese").axes[0].values == (0.0, 0.5, 1.0)


def test_sweep_on_common_deals():
    r = sweep("spokelse", "threshold:k=0|2|4|6", vs="threshold:k=4", rounds=4000, seed=5)
    t = r.table
    assert list(t["k"]) == [0, 2, 4, 6]
    assert r.baseline == "threshold:k=4" and r.vs == "threshold:k=4"
    base = t[t.player == "threshold:k=4"].iloc[0]
    assert base["score_diff"] == 0 and base["score_diff_lo"] == 0
    # k=0 keeps only 8s: far worse, and the paired interval is far narrower than the figure's.
    k0 = t[t.k == 0].iloc[0]
    assert k0["score_diff_lo"] > 2
    k2 = t[t.k == 2].iloc[0]
    assert (k2["score_diff_hi"] - k2["score_diff_lo"]) < 0.5 * (k2["score_hi"] - k2["score_lo"])
    assert k2["score_variance_reduction"] > 2
    assert r.best()["k"] != 0
    fig = r.plot()
    assert fig.axes[0].get_ylabel().startswith("mean score (points per round)")
    assert "k" in fig.axes[1].get_xlabel()


def test_forget_and_slip_sweep_like_a_strategys_own_parameters():
    """Every strategy takes forget and slip, so a sweep of them says what memory costs point
    by point: forget=0 is the plain strategy, and forgetting half of what one saw costs
    points on the same deals."""
    spec = parse_sweep("threshold:k=4,forget=0|0.5", "spokelse")
    assert spec.axes[0].name == "forget" and spec.fixed == {"k": 4.0}
    assert [spec.spec(v) for v in spec.points()] == ["threshold:k=4", "threshold:k=4,forget=0.5"]
    r = sweep("spokelse", "threshold:k=4,forget=0|0.5", vs="threshold:k=4", rounds=2000, seed=5)
    t = r.table.set_index("forget")
    assert t.loc[0.0, "score_diff"] == 0
    assert t.loc[0.5, "score_diff_lo"] > 1  # worse by over a point per round, interval and all
    with pytest.raises(InputError, match="slip"):
        parse_sweep("greedy:slip=0..2/1", "gris")  # slip is a probability: 0..1


def test_sweep_against_a_gris_field_defaults_to_greedy():
    r = sweep("gris", "commit:after=0|3", rounds=300, players=4, seed=2)
    assert r.vs == "greedy" and r.metric == "letter"
    assert set(r.table["after"]) == {0.0, 3.0}


def test_sweep_command_table_plot_and_json(tmp_path):
    png = tmp_path / "s.png"
    res = runner.invoke(
        app,
        [
            "sweep",
            "spokelse",
            "-s",
            "threshold:k=2|4",
            "--vs",
            "threshold:k=4",
            "--rounds",
            "1500",
            "--seed",
            "1",
            "--plot",
            str(png),
            "--out",
            str(tmp_path / "o"),
        ],
    )
    assert res.exit_code == 0, res.output
    assert "score [95% CI]" in res.stdout and "(baseline)" in res.stdout
    assert png.read_bytes()[:4] == b"\x89PNG" and (tmp_path / "s.svg").is_file()
    assert (tmp_path / "o" / "report.html").is_file() and (tmp_path / "o" / "summary.parquet").is_file()
    res = runner.invoke(
        app, ["sweep", "spokelse", "-s", "threshold:k=2|4", "--rounds", "500", "--seed", "1", "--json"]
    )
    doc = json.loads(res.stdout)
    assert doc["kind"] == "sweep" and len(doc["table"]) == 2 and doc["vs"] == "threshold:k=4"


@pytest.mark.parametrize(
    "args",
    [
        ["-s", "threshold:k=5..3", "--rounds", "100"],
        ["-s", "threshold:k=0..20", "--rounds", "100"],
        ["-s", "threshold:k=0..2", "--vs", "greedy", "--rounds", "100"],
        ["-s", "threshold:k=0..2", "--field", "greedy", "--rounds", "100"],
        ["-s", "threshold:k=0..2"],
        ["-s", "threshold:k=0..2", "--rounds", "100", "--plot", "x.txt"],
    ],
)
def test_sweep_command_bad_input_is_one_line_exit_2(args):
    res = runner.invoke(app, ["sweep", "spokelse", *args, "--seed", "1"])
    assert res.exit_code == 2
    lines = [line for line in res.stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("error:")
