"""Gris throughput: the compiled kernel against the plain-Python reference, compile time apart.

    python benchmarks/bench_gris.py                # greedy on 4 seats, 1 and 2 threads, reference ratio
    python benchmarks/bench_gris.py --cold         # also a CLI run with an empty numba cache

Prints a markdown table.  Besides wall-clock rates it gives the CPU time per
round (all threads), which does not depend on what else the machine is
running: on a shared machine the wall-clock rate with 2 threads is only as
good as the share of the two cores the run gets (the load average is printed).
"""

from __future__ import annotations

import argparse
import os
import platform
import subprocess
import sys
import tempfile
import time

import numba

import simulator
from strategies import parse_spec

SPEC = "greedy"
SEATS = 4


def kernel_rate(n: int, threads: int, unit: str = "rounds") -> tuple[float, float]:
    """Games per wall-clock second, and CPU nanoseconds per game (all threads)."""
    c0 = time.process_time()
    r = simulator.simulate("gris", SPEC, players=SEATS, seed=1, threads=threads, **{unit: n})
    cpu = time.process_time() - c0
    return r.summary["games_per_s"], cpu / n * 1e9


def reference_rate(seconds: float) -> tuple[float, float] | None:
    """Rounds per wall-clock second of the plain-Python reference, and CPU ns per round."""
    try:
        from simulator.games.gris import reference
        from simulator.games.gris.variants import Rules
    except ImportError:
        return None
    players = [parse_spec(SPEC, "gris")] * SEATS
    reference.play_round(Rules(), players, seed=1, game=0)  # strategies compiled/loaded
    n = 0
    t0, c0 = time.perf_counter(), time.process_time()
    while time.perf_counter() - t0 < seconds:
        reference.play_round(Rules(), players, seed=1, game=n)
        n += 1
    return n / (time.perf_counter() - t0), (time.process_time() - c0) / n * 1e9


def cli_seconds(env: dict) -> float:
    t0 = time.perf_counter()
    cmd = [
        sys.executable,
        "-m",
        "simulator.cli",
        "simulate",
        "gris",
        "-s",
        SPEC,
        "--rounds",
        "1000",
        "--seed",
        "1",
    ]
    subprocess.run([*cmd, "--json"], check=True, capture_output=True, env=env)
    return time.perf_counter() - t0


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=8_000_000)
    ap.add_argument("--matches", type=int, default=200_000)
    ap.add_argument("--reference-seconds", type=float, default=5.0)
    ap.add_argument("--cold", action="store_true", help="also time a CLI run with an empty numba cache")
    args = ap.parse_args()

    rows = []
    if args.cold:
        with tempfile.TemporaryDirectory() as cache:
            env = {**os.environ, "NUMBA_CACHE_DIR": cache}
            rows.append(
                ("CLI run of 1,000 rounds, empty numba cache (compiles)", f"{cli_seconds(env):.1f} s")
            )
            rows.append(("CLI run of 1,000 rounds, second run (cached)", f"{cli_seconds(env):.1f} s"))

    t0 = time.perf_counter()
    first = simulator.simulate("gris", SPEC, players=SEATS, rounds=1000, seed=1)
    rows.append(("in-process compile/load before the first run", f"{time.perf_counter() - t0:.2f} s"))
    rows.append(("  of which the kernel (compile_s)", f"{first.summary['compile_s']:.2f} s"))

    rate1, cpu1 = kernel_rate(args.rounds // 2, 1)
    rate2, cpu2 = kernel_rate(args.rounds, 2)
    measured = reference_rate(args.reference_seconds)
    label = f"kernel, {SPEC} on {SEATS} seats"
    rows.append((f"{label}, 1 thread", f"{rate1:,.0f} rounds/s ({cpu1:,.0f} ns CPU per round)"))
    rows.append((f"{label}, 2 threads", f"{rate2:,.0f} rounds/s ({cpu2:,.0f} ns CPU per round)"))
    rows.append(
        (f"{label}, 2 threads, CPU-bound rate", f"{2e9 / cpu2:,.0f} rounds/s (2 cores / CPU per round)")
    )
    if measured is None:
        rows.append(("plain-Python reference", "not available (simulator/games/gris/reference.py missing)"))
    else:
        ref, ref_cpu = measured
        rows.append(
            ("plain-Python reference, 1 thread", f"{ref:,.0f} rounds/s ({ref_cpu:,.0f} ns CPU per round)")
        )
        rows.append(("kernel (2 threads) / reference, wall clock", f"{rate2 / ref:,.0f}x"))
        rows.append(("kernel (1 thread) / reference, wall clock", f"{rate1 / ref:,.0f}x"))
        rows.append(("kernel / reference, CPU per round (one core each)", f"{ref_cpu / cpu1:,.0f}x"))
        rows.append(("kernel on 2 cores / reference, CPU-bound", f"{2 * ref_cpu / cpu2:,.0f}x"))
    m, mcpu = kernel_rate(args.matches, 2, "matches")
    rows.append(
        (f"{label}, match play, 2 threads", f"{m:,.0f} matches/s ({mcpu / 1000:,.1f} µs CPU per match)")
    )

    load = os.getloadavg()
    print(
        f"Gris on {platform.machine()}, {os.cpu_count()} cores, numba {numba.__version__}, "
        f"{time.strftime('%Y-%m-%d %H:%M')}, load average {load[0]:.1f} {load[1]:.1f} {load[2]:.1f}\n"
    )
    print("| measure | value |\n|---|---|")
    for k, v in rows:
        print(f"| {k} | {v} |")


if __name__ == "__main__":
    main()
