"""The client side of the ``dask`` backend: reaching a scheduler (or starting a ``LocalCluster``)
and keeping every worker busy with blocks, in one clear line when something is not there."""

from __future__ import annotations

import gc
import logging
import queue
import signal
import sys
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from simulator.engine.arguments import as_real
from simulator.errors import InputError
from simulator.running.block_plan import BlockPlan, OnBlock, Ran
from simulator.running.dask_worker import block_task, cores, host_of, warm_task
from simulator.running.recipes import Recipe

DEPTH_PER_SLOT = 2  # Dask tasks in flight per worker thread


def default_workers() -> int:
    return max(1, min(cores(), 4))


@contextmanager
def _sigint_ignored() -> Iterator[None]:
    """Worker processes started inside ignore Ctrl-C: it is the client's to handle
    (a terminal sends it to the whole process group)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


DEFAULT_CONNECT_TIMEOUT = 10.0  # seconds to wait for a scheduler, and again for its first worker
MAX_CONNECT_TIMEOUT = 3600.0


def check_connect_timeout(timeout: float | None) -> float:
    """The connect timeout in seconds (``DEFAULT_CONNECT_TIMEOUT`` when None), or one line."""
    if timeout is None:
        return DEFAULT_CONNECT_TIMEOUT
    t = as_real(timeout)  # a bool or text is not a number of seconds
    if t is None and isinstance(timeout, float):
        t = timeout  # NaN or an infinity: a number, refused by its range below
    if t is None:
        raise InputError(f"--connect-timeout takes a number of seconds, not {timeout!r}")
    if not 0 < t <= MAX_CONNECT_TIMEOUT:  # also refuses NaN
        raise InputError(
            f"--connect-timeout {t:g}: give more than 0 and at most {MAX_CONNECT_TIMEOUT:g} seconds"
        )
    return t


def _scheduler_address(address: str) -> str:
    """``address``, or the address in the scheduler file ``address``."""
    if not Path(address).is_file():
        return address
    try:
        import json

        found = json.loads(Path(address).read_text(encoding="utf-8")).get("address")
    except (OSError, ValueError, AttributeError):
        found = None
    if not isinstance(found, str) or not found:
        raise InputError(f"--scheduler {address}: the file is not a Dask scheduler file (no address in it)")
    return found


def probe_scheduler(address: str, timeout: float) -> None:
    """Ask ``address`` who it is, within ``timeout`` seconds overall; one line unless a Dask
    scheduler answers.  A ``distributed.Client`` given an address that accepts connections
    but speaks another protocol (an HTTP server) waits for ever, and one that gives up
    leaves a half-built client whose ``__del__`` prints a traceback at exit: so the address
    is checked first, with a plain message exchange on a thread of its own."""
    import asyncio

    from distributed.comm import connect

    reason = _unreachable(address, timeout)
    if reason is not None:
        raise InputError(f"cannot reach the Dask scheduler at {address}: {reason}")
    answer: dict[str, Any] = {}

    deadline = time.monotonic() + timeout

    async def ask() -> Any:
        comm = await connect(address, timeout=timeout)
        try:
            await comm.write({"op": "identity", "reply": True})
            return await asyncio.wait_for(comm.read(), max(0.1, deadline - time.monotonic()))
        finally:
            comm.abort()

    def run() -> None:
        loop = asyncio.new_event_loop()
        try:
            answer["reply"] = loop.run_until_complete(asyncio.wait_for(ask(), timeout + 1.0))
        except BaseException as exc:  # reported below, in one line
            answer["error"] = exc
        finally:
            with _quiet_unraisable():
                loop.close()

    t = threading.Thread(target=run, name="kortsim-probe-scheduler", daemon=True)
    t.start()
    t.join(timeout + 3.0)
    reply, exc = answer.get("reply"), answer.get("error")
    if t.is_alive() or isinstance(exc, TimeoutError):  # it took the connection, and kept silent
        raise InputError(
            f"no Dask scheduler answered at {address} within {timeout:g} s "
            "(is it a Dask scheduler's address? --connect-timeout sets the wait)"
        )
    if exc is not None:
        # Whatever went wrong reading the reply (a closed connection, or bytes that are not
        # Dask's protocol, which can make its decoder ask for exabytes) is the peer's doing:
        # one line that does not repeat the library's internal text.
        raise InputError(
            f"no Dask scheduler answered at {address}: something took the connection but its reply "
            "was not a Dask scheduler's (is it a Dask scheduler's address?)"
        ) from None
    kind = reply.get("type") if isinstance(reply, dict) else None
    if kind != "Scheduler":
        if isinstance(kind, str) and kind:
            raise InputError(f"{address} is a Dask {kind.lower()}, not a Dask scheduler")
        raise InputError(f"{address} did not answer as a Dask scheduler does")


def _unreachable(address: str, timeout: float) -> str | None:
    """Why nothing takes a TCP connection at ``address`` (None if something does, or if its
    transport is not TCP): a closed port is said at once, not after the timeout."""
    import socket

    from distributed.comm.addressing import parse_address, parse_host_port

    try:
        scheme, location = parse_address(address)
    except ValueError as exc:
        return str(exc)
    from distributed.comm.registry import backends

    if scheme not in backends:
        return f"{scheme}:// is not a Dask address (give tcp://HOST:PORT, or a scheduler file)"
    if scheme not in ("tcp", "tls", "ws", "wss"):
        return None
    try:
        host, port = parse_host_port(location)
    except ValueError as exc:
        return str(exc)
    try:
        with socket.create_connection((host, port), timeout=timeout):
            return None
    except TimeoutError:
        return f"no answer to a connection within {timeout:g} s"
    except OSError as exc:
        return exc.strerror or str(exc)


@contextmanager
def _quiet_unraisable() -> Iterator[None]:
    """Errors raised in ``__del__`` while inside (a half-built Dask client closing) are dropped."""
    previous = sys.unraisablehook
    sys.unraisablehook = lambda _: None
    try:
        yield
    finally:
        sys.unraisablehook = previous


# The client a long command holds for all its runs (a tune plays hundreds of short ones): the
# settings it was opened with, and the client.  Held by :func:`held_dask_client`.
_HELD: list[tuple[tuple[Any, ...], Any]] = []


@contextmanager
def held_dask_client(
    scheduler: str | None = None, workers: int | None = None, connect_timeout: float | None = None
) -> Iterator[Any]:
    """One connected client for every :func:`dask_client` with the same settings opened
    inside the block (a new LocalCluster, or a new connection, for each short run would
    cost more than the run)."""
    with dask_client(scheduler, workers, connect_timeout) as client:
        _HELD.append(((scheduler, workers, connect_timeout), client))
        try:
            yield client
        finally:
            _HELD.pop()


@contextmanager
def dask_client(
    scheduler: str | None = None, workers: int | None = None, connect_timeout: float | None = None
) -> Iterator[Any]:
    """A connected ``distributed.Client``: to ``scheduler`` (an address, or a scheduler file),
    else to Dask's configured ``scheduler-address``, else to a new LocalCluster of ``workers``
    processes (closed on exit).  Each worker process gets ``cores / processes on its host``
    numba threads.

    With a scheduler, at most ``connect_timeout`` seconds (default 10) pass before the
    scheduler answers, and as many again before it has a worker; otherwise one line
    (:class:`InputError`) says which, and no traceback follows, not even at exit.
    Inside :func:`held_dask_client` with the same settings, the held client (left open)."""
    for settings, held in reversed(_HELD):
        if settings == (scheduler, workers, connect_timeout):
            yield held
            return
    try:
        import dask
        from distributed import Client, LocalCluster
    except ImportError:
        raise InputError('the dask backend needs Dask: pip install "kortsim[cluster]"') from None
    address = scheduler or dask.config.get("scheduler-address", None)
    timeout = check_connect_timeout(connect_timeout)
    cluster = None
    if address:
        if workers is not None:
            raise InputError("--workers sizes a local Dask cluster; it cannot be used with --scheduler")
        target = _scheduler_address(str(address))
        probe_scheduler(target, timeout)
        failure = None
        with _quiet_unraisable():
            try:
                client = Client(address=target, timeout=timeout, set_as_default=False)
            except (OSError, TimeoutError, ValueError) as exc:
                failure = " ".join(str(exc).split())
            gc.collect()  # a half-built client goes now, quietly, not with a traceback at exit
        if failure is not None:
            raise InputError(f"cannot reach the Dask scheduler at {address} within {timeout:g} s ({failure})")
        try:
            client.wait_for_workers(1, timeout=timeout)
        except (OSError, TimeoutError):
            with _quiet_unraisable():
                client.close(timeout=timeout)
            raise InputError(
                f"the Dask scheduler at {address} has no workers (waited {timeout:g} s)"
            ) from None
    else:
        # Each worker's numba threads are set per task (see _set_threads), not through the
        # NUMBA_NUM_THREADS environment: a worker process may import numba before the Nanny
        # sets its environment, and numba refuses a pool size that changes after launch.
        with _sigint_ignored():
            cluster = LocalCluster(
                n_workers=workers if workers is not None else default_workers(),
                threads_per_worker=1,
                processes=True,
                dashboard_address=None,
                silence_logs=logging.ERROR,
            )
        client = Client(cluster, set_as_default=False)
    try:
        yield client
    finally:
        client.close()
        if cluster is not None:
            cluster.close()


def processes_by_host(client: Any) -> dict[str, int]:
    """How many worker processes run on each host of the cluster."""
    by_host: dict[str, int] = {}
    for addr in client.scheduler_info(n_workers=-1)["workers"]:
        by_host[host_of(addr)] = by_host.get(host_of(addr), 0) + 1
    return by_host


def _wait_or_stop(futures: list, stop: threading.Event) -> bool:
    """Wait for ``futures``; False if ``stop`` was set first."""
    left = threading.Semaphore(0)
    for f in futures:
        f.add_done_callback(lambda _: left.release())
    for _ in futures:
        while not left.acquire(timeout=0.2):
            if stop.is_set():
                return False
    return not stop.is_set()


def _run_dask(
    client: Any,
    recipe: Recipe,
    plan: BlockPlan,
    on_block: OnBlock,
    stop: threading.Event,
    started: Callable[[], None],
) -> Ran:
    info = client.scheduler_info(n_workers=-1)["workers"]
    slots = max(1, sum(int(w.get("nthreads", 1)) for w in info.values()))
    by_host = processes_by_host(client)
    token = uuid.uuid4().hex[:12]
    # Compile once on every worker before timing the blocks (a worker that joins later
    # builds on its first block).
    warm = [
        client.submit(
            warm_task,
            recipe,
            by_host,
            key=f"kortsim-warm-{token}-{i}",
            workers=[addr],
            allow_other_workers=True,
            pure=False,
        )
        for i, addr in enumerate(info)
    ]
    if not _wait_or_stop(warm, stop):
        client.cancel(warm)
        return Ran(0.0, 0.0, True, "dask", len(info))
    compile_s = max((f.result()[0] for f in warm), default=0.0)
    done: queue.Queue = queue.Queue()
    pending: dict[str, tuple[Any, int, int]] = {}

    def submit() -> bool:
        block = plan.next()
        if block is None:
            return False
        first, n = block
        fut = client.submit(
            block_task, recipe, first, n, by_host, key=f"kortsim-{token}-{first}-{n}", pure=False
        )
        pending[fut.key] = (fut, first, n)
        fut.add_done_callback(done.put)
        return True

    started()
    t0 = time.perf_counter()
    try:
        # One probe block per worker thread first when sizing automatically, then keep the
        # pipeline DEPTH_PER_SLOT deep.
        for _ in range(slots if plan.fixed is None else slots * DEPTH_PER_SLOT):
            if not submit():
                break
        while pending:
            if stop.is_set():
                break
            try:
                fut = done.get(timeout=0.2)
            except queue.Empty:
                continue
            if fut.key not in pending:
                continue
            _, first, n = pending.pop(fut.key)
            payload, seconds = fut.result()  # a worker's error is raised here
            plan.observe(n, seconds)
            on_block(first, n, payload)
            while len(pending) < slots * DEPTH_PER_SLOT and not stop.is_set() and submit():
                pass
    finally:
        if pending:
            client.cancel([f for f, _, _ in pending.values()])
    stopped = stop.is_set() and (bool(pending) or plan.remaining > 0)
    return Ran(compile_s, time.perf_counter() - t0, stopped, "dask", len(info))
