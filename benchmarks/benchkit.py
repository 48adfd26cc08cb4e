"""Helpers of ``run_all.py``: child processes with their own CPU time and peak memory,
the C yardstick, the machine's description and markdown tables.

Kept apart from ``run_all.py`` so that it imports nothing of kortsim: the
measured work always runs in child processes.
"""

from __future__ import annotations

import os
import platform
import re
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
YARDSTICK_FOLDER = Path("..") / "shared" / "bench"  # the C yardsticks' sources, relative to ROOT
YARDSTICK_FLAGS = ("-O3", "-march=native", "-fopenmp")
LOAD_WARNING = 1.5


class BenchError(Exception):
    """A measurement could not be made; the message is one line for the user."""


@dataclass(frozen=True)
class Child:
    """One finished child process: its output, wall and CPU seconds, peak memory."""

    stdout: str
    stderr: str
    wall_s: float
    cpu_s: float
    peak_mb: float


def run_child(cmd: Sequence[str], env: dict[str, str], *, what: str) -> Child:
    """Run ``cmd`` to its end; its CPU time and max RSS come from ``wait4`` (that child alone).

    Raises
    ------
    BenchError
        When the child exits non-zero (with the last line of its stderr).
    """
    with tempfile.TemporaryFile("w+") as out, tempfile.TemporaryFile("w+") as err:
        t0 = time.perf_counter()
        proc = subprocess.Popen(list(cmd), stdout=out, stderr=err, env=env, cwd=ROOT)
        try:
            _, status, usage = os.wait4(proc.pid, 0)
        except BaseException:
            proc.kill()
            proc.wait()
            raise
        wall = time.perf_counter() - t0
        proc.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        err.seek(0)
        stdout, stderr = out.read(), err.read()
    if proc.returncode != 0:
        last = (stderr.strip().splitlines() or ["(no message)"])[-1]
        raise BenchError(f"{what} failed (exit {proc.returncode}): {last}")
    scale = 1 / 2**20 if sys.platform == "darwin" else 1 / 1024  # bytes on macOS, KiB on Linux
    return Child(stdout, stderr, wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss * scale)


def find_compiler() -> str | None:
    """``$CC``, else the first of cc, gcc, clang on the PATH."""
    for name in (os.environ.get("CC"), "cc", "gcc", "clang"):
        if name and shutil.which(name):
            return name
    return None


@dataclass(frozen=True)
class Yardstick:
    """A game's C yardstick: its source (in the yardstick folder) and extra build flags."""

    source: str
    defines: tuple[str, ...] = ()

    @property
    def name(self) -> str:
        return Path(self.source).stem


def build_yardstick(source: Path, into: Path, defines: Sequence[str] = ()) -> tuple[Path | None, str]:
    """Compile a yardstick into ``into``: ``(binary, how it was built)`` or ``(None, why not)``."""
    shown = source_label(source)
    if not source.is_file():
        return None, f"no yardstick: its source {shown} was not found (give --yardsticks FOLDER)"
    cc = find_compiler()
    if cc is None:
        return None, (
            "no yardstick: no C compiler (cc, gcc or clang) on the PATH; install one with OpenMP "
            "(Debian: apt-get install gcc)"
        )
    flags = [*YARDSTICK_FLAGS, *defines]
    binary = into / (source.stem + "".join(d.lower().replace("-d", "_") for d in defines))
    cmd = [cc, *flags, str(source), "-o", str(binary), "-lm"]
    done = subprocess.run(cmd, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        last = (done.stderr.strip().splitlines() or ["(no message)"])[-1]
        return None, f"no yardstick: `{cc} {' '.join(flags)}` failed: {last}"
    version = subprocess.run([cc, "--version"], capture_output=True, text=True, check=False).stdout
    first = (version.strip().splitlines() or ["unknown compiler"])[0]
    return binary, f"`{shown}` built with `{cc} {' '.join(flags)} SOURCE -o BINARY -lm` ({first})"


def source_label(source: Path) -> str:
    """The yardstick source as a path relative to the repository when it can be."""
    try:
        return os.path.relpath(source.resolve(), ROOT)
    except ValueError:
        return source.name


_RATE = re.compile(r"rounds/s=([0-9.eE+]+)")


def yardstick_rate(stdout: str) -> float:
    """The ``rounds/s=`` figure the yardstick prints."""
    m = _RATE.search(stdout)
    if not m:
        raise BenchError(f"the yardstick printed no rounds/s: {stdout.strip()[:80]!r}")
    return float(m.group(1))


def load() -> float:
    """One-minute load average (NaN where the system has none)."""
    return os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")


def cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def memory_gib() -> float:
    try:
        return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") / 2**30
    except (ValueError, OSError, AttributeError):
        return float("nan")


def revision() -> str:
    """The repository's commit, ``+ changes`` when the tree differs from it."""
    try:
        head = subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True, check=True
        ).stdout.strip()
        dirty = subprocess.run(
            ["git", "status", "--porcelain", "--untracked-files=no"],
            cwd=ROOT,
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"
    return f"{head} + uncommitted changes" if dirty else head


def table(header: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    """A markdown table."""
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    return "\n".join(lines)


def span(values: Sequence[float], fmt: str = "{:,.0f}") -> str:
    """``low–high`` of the values (one value alone when they agree in print)."""
    lo, hi = fmt.format(min(values)), fmt.format(max(values))
    return lo if lo == hi else f"{lo}–{hi}"


def say(text: str) -> None:
    """Progress on stderr (stdout carries only the markdown)."""
    print(text, file=sys.stderr, flush=True)
