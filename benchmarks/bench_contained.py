"""What containment costs: a plugin copy of Spøkelse ``threshold:k=4`` against the shipped one.

``python benchmarks/bench_contained.py [--rounds N] [--repeats R]`` plays the same rounds
(``threshold:k=4`` against itself, seed 1) with the shipped kernel and with kernels built
around the plugin copy ``tests/plugins/threshold_copy.py``, adding one guarantee at a time:

1. ``plain``: the plugin's own function, no bounds checks, no exception guard, GIL held;
2. ``+ bounds``: its bounds-checked copy (simulator/kernels/reach.py);
3. ``+ guard``: read-only inputs and the ``try``/``except`` of the dispatcher;
4. ``+ nogil``: the kernel releases the GIL (so that a watchdog can run);
5. ``contained``: what ``simulate`` runs (the cached kernel of simulator/kernels/specialise.py),
   with the watchdog thread (simulator/kernels/watchdog.py) around each call.

``--gris`` measures the other case instead: the plugin copy of Gris ``commit:after=1``
(``tests/plugins/commit_copy.py``, which keeps its locked suit in a ``MEMORY`` slot, so
every other entry of its observation is checked unchanged after each decision) against the shipped ``commit:after=1``, 3 ``greedy``
opponents, shipped kernel against what ``simulate`` runs.

Each kernel is compiled first (compile time is not counted); then the variants are played
in turn, ``--repeats`` times in alternating order, on one thread unless NUMBA_NUM_THREADS
says otherwise.  It prints a markdown table: rounds per second (higher is better, min-max
over the repeats) and the ratio to the shipped kernel (median).  Every variant must give
the same figures as the shipped kernel (checked).
"""

from __future__ import annotations

import argparse
import os
import statistics
import time
from pathlib import Path
from types import ModuleType

os.environ.setdefault("NUMBA_NUM_THREADS", "1")

import numba
import numpy as np

from simulator.games import get_game
from simulator.kernels import specialise
from simulator.kernels.containment import checked_decide
from simulator.kernels.hooks import rebound
from simulator.running.runner import BlockRunner, Kernel
from simulator.running.setup import make_table
from strategies.plugins import load_plugin
from strategies.registry import parse_spec

ROOT = Path(__file__).resolve().parents[1]
PLUGIN = ROOT / "tests" / "plugins" / "threshold_copy.py"
GRIS_PLUGIN = ROOT / "tests" / "plugins" / "commit_copy.py"


def _module(game, decides, contained, nogil: bool) -> ModuleType:
    decide = specialise.make_dispatch(decides, contained)
    return rebound(
        game.kernel, decide, cache=False, variant=f"bench{len(decides)}{contained}{nogil}", nogil=nogil
    )


def _runner(table, players, module=None, watch: bool = False) -> BlockRunner:
    runner = BlockRunner(table, players, "round", 1)
    if module is not None:
        sids = np.zeros(len(players), dtype=np.int64)
        runner.kernel = Kernel(module.run_block_nb, sids, watch, module.records_block_nb)
    return runner


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=200_000)
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--gris", action="store_true", help="Gris commit:after=1 (memory slots) instead")
    args = ap.parse_args()
    variants = _gris() if args.gris else _spokelse()
    _measure(variants, args.rounds, args.repeats)


def _gris() -> dict[str, BlockRunner]:
    load_plugin(GRIS_PLUGIN)
    table = make_table(get_game("gris"))
    rest = [parse_spec("greedy", "gris")] * 3
    return {
        "shipped": _runner(table, [parse_spec("commit:after=1", "gris"), *rest]),
        "contained (memory slots) commit copy: simulate": _runner(
            table, [parse_spec("test-commit-copy:after=1", "gris"), *rest]
        ),
    }


def _spokelse() -> dict[str, BlockRunner]:
    load_plugin(PLUGIN)
    game = get_game("spokelse")
    table = make_table(game)
    shipped = [parse_spec("threshold:k=4", "spokelse")] * 2
    mine = [parse_spec("test-threshold-copy:k=4", "spokelse")] * 2
    family = mine[0].family
    checked = checked_decide(family)
    return {
        "shipped": _runner(table, shipped),
        "plain (no containment)": _runner(table, mine, _module(game, [family.decide], (False,), False)),
        "+ bounds checks": _runner(table, mine, _module(game, [checked], (False,), False)),
        "+ read-only, exception guard": _runner(table, mine, _module(game, [checked], (True,), False)),
        "+ GIL released": _runner(table, mine, _module(game, [checked], (True,), True)),
        "contained (+ watchdog): simulate": _runner(table, mine),
    }


def _measure(variants: dict[str, BlockRunner], n: int, repeats: int) -> None:
    compile_s = {}
    for name, runner in variants.items():
        t0 = time.perf_counter()
        runner.play(0, 1, n_chunks=1)
        compile_s[name] = time.perf_counter() - t0
    rates: dict[str, list[float]] = {name: [] for name in variants}
    figures = {}
    for rep in range(repeats):
        order = list(variants) if rep % 2 == 0 else list(reversed(variants))
        for name in order:
            runner = variants[name]
            t0 = time.perf_counter()
            agg = runner.play(0, n)  # the real runner's play (its watchdog when contained)
            rates[name].append(n / (time.perf_counter() - t0))
            figures.setdefault(name, agg)
    base = figures["shipped"]
    for name, agg in figures.items():
        assert np.array_equal(agg, base), f"{name} plays differently"
    ref = statistics.median(rates["shipped"])
    print(
        f"rounds {n:,}, repeats {repeats}, threads {numba.get_num_threads()}, load {os.getloadavg()[0]:.2f}"
    )
    print()
    print("| kernel | rounds/s (min-max, higher is better) | ratio to shipped (median) | compile s |")
    print("|---|---|---|---|")
    for name, r in rates.items():
        ratio = statistics.median(r) / ref
        print(f"| {name} | {min(r):,.0f}-{max(r):,.0f} | {ratio:.2f}x | {compile_s[name]:.1f} |")


if __name__ == "__main__":
    main()
