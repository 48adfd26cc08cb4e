"""Containment of users' strategies: what a strategy from a plugin file may do, and how a
run ends when it does something else.

A user's strategy (one registered with ``@strategy``, not shipped with kortsim) runs
inside a compiled game kernel, where a mistake would otherwise crash, hang or silently
corrupt the run.  So, for user strategies only (shipped strategies run unchanged, at
full speed):

* **Bounds.** Its function (and every jitted helper from its own file it calls) is
  compiled again with numba's ``boundscheck=True``.  The arrays it receives have
  exactly the shape of its own rows (``obs``: the game's observation size, ``params``:
  the parameter row, ``rng``: one stream cell), so reading or writing past them is an
  ``IndexError``, never a look at another seat's data or a crash.
* **Read-only inputs.** ``obs`` and ``params`` are passed read-only: a strategy that
  assigns into them does not compile (one line says so).  Its own observation is kept
  by the game between decisions; writing into it would make ``simulate`` and ``trace``
  disagree.
* **Exceptions.** The game's dispatcher (:mod:`simulator.kernels.specialise`) calls it inside a
  nopython ``try``/``except``: an exception (an ``IndexError`` from the bounds check, a
  ``ZeroDivisionError``, one it raises itself) becomes the answer :data:`RAISED`, which
  every kernel refuses as an illegal action and writes into its error row.  The run
  then replays that game in the readable reference implementation to name the
  exception and the decision (:func:`describe_raised`).
* **Time.** While a kernel with a user strategy runs, a watchdog thread
  (:func:`watched`) stops the process when one call (one block of games) runs longer
  than :func:`block_limit` seconds (``KORTSIM_BLOCK_TIMEOUT``, default
  :data:`DEFAULT_BLOCK_LIMIT`), with one line naming the strategy, and exits with code
  3: a numba thread cannot be interrupted, so the process ends with ``os._exit`` (in a
  notebook, its Python kernel ends too).
  Ctrl-C works too: the run stops after the block in flight as usual, or, when the
  strategy does not come back within :data:`INTERRUPT_GRACE` seconds (or on a second
  Ctrl-C), at once with exit code 130.  The kernels compiled for user strategies
  release the GIL so that the watchdog can run.
* **Randomness.** A strategy that draws from Python's ``random`` module or numpy's
  global generator would break "same seed, same result"; it is refused before it runs
  (:func:`global_random_use`), with a pointer to the ``rng`` argument.
"""

from __future__ import annotations

import dis
import os
import select
import signal
import socket
import threading
import time
import types as pytypes
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager, suppress
from dataclasses import replace
from typing import Any

import numpy as np
from numba import njit, types
from numba.core.dispatcher import Dispatcher
from numba.core.imputils import impl_ret_borrowed
from numba.extending import intrinsic

from simulator.errors import IllegalMove, SpecError
from strategies.registry import Family, Player

#: The answer the dispatcher gives for a user strategy that raised an exception: no
#: game accepts it (every kernel writes it into its error row's answer column).
RAISED = -0x7FFF_FFFF_FFFF_FF00
#: The column of every game's error row that holds the strategy's answer.
ANSWER_COLUMN = 4
#: Seconds one block of games with a user strategy may run before the run is stopped.
DEFAULT_BLOCK_LIMIT = 120.0
#: The environment variable that sets that limit (seconds; 0 or below: no limit).
BLOCK_LIMIT_ENV = "KORTSIM_BLOCK_TIMEOUT"
#: Seconds a block may still take after Ctrl-C before the process is stopped.
INTERRUPT_GRACE = 2.0
#: Exit codes: a strategy that broke the rules (as the CLI's), and Ctrl-C.
EXIT_STRATEGY = 3
EXIT_INTERRUPTED = 130

#: The argument types a user strategy is compiled for: read-only observation and
#: parameters, the seat's writable random stream cell.
SIGNATURE = (
    types.Array(types.int64, 1, "C", readonly=True),
    types.Array(types.float64, 1, "C", readonly=True),
    types.uint64[::1],
)

_CHECKED: dict[int, tuple[Any, Dispatcher]] = {}


class StrategyRaised(IllegalMove):
    """A user strategy raised an exception in a readable reference game; the message is
    one line naming it, its seat, its decision and the exception."""


@intrinsic
def readonly(typingctx, arr):
    """The same array, typed read-only (no copy): assigning into it does not compile."""
    if not isinstance(arr, types.Array):
        return None
    ro = arr.copy(readonly=True)

    def codegen(context, builder, sig, args):
        return impl_ret_borrowed(context, builder, sig.return_type, args[0])

    return ro(arr), codegen


# --- randomness -------------------------------------------------------------------------


def _is_global_random(obj: Any) -> str | None:
    """What ``obj`` is when it is (a part of) a global random generator, else None."""
    if isinstance(obj, pytypes.ModuleType):
        if obj.__name__ == "random":
            return "Python's random module"
        if obj.__name__.startswith("numpy.random"):
            return "numpy's global random generator (np.random)"
        return None
    if isinstance(obj, Dispatcher):
        obj = obj.py_func
    owner = getattr(obj, "__self__", None)  # a bound method: random.random, np.random.randint
    if owner is not None and not isinstance(owner, pytypes.ModuleType):
        obj = type(owner)
    module = getattr(obj, "__module__", None) or ""
    if module in ("random", "_random") and (owner is not None or not isinstance(obj, type)):
        return "Python's random module"
    if module.startswith("numpy.random") and (owner is not None or not isinstance(obj, type)):
        return "numpy's global random generator (np.random)"
    return None


def _code_objects(code: pytypes.CodeType) -> Iterator[pytypes.CodeType]:
    yield code
    for const in code.co_consts:
        if isinstance(const, pytypes.CodeType):
            yield from _code_objects(const)


def _globals_used(fn: pytypes.FunctionType) -> Iterator[tuple[str, Any, list[str]]]:
    """``(name, object, attributes read from it next)`` for each global (or closure
    variable) ``fn`` loads."""
    scope = dict(fn.__globals__)
    for name, cell in zip(fn.__code__.co_freevars, fn.__closure__ or ()):
        try:
            scope[name] = cell.cell_contents
        except ValueError:  # a cell not filled yet
            continue
    for code in _code_objects(fn.__code__):
        ins = list(dis.get_instructions(code))
        for i, instr in enumerate(ins):
            if instr.opname not in ("LOAD_GLOBAL", "LOAD_NAME", "LOAD_DEREF"):
                continue
            name = instr.argval
            if name not in scope:
                continue
            attrs = []
            for nxt in ins[i + 1 :]:
                if nxt.opname in ("LOAD_ATTR", "LOAD_METHOD"):
                    attrs.append(nxt.argval)
                else:
                    break
            yield name, scope[name], attrs


def global_random_use(fn: Callable, _seen: set[int] | None = None) -> str | None:
    """Which global random state ``fn`` (or a helper it calls) draws from, as words, or None.

    Looks at the globals the function's code loads: the ``random`` module or a function
    of it, ``numpy.random`` or a function of it, and ``np.random`` read from numpy;
    helpers that are plain functions or jitted ones are followed.
    """
    seen = set() if _seen is None else _seen
    fn = fn.py_func if isinstance(fn, Dispatcher) else fn
    if not isinstance(fn, pytypes.FunctionType) or id(fn) in seen:
        return None
    seen.add(id(fn))
    for name, obj, attrs in _globals_used(fn):
        what = _is_global_random(obj)
        numpy = isinstance(obj, pytypes.ModuleType) and obj.__name__ == "numpy"
        if what is None and numpy and attrs[:1] == ["random"]:
            what = "numpy's global random generator (np.random)"
        if what is not None:
            return f"{what}, through {'.'.join([name, *attrs])}"
        if isinstance(obj, (Dispatcher, pytypes.FunctionType)) and not _shipped_code(obj):
            inner = global_random_use(obj, seen)
            if inner is not None:
                return inner
    return None


def _shipped_code(obj: Any) -> bool:
    module = getattr(getattr(obj, "py_func", obj), "__module__", "") or ""
    return module.split(".")[0] in ("simulator", "strategies", "experiments", "numba", "numpy")


# --- the bounds-checked version ---------------------------------------------------------


def _checked_function(fn: Any, made: dict[int, Dispatcher]) -> Dispatcher:
    """``fn`` compiled with ``boundscheck=True``, its jitted helpers from user code too."""
    py = fn.py_func if isinstance(fn, Dispatcher) else fn
    if id(py) in made:
        return made[id(py)]
    options = dict(getattr(fn, "targetoptions", {}) or {})
    options.pop("parallel", None)  # a strategy is one decision: no threads of its own
    options.pop("nopython", None)  # njit implies it (and warns when told)
    options.update(boundscheck=True, nogil=True, cache=False)
    names = set()
    for code in _code_objects(py.__code__):
        names.update(code.co_names)
    helpers = {
        n: py.__globals__[n]
        for n in names
        if isinstance(py.__globals__.get(n), Dispatcher) and not _shipped_code(py.__globals__[n])
    }
    scope = py.__globals__
    if helpers:
        scope = dict(py.__globals__)
    new = pytypes.FunctionType(py.__code__, scope, py.__name__, py.__defaults__, py.__closure__)
    new.__qualname__, new.__doc__, new.__module__ = py.__qualname__, py.__doc__, py.__module__
    checked = njit(**options)(new)
    made[id(py)] = checked
    for n, helper in helpers.items():
        scope[n] = _checked_function(helper, made)
    return checked


def checked_decide(family: Family) -> Dispatcher:
    """The user strategy's function as it runs in a kernel: bounds-checked, compiled for
    read-only ``obs`` and ``params`` (:data:`SIGNATURE`); one line when it cannot run.

    Raises
    ------
    SpecError
        When it draws from a global random generator, or does not compile in this form
        (it assigns into ``obs`` or ``params``, for example).
    """
    decide = family.decide
    known = _CHECKED.get(id(decide))
    if known is not None and known[0] is decide:
        return known[1]
    from strategies.checks import _code, _where, essential

    file, first = _code(family)
    drawn = global_random_use(decide)
    if drawn is not None:
        raise SpecError(
            f"strategy {family.name!r} ({file}:{first}) draws from {drawn}, which breaks "
            "'same seed, same result'; draw from its own stream, the rng argument "
            "(simulator.engine.rng.below_nb(rng, n), uniform_nb(rng))"
        )
    checked = _checked_function(decide, {})
    try:
        checked.compile(SIGNATURE)
    except Exception as exc:  # numba's compiler errors, in one line
        details = str(exc)
        where_file, line = _where(exc, details, file, first)
        if "readonly array" in details and "setitem" in details:
            reason = "it assigns into obs or params, which are read-only (work on a copy: obs.copy())"
        else:
            reason = essential(details) if details.strip() else type(exc).__name__
        raise SpecError(f"strategy {family.name!r} ({where_file}:{line}) cannot run: {reason}") from None
    _CHECKED[id(decide)] = (decide, checked)
    return checked


# --- exceptions, named ------------------------------------------------------------------


def trapping_players(players: Sequence[Player]) -> list[Player]:
    """The players for a readable reference game: each user strategy runs its
    bounds-checked function on read-only copies of its inputs, and an exception it raises
    becomes :class:`StrategyRaised` naming it, its seat and its decision."""
    out = []
    for seat, player in enumerate(players):
        if not player.family.user:
            out.append(player)
            continue
        out.append(Player(replace(player.family, decide=_trap(player, seat)), player.values))
    return out


def _trap(player: Player, seat: int) -> Callable:
    checked = checked_decide(player.family)
    count = [0]

    def decide(obs: np.ndarray, params: np.ndarray, rng: np.ndarray) -> Any:
        count[0] += 1
        obs = np.array(obs, dtype=np.int64)
        params = np.array(params, dtype=np.float64)
        obs.setflags(write=False)
        params.setflags(write=False)
        try:
            return checked(obs, params, rng)
        except Exception as exc:  # the user's code: name it in one line
            raise StrategyRaised(_raised_line(player, seat, count[0], exc)) from None

    return decide


def _raised_line(player: Player, seat: int, decision: int, exc: BaseException) -> str:
    text = " ".join(str(exc).split())
    what = f"{type(exc).__name__}: {text}" if text else type(exc).__name__
    hint = ""
    if isinstance(exc, IndexError):
        hint = " (a strategy may index only its own observation, params and rng)"
    return f"strategy {player.spec!r} (seat {seat}) raised {what}{hint} at its decision {decision}"


def describe_raised(
    game: Any, table: Any, players: Sequence[Player], seed: int, unit: str, err: np.ndarray
) -> str:
    """One line for an error row whose answer is :data:`RAISED`: the game is replayed in the
    reference implementation to name the exception and the decision."""
    index, seat = int(err[1]), int(err[2])
    where = f"in {unit} {index} of the run with seed {seed}"
    try:
        game.trace(table, trapping_players(players), seed, index, unit)
    except StrategyRaised as exc:
        return f"{exc}, {where}"
    except Exception:  # the replay is only for the words; fall back to what the row says
        pass
    return f"strategy {players[seat].spec!r} (seat {seat}) raised an exception {where}"


# --- time ------------------------------------------------------------------------------


def block_limit() -> float:
    """Seconds one block of games with a user strategy may run (``KORTSIM_BLOCK_TIMEOUT``,
    default :data:`DEFAULT_BLOCK_LIMIT`; 0 or below means no limit).

    Raises
    ------
    SpecError
        When the variable is set to something that is not a number.
    """
    raw = os.environ.get(BLOCK_LIMIT_ENV, "").strip()
    if not raw:
        return DEFAULT_BLOCK_LIMIT
    try:
        value = float(raw)
    except ValueError:
        raise SpecError(f"{BLOCK_LIMIT_ENV}={raw!r} is not a number of seconds") from None
    if value != value:
        raise SpecError(f"{BLOCK_LIMIT_ENV}={raw!r} is not a number of seconds")
    return value if value > 0 else float("inf")


def _stop(line: str, code: int) -> None:
    try:
        os.write(2, (line + "\n").encode())
    finally:
        os._exit(code)


@contextmanager
def watched(who: str, first: int, n: int, limit: float | None = None) -> Iterator[None]:
    """Around one kernel call with user strategies (``who`` names them): stop the process
    with one line when it runs longer than ``limit`` seconds (default :func:`block_limit`),
    or does not come back soon after Ctrl-C."""
    limit = block_limit() if limit is None else limit
    done = threading.Event()
    wake_r = wake_w = None
    old_fd = None
    if threading.current_thread() is threading.main_thread():
        try:
            wake_r, wake_w = socket.socketpair()
            wake_r.setblocking(False)
            wake_w.setblocking(False)
            old_fd = signal.set_wakeup_fd(wake_w.fileno(), warn_on_full_buffer=False)
        except (ValueError, OSError):
            for s in (wake_r, wake_w):
                if s is not None:
                    s.close()
            wake_r = wake_w = None
    games = f"games {first}-{first + n - 1}" if n > 1 else f"game {first}"
    watcher = threading.Thread(
        target=_watch, args=(done, who, games, limit, wake_r, old_fd), name="kortsim-watchdog", daemon=True
    )
    watcher.start()
    try:
        yield
    finally:
        done.set()
        if wake_w is not None:
            with suppress(OSError):
                wake_w.send(b"\0")  # wake the watchdog now (signal numbers are never 0)
        watcher.join()
        if wake_w is not None:
            signal.set_wakeup_fd(old_fd if old_fd is not None else -1)
            wake_r.close()
            wake_w.close()


def _watch(
    done: threading.Event, who: str, games: str, limit: float, wake: socket.socket | None, old_fd: int | None
) -> None:
    start = time.monotonic()
    interrupted: float | None = None
    while not done.is_set():
        if wake is not None:
            ready, _, _ = select.select([wake], [], [], 0.05)
            if ready:
                try:
                    data = wake.recv(64)
                except OSError:
                    data = b""
                data = data.replace(b"\0", b"")
                if old_fd is not None and old_fd >= 0 and data:
                    with suppress(OSError):
                        os.write(old_fd, data)  # whoever listened before still hears it
                if signal.SIGINT in data:
                    if interrupted is not None:
                        break
                    interrupted = time.monotonic()
        else:
            done.wait(0.05)
        if done.is_set():
            return
        now = time.monotonic()
        if interrupted is not None and now - interrupted > INTERRUPT_GRACE:
            break
        if now - start > limit:
            _stop(
                f"error: {who} did not finish a decision in {limit:g} s ({games}): a loop that "
                f"never ends?  The run is stopped ({BLOCK_LIMIT_ENV}={limit:g} s per block of games)",
                EXIT_STRATEGY,
            )
    if not done.is_set():
        _stop(
            f"interrupted: {who} did not come back from its decision ({games}); the run is stopped",
            EXIT_INTERRUPTED,
        )


def who(players: Sequence[Player]) -> str:
    """The user strategies among ``players`` with their seats, as the watchdog names them."""
    seats: dict[str, list[int]] = {}
    for seat, p in enumerate(players):
        if p.family.user:
            seats.setdefault(p.spec, []).append(seat)
    if not seats:  # no user strategy: name every player rather than none
        for seat, p in enumerate(players):
            seats.setdefault(p.spec, []).append(seat)
    parts = [
        f"{spec!r} ({'seat' if len(s) == 1 else 'seats'} {', '.join(map(str, s))})"
        for spec, s in seats.items()
    ]
    if len(parts) == 1:
        return f"strategy {parts[0]}"
    return "one of the strategies " + ", ".join(parts)


__all__ = [
    "BLOCK_LIMIT_ENV",
    "DEFAULT_BLOCK_LIMIT",
    "RAISED",
    "SIGNATURE",
    "StrategyRaised",
    "block_limit",
    "checked_decide",
    "describe_raised",
    "global_random_use",
    "readonly",
    "trapping_players",
    "watched",
    "who",
]
