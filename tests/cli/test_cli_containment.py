"""A misbehaving user strategy ends a ``kortsim`` command with one line and an exit code.

These run the command in its own process: what is proved is that the process is not
killed by a signal (a wild write), stops by itself within the time limit (an endless
loop) and answers Ctrl-C, each with one line naming the strategy and its seat.
"""

import os
import resource
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PLUGINS = ROOT / "tests" / "plugins"


def kortsim(*args: str, env: dict | None = None, timeout: float = 300) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "simulator.cli", *args],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env={**os.environ, **(env or {})},
        timeout=timeout,
    )


def said(stderr: str) -> list[str]:
    """stderr without the "compiling ..." notices and the seed line."""
    return [
        line for line in stderr.splitlines() if line.strip() and not line.startswith(("compiling ", "seed "))
    ]


def simulate(plugin: str, *specs: str, env: dict | None = None) -> subprocess.CompletedProcess:
    args = ["simulate", "spokelse", "--plugin", str(PLUGINS / f"{plugin}.py")]
    for s in specs:
        args += ["-s", s]
    return kortsim(*args, "--rounds", "2000", "--seed", "7", env=env)


def children_cpu_s() -> float:
    """CPU seconds used by this process's finished children."""
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def cpu_s(pid: int) -> float | None:
    """CPU seconds the running process ``pid`` has used (None where /proc does not say)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def wait_until_looping(p: subprocess.Popen, warm_cpu_s: float, otherwise_s: float) -> None:
    """Wait until ``p`` has used 2 CPU seconds more than ``warm_cpu_s``, what the same command
    used when stopped after its strategy had looped for 1 s: then it is past its start and
    looping however busy the machine is.  Where /proc is not there, wait ``otherwise_s``."""
    deadline = time.monotonic() + 180
    while True:
        assert p.poll() is None, "the command ended before it was interrupted"
        used = cpu_s(p.pid)
        if used is None:
            time.sleep(otherwise_s)
            return
        if used >= warm_cpu_s + 2:
            return
        assert time.monotonic() < deadline, f"the command used {used:.1f} CPU s in 180 s"
        time.sleep(0.2)


def one_error_line(r: subprocess.CompletedProcess, code: int) -> str:
    assert r.returncode == code, (r.returncode, r.stderr[-2000:])
    lines = said(r.stderr)
    assert len(lines) == 1, r.stderr
    assert "Traceback" not in r.stderr and "SystemError" not in r.stderr
    return lines[0]


@pytest.mark.slow
def test_reading_past_its_row_stops_the_run_naming_strategy_seat_and_decision():
    r = simulate("reads_past_its_row", "test-reads-past-its-row", "passive")
    line = one_error_line(r, 3)
    assert line.startswith("error: strategy 'test-reads-past-its-row' (seat 0) raised IndexError")
    assert "at its decision 1, in round 0 of the run with seed 7" in line


@pytest.mark.slow
def test_a_write_far_away_is_one_line_and_the_process_is_not_killed_by_a_signal():
    r = simulate("writes_far_away", "passive", "test-writes-far-away")
    assert r.returncode > 0  # not -11 (SIGSEGV)
    line = one_error_line(r, 3)
    assert "strategy 'test-writes-far-away' (seat 1) raised IndexError" in line
    assert "'passive'" not in line


@pytest.mark.slow
def test_an_exception_raised_by_a_strategy_is_one_line():
    r = simulate("raises", "test-raises", "passive")
    line = one_error_line(r, 3)
    assert line == (
        "error: strategy 'test-raises' (seat 0) raised ValueError: no idea what to do at its "
        "decision 3, in round 0 of the run with seed 7"
    )


@pytest.mark.slow
def test_an_endless_strategy_is_stopped_within_the_time_limit():
    t0 = time.monotonic()
    r = simulate("endless", "passive", "test-endless", env={"KORTSIM_BLOCK_TIMEOUT": "2"})
    elapsed = time.monotonic() - t0
    line = one_error_line(r, 3)
    assert line.startswith("error: strategy 'test-endless' (seat 1) did not finish a decision in 2 s")
    assert "KORTSIM_BLOCK_TIMEOUT=2 s" in line
    assert elapsed < 120  # compiling plus the 2 s limit, on a busy machine


@pytest.mark.slow
def test_ctrl_c_stops_an_endless_strategy():
    cmd = [
        sys.executable,
        "-m",
        "simulator.cli",
        "simulate",
        "spokelse",
        "--plugin",
        str(PLUGINS / "endless.py"),
    ]
    cmd += ["-s", "passive", "-s", "test-endless", "--rounds", "2000", "--seed", "7"]
    # A first run with a short limit compiles (and caches) the kernel, so that the run
    # below starts playing within seconds and the signal reaches a looping strategy.
    before = children_cpu_s()
    warm = simulate("endless", "passive", "test-endless", env={"KORTSIM_BLOCK_TIMEOUT": "1"})
    assert warm.returncode != 0 and "KORTSIM_BLOCK_TIMEOUT" in warm.stderr, warm.stderr[-2000:]
    warm_cpu_s = children_cpu_s() - before
    env = {**os.environ, "KORTSIM_BLOCK_TIMEOUT": "600"}
    p = subprocess.Popen(cmd, cwd=ROOT, env=env, stderr=subprocess.PIPE, text=True)
    try:
        wait_until_looping(p, warm_cpu_s, otherwise_s=30)
        t0 = time.monotonic()
        p.send_signal(signal.SIGINT)
        rest = p.stderr.read()
        code = p.wait(timeout=60)
    finally:
        if p.poll() is None:
            p.kill()
    assert time.monotonic() - t0 < 30
    assert code == 130, rest
    lines = said(rest)
    assert lines[-1].startswith("interrupted: strategy 'test-endless' (seat 1) did not come back"), rest
    assert "Traceback" not in rest


@pytest.mark.parametrize(
    "plugin,spec", [("global_random", "test-global-numpy-random"), ("python_random", "test-python-random")]
)
def test_a_strategy_drawing_from_global_random_state_is_refused_pointing_to_rng(plugin, spec):
    r = simulate(plugin, spec, "passive")
    line = one_error_line(r, 2)
    assert f"strategy '{spec}'" in line and "rng argument" in line


def test_trace_names_a_read_past_its_row_in_one_line():
    r = kortsim(
        "trace", "spokelse", "--plugin", str(PLUGINS / "reads_past_its_row.py"),
        "-s", "test-reads-past-its-row", "-s", "passive", "--seed", "7",
    )  # fmt: skip
    line = one_error_line(r, 3)
    assert "strategy 'test-reads-past-its-row' (seat 0) raised IndexError" in line


def trace(plugin: str, *specs: str, env: dict | None = None) -> subprocess.CompletedProcess:
    args = ["trace", "spokelse", "--plugin", str(PLUGINS / f"{plugin}.py")]
    for s in specs:
        args += ["-s", s]
    return kortsim(*args, "--seed", "7", env=env)


def test_trace_names_a_read_past_its_row_through_a_helper_module_in_one_line():
    r = trace("peek_helpermodule", "test-peek-helpermodule", "passive")
    line = one_error_line(r, 3)
    assert "strategy 'test-peek-helpermodule' (seat 0) raised IndexError" in line


@pytest.mark.parametrize("command", ["simulate", "trace"])
def test_a_recursive_strategy_is_refused_in_one_line_not_a_crash(command):
    r = (simulate if command == "simulate" else trace)("recursive", "test-recursive", "passive")
    assert r.returncode > 0  # not -11 (SIGSEGV)
    line = one_error_line(r, 2)
    assert "strategy 'test-recursive'" in line and "calls itself" in line


def test_a_plugin_calling_sys_exit_at_import_stops_the_run_with_one_line():
    r = simulate("exits_at_import", "passive", "passive")
    line = one_error_line(r, 2)
    assert "exits_at_import.py' failed to load: it called sys.exit()" in line


@pytest.mark.slow
def test_trace_stops_an_endless_strategy_within_the_time_limit():
    t0 = time.monotonic()
    r = trace("endless", "passive", "test-endless", env={"KORTSIM_BLOCK_TIMEOUT": "2"})
    elapsed = time.monotonic() - t0
    line = one_error_line(r, 3)
    assert line.startswith("error: strategy 'test-endless' (seat 1) did not finish a decision in 2 s")
    assert "(at its decision 2)" in line
    assert elapsed < 120  # compiling plus the 2 s limit, on a busy machine


@pytest.mark.slow
def test_ctrl_c_stops_trace_in_an_endless_strategy():
    cmd = [
        sys.executable,
        "-m",
        "simulator.cli",
        "trace",
        "spokelse",
        "--plugin",
        str(PLUGINS / "endless.py"),
    ]
    cmd += ["-s", "passive", "-s", "test-endless", "--seed", "7"]
    # The same trace stopped by a 1 s limit: what its start costs (a trace compiles only the
    # strategy, each time), so that the signal below reaches a looping strategy.
    before = children_cpu_s()
    warm = trace("endless", "passive", "test-endless", env={"KORTSIM_BLOCK_TIMEOUT": "1"})
    assert warm.returncode != 0 and "KORTSIM_BLOCK_TIMEOUT" in warm.stderr, warm.stderr[-2000:]
    warm_cpu_s = children_cpu_s() - before
    env = {**os.environ, "KORTSIM_BLOCK_TIMEOUT": "600"}
    p = subprocess.Popen(cmd, cwd=ROOT, env=env, stderr=subprocess.PIPE, text=True)
    try:
        wait_until_looping(p, warm_cpu_s, otherwise_s=40)
        t0 = time.monotonic()
        p.send_signal(signal.SIGINT)
        rest = p.stderr.read()
        code = p.wait(timeout=60)
    finally:
        if p.poll() is None:
            p.kill()
    assert time.monotonic() - t0 < 30
    assert code == 130, rest
    lines = said(rest)
    assert lines[-1].startswith("interrupted: strategy 'test-endless' (seat 1) did not come back"), rest
    assert "Traceback" not in rest
