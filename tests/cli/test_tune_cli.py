"""``kortsim tune``: the commands of the issue at small sizes, and every bad input in one line."""

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from simulator.cli import app

PLANTED = str(Path(__file__).parents[1] / "plugins" / "tune_planted.py")
runner = CliRunner()


def run(*args: str):
    return runner.invoke(app, list(args))


def test_tune_expect_prints_the_search_and_the_confirmation():
    r = run("tune", "spokelse", "-s", "expect:k=0..4,patience=1..6,open=10..41", "--vs", "threshold:k=4",
            "--rounds", "2000", "--seed", "5", "--trials", "3")  # fmt: skip
    assert r.exit_code == 0, r.output
    assert "confirmation on 2,000 fresh deals" in r.stdout
    assert "points per round" in r.stdout and "budget: 3 trials" in r.stdout


def test_tune_gris_matches_loss_json():
    r = run("tune", "gris", "--players", "4", "-s", "reader", "--vs", "greedy", "--matches", "100",
            "--metric", "loss", "--trials", "2", "--seed", "1", "--json")  # fmt: skip
    assert r.exit_code == 0, r.output
    doc = json.loads(r.stdout)
    assert doc["kind"] == "tune" and doc["unit"] == "match" and doc["players"] == 4
    assert doc["metric"]["name"] == "loss" and doc["metric"]["lower_is_better"] is True
    assert any("patience" in n and "searched up to" in n for n in doc["notes"])


def test_tune_plugin_out_and_resume(tmp_path):
    out = tmp_path / "runs" / "mine"
    args = ["tune", "spokelse", "--plugin", PLANTED, "-s", "tune-planted:a=0..20", "--vs", "expect",
            "--rounds", "2000", "--seed", "2", "--out", str(out)]  # fmt: skip
    r = run(*args, "--trials", "3")
    assert r.exit_code == 0, r.output
    assert (out / "tune.json").is_file() and (out / "trials.parquet").is_file()
    assert (out / "figures" / "tune.png").is_file()
    r = run(*args, "--trials", "5", "--resume", "--json")
    assert r.exit_code == 0, r.output
    doc = json.loads(r.stdout)
    assert doc["budget"]["trials"] == 5
    assert json.loads((out / "tune.json").read_text())["budget"]["trials"] == 5


BAD = [
    (["-s", "expect:k=4..1"], "empty range"),
    (["-s", "expect:k=0..30"], "outside k's bounds"),
    (["-s", "expect:k=0.2..4"], "not on k's grid"),
    (["-s", "expect:nope=0..1"], "unknown parameter 'nope'"),
    (["-s", "passive"], "nothing to tune"),
    (["-s", "threshold:k=0..13", "--metric", "loss"], "unknown metric 'loss' for spokelse rounds"),
    (["-s", "threshold:k=0..13", "--trials", "0"], "--trials takes a whole number"),
    (["-s", "threshold:k=0..13", "--iterate", "0"], "--iterate takes a whole number"),
    (["-s", "threshold:k=0..13", "--resume"], "--resume needs --out"),
    (["-s", "threshold:k=0..13", "--vs", "greedy"], "is for gris"),
]


@pytest.mark.parametrize(("args", "message"), BAD)
def test_bad_input_is_one_line_and_exit_2(args, message):
    r = run("tune", "spokelse", "--rounds", "1000", "--seed", "1", *args)
    assert r.exit_code == 2
    lines = [line for line in r.stderr.splitlines() if line.strip()]
    assert len(lines) == 1, r.stderr
    assert lines[0].startswith("error:") and message in lines[0]
    assert "Traceback" not in r.output


def test_resume_of_a_folder_holding_no_tune(tmp_path):
    r = run("tune", "spokelse", "-s", "threshold:k=0..13", "--rounds", "1000", "--seed", "1",
            "--out", str(tmp_path / "empty"), "--resume")  # fmt: skip
    assert r.exit_code == 2 and "nothing to resume in" in r.stderr
