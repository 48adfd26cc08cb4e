"""The lock a process holds while it compiles a kernel copy (simulator/kernels/specialise.py)."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

import filelock
import pytest

from simulator.kernels.specialise import compiling_alone

HOLD = """
import sys, time, filelock
lock = filelock.FileLock(sys.argv[1])
lock.acquire()
print("held", flush=True)
time.sleep(float(sys.argv[2]))
lock.release()
"""


def test_a_second_process_waits_for_the_first_to_finish_compiling(tmp_path: Path) -> None:
    path = str(tmp_path / "compiling-abc.lock")
    holder = subprocess.Popen([sys.executable, "-c", HOLD, path, "1.5"], stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout.readline().strip() == "held"
        t0 = time.perf_counter()
        with compiling_alone(path):
            waited = time.perf_counter() - t0
            # while this process holds it, nobody else can take it
            with pytest.raises(filelock.Timeout):
                filelock.FileLock(path, timeout=0).acquire()
    finally:
        holder.wait(timeout=30)
    assert waited > 1.0


def test_no_lock_for_a_copy_kept_in_the_process_and_none_where_it_cannot_be_written(tmp_path: Path) -> None:
    with compiling_alone(None):
        pass
    blocked = tmp_path / "a file, not a folder"
    blocked.write_text("")
    ran = []
    with compiling_alone(str(blocked / "compiling-abc.lock")):
        ran.append(True)
    assert ran == [True]
