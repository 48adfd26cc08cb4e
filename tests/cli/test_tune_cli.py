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


@pytest.mark.parametrize("keep", [False, True])
def test_an_interrupted_tune_says_its_best_so_far_and_whether_the_trials_are_kept(
    monkeypatch, tmp_path, keep
):
    """Ctrl-C during the search (here after the fourth trial): exit 130, the best trial
    measured on all the deals in words, and what --out keeps."""
    import simulator.analysis.tuning as tuning

    real = tuning.tune
    rows: list[dict] = []

    def interrupted_tune(*args, on_trial=None, **kwargs):
        def counted(row):
            rows.append(row)
            on_trial(row)
            if len(rows) == 4:
                raise KeyboardInterrupt

        return real(*args, on_trial=counted, **kwargs)

    monkeypatch.setattr(tuning, "tune", interrupted_tune)
    out = ["--out", str(tmp_path / "t")] if keep else []
    r = CliRunner().invoke(
        app,
        ["tune", "spokelse", "-s", "threshold:k=0..8", "--vs", "threshold:k=4", "--rounds", "2000",
         "--trials", "12", "--seed", "3", "--threads", "1", *out],
    )  # fmt: skip
    assert r.exit_code == 130, r.output
    whole = [x for x in rows if not x["pruned"]]
    best = min(whole, key=lambda x: (x["diff"], x["number"]))
    lines = r.stderr.splitlines()
    assert lines[0] == "interrupted after 4 trials in this run"
    assert lines[1].startswith(f"best so far (of {len(whole)} trials measured on all the search's deals): ")
    assert f"{best['spec']} (trial {best['number']}): " in lines[1] and "points per round against" in lines[1]
    assert "not confirmed on fresh deals" in lines[1]
    if keep:
        assert lines[-1].endswith("keeps every finished trial; the same command with --resume continues it")
    else:
        assert lines[-1] == "the trials are not kept: give --out DIR to keep them and continue with --resume"
