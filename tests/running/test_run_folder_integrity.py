"""A run folder neither lies nor traps: an edited file is refused in one line naming it, a
damaged summary of the finished blocks is rebuilt from the block journal, a failed run can be
started over, Ctrl-C without --out keeps what finished, a folder that cannot be written is one
line, and a --scheduler that is not a Dask scheduler is one line within its timeout."""

import contextlib
import json
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

from simulator import simulate
from simulator.cli import app
from simulator.running.checkpoint import (
    JOURNAL_FILE,
    PROGRESS_FILE,
    RUN_FILE,
    STATUS_FILE,
    SUMMARY_FILE,
    RunInterrupted,
    read_status,
)
from simulator.running.results import TIMING_FIELDS

ROOT = Path(__file__).resolve().parents[2]
runner = CliRunner()
STRATEGIES = ["-s", "threshold:k=4", "-s", "random"]
N = 30_000
ARGS = ["spokelse", *STRATEGIES, "--seed", "7", "--rounds", str(N), "--block-size", "5000"]


def run(*args: str):
    return runner.invoke(app, list(args))


def without_timing(doc: dict) -> dict:
    return {k: v for k, v in doc.items() if k not in TIMING_FIELDS}


def lines_of(text: str) -> list[str]:
    return [line for line in text.splitlines() if line.strip()]


def one_error_line(r, code: int = 2) -> str:
    assert r.exit_code == code, r.output
    lines = lines_of(r.stderr)
    assert len(lines) == 1, r.stderr
    assert lines[0].startswith("error:"), lines[0]
    return lines[0]


@pytest.fixture(scope="module")
def uninterrupted() -> dict:
    """The reference: the run in one go, without a folder."""
    r = run("simulate", *ARGS, "--json")
    assert r.exit_code == 0, r.output
    return without_timing(json.loads(r.stdout))


def stopped_run(folder: Path, blocks: int = 2) -> None:
    """A run in ``folder`` stopped after ``blocks`` blocks of 5,000 rounds (as Ctrl-C does)."""
    stop = threading.Event()
    seen = []

    def progress(k: int) -> None:
        seen.append(k)
        if len(seen) == blocks:
            stop.set()

    with pytest.raises(RunInterrupted):
        simulate(
            "spokelse",
            ["threshold:k=4", "random"],
            rounds=N,
            seed=7,
            block_size=5000,
            out=folder,
            stop=stop,
            progress=progress,
        )


@pytest.fixture
def stopped(tmp_path) -> Path:
    folder = tmp_path / "run"
    stopped_run(folder)
    assert read_status(folder)["state"] == "stopped"
    return folder


def resume(folder: Path):
    return run("simulate", *ARGS, "--out", str(folder), "--resume", "--json")


def edit_json(path: Path, change) -> None:
    doc = json.loads(path.read_text())
    change(doc)
    path.write_text(json.dumps(doc, indent=1))  # valid JSON, as a person would leave it


# --- an edited folder is refused, on resume and by kortsim report --------------------------


def bump_aggregate(doc: dict) -> None:
    doc["agg"][0] += 1000


def stretch_range(doc: dict) -> None:
    doc["done"][-1][1] += 1000
    doc["games"] += 1000


@pytest.mark.parametrize("change", [bump_aggregate, stretch_range], ids=["aggregate+1000", "range+1000"])
def test_an_edited_progress_file_is_refused_on_resume_and_by_report(stopped, change):
    edit_json(stopped / PROGRESS_FILE, change)
    line = one_error_line(resume(stopped))
    assert f"{stopped / PROGRESS_FILE} fails its checksum" in line
    line = one_error_line(run("report", str(stopped)))
    assert f"{stopped / PROGRESS_FILE} fails its checksum" in line
    assert not (stopped / "report.html").exists()


def test_an_edited_block_line_is_refused(stopped):
    journal = stopped / JOURNAL_FILE
    rows = [json.loads(x) for x in journal.read_text().splitlines()]
    assert [r["games"] for r in rows] == [[[0, 5000]], [[5000, 10000]]]
    rows[1]["agg"][0] += 1000
    journal.write_text("".join(json.dumps(r) + "\n" for r in rows))
    line = one_error_line(resume(stopped))
    assert f"{journal} line 2 fails its checksum" in line
    assert f"{journal} line 2 fails its checksum" in one_error_line(run("report", str(stopped)))


def test_edited_settings_are_refused(stopped):
    edit_json(stopped / RUN_FILE, lambda doc: doc["settings"]["rules"].update(jack=11))
    r = run("simulate", *ARGS, "--rule", "jack=11", "--out", str(stopped), "--resume", "--json")
    assert f"{stopped / RUN_FILE} does not match its settings hash" in one_error_line(r)


def test_a_summary_from_another_run_is_refused_by_report(stopped, tmp_path):
    other = tmp_path / "other"
    r = run("simulate", "spokelse", *STRATEGIES, "--seed", "8", "--rounds", "2000", "--out", str(other))
    assert r.exit_code == 0, r.output
    r = run("report", str(stopped))  # as written: reported on
    assert r.exit_code == 0, r.output
    assert (stopped / "report.html").is_file()
    shutil.copy(other / SUMMARY_FILE, stopped / SUMMARY_FILE)
    line = one_error_line(run("report", str(stopped)))
    assert f"{stopped / SUMMARY_FILE} is not the summary of the run's finished blocks" in line


# --- damage is repaired from the block journal -----------------------------------------------


def test_a_damaged_progress_file_is_rebuilt_from_the_blocks(stopped, uninterrupted):
    journal_before = (stopped / JOURNAL_FILE).read_text().splitlines()
    (stopped / PROGRESS_FILE).write_text('{"settings_hash": "9f3c", "done": [[0, 10')  # cut short
    r = resume(stopped)
    assert r.exit_code == 0, r.output
    notes = lines_of(r.stderr)
    assert len(notes) == 1, r.stderr
    assert notes[0] == (
        f"note: {stopped / PROGRESS_FILE} was damaged or missing: rebuilt it from the 2 intact "
        f"lines of {JOURNAL_FILE} (10,000 rounds)"
    )
    assert without_timing(json.loads(r.stdout)) == uninterrupted
    # The finished blocks were kept, not played again: the journal goes on after them.
    journal_after = (stopped / JOURNAL_FILE).read_text().splitlines()
    assert journal_after[:2] == journal_before and len(journal_after) == N // 5000
    assert read_status(stopped)["state"] == "complete"
    assert run("report", str(stopped)).exit_code == 0


def test_a_cut_short_block_line_is_dropped_and_its_block_played_again(stopped, uninterrupted):
    journal = stopped / JOURNAL_FILE
    lines = journal.read_text().splitlines()
    journal.write_text(lines[0] + "\n" + lines[1][: len(lines[1]) // 2])  # a torn last line
    r = resume(stopped)
    assert r.exit_code == 0, r.output
    notes = lines_of(r.stderr)
    assert notes == [f"note: {journal}: 1 damaged line(s) dropped; their games are played again"]
    assert without_timing(json.loads(r.stdout)) == uninterrupted


def test_a_long_journal_is_compacted_and_still_resumes_to_the_same_numbers(
    tmp_path, uninterrupted, monkeypatch
):
    from simulator.running import checkpoint

    monkeypatch.setattr(checkpoint, "JOURNAL_COMPACT_AT", 4)
    monkeypatch.setattr(checkpoint, "JOURNAL_CHUNKS", 2)
    folder = tmp_path / "run"
    stopped_run(folder, blocks=5)  # 4 lines become 2, then a fifth is appended
    journal = folder / JOURNAL_FILE
    rows = [json.loads(x) for x in journal.read_text().splitlines()]
    assert [r["games"] for r in rows] == [[[0, 10000]], [[10000, 20000]], [[20000, 25000]]]
    # Damage to a compacted line costs its games (played again), never the result.
    lines = journal.read_text().splitlines()
    journal.write_text(lines[0] + "\n" + "#" + lines[1][1:] + "\n" + lines[2] + "\n")
    r = resume(folder)
    assert r.exit_code == 0, r.output
    assert lines_of(r.stderr) == [f"note: {journal}: 1 damaged line(s) dropped; their games are played again"]
    assert without_timing(json.loads(r.stdout)) == uninterrupted
    assert len(journal.read_text().splitlines()) < 4


def test_a_stopped_or_killed_run_stays_protected(stopped):
    r = run("simulate", *ARGS, "--out", str(stopped))
    assert "already holds a run (run.json)" in one_error_line(r)
    (stopped / STATUS_FILE).write_text(json.dumps({"state": "running"}))  # as SIGKILL leaves it
    assert "already holds a run" in one_error_line(run("simulate", *ARGS, "--out", str(stopped)))
    (stopped / STATUS_FILE).unlink()  # nothing says how it ended: still protected
    assert "already holds a run" in one_error_line(run("simulate", *ARGS, "--out", str(stopped)))


# --- a failed run can be started over --------------------------------------------------------

SOMETIMES_ILLEGAL = '''
from simulator.engine.rng import below_nb
from strategies import strategy


@strategy(game="spokelse", name="sometimes_illegal", params={})
def sometimes_illegal(obs, params, rng):
    """Draws from the stock, but once in a while answers an action that does not exist."""
    if below_nb(rng, 3000) == 0:
        return 99
    return 0
'''


@pytest.mark.slow
def test_a_failed_run_is_replaced_by_the_fixed_rerun(tmp_path, uninterrupted):
    plugin = tmp_path / "illegal.py"
    plugin.write_text(SOMETIMES_ILLEGAL)
    folder = tmp_path / "run"
    r = run("simulate", "spokelse", "--plugin", str(plugin), "-s", "sometimes_illegal", "-s", "random",
            "--seed", "7", "--rounds", str(N), "--block-size", "5000", "--out", str(folder))  # fmt: skip
    assert r.exit_code == 3, r.output
    assert "returned 99" in lines_of(r.stderr)[-1]
    status = read_status(folder)
    assert status["state"] == "failed" and "sometimes_illegal" in status["error"]
    # The fixed run (here: legal strategies) replaces it, saying so in one line.
    r = run("simulate", *ARGS, "--out", str(folder), "--json")
    assert r.exit_code == 0, r.output
    notes = lines_of(r.stderr)
    assert len(notes) == 1, r.stderr
    assert notes[0].startswith(f"note: {folder} held a run that failed (strategy 'sometimes_illegal'")
    assert notes[0].endswith("; starting a new run there")
    assert without_timing(json.loads(r.stdout)) == uninterrupted
    assert read_status(folder)["state"] == "complete"
    # Now that it succeeded, it is protected again.
    assert "already holds a run" in one_error_line(run("simulate", *ARGS, "--out", str(folder)))


def test_any_error_in_a_run_marks_it_failed_and_the_rule_is_said(tmp_path, uninterrupted):
    folder = tmp_path / "run"

    def broken_progress(k: int) -> None:
        raise RuntimeError("the progress display broke")

    with pytest.raises(RuntimeError):
        simulate(
            "spokelse", ["threshold:k=4", "random"], rounds=N, seed=7, out=folder, progress=broken_progress
        )
    assert read_status(folder) | {"at": None} == {
        "state": "failed",
        "games": 1024,  # the first block was counted before the display broke
        "planned": N,
        "error": "the progress display broke",
        "at": None,
    }
    # --resume still continues it when asked to (its finished blocks are sound) ...
    r = run(
        "simulate",
        "spokelse",
        *STRATEGIES,
        "--seed",
        "8",
        "--rounds",
        str(N),
        "--out",
        str(folder),
        "--resume",
    )
    assert "(that run failed: leave out --resume to start it over)" in one_error_line(r)
    # ... and without --resume a new run replaces it.
    r = run("simulate", *ARGS, "--out", str(folder), "--json")
    assert r.exit_code == 0, r.output
    assert lines_of(r.stderr) == [
        f"note: {folder} held a run that failed (the progress display broke); starting a new run there"
    ]
    assert without_timing(json.loads(r.stdout)) == uninterrupted


# --- Ctrl-C without --out ----------------------------------------------------------------------


def interrupt_without_out(*extra: str) -> tuple[int, str, str]:
    """``kortsim simulate ... --rounds 10**8`` interrupted once it plays: (exit code, out, err).
    SIGINT is sent a few seconds after the start; if that was before the first block finished
    (a slow start: imports, the kernel cache), the run is tried again with a longer wait."""
    cmd = [sys.executable, "-m", "simulator.cli", "simulate", "spokelse", *STRATEGIES, "--seed", "7"]
    cmd += ["--rounds", str(10**8), *extra]
    for wait in (10, 20, 40):
        proc = subprocess.Popen(cmd, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        time.sleep(wait)
        assert proc.poll() is None, proc.communicate()
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=60)
        if "interrupted: partial:" in err and "partial: 0 of" not in err:
            return proc.returncode, out, err
    pytest.fail(f"no block finished before Ctrl-C: {err}")


@pytest.mark.slow
def test_ctrl_c_without_out_prints_the_partial_figures_as_json():
    code, out, err = interrupt_without_out("--json")
    assert code == 130, err
    doc = json.loads(out)
    assert doc["partial"] is True and doc["n_planned"] == 10**8 and 0 < doc["n"] < 10**8
    assert 0 < doc["seats"][0]["win_rate"] < 1
    assert f"interrupted: partial: {doc['n']:,} of 100,000,000 rounds finished" in err
    assert "give --out DIR to make a run resumable" in err
    assert "Traceback" not in err


@pytest.mark.slow
def test_ctrl_c_without_out_prints_the_partial_table():
    code, out, err = interrupt_without_out()
    assert code == 130, err
    first = out.splitlines()[0]
    assert first.startswith("partial: ") and first.endswith(
        " of 100,000,000 rounds (stopped by Ctrl-C before the end)"
    )
    games = first.removeprefix("partial: ").split(" of ")[0]
    assert int(games.replace(",", "")) > 0
    assert "threshold:k=4" in out and "win_rate" in out
    assert f"interrupted: partial: {games} of 100,000,000 rounds finished" in err
    assert "--out DIR" in err and "Traceback" not in err


def test_a_complete_run_says_it_is_not_partial(uninterrupted):
    assert uninterrupted["partial"] is False and uninterrupted["n_planned"] == N == uninterrupted["n"]


# --- folders that cannot be written ------------------------------------------------------------


@pytest.mark.parametrize(
    ("out", "reason"),
    [
        ("/proc/x", ("No such file or directory", "Permission denied")),
        ("/dev/null/sub", ("Not a directory",)),
    ],
)
def test_a_folder_that_cannot_be_made_is_one_line(out, reason):
    t0 = time.monotonic()
    r = run("simulate", "spokelse", *STRATEGIES, "--seed", "1", "--rounds", "100", "--out", out)
    line = one_error_line(r)
    assert line.startswith(f"error: --out {out}: cannot create the run folder")
    assert line.endswith(reason), line
    assert time.monotonic() - t0 < 10  # refused before anything is compiled or played
    assert not Path(out).exists()


def test_a_folder_that_cannot_be_written_in_is_one_line():
    # /proc exists, and nobody may create files in it (not even the superuser, whom the
    # permission check lets through: then the lock file fails, also in one line).
    r = run("simulate", "spokelse", *STRATEGIES, "--seed", "1", "--rounds", "100", "--out", "/proc")
    line = one_error_line(r)
    # It holds files kortsim did not write, which is refused first; the write checks behind
    # that refusal are one line too (a folder that cannot be made: the test above).
    assert line.startswith("error: --out /proc holds files kortsim did not write (") and line.endswith(
        "more); choose another --out folder (a new or empty one)"
    )


# --- a --scheduler that is not one ------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture
def http_server():
    """A plain HTTP server on a loopback port: it accepts connections, and never speaks Dask."""
    port = free_port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "http.server", str(port), "--bind", "127.0.0.1"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 20
        while True:
            with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), timeout=1):
                break
            assert time.monotonic() < deadline and proc.poll() is None
            time.sleep(0.1)
        yield f"tcp://127.0.0.1:{port}"
    finally:
        proc.terminate()
        proc.wait(timeout=20)


def simulate_on(address: str, timeout: str = "2") -> tuple[int, str, float]:
    """``kortsim simulate --backend dask --scheduler address`` in a process of its own (so that
    anything printed at interpreter exit is seen): exit code, stderr, seconds."""
    cmd = [sys.executable, "-m", "simulator.cli", "simulate", "spokelse", "-s", "random", "--rounds", "100"]
    cmd += ["--seed", "1", "--backend", "dask", "--scheduler", address, "--connect-timeout", timeout]
    t0 = time.monotonic()
    proc = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=120)
    return proc.returncode, proc.stderr, time.monotonic() - t0


def assert_one_error_line(stderr: str) -> str:
    lines = [line for line in lines_of(stderr) if not line.startswith("compiling ")]
    assert len(lines) == 1 and lines[0].startswith("error:"), stderr
    return lines[0]


@pytest.mark.slow
def test_a_scheduler_address_that_is_not_dask_is_one_line_within_the_timeout(http_server):
    code, stderr, seconds = simulate_on(http_server)
    assert code == 2, stderr
    line = assert_one_error_line(stderr)
    assert f"no Dask scheduler answered at {http_server} within 2 s" in line
    assert seconds < 60  # 2 s of waiting, and the start of a process (compiling included)


@pytest.mark.slow
def test_an_unreachable_scheduler_is_one_line_and_no_traceback_at_exit():
    address = f"tcp://127.0.0.1:{free_port()}"  # nothing listens there
    code, stderr, seconds = simulate_on(address)
    assert code == 2, stderr
    line = assert_one_error_line(stderr)
    assert line.startswith(f"error: cannot reach the Dask scheduler at {address}")
    assert "Traceback" not in stderr and "Exception ignored" not in stderr
    assert seconds < 30


@pytest.mark.parametrize("value", ["0", "-1", "nan", "100000"])
def test_a_bad_connect_timeout_is_one_line(value):
    r = run("simulate", "spokelse", "-s", "random", "--rounds", "100", "--seed", "1",
            "--backend", "dask", "--scheduler", "tcp://127.0.0.1:9", "--connect-timeout", value)  # fmt: skip
    assert f"--connect-timeout {value}" in one_error_line(r)


def test_a_connect_timeout_without_dask_is_one_line():
    r = run(
        "simulate", "spokelse", "-s", "random", "--rounds", "100", "--seed", "1", "--connect-timeout", "5"
    )
    assert one_error_line(r) == "error: --connect-timeout is for --backend dask (the wait for a scheduler)"
