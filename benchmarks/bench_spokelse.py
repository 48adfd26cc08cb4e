"""Spøkelse throughput, compile time, start-up time and memory.

    python benchmarks/bench_spokelse.py            # throughput, reference ratio, start-up
    python benchmarks/bench_spokelse.py --memory   # also peak memory of 10^8 rounds (about 2 minutes)

Prints a markdown table; the latest figures are recorded in benchmarks/README.md.
"""

from __future__ import annotations

import argparse
import os
import platform
import resource
import subprocess
import sys
import tempfile
import time

import numba

import simulator
from simulator.games.spokelse import reference
from simulator.games.spokelse.variants import Rules
from strategies import parse_spec

SPEC = "threshold:k=4"


def timed_rounds(n: int, threads: int) -> float:
    numba.set_num_threads(threads)
    r = simulator.simulate("spokelse", SPEC, rounds=n, seed=1)
    return r.summary["games_per_s"]


def reference_rate(n: int) -> float:
    player = parse_spec(SPEC, "spokelse")
    t0 = time.perf_counter()
    for g in range(n):
        reference.play_round(Rules(), [player, player], seed=1, game=g)
    return n / (time.perf_counter() - t0)


def cli_seconds(env: dict) -> float:
    t0 = time.perf_counter()
    subprocess.run(
        [
            sys.executable,
            "-m",
            "simulator.cli",
            "simulate",
            "spokelse",
            "-s",
            SPEC,
            "--rounds",
            "1000",
            "--seed",
            "1",
            "--json",
        ],
        check=True,
        capture_output=True,
        env=env,
    )
    return time.perf_counter() - t0


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=8_000_000)
    ap.add_argument("--reference-rounds", type=int, default=400)
    ap.add_argument("--memory", action="store_true")
    args = ap.parse_args()

    rows = []
    with tempfile.TemporaryDirectory() as cache:
        env = {**os.environ, "NUMBA_CACHE_DIR": cache}
        cold = cli_seconds(env)
        warm = cli_seconds(env)
    rows.append(("CLI run of 1,000 rounds, empty numba cache (compiles)", f"{cold:.1f} s"))
    rows.append(("CLI run of 1,000 rounds, second run (cached)", f"{warm:.1f} s"))

    t0 = time.perf_counter()
    simulator.simulate("spokelse", SPEC, rounds=1000, seed=1)
    rows.append(("in-process compile/load before the first run", f"{time.perf_counter() - t0:.2f} s"))

    rate1 = timed_rounds(args.rounds // 2, 1)
    rate2 = timed_rounds(args.rounds, 2)
    ref = reference_rate(args.reference_rounds)
    rows.append((f"kernel, {SPEC} both seats, 1 thread", f"{rate1:,.0f} rounds/s"))
    rows.append((f"kernel, {SPEC} both seats, 2 threads", f"{rate2:,.0f} rounds/s"))
    rows.append(("plain-Python reference, 1 thread", f"{ref:,.0f} rounds/s"))
    rows.append(("kernel (2 threads) / reference", f"{rate2 / ref:,.0f}x"))
    m = simulator.simulate("spokelse", SPEC, matches=200_000, seed=1).summary["games_per_s"]
    rows.append((f"kernel, {SPEC}, match play, 2 threads", f"{m:,.0f} matches/s"))

    if args.memory:
        before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        simulator.simulate("spokelse", SPEC, rounds=100_000_000, seed=1)
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        rows.append(("peak memory, 10^8 rounds (no records)", f"{peak:.0f} MB (before: {before:.0f} MB)"))

    print(
        f"Spøkelse on {platform.machine()}, {os.cpu_count()} cores, numba {numba.__version__}, "
        f"{time.strftime('%Y-%m-%d')}\n"
    )
    print("| measure | value |\n|---|---|")
    for k, v in rows:
        print(f"| {k} | {v} |")


if __name__ == "__main__":
    main()
