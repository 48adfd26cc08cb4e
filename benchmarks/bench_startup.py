"""How fast kortsim starts: ``--version``, ``--help``, a command's ``--help``, a Tab completion
and a warm 1,000-round ``simulate``, each as a ratio to its yardstick (``python -c "import
typer"`` for the first four, ``python -c "import numba, numpy"`` for the run), measured in
the same sitting with the runs alternating, so that a change in the machine's load falls on
all of them alike.

    python benchmarks/bench_startup.py                 # 7 runs of each, medians
    python benchmarks/bench_startup.py --repeats 11
    python benchmarks/bench_startup.py --source DIR    # the kortsim checked out in DIR
    python benchmarks/bench_startup.py --before DIR    # and, alternating, the one in DIR

Each figure is wall-clock seconds per start (lower is better): the median of the runs, with
their range.  ``--share`` also splits a warm ``simulate`` into its imports, loading the
kernel from numba's cache and playing.  Set ``NUMBA_CACHE_DIR`` to a cache the kernels are
in (run the simulate once first, or ``kortsim warm``).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

from benchkit import load, table

SIMULATE = ["simulate", "spokelse", "-s", "threshold:k=4", "-s", "passive", "--rounds", "1000", "--seed", "7"]
TAB = "simulate spokelse -s thr"

#: name -> (argv after the interpreter, extra environment, yardstick)
CASES: dict[str, tuple[list[str], dict[str, str], str]] = {
    "import typer": (["-c", "import typer"], {}, ""),
    "import numba, numpy": (["-c", "import numba, numpy"], {}, ""),
    "kortsim --version": (["-m", "simulator.cli", "--version"], {}, "import typer"),
    "kortsim --help": (["-m", "simulator.cli", "--help"], {}, "import typer"),
    "kortsim simulate --help": (["-m", "simulator.cli", "simulate", "--help"], {}, "import typer"),
    "Tab: simulate spokelse -s thr": (
        ["-m", "simulator.cli"],
        {"_KORTSIM_COMPLETE": "complete_bash", "COMP_WORDS": f"kortsim {TAB}", "COMP_CWORD": "4"},
        "import typer",
    ),
    "kortsim simulate (1,000 rounds)": (["-m", "simulator.cli", *SIMULATE], {}, "import numba, numpy"),
}
LIMITS = {"import typer": "3x / 5x", "import numba, numpy": "3x (goal 2x)"}

SHARE = """
import json, sys, time
t0 = time.perf_counter()
from simulator.running.setup import Execution, Setup
from simulator.api import run
t1 = time.perf_counter()
setup = Setup.build("spokelse", ["threshold:k=4", "passive"], rounds=1000, seed=7)
execution = Execution.build()
t2 = time.perf_counter()
first = run(setup, execution)
t3 = time.perf_counter()
again = run(setup, execution)
t4 = time.perf_counter()
assert first.summary["seats"] == again.summary["seats"]
print(json.dumps({"imports": t1 - t0, "setup": t2 - t1, "first run": t3 - t2, "second run": t4 - t3,
                  "compile_s": first.summary.get("compile_s")}))
"""


def _once(argv: list[str], env: dict[str, str], cwd: Path) -> float:
    start = time.perf_counter()
    res = subprocess.run(
        [sys.executable, *argv], env={**os.environ, **env}, cwd=cwd, capture_output=True, text=True
    )
    took = time.perf_counter() - start
    if res.returncode != 0:
        raise SystemExit(f"{' '.join(argv)} failed: {res.stderr.strip().splitlines()[-1:]}")
    return took


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--repeats", type=int, default=7, help="runs of each command (default 7)")
    ap.add_argument("--source", type=Path, default=None, help="measure the kortsim checked out here")
    ap.add_argument("--before", type=Path, default=None, help="also measure, alternating, the kortsim here")
    ap.add_argument("--share", action="store_true", help="also split a warm simulate into its parts")
    ap.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = ap.parse_args()
    cwd = (args.source or Path(__file__).resolve().parent.parent).resolve()
    env_path = {"PYTHONPATH": str(cwd)}
    # label -> (argv, environment, folder, yardstick)
    runs = {name: (argv, {**env, **env_path}, cwd, yard) for name, (argv, env, yard) in CASES.items()}
    if args.before is not None:
        before = args.before.resolve()
        for name, (argv, env, yard) in CASES.items():
            if yard:
                runs[f"{name} (before)"] = (argv, {**env, "PYTHONPATH": str(before)}, before, yard)
    for argv, env, where, _ in runs.values():  # warm the caches (bytecode, numba's) once
        _once(argv, env, where)
    load_start = load()
    times: dict[str, list[float]] = {name: [] for name in runs}
    for _ in range(args.repeats):
        for name, (argv, env, where, _) in runs.items():
            times[name].append(_once(argv, env, where))
    load_end = load()
    median = {name: statistics.median(v) for name, v in times.items()}
    rows = []
    for name, (_, _, _, yardstick) in runs.items():
        v = times[name]
        ratio = f"{median[name] / median[yardstick]:.1f}x" if yardstick else "(yardstick)"
        limit = LIMITS.get(yardstick, "")
        rows.append([name, f"{median[name]:.3f}", f"{min(v):.3f}-{max(v):.3f}", ratio, limit])
    out: dict = {"median_s": median, "runs_s": times, "load": [load_start, load_end], "source": str(cwd)}
    if args.share:
        shares = [json.loads(subprocess.run([sys.executable, "-c", SHARE], env={**os.environ, **env_path},
                                            cwd=cwd, capture_output=True, text=True, check=True).stdout)
                  for _ in range(max(3, args.repeats // 2))]  # fmt: skip
        out["share_s"] = {k: statistics.median(s[k] or 0.0 for s in shares) for k in shares[0]}
    if args.json:
        print(json.dumps(out, indent=2))
        return
    print(f"{args.repeats} runs of each, alternating; load {load_start:.2f} at start, {load_end:.2f} at end")
    print(table(["command", "median s", "range s", "to yardstick", "target"], rows))
    if args.share:
        s = out["share_s"]
        print(
            f"warm simulate in one process (medians, s): imports {s['imports']:.3f}, setup {s['setup']:.3f}, "
            f"first run {s['first run']:.3f} (of which loading kernels ~{s['first run'] - s['second run']:.3f}), "
            f"a second run {s['second run']:.3f}"
        )


if __name__ == "__main__":
    main()
