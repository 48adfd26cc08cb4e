"""Experiments keep every finished step in their folder: an interrupted run resumes at the
step it stopped in and ends with the numbers of an uninterrupted one; a folder holding a
run is refused without --resume, a changed setting or a damaged step in one line; the plan
matches the steps run, and progress adds up to the whole."""

import json

import pandas as pd
import pytest
from typer.testing import CliRunner

import experiments
from experiments import commit_early
from simulator.cli import app
from simulator.errors import InputError

runner = CliRunner()

SMALL = {
    "seed": 5,
    "games": ["gris"],
    "players": [3, 4],
    "afters": [0],
    "fields": ["greedy", "commit:after=0"],
    "rounds": 200,
    "matches": 20,
}


class Recorder(experiments.Progress):
    """Records what a run reports; stops it (as Ctrl-C would) when a given step starts."""

    def __init__(self, stop_at: int | None = None) -> None:
        self.stop_at = stop_at
        self.total = 0.0
        self.done = 0.0
        self.played: list[str] = []
        self.read_back: list[str] = []

    def plan(self, total_cost: float, steps: int, resumed: int) -> None:
        self.total = total_cost

    def step(self, index: int, steps: int, label: str, resumed: bool) -> None:
        if index == self.stop_at and not resumed:
            raise KeyboardInterrupt
        (self.read_back if resumed else self.played).append(label)

    def advance(self, cost: float) -> None:
        self.done += cost


@pytest.fixture
def small(monkeypatch):
    monkeypatch.setitem(commit_early.CONFIG, "tiny", dict(SMALL))
    return commit_early


def _run(out, progress=None, resume=False, **kw):
    return experiments.run("commit-early", size="tiny", out_dir=out, progress=progress, resume=resume, **kw)


def _run_in_step(monkeypatch, stop_at: int):
    """Raise Ctrl-C inside the comparison of step ``stop_at`` (from 1)."""
    real = commit_early.compare
    calls = {"n": 0}

    def compare(*args, **kw):
        calls["n"] += 1
        if calls["n"] == stop_at:
            raise KeyboardInterrupt
        return real(*args, **kw)

    monkeypatch.setattr(commit_early, "compare", compare)
    return lambda: monkeypatch.setattr(commit_early, "compare", real)


def test_an_interrupted_experiment_resumes_to_the_uninterrupted_numbers(small, tmp_path, monkeypatch):
    steps = len(commit_early.plan(commit_early.CONFIG["tiny"]))
    assert steps == 8
    whole = Recorder()
    full = _run(tmp_path / "whole", whole)
    assert len(whole.played) == steps and whole.done == pytest.approx(whole.total)

    # Stopped between steps (as the 4th starts) ...
    out = tmp_path / "stopped"
    with pytest.raises(experiments.ExperimentInterrupted) as exc:
        _run(out, Recorder(stop_at=4))
    assert exc.value.done == 3 and exc.value.steps == steps
    state = json.loads((out / experiments.STATE_FILE).read_text())
    assert len(state["steps"]) == 3 and not state["complete"]
    assert [x["step"] for x in _journal(out)] == state["steps"]
    assert not (out / "report.html").exists()
    res = runner.invoke(app, ["report", str(out)])  # no report yet: says how to finish the run
    assert res.exit_code == 2
    assert "holds an unfinished commit-early run (3 steps done, no report yet); finish it with " in res.stderr
    assert f"kortsim experiment run commit-early --tiny --out {out} --resume" in res.stderr
    # ... and inside a step (the 6th comparison): that step's games are not kept.
    undo = _run_in_step(monkeypatch, stop_at=3)
    with pytest.raises(experiments.ExperimentInterrupted) as exc:
        _run(out, Recorder(), resume=True)
    undo()
    assert exc.value.done == 5

    again = Recorder()
    res = _run(out, again, resume=True)
    assert len(again.read_back) == 5 and len(again.played) == steps - 5  # only the rest is played
    assert again.done == pytest.approx(again.total)
    for name, table in full.tables.items():
        pd.testing.assert_frame_equal(res.tables[name], table)
    assert [h.answer for h in res.headlines] == [h.answer for h in full.headlines]
    assert res.answer == full.answer
    state = json.loads((out / experiments.STATE_FILE).read_text())
    assert state["complete"] and state["sessions"] == 3
    prov = json.loads((out / "report.json").read_text())["provenance"]
    assert prov["run"]["complete"] and prov["run"]["sessions"] == 3


def test_a_folder_with_a_run_needs_resume_and_the_same_settings(small, tmp_path):
    out = tmp_path / "run"
    _run(out)
    with pytest.raises(InputError, match=r"already holds a run \(experiment.json\); add --resume"):
        _run(out)
    with pytest.raises(InputError, match="nothing to resume in"):
        _run(tmp_path / "empty", resume=True)
    with pytest.raises(InputError, match="its seed is 5, not 6"):
        experiments.run("commit-early", size="tiny", out_dir=out, seed=6, resume=True)
    with pytest.raises(InputError, match=r"it is the tiny size \(give --tiny\), not quick \("):
        experiments.run("commit-early", size="quick", out_dir=out, resume=True)
    with pytest.raises(InputError, match="it is a commit-early run, not reaction-vs-cards"):
        experiments.run("reaction-vs-cards", size="tiny", out_dir=out, resume=True)
    # A finished run resumed: nothing is played again, the report is rewritten from its steps.
    rec = Recorder()
    _run(out, rec, resume=True)
    assert rec.played == [] and len(rec.read_back) == 8


def test_the_default_folder_takes_a_repeated_run_but_keeps_an_unfinished_one(
    small, tmp_path, monkeypatch, capsys
):
    # The README's tour command, run twice, must work: a finished run in the default folder
    # (no --out) is replaced with a note; an unfinished one there still needs --resume.
    monkeypatch.chdir(tmp_path)
    default = experiments.default_out("commit-early")
    experiments.run("commit-early", size="tiny")
    experiments.run("commit-early", size="tiny")
    assert "held a finished run of commit-early; replacing it" in capsys.readouterr().err
    state = json.loads((default / "experiment.json").read_text())
    assert state["sessions"] == 1 and state["complete"] and len(state["steps"]) == 8
    with pytest.raises(experiments.ExperimentInterrupted):
        experiments.run("commit-early", size="tiny", progress=Recorder(stop_at=2))
    with pytest.raises(InputError, match="already holds a run"):
        experiments.run("commit-early", size="tiny")


def _journal(out):
    return [json.loads(x) for x in (out / "steps.jsonl").read_text().splitlines()]


def test_a_damaged_step_file_is_played_again_and_an_edited_journal_refused_in_one_line(
    small, tmp_path, capsys
):
    out = tmp_path / "run"
    full = _run(out)
    lines = _journal(out)
    assert [x["step"] for x in lines] == json.loads((out / experiments.STATE_FILE).read_text())["steps"]
    # A result file changed after it was written is never trusted: its step is played again.
    step = out / lines[0]["file"]
    step.write_bytes(step.read_bytes()[:-1] + b"\x00")
    rec = Recorder()
    res = _run(out, rec, resume=True)
    assert len(rec.played) == 1 and len(rec.read_back) == 7
    assert "the result files of 1 step(s) are cut short, changed or missing" in capsys.readouterr().err
    for name, table in full.tables.items():
        pd.testing.assert_frame_equal(res.tables[name], table)
    # A journal line cut short by a kill is dropped, and its step played again.
    text = (out / "steps.jsonl").read_bytes()
    (out / "steps.jsonl").write_bytes(text[:-20])
    rec = Recorder()
    _run(out, rec, resume=True)
    assert len(rec.played) == 1 and "1 damaged line(s) dropped" in capsys.readouterr().err
    # A journal line that parses but was edited refuses the folder, in one line.
    lines = _journal(out)
    lines[2]["file_sha256"] = lines[3]["file_sha256"]
    (out / "steps.jsonl").write_text("".join(json.dumps(x) + "\n" for x in lines))
    with pytest.raises(InputError, match="line 3 fails its checksum: it was changed after kortsim wrote it"):
        _run(out, resume=True)
    res = runner.invoke(app, ["experiment", "run", "commit-early", "--tiny", "--out", str(out), "--resume"])
    assert res.exit_code == 2
    err = [x for x in res.stderr.splitlines() if x.strip()]
    assert len(err) == 1 and err[0].startswith("error: ") and "checksum" in err[0]


def test_an_edited_experiment_json_is_refused(small, tmp_path):
    out = tmp_path / "run"
    _run(out)
    state = json.loads((out / experiments.STATE_FILE).read_text())
    state["settings_hash"] = "0" * 64
    (out / experiments.STATE_FILE).write_text(json.dumps(state))
    with pytest.raises(
        InputError, match=r"experiment\.json does not match its settings hash: it was changed"
    ):
        _run(out, resume=True)


def test_a_folder_of_the_format_before_the_journal_resumes_and_moves_its_steps(small, tmp_path):
    out = tmp_path / "run"
    full = _run(out)
    state = json.loads((out / experiments.STATE_FILE).read_text())
    old_steps = {
        x["step"]: {"file": x["file"], "sha256": x["file_sha256"], "elapsed_s": x["elapsed_s"]}
        for x in _journal(out)[:5]
    }
    state.update(kortsim_experiment=1, steps=old_steps, complete=False)
    del state["settings_hash"]
    (out / experiments.STATE_FILE).write_text(json.dumps(state))
    (out / "steps.jsonl").unlink()
    rec = Recorder()
    res = _run(out, rec, resume=True)
    assert len(rec.read_back) == 5 and len(rec.played) == 3
    assert [x["step"] for x in _journal(out)][:5] == list(old_steps)
    new = json.loads((out / experiments.STATE_FILE).read_text())
    assert new["kortsim_experiment"] == 2 and new["complete"] and len(new["steps"]) == 8
    for name, table in full.tables.items():
        pd.testing.assert_frame_equal(res.tables[name], table)


def test_every_plan_matches_the_steps_its_experiment_runs(tiny_results):
    for name in experiments.EXPERIMENTS:
        res = tiny_results(name)
        state = json.loads((res.out_dir / experiments.STATE_FILE).read_text())
        keys = [s.key for s in experiments.plan(name, "tiny")]
        assert list(state["steps"]) == keys and state["complete"]
        assert all(s.cost > 0 for s in experiments.plan(name, "quick"))


def test_the_command_resumes_and_says_how(small, tmp_path, monkeypatch):
    out = tmp_path / "run"
    undo = _run_in_step(monkeypatch, stop_at=2)
    res = runner.invoke(app, ["experiment", "run", "commit-early", "--tiny", "--out", str(out)])
    undo()
    assert res.exit_code == 130
    lines = [x for x in res.stderr.splitlines() if x.strip()]
    assert f"interrupted: {out} holds 1 of 8 steps" in lines
    assert f"to finish it: kortsim experiment run commit-early --tiny --out {out} --resume" in lines
    res = runner.invoke(
        app, ["experiment", "run", "commit-early", "--tiny", "--out", str(out), "--resume", "--json"]
    )
    assert res.exit_code == 0, res.output
    doc = json.loads(res.stdout)
    assert doc["experiment"] == "commit-early" and doc["sessions"] == 2
    assert doc["headlines"] and all(h["question"] and h["answer"] for h in doc["headlines"])
    assert res.stderr == ""  # --json: nothing but the JSON, no progress
    # Not a terminal: one plain line per step on stderr, no bar.
    res = runner.invoke(app, ["experiment", "run", "commit-early", "--tiny", "--out", str(tmp_path / "b")])
    assert res.exit_code == 0, res.output
    assert "commit-early: [1/8] gris, 3 players, field greedy: 200 rounds" in res.stderr


def test_the_terminal_bar_runs_to_the_end(small, tmp_path):
    """The bar shown on a terminal: its total is the plan's cost and it ends full."""
    from simulator.cli import ExperimentBar

    bar = ExperimentBar()
    try:
        _run(tmp_path / "run", bar)
    finally:
        bar.stop()
    (task,) = bar.bar.tasks
    assert task.total == pytest.approx(sum(s.cost for s in commit_early.plan(commit_early.CONFIG["tiny"])))
    assert task.completed == pytest.approx(task.total) and task.description.startswith("8/8 ")
