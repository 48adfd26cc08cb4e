"""Where blocks are played: on this machine's threads, or on a Dask cluster.

A run is a set of game-index ranges cut into *blocks*.  A block is a pure
task ``(settings, first, n) -> payload`` (int64 aggregates, and per-game
records when asked): every game's randomness is keyed by ``(seed, game
index)`` and aggregates merge by integer addition, so the result for a seed is
the same bit for bit whichever backend plays the blocks, in whatever order.

* ``local``: blocks run one after another in this process, each spread over
  numba's threads.
* ``dask``: blocks are Dask tasks.  Without a scheduler address (and none in
  Dask's configuration, ``DASK_SCHEDULER_ADDRESS``) a ``LocalCluster`` of
  processes is started; with one, the existing cluster is used.  Each worker
  process builds the block function once (loading the user's strategy files,
  shipped with the task, and compiling or loading the kernel) and keeps it in
  a per-process cache; one worker process plays one block at a time with
  ``cores / worker processes on its host`` numba threads, so workers do not
  oversubscribe the machine.

Blocks are sized to take about ``TARGET_BLOCK_S`` seconds unless a block size
is given: short enough that Ctrl-C is honoured quickly and that a lost worker
costs little, long enough that per-block overhead is negligible.

This module chooses the backend and plays a plan on it; the pieces are
:mod:`~simulator.running.block_plan` (blocks), :mod:`~simulator.running.recipes` (what a block
plays), :mod:`~simulator.running.dask_worker` and :mod:`~simulator.running.dask_client`.
"""

from __future__ import annotations

import contextlib
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from enum import StrEnum
from typing import Any

from simulator.errors import InputError
from simulator.running.block_plan import (
    MAX_BLOCK,
    MAX_RECORDS_BLOCK,
    MIN_BLOCK,
    PROBE_BLOCK,
    TARGET_BLOCK_S,
    BlockPlan,
    OnBlock,
    Ran,
    merge_ranges,
    missing_ranges,
)
from simulator.running.dask_client import (
    DEFAULT_CONNECT_TIMEOUT,
    DEPTH_PER_SLOT,
    MAX_CONNECT_TIMEOUT,
    _run_dask,
    check_connect_timeout,
    dask_client,
    default_workers,
    held_dask_client,
    probe_scheduler,
    processes_by_host,
)
from simulator.running.dask_worker import (
    MAX_BUILT,
    _set_threads,
    block_task,
    built,
    cores,
    host_of,
    warm_task,
    worker_threads,
)
from simulator.running.recipes import (
    BlockFn,
    Played,
    PlayRecipe,
    PluginFile,
    Recipe,
    SeatingsRecipe,
    Work,
    play_block,
    shippable_plugins,
)


class Backend(StrEnum):
    """Where blocks are played."""

    local = "local"
    dask = "dask"


def resolve_backend(backend: str | Backend) -> Backend:
    try:
        return Backend(backend.value if isinstance(backend, Backend) else str(backend).strip().lower())
    except ValueError:
        known = ", ".join(b.value for b in Backend)
        raise InputError(f"unknown backend {backend!r} (backends: {known})") from None


def check_backend_options(
    backend: Backend, scheduler: str | None, workers: int | None, threads: int | None
) -> None:
    """One clear line for options that do not go together."""
    if backend is Backend.local:
        if scheduler is not None:
            raise InputError("--scheduler is for --backend dask")
        if workers is not None:
            raise InputError("--workers is for --backend dask (the size of a local Dask cluster)")
        return
    if threads is not None:
        raise InputError(
            "--threads is for --backend local; Dask workers use their share of their machine's cores"
        )
    if workers is not None:
        if scheduler is not None:
            raise InputError("--workers sizes a local Dask cluster; it cannot be used with --scheduler")
        if workers < 1:
            raise InputError("--workers must be at least 1")


# --- stopping -----------------------------------------------------------------------


@contextmanager
def sigint_sets(stop: threading.Event) -> Iterator[None]:
    """While inside, the first Ctrl-C (SIGINT) sets ``stop`` (the run ends after the blocks
    in flight); a second one interrupts at once.  Only the main thread can do this."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.getsignal(signal.SIGINT)

    def handler(signum, frame):
        stop.set()
        signal.signal(signal.SIGINT, signal.default_int_handler)
        print("stopping after the block in flight (Ctrl-C again to abandon it)", file=sys.stderr, flush=True)

    signal.signal(signal.SIGINT, handler)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


# --- running blocks ---------------------------------------------------------------------


def one_client(
    backend: str | Backend = Backend.local,
    scheduler: str | None = None,
    workers: int | None = None,
    connect_timeout: float | None = None,
) -> contextlib.AbstractContextManager[Any]:
    """A block within which every :func:`run_blocks` on the Dask backend with these settings
    shares one client (``tune`` plays hundreds of short runs: a cluster or a connection for
    each would cost more than the run); nothing on the local backend.  It takes
    ``Execution.backend_options()``."""
    if resolve_backend(backend) is not Backend.dask:
        return contextlib.nullcontext()
    return held_dask_client(scheduler, workers, connect_timeout)


def run_blocks(
    work: Work,
    plan: BlockPlan,
    on_block: OnBlock,
    *,
    backend: str | Backend = Backend.local,
    scheduler: str | None = None,
    workers: int | None = None,
    stop: threading.Event | None = None,
    connect_timeout: float | None = None,
    started: Callable[[], None] | None = None,
) -> Ran:
    """Play every block of ``plan``; ``on_block(first, n, payload)`` is called in this thread
    as each finishes (in any order), ``started()`` once compiling is done and play begins.
    Stops early, between blocks, once ``stop`` is set."""
    stop = stop if stop is not None else threading.Event()
    started = started if started is not None else (lambda: None)
    backend = resolve_backend(backend)
    if backend is Backend.local:
        return _run_local(work, plan, on_block, stop, started)
    if work.recipe is None:
        raise InputError("this run cannot be played on Dask")
    with dask_client(scheduler, workers, connect_timeout) as client:
        return _run_dask(client, work.recipe, plan, on_block, stop, started)


def _run_local(
    work: Work, plan: BlockPlan, on_block: OnBlock, stop: threading.Event, started: Callable[[], None]
) -> Ran:
    t0 = time.perf_counter()
    fn = work.local_fn()
    compile_s = time.perf_counter() - t0
    started()
    t0 = time.perf_counter()
    while not stop.is_set():
        block = plan.next()
        if block is None:
            break
        first, n = block
        t1 = time.perf_counter()
        payload = fn(first, n)
        plan.observe(n, time.perf_counter() - t1)
        on_block(first, n, payload)
    return Ran(compile_s, time.perf_counter() - t0, stop.is_set() and plan.remaining > 0, "local")


__all__ = [
    "DEFAULT_CONNECT_TIMEOUT",
    "DEPTH_PER_SLOT",
    "MAX_BLOCK",
    "MAX_BUILT",
    "MAX_CONNECT_TIMEOUT",
    "MAX_RECORDS_BLOCK",
    "MIN_BLOCK",
    "PROBE_BLOCK",
    "TARGET_BLOCK_S",
    "Backend",
    "BlockFn",
    "BlockPlan",
    "OnBlock",
    "PlayRecipe",
    "Played",
    "PluginFile",
    "Ran",
    "Recipe",
    "SeatingsRecipe",
    "Work",
    "_run_dask",
    "_set_threads",
    "block_task",
    "built",
    "check_backend_options",
    "check_connect_timeout",
    "cores",
    "dask_client",
    "default_workers",
    "host_of",
    "merge_ranges",
    "missing_ranges",
    "one_client",
    "play_block",
    "probe_scheduler",
    "processes_by_host",
    "resolve_backend",
    "run_blocks",
    "shippable_plugins",
    "sigint_sets",
    "warm_task",
    "worker_threads",
]
