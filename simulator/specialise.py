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


def make_dispatch(decides: Sequence[Dispatcher], contained: Sequence[bool] = ()) -> Dispatcher:
    """``dispatch(i, obs, params, rng)`` calling ``decides[i]`` (direct calls, inlinable).

    A strategy marked in ``contained`` (a user's; see :mod:`simulator.containment`) gets
    its ``obs`` and ``params`` read-only and runs inside ``try``/``except``: an exception
    it raises becomes the answer ``RAISED``, which every kernel refuses as illegal."""
    from simulator.containment import RAISED, readonly

    lines = ["def dispatch(sid, obs, params, rng):"]
    for i in range(len(decides)):
        if i < len(contained) and contained[i]:
            lines.append(
                f"    if sid == {i}:\n        try:\n"
                f"            return f{i}(readonly(obs), readonly(params), rng)\n"
                f"        except Exception:\n            return RAISED"
            )
        else:
            lines.append(f"    if sid == {i}:\n        return f{i}(obs, params, rng)")
    lines.append("    return -1")
    ns: dict = {f"f{i}": d for i, d in enumerate(decides)}
    ns.update(readonly=readonly, RAISED=RAISED)
    exec("\n".join(lines), ns)
    return njit(ns["dispatch"])


def specialised_kernel(
    kernel: ModuleType, decides: Sequence[Dispatcher], contained: Sequence[bool] = ()
) -> ModuleType:
    """A copy of ``kernel`` whose ``decide_nb`` dispatches to ``decides`` by position
    (``contained``: as for :func:`make_dispatch`).  The copy releases the GIL, so that a
    watchdog thread can stop a strategy that never answers (:mod:`simulator.containment`)."""
    key = (kernel.__name__, tuple(id(d) for d in decides), tuple(contained))
    if key in _CACHE:
        return _CACHE[key]
    source = inspect.getsource(kernel).replace("cache=True", "cache=False, nogil=True")
    module = ModuleType(f"{kernel.__name__}__user{len(_CACHE)}")
    module.__file__ = kernel.__file__
    exec(compile(source, kernel.__file__ or "<kernel>", "exec"), module.__dict__)
    module.decide_nb = make_dispatch(decides, contained)
    _CACHE[key] = module
    return module


def timed_compile(fn, *args) -> float:
    """Call ``fn(*args)`` on a tiny input to compile it; return the seconds it took."""
    t0 = time.perf_counter()
    fn(*args)
    return time.perf_counter() - t0
