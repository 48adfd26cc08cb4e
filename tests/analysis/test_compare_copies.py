"""A strategy compared with itself (an A/A comparison): the copies are told apart by position."""

import json

from typer.testing import CliRunner

import simulator
from simulator.analysis.compare_seatings import copies_of_one, position_labels, unnumbered
from simulator.analysis.verdicts import verdicts
from simulator.cli import app


def test_repeated_names_are_numbered_by_position_and_others_kept():
    assert position_labels(["a", "b", "a"]) == ["a #1", "b", "a #2"]
    assert unnumbered("threshold:k=4 #2") == "threshold:k=4"
    assert unnumbered("b") == "b"
    assert copies_of_one("a #1", "a #2") and not copies_of_one("a", "b")


def test_two_copies_of_a_deterministic_strategy_play_identically():
    res = simulator.compare("spokelse", ["threshold:k=4", "threshold:k=4"], rounds=2000, seed=3)
    s = res.summary
    assert s["strategies"] == ["threshold:k=4 #1", "threshold:k=4 #2"]
    row = s["metrics"]["score"]["strategies"][1]
    assert row["diff"] == 0 and row["same_every_deal"] and not row["significant"]
    said = [v["sentence"] for v in verdicts(s)]
    assert said and all("identical play on every deal: difference exactly 0" in t for t in said)


def test_the_command_takes_a_strategy_twice_and_names_a_copy_as_baseline():
    args = ["compare", "spokelse", "-s", "threshold:k=4", "-s", "threshold:k=4", "--rounds", "500"]
    r = CliRunner().invoke(app, [*args, "--baseline", "threshold:k=4 #2", "--json"])
    assert r.exit_code == 0, r.output
    doc = json.loads(r.stdout)
    assert doc["baseline"] == "threshold:k=4 #2"
    assert "identical play on every deal" in doc["verdicts"][0]["sentence"]
