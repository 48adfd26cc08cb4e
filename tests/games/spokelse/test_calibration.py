"""``kortsim calibrate`` at a small size: its rows, its rounds (the kernel's), its figure."""

from __future__ import annotations

import json

import numpy as np
import pytest
from typer.testing import CliRunner

import simulator
from simulator.cli import app
from simulator.games import InputError
from simulator.games.spokelse.calibration import ACC_FIELDS, calibrate_chunk_nb
from simulator.games.spokelse.kernel import trace_round_nb
from simulator.games.spokelse.variants import Rules
from strategies.registry import parse_spec

TUNED = "expect:k=1,patience=2.8417279406896636,pile=0.5,open=26"


def test_the_calibration_rounds_are_the_kernels():
    """Player and opponent in both seats: the same final scores as the kernel's rounds."""
    tuned, th = parse_spec(TUNED, "spokelse"), parse_spec("threshold:k=4", "spokelse")
    values = Rules().values_half()
    params = np.vstack([tuned.params, th.params])
    acc = np.zeros((42, 4, ACC_FIELDS))
    scores = np.zeros((6, 2), np.int64)
    calibrate_chunk_nb(np.array([3, 2]), params, values, 3, tuned.params, 0.02, 1, 4, 7, 0, 6, acc, scores)
    for g in range(6):
        me = g % 2
        sids = np.array([3, 2]) if me == 0 else np.array([2, 3])
        p = params if me == 0 else params[::-1].copy()
        log = np.zeros((400, 6), np.int64)
        s0, s1, *_ = trace_round_nb(sids, p, values, 0, np.zeros(2, np.int64), 7, g, 0, 1, log)
        assert (s0, s1) == ((scores[g, 0], scores[g, 1]) if me == 0 else (scores[g, 1], scores[g, 0]))


def test_calibration_rows_and_their_independence_of_threads():
    a = simulator.calibrate(rounds=24, seed=3, particles=8, threads=1)
    b = simulator.calibrate(rounds=24, seed=3, particles=8, threads=2)
    assert a.rows == b.rows and a.rows
    keys = {"stock", "place", "predicted", "observed", "observed_se", "n"}
    assert all(keys <= set(r) for r in a.rows)
    assert {r["place"] for r in a.rows} == {"stock", "opponent_hidden", "ghost", "own_unknown"}
    assert all(0 <= r["stock"] <= 41 and r["n"] > 0 for r in a.rows)


def test_the_belief_sees_the_low_hidden_cards_the_uniform_deal_misses():
    model = simulator.calibrate(rounds=30, seed=4, particles=16, threads=1).summary["per_place"]
    uniform = simulator.calibrate(rounds=30, seed=4, particles=16, belief="uniform", threads=1)
    uni = uniform.summary["per_place"]
    real = model["opponent_hidden"]["observed"]
    assert real == uni["opponent_hidden"]["observed"]  # the same rounds
    assert abs(model["opponent_hidden"]["predicted"] - real) < 0.5  # points
    assert uni["opponent_hidden"]["predicted"] - real > 1.5


def test_the_cli_prints_json_and_writes_the_figure(tmp_path):
    r = CliRunner().invoke(
        app, ["calibrate", "spokelse", "--rounds", "10", "--particles", "4", "--json", "--out", str(tmp_path)]
    )
    assert r.exit_code == 0, r.output
    data = json.loads(r.stdout)
    assert data["rows"] and data["opponent"] == data["model"]
    assert (tmp_path / "calibration.png").stat().st_size > 10_000
    r = CliRunner().invoke(app, ["calibrate", "spokelse", "--rounds", "10", "--particles", "4"])
    assert r.exit_code == 0 and all(len(line) <= 80 for line in r.stdout.splitlines())
    assert any(line.startswith("verdict: ") for line in r.stdout.splitlines())


@pytest.mark.parametrize(
    "kw", [{"rounds": 0}, {"eps": 0.0}, {"belief": "magic"}, {"opponent": "search"}, {"game": "gris"}]
)
def test_bad_settings_are_one_line(kw):
    with pytest.raises(InputError):
        simulator.calibrate(**{"rounds": 4, **kw})


def test_the_command_line_assumes_the_same_default_model_as_the_api():
    from simulator.analysis.calibrate import TUNED_EXPECT
    from simulator.cli import calibrate as command

    assert command.TUNED_EXPECT == TUNED_EXPECT


@pytest.mark.parametrize(
    ("judged", "off", "verdict"),
    [
        (0, 0, "verdict: too few decisions to judge"),
        (12, 0, "verdict: calibrated: every judged row is within 0.15 points or 3 SE"),
        (12, 3, "verdict: not calibrated against this opponent: 3 of 12 rows are off"),
    ],
)
def test_the_verdict_claims_no_more_than_the_rows_show(judged, off, verdict):
    from simulator.analysis.calibrate import Calibration, calibration_lines

    place = {"predicted": 2.0, "observed": 1.9, "observed_se": 0.01, "n": 900}
    summary = {"per_place": {"stock": place}, "min_n": 200, "judged_rows": judged, "rows_off": off,
               "tolerance": 0.15, "worst": None, "decisions_per_second": 10.0}  # fmt: skip
    cal = Calibration([], "expect", "expect", "expect", 10, 1, 8, 0.005, "model", 1.0, summary)
    lines = calibration_lines(cal)
    assert any(line.startswith(verdict) for line in lines), lines
    assert "stock" in lines[7] and "[1.880, 1.920]" in lines[7]
    assert all(len(line) <= 80 for line in lines)
