"""One run-folder mechanism for simulate, experiments and tune (simulator/running/claim.py):
one wording for every refusal, a folder holding the user's files refused, one stored seed,
atomic writes, a filelock lock whose stale leftovers are cleared, record files checksummed
in the journal (a cut one is played again, never trusted) and a cut Optuna journal
recovered to its whole lines (or refused, touching nothing)."""

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

import experiments
import simulator
from experiments import commit_early
from simulator.analysis.tuning import storage
from simulator.cli import app
from simulator.engine.files import atomic_write
from simulator.errors import InputError
from simulator.running import checkpoint, claim
from simulator.running.checkpoint import JOURNAL_FILE, verify_folder
from simulator.running.records import RECORDS_DIR, read_records
from simulator.running.results import TIMING_FIELDS
from simulator.running.setup import resolve_seed

ROOT = Path(__file__).resolve().parents[2]
SIM = {"strategies": ["threshold:k=4", "random"], "rounds": 6000, "seed": 7, "block_size": 1024, "threads": 1}
TUNE = {"vs": "threshold:k=4", "rounds": 4000, "confirm": 4000, "threads": 1, "seed": 4}
EXPERIMENT = {
    "seed": 5,
    "games": ["gris"],
    "players": [3, 4],
    "afters": [0],
    "fields": ["greedy", "commit:after=0"],
    "rounds": 200,
    "matches": 20,
}
POSITION = {"row": "♠8 ♦K ? ?", "hand": "♥3", "discard": "♣Q", "stock": 20, "samples": 50}


def figures(result) -> dict:
    return {k: v for k, v in result.summary.items() if k not in TIMING_FIELDS}


# --- refusals, in one wording ------------------------------------------------------------


def test_simulate_refuses_a_folder_holding_the_users_files_and_touches_none(tmp_path):
    (tmp_path / "notes.txt").write_text("mine")
    (tmp_path / "status.json").write_text('{"mine": true}')
    with pytest.raises(InputError) as exc:
        simulator.simulate("spokelse", **SIM, out=tmp_path)
    assert str(exc.value) == (
        f"--out {tmp_path} holds files kortsim did not write (notes.txt); "
        "choose another --out folder (a new or empty one)"
    )
    assert sorted(p.name for p in tmp_path.iterdir()) == ["notes.txt", "status.json"]
    assert (tmp_path / "status.json").read_text() == '{"mine": true}'


def test_simulate_refuses_a_users_own_status_json(tmp_path):
    (tmp_path / "status.json").write_text('{"mine": true}')
    with pytest.raises(InputError, match=r"holds files kortsim did not write \(status.json\)"):
        simulator.simulate("spokelse", **SIM, out=tmp_path)
    assert (tmp_path / "status.json").read_text() == '{"mine": true}'


def test_an_experiment_refuses_a_folder_holding_the_users_files(tmp_path, monkeypatch):
    monkeypatch.setitem(commit_early.CONFIG, "tiny", dict(EXPERIMENT))
    (tmp_path / "notes.txt").write_text("mine")
    with pytest.raises(InputError, match=r"holds files kortsim did not write \(notes.txt\)"):
        experiments.run("commit-early", size="tiny", out_dir=tmp_path)
    assert [p.name for p in tmp_path.iterdir()] == ["notes.txt"]


def test_a_tune_refuses_a_folder_holding_the_users_files(tmp_path):
    (tmp_path / "notes.txt").write_text("mine")
    with pytest.raises(InputError, match=r"holds files kortsim did not write \(notes.txt\)"):
        simulator.tune("spokelse", "threshold:k=0..13", trials=2, out=tmp_path, **TUNE)
    assert [p.name for p in tmp_path.iterdir()] == ["notes.txt"]


@pytest.mark.parametrize(
    ("kind", "marker"), [("run", "run.json"), ("experiment", "experiment.json"), ("tune", "settings.json")]
)
def test_every_kind_says_its_refusals_in_the_same_words(tmp_path, kind, marker):
    empty = tmp_path / "empty"
    empty.mkdir()
    with pytest.raises(InputError) as exc:
        claim.claim(empty, kind, resume=True)
    article = "an" if kind == "experiment" else "a"
    assert str(exc.value) == (
        f"nothing to resume in {empty} (no {marker}); leave out --resume to start {article} {kind}"
    )
    held = tmp_path / "held"
    held.mkdir()
    (held / marker).write_text("{}")
    assert claim.claim(held, kind, resume=False) is True
    line = str(claim.already_holds(held, kind, marker))
    assert line == (
        f"{held} already holds {article} {kind} ({marker}); add --resume to continue it, "
        "or choose another --out folder"
    )
    others = [m for k, m in (("run", "run.json"), ("tune", "settings.json")) if k != kind]
    (held / others[0]).write_text("{}")
    with pytest.raises(
        InputError, match=rf"--out {held} already holds a \w+ \({others[0]}\); choose another"
    ):
        claim.claim(held, kind, resume=True)


# --- the seed: resolved once, stored once ------------------------------------------------


@pytest.mark.parametrize("seed", [-1, 2**64, 2**63])
def test_the_seed_is_checked_by_one_function_everywhere(seed, tmp_path):
    with pytest.raises(InputError, match="the seed must be a whole number from 0 to"):
        resolve_seed(seed)
    with pytest.raises(InputError, match="the seed must be a whole number from 0 to"):
        simulator.advise("spokelse", **POSITION, seed=seed)
    with pytest.raises(InputError, match="the seed must be a whole number from 0 to"):
        simulator.tune("spokelse", "threshold:k=0..13", trials=2, **{**TUNE, "seed": seed})
    with pytest.raises(InputError, match="the seed must be a whole number from 0 to"):
        experiments.start(commit_early, "tiny", tmp_path / "x", seed)
    assert not (tmp_path / "x").exists()


def test_advise_on_the_command_line_refuses_seeds_out_of_range():
    runner = CliRunner()
    for seed in ("-1", str(2**64)):
        args = ["--row", "♠8 ♦K ? ?", "--hand", "♥3", "--discard", "♣Q", "--stock", "20", "--seed", seed]
        r = runner.invoke(app, ["advise", "spokelse", *args])
        lines = [line for line in r.stderr.splitlines() if line.strip()]
        assert r.exit_code == 2 and len(lines) == 1, r.output
        assert "seed" in lines[0] and "Traceback" not in r.output


def test_one_stored_seed_for_every_kind_of_folder(tmp_path, monkeypatch):
    assert checkpoint.stored_seed is claim.stored_seed
    run = tmp_path / "run"
    simulator.simulate("spokelse", **{**SIM, "rounds": 1024}, out=run)
    tune = tmp_path / "tune"
    simulator.tune("spokelse", "threshold:k=0..13", trials=1, out=tune, **{**TUNE, "seed": 11})
    monkeypatch.setitem(commit_early.CONFIG, "tiny", dict(EXPERIMENT))
    study = tmp_path / "study"
    experiments.start(commit_early, "tiny", study, 13).close()
    assert [claim.stored_seed(p) for p in (run, tune, study, tmp_path / "none")] == [7, 11, 13, None]
    assert storage.stored_seed(tune) == 11 and experiments.stored_seed(study) == 13
    assert claim.resume_seed(None, study, True) == 13 and claim.resume_seed(3, study, True) == 3


# --- atomic writes and the lock --------------------------------------------------------------


def test_write_atomic_leaves_the_old_file_when_the_rename_fails(tmp_path, monkeypatch):
    target = tmp_path / "f.json"
    atomic_write(target, "old")
    assert target.read_text() == "old"
    atomic_write(target, b"new")
    assert target.read_bytes() == b"new"

    def fail(*args):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", fail)
    with pytest.raises(OSError):
        atomic_write(target, "lost")
    assert target.read_bytes() == b"new" and sorted(p.name for p in tmp_path.iterdir()) == ["f.json"]


def test_a_folder_in_use_is_refused_and_a_dead_process_lock_is_cleared(tmp_path):
    folder = tmp_path / "run"
    simulator.simulate("spokelse", **{**SIM, "rounds": 2048}, out=folder)
    in_use = f"{folder} is in use by another kortsim process"
    with claim.FolderLock(folder), pytest.raises(InputError, match=in_use):
        simulator.simulate("spokelse", **{**SIM, "rounds": 4096}, out=folder, resume=True)
    # A process killed while holding the lock (SIGKILL: no clean-up) leaves no lock behind.
    code = (
        "import os, signal, sys; from pathlib import Path; from simulator.running.claim import FolderLock; "
        "lock = FolderLock(Path(sys.argv[1])); os.kill(os.getpid(), signal.SIGKILL)"
    )
    proc = subprocess.run([sys.executable, "-c", code, str(folder)], cwd=ROOT, timeout=120)
    assert proc.returncode == -signal.SIGKILL
    assert (folder / ".lock").exists()
    r = simulator.simulate("spokelse", **{**SIM, "rounds": 4096}, out=folder, resume=True)
    assert figures(r) == figures(simulator.simulate("spokelse", **{**SIM, "rounds": 4096}))


def test_a_stale_optuna_lock_left_by_a_kill_is_cleared_on_resume(tmp_path):
    out = tmp_path / "tune"
    first = simulator.tune("spokelse", "threshold:k=0..13", trials=2, out=out, **TUNE)
    os.symlink(out / "study.journal", out / "study.journal.lock")  # what Optuna's lock is
    again = simulator.tune("spokelse", "threshold:k=0..13", trials=2, out=out, resume=True, **TUNE)
    assert not (out / "study.journal.lock").is_symlink() and not (out / "study.journal.lock").exists()
    assert again.tuned == first.tuned


# --- record files in the journal ---------------------------------------------------------------


def test_a_truncated_record_file_is_played_again_never_trusted(tmp_path, capsys):
    folder = tmp_path / "run"
    whole = simulator.simulate("spokelse", **SIM, out=folder, records=True)
    lines = [json.loads(x) for x in (folder / JOURNAL_FILE).read_text().splitlines()]
    assert all(len(line["parts"]) == 1 and len(line["parts"][0][1]) == 64 for line in lines)
    part = folder / RECORDS_DIR / lines[1]["parts"][0][0]
    part.write_bytes(part.read_bytes()[: part.stat().st_size // 2])  # cut short, as a full disk can
    with pytest.raises(InputError, match=r"is damaged .*record files of 1 journal line"):
        verify_folder(folder)  # kortsim report refuses it
    capsys.readouterr()
    again = simulator.simulate("spokelse", **SIM, out=folder, records=True, resume=True)
    err = capsys.readouterr().err
    assert "the record files of 1 journal line(s) are cut short, changed or missing" in err
    assert figures(again) == figures(whole)
    rec = read_records(folder, columns=["game"])
    assert np.array_equal(rec["game"].to_numpy(), np.arange(SIM["rounds"]))
    assert verify_folder(folder) is not None


def test_a_changed_record_file_is_played_again_too(tmp_path):
    folder = tmp_path / "run"
    whole = simulator.simulate("spokelse", **SIM, out=folder, records=True)
    first = json.loads((folder / JOURNAL_FILE).read_text().splitlines()[0])
    (folder / RECORDS_DIR / first["parts"][0][0]).unlink()
    again = simulator.simulate("spokelse", **SIM, out=folder, records=True, resume=True)
    assert figures(again) == figures(whole)
    assert len(read_records(folder, columns=["game"])) == SIM["rounds"]


# --- a cut Optuna journal -----------------------------------------------------------------------


def test_a_tune_journal_cut_mid_line_is_recovered_to_its_whole_lines(tmp_path, capsys):
    whole = simulator.tune("spokelse", "threshold:k=0..13", trials=4, **TUNE)
    out = tmp_path / "tune"
    simulator.tune("spokelse", "threshold:k=0..13", trials=4, out=out, **TUNE)
    journal = out / "study.journal"
    data = journal.read_bytes()
    last = data[:-1].rfind(b"\n")
    journal.write_bytes(data[: last + 1 + (len(data) - last) // 2])  # the last line cut in two
    capsys.readouterr()
    again = simulator.tune("spokelse", "threshold:k=0..13", trials=4, out=out, resume=True, **TUNE)
    assert "its last line was cut short" in capsys.readouterr().err
    text = journal.read_bytes()
    assert text.endswith(b"\n") and all(json.loads(x) for x in text.splitlines())
    assert again.tuned == whole.tuned
    untimed = [
        {k: v for k, v in r.summary["confirmation"].items() if k != "elapsed_s"} for r in (again, whole)
    ]
    assert untimed[0] == untimed[1]


def test_a_tune_journal_damaged_in_the_middle_is_refused_touching_nothing(tmp_path):
    out = tmp_path / "tune"
    simulator.tune("spokelse", "threshold:k=0..13", trials=2, out=out, **TUNE)
    journal = out / "study.journal"
    lines = journal.read_bytes().split(b"\n")
    lines[1] = lines[1][: len(lines[1]) // 2]
    journal.write_bytes(b"\n".join(lines))
    before = {p.name: p.read_bytes() for p in out.iterdir() if p.is_file()}
    with pytest.raises(InputError) as exc:
        simulator.tune("spokelse", "threshold:k=0..13", trials=3, out=out, resume=True, **TUNE)
    assert str(exc.value) == (
        f"{journal} is damaged at line 2 (not a whole record); it cannot be resumed: "
        "choose another --out folder to tune again"
    )
    assert {p.name: p.read_bytes() for p in out.iterdir() if p.is_file()} == before


@pytest.mark.slow
def test_a_tune_killed_by_sigkill_resumes_on_the_command_line_to_the_same_winner(tmp_path):
    out = tmp_path / "tune"
    args = ["tune", "spokelse", "-s", "threshold:k=0..13", "--vs", "threshold:k=4", "--rounds", "4000",
            "--confirm", "4000", "--trials", "10", "--seed", "4", "--threads", "1", "--out", str(out)]  # fmt: skip
    proc = subprocess.Popen([sys.executable, "-m", "simulator.cli", *args], cwd=ROOT, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE)  # fmt: skip
    journal = out / "study.journal"
    deadline = time.monotonic() + 300  # generous: a first run may compile the kernel
    while not journal.is_file() or journal.read_bytes().count(b"\n") < 12:
        assert proc.poll() is None, proc.communicate()
        assert time.monotonic() < deadline
        time.sleep(0.01)
    proc.send_signal(signal.SIGKILL)
    proc.communicate(timeout=60)
    assert proc.returncode == -signal.SIGKILL
    r = CliRunner().invoke(app, [*args, "--resume", "--json"])
    assert r.exit_code == 0, r.output
    whole = simulator.tune("spokelse", "threshold:k=0..13", trials=10, **TUNE)
    assert json.loads(r.stdout)["tuned"] == whole.tuned
    assert not (out / "study.journal.lock").exists() and not (out / "study.journal.lock").is_symlink()
