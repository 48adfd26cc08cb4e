"""Resumable runs: Ctrl-C and SIGKILL lose nothing finished, a resumed run ends with an
uninterrupted run's numbers, a finished run extends, and changed settings are refused."""

import json
import os
import shlex
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from simulator import simulate
from simulator.api import make_table, resolve_game, resolve_players
from simulator.cli import app
from simulator.running.checkpoint import PROGRESS_FILE, RUN_FILE, RunFolder, run_settings
from simulator.running.records import read_records
from simulator.running.results import TIMING_FIELDS, Result
from simulator.running.runner import BlockRunner

ROOT = Path(__file__).resolve().parents[2]
runner = CliRunner()
BASE = ["spokelse", "-s", "threshold:k=4", "-s", "random", "--seed", "3"]


def run(*args: str):
    return runner.invoke(app, list(args))


def without_timing(doc: dict) -> dict:
    return {k: v for k, v in doc.items() if k not in TIMING_FIELDS}


def cli_json(*args: str) -> dict:
    r = run("simulate", *args, "--json")
    assert r.exit_code == 0, r.output
    return without_timing(json.loads(r.stdout))


def one_error_line(r) -> str:
    assert r.exit_code == 2, r.output
    lines = [line for line in r.stderr.splitlines() if line.strip()]
    assert len(lines) == 1, r.stderr
    assert lines[0].startswith("error:")
    return lines[0]


def progress_games(folder: Path) -> int:
    try:
        return json.loads((folder / PROGRESS_FILE).read_text())["games"]
    except (OSError, ValueError, KeyError):
        return 0


N = 200_000  # matches, in small blocks: many blocks whatever the machine's speed


def start_and_signal(folder: Path, sig: int, *extra: str, group: bool = False) -> subprocess.Popen:
    """Start ``kortsim simulate ... --out folder`` and send ``sig`` once a block is persisted
    (to its whole process group when ``group``, as a terminal's Ctrl-C does)."""
    cmd = [sys.executable, "-m", "simulator.cli", "simulate", *BASE, "--matches", str(N)]
    cmd += ["--block-size", "2000", "--out", str(folder), *extra]
    proc = subprocess.Popen(
        cmd, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=group
    )
    deadline = time.monotonic() + 300  # generous: a first run may compile the kernel
    while progress_games(folder) == 0:
        assert proc.poll() is None, proc.communicate()
        assert time.monotonic() < deadline
        time.sleep(0.01)
    if group:
        os.killpg(proc.pid, sig)
    else:
        proc.send_signal(sig)
    return proc


@pytest.fixture(scope="module")
def uninterrupted():
    """The reference: the run played in one go in this process."""
    return without_timing(
        json.loads(simulate("spokelse", ["threshold:k=4", "random"], matches=N, seed=3).to_json())
    )


@pytest.mark.slow
def test_ctrl_c_stops_within_seconds_and_resume_finishes_the_same(tmp_path, uninterrupted):
    folder = tmp_path / "run"
    proc = start_and_signal(folder, signal.SIGINT)
    t0 = time.monotonic()
    _, stderr = proc.communicate(timeout=60)
    assert time.monotonic() - t0 < 10
    assert proc.returncode == 130, stderr
    games = progress_games(folder)
    assert 0 < games < N
    assert f"holds {games:,} of {N:,} matches" in stderr
    # The partial result is valid: the figures of the finished games.
    partial = Result.read(folder)
    assert partial.summary["n"] == games and partial.provenance["run"]["complete"] is False
    # The printed command finishes the run, to the numbers of an uninterrupted one.
    command = next(line for line in stderr.splitlines() if line.startswith("to finish it: "))
    argv = shlex.split(command.removeprefix("to finish it: "))
    assert argv[:2] == ["kortsim", "simulate"] and argv[-1] == "--resume"
    r = run(*argv[1:], "--json")
    assert r.exit_code == 0, r.output
    assert without_timing(json.loads(r.stdout)) == uninterrupted
    final = Result.read(folder)
    assert without_timing(final.summary) == uninterrupted and final.provenance["run"]["complete"] is True


@pytest.mark.slow
def test_sigkill_corrupts_nothing_and_resume_finishes_the_same(tmp_path, uninterrupted):
    folder = tmp_path / "run"
    proc = start_and_signal(folder, signal.SIGKILL, "--records")
    proc.communicate(timeout=60)
    assert proc.returncode == -signal.SIGKILL
    # What was persisted is whole: the settings and the finished blocks parse and agree.
    meta = json.loads((folder / RUN_FILE).read_text())
    progress = json.loads((folder / PROGRESS_FILE).read_text())
    assert meta["n"] == N and meta["settings"]["seed"] == 3 and meta["records"] is True
    done = progress["done"]
    assert progress["games"] == sum(b - a for a, b in done) > 0
    assert len(progress["agg"]) == progress["width"]
    # Leftovers of the kill (a record file written but not yet counted, temporary files)
    # are removed on resume; the records end complete, each game once.
    r = run("simulate", *BASE, "--matches", str(N), "--out", str(folder), "--records", "--resume", "--json")
    assert r.exit_code == 0, r.output
    assert without_timing(json.loads(r.stdout)) == uninterrupted
    assert not list(folder.rglob("*.tmp"))
    rec = read_records(folder, columns=["game", "total_half_0", "total_half_1", "loser"])
    assert np.array_equal(rec["game"].to_numpy(), np.arange(N))
    for s, seat in enumerate(uninterrupted["seats"]):
        assert rec[f"total_half_{s}"].mean() / 2 == pytest.approx(seat["mean_total"], rel=1e-12)
        assert (rec["loser"] == s).mean() == pytest.approx(seat["loss_rate"], rel=1e-12)


@pytest.mark.slow
def test_ctrl_c_on_a_local_cluster_then_resume_on_this_machine(tmp_path, uninterrupted):
    folder = tmp_path / "run"
    proc = start_and_signal(folder, signal.SIGINT, "--backend", "dask", "--workers", "2", group=True)
    t0 = time.monotonic()
    _, stderr = proc.communicate(timeout=60)
    assert time.monotonic() - t0 < 20  # the blocks in flight are abandoned; the cluster shuts down
    assert proc.returncode == 130, stderr
    assert "Traceback" not in stderr  # the workers leave Ctrl-C to the client
    assert "--backend dask --workers 2" in stderr
    games = progress_games(folder)
    assert 0 < games < N and Result.read(folder).summary["n"] == games
    r = run("simulate", *BASE, "--matches", str(N), "--out", str(folder), "--resume", "--json")
    assert r.exit_code == 0, r.output
    assert without_timing(json.loads(r.stdout)) == uninterrupted


def test_a_stopped_run_resumes_to_the_same_numbers(tmp_path):
    import threading

    from simulator.running.checkpoint import RunInterrupted

    stop = threading.Event()
    blocks = []

    def progress(k: int) -> None:
        blocks.append(k)
        if len(blocks) == 2:
            stop.set()

    kwargs = {"rounds": 60_000, "seed": 12, "block_size": 7000}
    with pytest.raises(RunInterrupted) as info:
        simulate("spokelse", "threshold:k=5", out=tmp_path / "r", stop=stop, progress=progress, **kwargs)
    assert info.value.games == 14_000 and info.value.result.summary["n"] == 14_000
    assert Result.read(tmp_path / "r").summary["n"] == 14_000
    resumed = simulate("spokelse", "threshold:k=5", out=tmp_path / "r", resume=True, **kwargs)
    fresh = simulate("spokelse", "threshold:k=5", **kwargs)
    assert resumed.without_timing() == fresh.without_timing()
    assert np.array_equal(resumed.aggregates, fresh.aggregates)


@pytest.fixture(scope="module")
def finished(tmp_path_factory):
    """A finished run of 20,000 rounds in a folder of its own."""
    folder = tmp_path_factory.mktemp("finished") / "run"
    doc = cli_json(*BASE, "--rounds", "20000", "--out", str(folder))
    return folder, doc


STRATEGIES = ["-s", "threshold:k=4", "-s", "random"]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ([*STRATEGIES, "--rounds", "20000", "--seed", "4"], "its seed is 3, not 4"),
        (
            ["-s", "threshold:k=5", "-s", "random", "--rounds", "20000", "--seed", "3"],
            "its strategies are threshold:k=4, random, not threshold:k=5, random",
        ),
        (
            [*STRATEGIES, "--rounds", "20000", "--seed", "3", "--rule", "jack=11"],
            "its rule jack is 0.5, not 11",
        ),
        ([*STRATEGIES, "--matches", "20000", "--seed", "3"], "it plays rounds, not matches"),
        ([*STRATEGIES, "--rounds", "20000", "--seed", "3", "--records"], "it was started without --records"),
    ],
)
def test_resuming_with_changed_settings_is_refused(finished, args, message):
    folder, _ = finished
    r = run("simulate", "spokelse", *args, "--out", str(folder), "--resume")
    line = one_error_line(r)
    assert f"cannot resume {folder}" in line and message in line


def test_a_folder_with_a_run_is_not_overwritten(finished):
    folder, _ = finished
    before = (folder / PROGRESS_FILE).read_bytes()
    r = run("simulate", *BASE, "--rounds", "20000", "--out", str(folder))
    assert "already holds a run" in one_error_line(r) and "--resume" in r.stderr
    assert (folder / PROGRESS_FILE).read_bytes() == before


def test_resuming_a_finished_run_gives_it_back(finished):
    folder, doc = finished
    assert cli_json(*BASE, "--rounds", "20000", "--out", str(folder), "--resume") == doc
    # The seed is the run's own when none is given.
    assert cli_json("spokelse", "-s", "threshold:k=4", "-s", "random", "--rounds", "20000",
                    "--out", str(folder), "--resume") == doc  # fmt: skip


def test_fewer_games_than_the_run_holds_is_refused(finished):
    folder, _ = finished
    r = run("simulate", *BASE, "--rounds", "1000", "--out", str(folder), "--resume")
    assert "already holds rounds up to number 20,000" in one_error_line(r)


def test_nothing_to_resume(tmp_path):
    r = run("simulate", *BASE, "--rounds", "100", "--out", str(tmp_path / "empty"), "--resume")
    assert "nothing to resume" in one_error_line(r)


def test_resume_extends_a_finished_run(tmp_path):
    folder = tmp_path / "run"
    cli_json(*BASE, "--matches", "3000", "--out", str(folder))
    extended = cli_json(*BASE, "--matches", "5000", "--out", str(folder), "--resume")
    assert extended == cli_json(*BASE, "--matches", "5000")
    assert json.loads((folder / RUN_FILE).read_text())["n"] == 5000
    assert Result.read(folder).summary["n"] == 5000
    assert not list(folder.rglob("*.tmp"))


def test_a_run_in_use_is_refused(tmp_path):
    g = resolve_game("spokelse")
    table = make_table(g)
    players = resolve_players(g, ["threshold:k=4", "random"], 2)
    settings = run_settings(table, players, "round", 3)
    width = BlockRunner(table, players, "round", 3).width
    with RunFolder.open(tmp_path / "run", settings, 1000, width=width, records=False, resume=False):
        r = run("simulate", *BASE, "--rounds", "1000", "--out", str(tmp_path / "run"), "--resume")
        assert "in use by another kortsim process" in one_error_line(r)
    # Released: the run can now be played from where it is (nothing done yet).
    assert cli_json(*BASE, "--rounds", "1000", "--out", str(tmp_path / "run"), "--resume") == cli_json(
        *BASE, "--rounds", "1000"
    )


def test_an_edited_progress_file_is_one_line(tmp_path):
    folder = tmp_path / "run"
    cli_json(*BASE, "--rounds", "2000", "--out", str(folder))
    progress = json.loads((folder / PROGRESS_FILE).read_text())
    progress["games"] += 1
    (folder / PROGRESS_FILE).write_text(json.dumps(progress))
    r = run("simulate", *BASE, "--rounds", "2000", "--out", str(folder), "--resume")
    assert f"{folder / PROGRESS_FILE} fails its checksum" in one_error_line(r)
    assert os.path.isfile(folder / RUN_FILE)
