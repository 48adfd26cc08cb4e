"""Where the commands write: every command that writes refuses, in one line and before it plays
anything, a place it cannot write or a folder it must not overwrite; Ctrl-C in a comparison
or a sweep says how far it got."""

import hashlib
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

from simulator.cli import app

ROOT = Path(__file__).resolve().parents[2]
runner = CliRunner()
COMPARE = ["compare", "spokelse", "-s", "threshold", "-s", "passive", "--rounds", "200", "--seed", "3"]
SWEEP = ["sweep", "spokelse", "-s", "threshold:k=1..3", "--vs", "passive", "--rounds", "100", "--seed", "3"]
UNWRITABLE = [
    ("/proc/x", "cannot create the results folder: No such file or directory"),
    ("/dev/null/sub", "cannot create the results folder: Not a directory"),
]


def run(*args: str):
    return runner.invoke(app, list(args))


def the_error(r) -> str:
    """The one line a refused command prints (exit code 2, nothing on stdout)."""
    assert r.exit_code == 2, r.output
    lines = [line for line in r.stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("error: "), r.stderr
    assert r.stdout == ""
    return lines[0]


def digest(folder: Path) -> dict[str, str]:
    """Every file below ``folder`` and its sha256: what must stay as it was."""
    return {
        str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(folder.rglob("*"))
        if p.is_file()
    }


# --- places that cannot be written ---------------------------------------------------------


@pytest.mark.parametrize(("out", "message"), UNWRITABLE)
def test_sweep_refuses_an_out_it_cannot_write_before_playing(out, message):
    t0 = time.monotonic()
    line = the_error(run(*SWEEP, "--out", out))
    assert line == f"error: --out {out}: {message}"
    assert time.monotonic() - t0 < 10  # nothing compiled or played
    assert not Path(out).exists()


@pytest.mark.parametrize(("out", "message"), UNWRITABLE)
def test_experiment_run_refuses_an_out_it_cannot_write_before_playing(out, message):
    t0 = time.monotonic()
    line = the_error(run("experiment", "run", "commit-early", "--tiny", "--out", out))
    assert line == f"error: --out {out}: {message}"
    assert time.monotonic() - t0 < 10
    assert not Path(out).exists()


@pytest.mark.parametrize("command", [SWEEP, COMPARE])
def test_a_plot_that_cannot_be_written_is_refused_before_playing(command):
    line = the_error(run(*command, "--plot", "/dev/null/figure.png"))
    assert line == "error: --plot /dev/null/figure.png: /dev/null is a file, not a folder"


def test_the_check_leaves_no_folder_behind(tmp_path):
    target = tmp_path / "a" / "b"
    line = the_error(run(*SWEEP, "--out", str(target), "--plot", str(tmp_path / "figure.pdf")))
    assert "give a .png or .svg file name" in line
    assert not (tmp_path / "a").exists()


# --- folders that are not a compare's or a sweep's to overwrite ----------------------------


@pytest.fixture
def run_folder(tmp_path):
    """A finished ``simulate --out`` folder."""
    folder = tmp_path / "run"
    r = run("simulate", "spokelse", "-s", "threshold", "-s", "passive", "--rounds", "2000", "--seed", "1",
            "--out", str(folder))  # fmt: skip
    assert r.exit_code == 0, r.output
    return folder


@pytest.mark.parametrize("command", [COMPARE, SWEEP], ids=["compare", "sweep"])
def test_a_simulate_run_folder_is_refused_and_kept(run_folder, command):
    before = digest(run_folder)
    line = the_error(run(*command, "--out", str(run_folder)))
    assert line == (
        f"error: --out {run_folder} already holds a run (run.json, simulate --out); choose another --out folder"
    )
    assert digest(run_folder) == before
    assert run("report", str(run_folder)).exit_code == 0  # the run's report still builds


@pytest.mark.parametrize("command", [COMPARE, SWEEP], ids=["compare", "sweep"])
def test_a_folder_with_files_kortsim_did_not_write_is_refused_and_kept(tmp_path, command):
    (tmp_path / "notes.txt").write_text("mine\n")
    (tmp_path / "summary.parquet").write_text("not a summary\n")
    line = the_error(run(*command, "--out", str(tmp_path)))
    assert line == (
        f"error: --out {tmp_path} holds files kortsim did not write (notes.txt); "
        "choose another --out folder (a new or empty one)"
    )
    assert (tmp_path / "notes.txt").read_text() == "mine\n"
    assert (tmp_path / "summary.parquet").read_text() == "not a summary\n"


def test_a_previous_result_of_the_same_command_is_replaced_with_a_note(tmp_path):
    folder = tmp_path / "cmp"
    first = run(*COMPARE, "--out", str(folder))
    assert first.exit_code == 0, first.output
    assert "note:" not in first.stderr
    again = run(*COMPARE, "--out", str(folder), "--json")
    assert again.exit_code == 0, again.output
    assert again.stderr.splitlines()[0] == f"note: {folder} held a previous compare result; replacing it"
    assert run("report", str(folder)).exit_code == 0


def test_another_commands_result_is_refused(tmp_path):
    folder = tmp_path / "cmp"
    assert run(*COMPARE, "--out", str(folder)).exit_code == 0
    before = digest(folder)
    line = the_error(run(*SWEEP, "--out", str(folder)))
    assert line == f"error: --out {folder} already holds a compare result; choose another --out folder"
    assert digest(folder) == before


def test_an_experiment_folder_is_refused(tmp_path):
    (tmp_path / "experiment.json").write_text("{}")
    line = the_error(run(*COMPARE, "--out", str(tmp_path)))
    assert line == (
        f"error: --out {tmp_path} already holds an experiment (experiment.json); choose another --out folder"
    )


# --- usage lines ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("command", "usage"),
    [
        (["compare"], "Usage: kortsim compare [OPTIONS] GAME"),
        (["report"], "Usage: kortsim report [OPTIONS] DIR"),
        (["experiment", "run"], "Usage: kortsim experiment run [OPTIONS] NAME"),
    ],
)
def test_usage_lines_show_required_arguments_plainly(command, usage):
    r = runner.invoke(app, [*command, "--help"], prog_name="kortsim")
    assert r.exit_code == 0, r.output
    assert r.stdout.splitlines()[0] == usage


# --- Ctrl-C ----------------------------------------------------------------------------------


def interrupted(*args: str) -> tuple[int, str, str]:
    """Run ``kortsim ARGS`` and send it SIGINT once it plays: (exit code, stdout, stderr).
    If no block had finished yet (a slow start), it is tried again with a longer wait."""
    cmd = [sys.executable, "-m", "simulator.cli", *args]
    for wait in (10, 20, 40):
        proc = subprocess.Popen(cmd, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        time.sleep(wait)
        assert proc.poll() is None, proc.communicate()
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=60)
        if "interrupted: 0 of" not in err and "no game played" not in err:
            return proc.returncode, out, err
    pytest.fail(f"nothing was played before Ctrl-C: {err}")


@pytest.mark.slow
@pytest.mark.parametrize(
    ("args", "command", "planned"),
    [
        (
            ["compare", "gris", "--players", "4", "-s", "greedy", "-s", "commit:after=0"],
            "compare",
            "800,000,000",
        ),
        (["sweep", "spokelse", "-s", "threshold:k=1..3", "--vs", "passive"], "sweep", "600,000,000"),
    ],
    ids=["compare", "sweep"],
)
def test_ctrl_c_says_how_many_games_were_played_and_exits_130(args, command, planned):
    code, out, err = interrupted(*args, "--rounds", str(10**8), "--seed", "5")
    assert code == 130, err
    assert out == ""
    lines = err.splitlines()
    assert len(lines) == 1, err
    played, rest = lines[0].removeprefix("interrupted: ").split(" of ", 1)
    assert 0 < int(played.replace(",", "")) < int(planned.replace(",", ""))
    assert rest == (
        f"{planned} games played; {command} keeps no partial results "
        "(use fewer --rounds, or simulate --out for resumable runs)"
    )
