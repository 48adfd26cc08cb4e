"""Compile a game kernel against user strategies, once per process.

A kernel module calls its strategies through the module global ``decide_nb``
(so the compiler can inline the shipped ones).  For a run that includes user
strategies we execute a copy of the kernel module's source with ``decide_nb``
bound to a dispatcher over exactly the strategies in the run.  Numba resolves
globals when it compiles, so the copy is compiled afresh (and not cached:
the user's function lives only in this process); the rules it calls are the
cached ones.
"""

from __future__ import annotations

import inspect
import time
from collections.abc import Sequence
from types import ModuleType

from numba import njit
from numba.core.dispatcher import Dispatcher

_CACHE: dict[tuple, ModuleType] = {}


def make_dispatch(decides: Sequence[Dispatcher]) -> Dispatcher:
    """``dispatch(i, obs, params, rng)`` calling ``decides[i]`` (direct calls, inlinable)."""
    lines = ["def dispatch(sid, obs, params, rng):"]
    lines += [f"    if sid == {i}:\n        return f{i}(obs, params, rng)" for i in range(len(decides))]
    lines.append("    return -1")
    ns: dict = {f"f{i}": d for i, d in enumerate(decides)}
    exec("\n".join(lines), ns)
    return njit(ns["dispatch"])


def specialised_kernel(kernel: ModuleType, decides: Sequence[Dispatcher]) -> ModuleType:
    """A copy of ``kernel`` whose ``decide_nb`` dispatches to ``decides`` by position."""
    key = (kernel.__name__, tuple(id(d) for d in decides))
    if key in _CACHE:
        return _CACHE[key]
    source = inspect.getsource(kernel).replace("cache=True", "cache=False")
    module = ModuleType(f"{kernel.__name__}__user{len(_CACHE)}")
    module.__file__ = kernel.__file__
    exec(compile(source, kernel.__file__ or "<kernel>", "exec"), module.__dict__)
    module.decide_nb = make_dispatch(decides)
    _CACHE[key] = module
    return module


def timed_compile(fn, *args) -> float:
    """Call ``fn(*args)`` on a tiny input to compile it; return the seconds it took."""
    t0 = time.perf_counter()
    fn(*args)
    return time.perf_counter() - t0
