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
"""

from __future__ import annotations

import gc
import hashlib
import logging
import os
import pickle
import queue
import signal
import sys
import tempfile
import threading
import time
import uuid
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from enum import StrEnum
from pathlib import Path
from typing import Any

import numba
import numpy as np

from simulator.errors import InputError, SpecError
from simulator.games import get_game
from simulator.games.base import Table
from strategies.registry import Player, load_plugin, parse_spec

TARGET_BLOCK_S = 0.25  # aim for blocks of about this many seconds
PROBE_BLOCK = 1024  # the first block(s) of an automatically sized run
MIN_BLOCK = 256
MAX_BLOCK = 1 << 22  # aggregates only
MAX_RECORDS_BLOCK = 1 << 18  # per-game records are held in memory a block at a time
DEPTH_PER_SLOT = 2  # Dask tasks in flight per worker thread


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


# --- block functions and their recipes -----------------------------------------------

BlockFn = Callable[[int, int], Any]


class Recipe(ABC):
    """A picklable description of a block function, built once per worker process."""

    @abstractmethod
    def key(self) -> str:
        """Identifies the block function (the per-process cache key)."""

    @abstractmethod
    def build(self) -> BlockFn:
        """Load what is needed, compile, and return ``fn(first, n) -> payload``."""


@dataclass
class Work:
    """What a run plays: the block function in this process (built on first use) and,
    for Dask, the recipe the workers build it from."""

    local: Callable[[], BlockFn]
    recipe: Recipe | None = None
    _fn: BlockFn | None = field(default=None, repr=False)

    def local_fn(self) -> BlockFn:
        if self._fn is None:
            self._fn = self.local()
        return self._fn


@dataclass(frozen=True)
class PluginFile:
    """A user's strategy file: its path, and its text for workers that cannot see the path."""

    path: str
    text: str
    sha256: str

    @classmethod
    def read(cls, path: str | Path) -> PluginFile:
        p = Path(path).resolve()
        data = p.read_bytes()
        return cls(str(p), data.decode("utf-8"), hashlib.sha256(data).hexdigest())

    def copy_path(self) -> Path:
        """Where a worker keeps the shipped text (by content, so an edited file is a new one)."""
        return Path(tempfile.gettempdir()) / "kortsim-plugins" / self.sha256[:20] / Path(self.path).name

    def load(self, from_copy: bool = False) -> None:
        """Load the file on this machine: the path if it holds the same text, else a copy."""
        p = Path(self.path)
        if not from_copy and p.is_file() and hashlib.sha256(p.read_bytes()).hexdigest() == self.sha256:
            load_plugin(p)
            return
        copy = self.copy_path()
        if not copy.is_file():
            copy.parent.mkdir(parents=True, exist_ok=True)
            tmp = copy.with_name(f".{copy.name}.{os.getpid()}.tmp")
            tmp.write_text(self.text, encoding="utf-8")
            os.replace(tmp, copy)
        load_plugin(copy, source=self.path)  # the copy stands for that file (names, reloads)


def shippable_plugins(
    players: Sequence[Player], plugins: Sequence[str | Path] = ()
) -> tuple[PluginFile, ...]:
    """The strategy files workers must load: the ``plugins`` given, and the file each user
    strategy was registered from.  A strategy defined in the main script or a notebook
    cannot be shipped: say so in one line."""
    paths: list[Path] = [Path(p).resolve() for p in plugins]
    main_file = getattr(sys.modules.get("__main__"), "__file__", None)
    for p in players:
        fam = p.family
        if not fam.user:
            continue
        origin = Path(fam.origin)
        if not origin.is_file() or (main_file and origin.resolve() == Path(main_file).resolve()):
            raise InputError(
                f"strategy {p.spec!r} was defined in {fam.origin}, not in a strategy file: put it in "
                "its own file and load it with --plugin (or load_plugin) to play it on Dask workers"
            )
        if origin.resolve() not in paths:
            paths.append(origin.resolve())
    return tuple(PluginFile.read(p) for p in paths)


@dataclass(frozen=True)
class Played:
    """One block's aggregates, and its per-game records when they were asked for."""

    agg: np.ndarray
    rec: np.ndarray | None = None


def play_block(runner: Any, first: int, n: int, records: bool) -> Played:
    agg = runner.play(first, n)
    return Played(agg, runner.records(first, n) if records else None)


@dataclass(frozen=True)
class PlayRecipe(Recipe):
    """The settings of a ``simulate`` run, enough to rebuild its BlockRunner anywhere."""

    game: str
    rules: Any
    n_seats: int
    reaction: tuple[tuple[float, float], ...]
    specs: tuple[str, ...]
    source_hashes: tuple[str, ...]
    unit: str
    seed: int
    records: bool
    plugins: tuple[PluginFile, ...] = ()

    @classmethod
    def of(
        cls, table: Table, players: Sequence[Player], unit: str, seed: int, records: bool, plugins=()
    ) -> PlayRecipe:
        return cls(
            table.game.name,
            table.rules,
            table.n_seats,
            tuple(table.reaction),
            tuple(p.spec for p in players),
            tuple(p.family.source_hash() for p in players),
            unit,
            int(seed),
            bool(records),
            shippable_plugins(players, plugins),
        )

    def key(self) -> str:
        text = repr((self.game, self.rules, self.n_seats, self.reaction, self.specs, self.source_hashes))
        text += repr((self.unit, self.seed, self.records, tuple(p.sha256 for p in self.plugins)))
        return "play-" + hashlib.sha256(text.encode()).hexdigest()[:20]

    def players(self) -> list[Player]:
        for pf in self.plugins:
            pf.load()
        players = [parse_spec(s, self.game) for s in self.specs]
        if self._changed(players) and self.plugins:
            # This process loaded an older version of a file at the same path: use the shipped text.
            for pf in self.plugins:
                pf.load(from_copy=True)
            players = [parse_spec(s, self.game) for s in self.specs]
        changed = self._changed(players)
        if changed:
            raise SpecError(
                f"strategy {changed[0].spec!r} on this worker is not the one the run was started with "
                "(install the same kortsim and strategy files on every worker)"
            )
        return players

    def _changed(self, players: list[Player]) -> list[Player]:
        return [p for p, h in zip(players, self.source_hashes) if p.family.source_hash() != h]

    def build(self) -> BlockFn:
        from simulator.running.runner import BlockRunner

        game = get_game(self.game)
        table = Table(game, self.rules, self.n_seats, self.reaction)
        runner = BlockRunner(table, self.players(), self.unit, self.seed)
        runner.compile()
        if self.records:
            runner.records(0, 1, n_chunks=1)
        return lambda first, n: play_block(runner, first, n, self.records)


@dataclass(frozen=True)
class SeatingsRecipe(Recipe):
    """The same deals played under several seatings (duplicate-deal comparisons): each block
    is the per-game records of every seating, reduced on the worker by ``reduce(first, recs)``
    (a picklable module-level function or ``functools.partial`` of one) so that only small
    integer sums travel back."""

    seatings: tuple[PlayRecipe, ...]
    reduce: Callable[[int, list[np.ndarray]], Any]

    def key(self) -> str:
        text = repr(tuple(s.key() for s in self.seatings))
        text += hashlib.sha256(pickle.dumps(self.reduce)).hexdigest()
        return "seatings-" + hashlib.sha256(text.encode()).hexdigest()[:20]

    def build(self) -> BlockFn:
        from simulator.running.runner import BlockRunner

        runners = []
        for s in self.seatings:
            table = Table(get_game(s.game), s.rules, s.n_seats, s.reaction)
            runner = BlockRunner(table, s.players(), s.unit, s.seed)
            runner.records(0, 1, n_chunks=1)  # compile
            runners.append(runner)
        return lambda first, n: self.reduce(first, [r.records(first, n) for r in runners])


# --- block sizes ----------------------------------------------------------------------


def merge_ranges(ranges: Sequence[tuple[int, int]]) -> list[tuple[int, int]]:
    """Sorted, disjoint, non-adjacent ``[a, b)`` ranges covering the same games."""
    out: list[tuple[int, int]] = []
    for a, b in sorted((int(a), int(b)) for a, b in ranges if b > a):
        if out and a <= out[-1][1]:
            out[-1] = (out[-1][0], max(out[-1][1], b))
        else:
            out.append((a, b))
    return out


def missing_ranges(n: int, done: Sequence[tuple[int, int]]) -> list[tuple[int, int]]:
    """The parts of ``[0, n)`` not in ``done``."""
    gaps, at = [], 0
    for a, b in merge_ranges(done):
        if a > at:
            gaps.append((at, min(a, n)))
        at = max(at, b)
        if at >= n:
            break
    if at < n:
        gaps.append((at, n))
    return [(a, b) for a, b in gaps if b > a]


class BlockPlan:
    """Hands out blocks ``(first, n)`` covering ``gaps``: of ``block_size`` games, or, when that
    is None, sized from the measured speed so that a block takes about ``target_s``."""

    def __init__(
        self,
        gaps: Sequence[tuple[int, int]],
        block_size: int | None = None,
        *,
        max_block: int = MAX_BLOCK,
        target_s: float = TARGET_BLOCK_S,
    ) -> None:
        self.gaps = list(merge_ranges(gaps))
        self.fixed = block_size
        self.max_block = max_block
        self.target_s = target_s
        # A given size is capped too: per-game records are held in memory a block at a time.
        self.size = min(block_size, max_block) if block_size is not None else min(PROBE_BLOCK, max_block)
        self._rate: float | None = None

    @property
    def remaining(self) -> int:
        return sum(b - a for a, b in self.gaps)

    def next(self) -> tuple[int, int] | None:
        if not self.gaps:
            return None
        a, b = self.gaps[0]
        n = min(self.size, b - a)
        if a + n >= b:
            self.gaps.pop(0)
        else:
            self.gaps[0] = (a + n, b)
        return a, n

    def observe(self, n: int, seconds: float) -> None:
        """A block of ``n`` games took ``seconds`` where it ran: resize later blocks."""
        if self.fixed is not None or seconds <= 0:
            return
        rate = n / seconds
        self._rate = rate if self._rate is None else (self._rate * rate) ** 0.5
        want = max(MIN_BLOCK, min(self.max_block, int(self._rate * self.target_s)))
        self.size = 1 << (want.bit_length() - 1)  # a power of two: tidy file names, steady sizes


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


@dataclass
class Ran:
    """How a session of blocks went: compile and play seconds, whether it was stopped."""

    compile_s: float
    elapsed_s: float
    stopped: bool
    backend: str
    workers: int = 1


OnBlock = Callable[[int, int, Any], None]


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


# --- on a Dask worker -------------------------------------------------------------------

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


# --- the client side ----------------------------------------------------------------------


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
    try:
        t = float(timeout)
    except (TypeError, ValueError):
        raise InputError(f"--connect-timeout takes a number of seconds, not {timeout!r}") from None
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
    (:class:`InputError`) says which, and no traceback follows, not even at exit."""
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
