"""On a Dask worker: block functions built once per process, each task given its share of cores."""

from __future__ import annotations

import os
import threading
import time
from typing import Any

import numba

from simulator.running.recipes import BlockFn, Recipe

_BUILT: dict[str, BlockFn] = {}  # recipe key -> block function, most recently built last
MAX_BUILT = 64  # a long-lived worker keeps this many runs' block functions
_BUILD_LOCK = threading.Lock()
_KERNEL_LOCK = threading.Lock()  # one kernel call at a time per process: it uses the threads
_WORKER_THREADS: int | None = None


def cores() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def host_of(address: str) -> str:
    """``tcp://10.0.0.5:40213`` -> ``10.0.0.5``."""
    rest = address.split("://", 1)[-1]
    return rest.rsplit(":", 1)[0].strip("[]")


def worker_threads(processes_on_host: int) -> int:
    """Numba threads for one worker process: ``NUMBA_NUM_THREADS`` if set for the worker,
    else this machine's cores shared among the worker processes on it."""
    if "NUMBA_NUM_THREADS" in os.environ:
        return numba.config.NUMBA_NUM_THREADS
    return max(1, min(cores() // max(1, processes_on_host), numba.config.NUMBA_NUM_THREADS))


def built(recipe: Recipe) -> BlockFn:
    """The block function of ``recipe`` in this process, built on first use."""
    key = recipe.key()
    fn = _BUILT.get(key)
    if fn is None:
        with _BUILD_LOCK:
            fn = _BUILT.get(key)
            if fn is None:
                fn = recipe.build()
                _BUILT[key] = fn
                while len(_BUILT) > MAX_BUILT:
                    del _BUILT[next(iter(_BUILT))]
    return fn


def _set_threads(processes_by_host: dict[str, int] | None = None) -> None:
    """Give this task's thread its share of the cores (numba's setting is per thread)."""
    global _WORKER_THREADS
    if _WORKER_THREADS is None:
        procs = 1
        if processes_by_host:
            from distributed import get_worker

            procs = processes_by_host.get(host_of(get_worker().address), 1)
        _WORKER_THREADS = worker_threads(procs)
    numba.set_num_threads(_WORKER_THREADS)


def warm_task(recipe: Recipe, processes_by_host: dict[str, int]) -> tuple[float, int]:
    """Build (compile) on this worker; the seconds it took and the numba threads it uses."""
    with _KERNEL_LOCK:
        _set_threads(processes_by_host)
        t0 = time.perf_counter()
        built(recipe)
        return time.perf_counter() - t0, numba.get_num_threads()


def block_task(recipe: Recipe, first: int, n: int, processes_by_host: dict[str, int]) -> tuple[Any, float]:
    """Play one block on this worker; the payload and the seconds the block took."""
    with _KERNEL_LOCK:
        _set_threads(processes_by_host)
        fn = built(recipe)
        t0 = time.perf_counter()
        payload = fn(first, n)
        return payload, time.perf_counter() - t0
