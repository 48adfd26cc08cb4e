"""How a kernel may call a strategy: bound at compile time (the hook) or as a first-class
function value, measured on a decision loop.

``python benchmarks/bench_hooks.py [--decisions N] [--repeats R]`` compiles three loops
that each make N Spøkelse decisions on an observation row that changes every decision,
and prints CPU ns per decision (lower is better; compile time is left out):

- **hook**: the strategy reached through a module global bound at compile time, as every
  kortsim kernel calls its strategies (``decide_nb``; the generated dispatcher of
  ``simulator/engine/dispatching.py``, inlined);
- **first-class**: the strategy passed as an argument of numba's first-class function type
  (``numba.types.FunctionType``): one compiled loop for every strategy, called through
  an address, never inlined;
- **dispatcher argument**: the strategy passed as a plain argument (numba types it by the
  function object itself, so the loop is compiled again for each strategy, inlined).

docs/kernels.md gives the latest figures and what numba's documentation and issue
tracker say about each way.
"""

from __future__ import annotations

import argparse
import time

import numba
import numpy as np
from numba import njit, types

from simulator.engine.dispatching import plain_dispatch
from simulator.engine.param_row import PARAM_ROW
from simulator.games.spokelse.observation import (
    DISCARD_VALUE,
    HAND_VALUE,
    HIGH,
    OBS_SIZE,
    PHASE,
    UNKNOWN_SLOT,
)
from simulator.games.spokelse.strategies import expect_nb, threshold_nb


def _vary(obs, i):
    obs[PHASE] = i & 1
    obs[DISCARD_VALUE] = i % 14
    obs[HAND_VALUE] = (i >> 1) % 14
    obs[HIGH] = (i >> 2) % 14
    obs[UNKNOWN_SLOT] = (i >> 3) % 5 - 1


vary_nb = njit(inline="always")(_vary)


def hook_loop(strategy):
    decide_nb = plain_dispatch([strategy])

    @njit
    def loop(obs, params, rng, n):
        total = 0
        for i in range(n):
            vary_nb(obs, i)
            total += decide_nb(0, obs, params, rng)
        return total

    return loop


def first_class_loop(obs, params, rng):
    sig = types.int64(numba.typeof(obs), numba.typeof(params), numba.typeof(rng))
    fn_type = types.FunctionType(sig)

    @njit(types.int64(fn_type, numba.typeof(obs), numba.typeof(params), numba.typeof(rng), types.int64))
    def loop(f, obs, params, rng, n):
        total = 0
        for i in range(n):
            vary_nb(obs, i)
            total += f(obs, params, rng)
        return total

    return loop, sig


@njit
def argument_loop(f, obs, params, rng, n):
    total = 0
    for i in range(n):
        vary_nb(obs, i)
        total += f(obs, params, rng)
    return total


def timed(fn, *args) -> tuple[float, int]:
    t0 = time.process_time()
    out = fn(*args)
    return time.process_time() - t0, out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--decisions", type=int, default=20_000_000)
    ap.add_argument("--repeats", type=int, default=5)
    a = ap.parse_args()
    obs = np.zeros(OBS_SIZE, dtype=np.int64)
    from simulator.games.spokelse.strategies import GAME
    from strategies.registry import families

    print(f"{a.decisions:,} decisions a run, {a.repeats} runs; CPU ns per decision (median, lower is better)")
    print()
    print("| strategy | way | ns per decision | range |")
    print("|---|---|---|---|")
    for name, strategy in (("threshold:k=4", threshold_nb), ("expect", expect_nb)):
        fam = families(GAME)[name.split(":")[0]]
        params = np.zeros(PARAM_ROW)  # the family's defaults (k=4 for threshold), as a run's row
        params[: len(fam.params)] = [4.0 if name == "threshold:k=4" else p.default for p in fam.params]
        rng = np.array([np.uint64(12345)], dtype=np.uint64)
        hook = hook_loop(strategy)
        fc, sig = first_class_loop(obs, params, rng)
        ways = {
            "hook (bound at compile time, inlined)": (hook, (obs, params, rng)),
            "dispatcher argument (compiled per strategy)": (argument_loop, (strategy, obs, params, rng)),
        }
        for fn, args in ways.values():
            fn(*args, 10)  # compiled before it is timed
        # Last: a strategy compiled ahead for an explicit signature (the first-class value)
        # and only then inlined into a loop ran that loop 5 times slower (numba 0.68).
        strategy.compile(sig)
        fc(strategy, obs, params, rng, 10)
        ways["first-class function (an address)"] = (fc, (strategy, obs, params, rng))
        results = {}
        for _ in range(a.repeats):
            for way, (fn, args) in ways.items():
                rng[0] = 12345
                s, out = timed(fn, *args, a.decisions)
                results.setdefault(way, []).append((s * 1e9 / a.decisions, out))
        outs = {tuple(o for _, o in r) for r in results.values()}
        assert len(outs) == 1, "the three ways must make the same decisions"
        for way, rows in results.items():
            ns = sorted(x for x, _ in rows)
            print(f"| `{name}` | {way} | {ns[len(ns) // 2]:.2f} | {ns[0]:.2f}–{ns[-1]:.2f} |")


if __name__ == "__main__":
    main()
