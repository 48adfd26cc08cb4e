"""The kortsim command, through typer's CliRunner: output, JSON and every bad input."""

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from simulator.cli import app

ROOT = Path(__file__).resolve().parents[2]
runner = CliRunner()


def run(*args: str):
    return runner.invoke(app, list(args))


def test_games_lists_the_variants():
    r = run("games", "--json")
    assert r.exit_code == 0
    games = {g["game"]: g for g in json.loads(r.stdout)}
    assert set(games["spokelse"]["rules"]) == {"jack", "target"}


def test_strategies_explains_in_words():
    r = run("strategies", "spokelse")
    assert r.exit_code == 0
    for name in ("passive", "random", "threshold", "expect"):
        assert name in r.stdout
    assert "k (default 4, 0..13, step 0.5)" in r.stdout


def test_simulate_json_has_the_contract_fields():
    r = run(
        "simulate",
        "spokelse",
        "-s",
        "threshold:k=4",
        "-s",
        "passive",
        "--rounds",
        "3000",
        "--seed",
        "7",
        "--json",
    )
    assert r.exit_code == 0, r.output
    doc = json.loads(r.stdout)
    for key in (
        "schema_version",
        "game",
        "unit",
        "n",
        "seed",
        "rules",
        "elapsed_s",
        "games_per_s",
        "compile_s",
        "capped",
        "seats",
        "tie_rate",
        "tie_rate_ci",
    ):
        assert key in doc
    assert doc["unit"] == "round" and doc["n"] == 3000 and doc["seed"] == 7
    seat = doc["seats"][0]
    assert seat["player"] == "threshold:k=4"
    for key in ("mean_score", "mean_score_ci", "win_rate", "win_rate_ci"):
        assert key in seat


def test_simulate_matches_json():
    r = run(
        "simulate",
        "spokelse",
        "-s",
        "threshold:k=4",
        "--matches",
        "500",
        "--rule",
        "jack=11",
        "--json",
        "--seed",
        "1",
    )
    assert r.exit_code == 0, r.output
    doc = json.loads(r.stdout)
    assert doc["unit"] == "match" and doc["rules"]["jack"] == 11
    for key in ("draw_rate", "draw_rate_ci", "mean_rounds", "mean_rounds_ci"):
        assert key in doc
    assert {"loss_rate", "loss_rate_ci"} <= set(doc["seats"][1])


def test_simulate_table_and_seed_notice():
    r = run("simulate", "spokelse", "-s", "passive", "--rounds", "200")
    assert r.exit_code == 0
    assert "give --seed" in r.stderr
    assert "mean_score [95% CI]" in r.stdout


def test_out_writes_parquet(tmp_path):
    r = run(
        "simulate",
        "spokelse",
        "-s",
        "passive",
        "--rounds",
        "200",
        "--seed",
        "1",
        "--out",
        str(tmp_path / "o"),
    )
    assert r.exit_code == 0
    assert (tmp_path / "o" / "summary.parquet").is_file()


def test_trace_shows_a_game_turn_by_turn():
    r = run("trace", "spokelse", "-s", "threshold:k=4", "-s", "random", "--seed", "3", "--game", "17")
    assert r.exit_code == 0, r.output
    assert "turn   1" in r.stdout and "ghost" in r.stdout


def test_plugin_strategy_from_the_example_file():
    r = run(
        "simulate",
        "spokelse",
        "--plugin",
        str(ROOT / "examples" / "my_strategy.py"),
        "-s",
        "lowball:keep=3",
        "-s",
        "threshold:k=4",
        "--rounds",
        "2000",
        "--seed",
        "2",
        "--json",
    )
    assert r.exit_code == 0, r.output
    doc = json.loads(r.stdout)
    assert doc["seats"][0]["player"] == "lowball:keep=3"
    assert doc["compile_s"] > 0


BAD = [
    (
        ["simulate", "poker", "-s", "x", "--rounds", "5"],
        "'poker' is not one of 'spokelse', 'gris', 'gris-nese'",
    ),
    (["simulate", "spokelse", "-s", "nosuch", "--rounds", "5"], "unknown strategy"),
    (["simulate", "spokelse", "-s", "threshold:k=banana", "--rounds", "5"], "not a number"),
    (["simulate", "spokelse", "-s", "threshold:k=-3", "--rounds", "5"], "outside"),
    (["simulate", "spokelse", "-s", "threshold:k=0.3", "--rounds", "5"], "multiple of 0.5"),
    (
        ["simulate", "spokelse", "-s", "passive", "-s", "passive", "-s", "passive", "--rounds", "5"],
        "3 strategies for 2 seats",
    ),
    (["simulate", "spokelse", "-s", "passive", "--rounds", "0"], "positive"),
    (["simulate", "spokelse", "-s", "passive", "--rounds", "-4"], "positive"),
    (["simulate", "spokelse", "-s", "passive", "--rounds", "banana"], "--rounds"),
    (["simulate", "spokelse", "-s", "passive"], "exactly one of"),
    (["simulate", "spokelse", "-s", "passive", "--rounds", "5", "--matches", "5"], "exactly one of"),
    (["simulate", "spokelse", "-s", "passive", "--rounds", "5", "--rule", "joker=1"], "unknown rule"),
    (["simulate", "spokelse", "-s", "passive", "--rounds", "5", "--rule", "jack=12"], "jack"),
    (["simulate", "spokelse", "-s", "passive", "--rounds", "5", "--rule", "jack"], "NAME=VALUE"),
    (["simulate", "spokelse", "--rounds", "5"], "--strategy"),
    (
        ["simulate", "spokelse", "-s", "passive", "--rounds", "5", "--plugin", "/no/such/file.py"],
        "does not exist",
    ),
    (["trace", "spokelse", "-s", "passive", "--seed", "1", "--game", "-1"], "counts from 0"),
]


@pytest.mark.parametrize(("args", "message"), BAD)
def test_bad_input_is_one_line_and_nonzero(args, message):
    r = run(*args)
    assert r.exit_code == 2
    lines = [line for line in r.stderr.splitlines() if line.strip() and not line.startswith("seed ")]
    assert len(lines) == 1, r.stderr
    assert lines[0].startswith("error:") and message in lines[0]
    assert "Traceback" not in r.output
