"""Scaling: threads, a 2-worker Dask cluster against the local backend, and peak memory.

    python benchmarks/bench_scale.py            # throughput: 1 and 2 threads, local vs 2-worker cluster
    python benchmarks/bench_scale.py --memory   # also peak memory: 10^8 rounds, and 10^7 with --records
    python benchmarks/bench_scale.py --quick    # every size divided by 10 (a check that it all runs)

Every measurement runs in a fresh process (``--child``), so compile time, the
cluster's start and memory are measured alone; the games-per-second figures are
kortsim's own ``games_per_s`` (playing only: compiling and starting a cluster
are reported apart).  Prints a markdown table for benchmarks/README.md.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import subprocess
import sys
import tempfile
import time

SPEC = "threshold:k=4"


def child(args: argparse.Namespace) -> None:
    """One measurement in this process: print its figures as JSON."""
    import simulator

    kwargs: dict = {"rounds": args.n, "seed": 1}
    if args.threads:
        kwargs["threads"] = args.threads
    if args.backend == "dask":
        kwargs.update(backend="dask", workers=args.workers)
    t0 = time.perf_counter()
    with tempfile.TemporaryDirectory() as tmp:
        if args.records:
            kwargs.update(records=True, out=os.path.join(tmp, "run"))
        r = simulator.simulate("spokelse", SPEC, **kwargs)
    wall = time.perf_counter() - t0
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # Linux: kilobytes
    s = r.summary
    print(
        json.dumps(
            {"games_per_s": s["games_per_s"], "compile_s": s["compile_s"], "wall_s": wall, "peak_mb": peak_mb}
        )
    )


def measure(
    n: int, *, threads: int = 0, backend: str = "local", workers: int = 2, records: bool = False
) -> dict:
    cmd = [
        sys.executable,
        __file__,
        "--child",
        "--n",
        str(n),
        "--threads",
        str(threads),
        "--backend",
        backend,
    ]
    cmd += ["--workers", str(workers)] + (["--records"] if records else [])
    out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
    return json.loads(out.strip().splitlines()[-1])


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=20_000_000, help="rounds per throughput measurement")
    ap.add_argument("--memory", action="store_true", help="also measure peak memory (10^8 and 10^7 rounds)")
    ap.add_argument("--quick", action="store_true", help="divide every size by 10")
    ap.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("--n", type=int, default=0, help=argparse.SUPPRESS)
    ap.add_argument("--threads", type=int, default=0, help=argparse.SUPPRESS)
    ap.add_argument("--backend", default="local", help=argparse.SUPPRESS)
    ap.add_argument("--workers", type=int, default=2, help=argparse.SUPPRESS)
    ap.add_argument("--records", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.child:
        child(args)
        return
    scale = 10 if args.quick else 1
    n = args.rounds // scale

    rows = []
    measure(1000)  # fill numba's cache first
    one = measure(n // 2, threads=1)
    two = measure(n, threads=2)
    rows.append((f"local, 1 thread ({n // 2:,} rounds)", f"{one['games_per_s']:,.0f} rounds/s"))
    rows.append((f"local, 2 threads ({n:,} rounds)", f"{two['games_per_s']:,.0f} rounds/s"))
    rows.append(("2 threads / 1 thread", f"{two['games_per_s'] / one['games_per_s']:.2f}x"))
    cluster = measure(n, backend="dask", workers=2)
    rows.append(
        (f"Dask LocalCluster, 2 workers x 1 thread ({n:,} rounds)", f"{cluster['games_per_s']:,.0f} rounds/s")
    )
    rows.append(("cluster / local 2 threads", f"{cluster['games_per_s'] / two['games_per_s']:.2f}x"))
    start = cluster["wall_s"] - n / cluster["games_per_s"] - cluster["compile_s"]
    rows.append(("cluster start and shut-down (apart from compiling)", f"{start:.1f} s"))
    rows.append(("cluster workers' compile or cache load", f"{cluster['compile_s']:.1f} s"))

    if args.memory:
        big = measure(100_000_000 // scale)
        rows.append((f"peak memory, {100_000_000 // scale:,} rounds, no records", f"{big['peak_mb']:.0f} MB"))
        rec = measure(10_000_000 // scale, records=True)
        rows.append(
            (f"peak memory, {10_000_000 // scale:,} rounds with --records", f"{rec['peak_mb']:.0f} MB")
        )
        rows.append(
            ("rounds/s with --records (played twice: figures and rows)", f"{rec['games_per_s']:,.0f}")
        )
        small = measure(1_000_000 // scale, records=True)
        rows.append(
            (
                f"peak memory, {1_000_000 // scale:,} rounds with --records (for scale)",
                f"{small['peak_mb']:.0f} MB",
            )
        )

    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(
        f"kortsim scaling on {platform.machine()}, {os.cpu_count()} cores, load {load:.1f}, "
        f"{time.strftime('%Y-%m-%d')}\n"
    )
    print("| measure | value |\n|---|---|")
    for k, v in rows:
        print(f"| {k} | {v} |")


if __name__ == "__main__":
    main()
