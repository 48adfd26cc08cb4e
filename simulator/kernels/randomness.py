"""Global random state in a user's strategy: refused before it runs.

A strategy that draws from Python's ``random`` module or numpy's global generator
would give different figures for the same seed.  The scan looks at the globals each
function loads (the ``random`` module or a function of it, ``numpy.random`` or a
function of it, ``np.random`` read from numpy) and follows every function of users'
code the strategy reaches (:func:`simulator.kernels.reach.callees`: helpers of its own
file, closures, helpers of other local modules, ``numba.vectorize`` functions).

What it cannot see: a strategy reading memory it never wrote (``np.empty`` then a
read) gets whatever that memory held, which differs from run to run.
"""

from __future__ import annotations

import types as pytypes
from collections.abc import Callable
from typing import Any

from simulator.engine.numba_internals import Dispatcher
from simulator.kernels.reach import callees, globals_used, python_function

_NUMPY_WORDS = "numpy's global random generator (np.random)"


def _is_global_random(obj: Any) -> str | None:
    """What ``obj`` is when it is (a part of) a global random generator, else None."""
    if isinstance(obj, pytypes.ModuleType):
        if obj.__name__ == "random":
            return "Python's random module"
        if obj.__name__.startswith("numpy.random"):
            return _NUMPY_WORDS
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
        return _NUMPY_WORDS
    return None


def _own_use(fn: pytypes.FunctionType) -> str | None:
    for name, obj, attrs in globals_used(fn):
        what = _is_global_random(obj)
        numpy = isinstance(obj, pytypes.ModuleType) and obj.__name__ == "numpy"
        if what is None and numpy and attrs[:1] == ["random"]:
            what = _NUMPY_WORDS
        if what is None and isinstance(obj, pytypes.ModuleType):
            reached = obj  # `mylib.rnd.random()`: a module attribute that is a generator
            for a in attrs:
                reached = getattr(reached, a, None)
                what = _is_global_random(reached)
                if what is not None or not isinstance(reached, pytypes.ModuleType):
                    break
        if what is not None:
            return f"{what}, through {'.'.join([name, *attrs])}"
    return None


def global_random_use(fn: Callable) -> str | None:
    """Which global random state ``fn`` (or a function of users' code it reaches) draws
    from, as words, or None."""
    start = python_function(fn)
    if start is None:
        return None
    todo, seen = [start], {id(start)}
    while todo:
        f = todo.pop()
        what = _own_use(f)
        if what is not None:
            return what if f is start else f"{what} (in {f.__name__})"
        for _, g in callees(f):
            if id(g) not in seen:
                seen.add(id(g))
                todo.append(g)
    return None
