"""What a user's strategy reaches: every function of users' code it may call, found
through its globals, its closure cells and the attributes of modules it reads
(``helpers.peek(obs)``), and the bounds-checked copy of that whole graph.

Containment (:mod:`simulator.kernels.containment`) rests on this walk: a helper it
did not find would run without bounds checks (a look at another seat's row, or a
crash), and a global random generator drawn from in a helper it did not follow would
break "same seed, same result" unseen.  The walk stops at code shipped with kortsim
and at installed libraries (numpy, numba, ...).
"""

from __future__ import annotations

import dis
import os
import sys
import types as pytypes
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from numba import njit

from simulator.engine.numba_internals import Dispatcher
from simulator.errors import SpecError

_ROOT = Path(__file__).resolve().parents[2]
_SHIPPED_PACKAGES = ("simulator", "strategies", "experiments", "numba", "numpy")


def code_objects(code: pytypes.CodeType) -> Iterator[pytypes.CodeType]:
    """``code`` and every code object nested in it (inner functions, comprehensions)."""
    yield code
    for const in code.co_consts:
        if isinstance(const, pytypes.CodeType):
            yield from code_objects(const)


def scope_of(fn: pytypes.FunctionType) -> dict[str, Any]:
    """The names ``fn`` can load: its globals, overlaid by its filled closure cells."""
    scope = dict(fn.__globals__)
    for name, cell in zip(fn.__code__.co_freevars, fn.__closure__ or ()):
        try:
            scope[name] = cell.cell_contents
        except ValueError:  # a cell not filled yet
            continue
    return scope


def globals_used(fn: pytypes.FunctionType) -> Iterator[tuple[str, Any, list[str]]]:
    """``(name, object, attributes read from it next)`` for each global (or closure
    variable) ``fn`` loads."""
    scope = scope_of(fn)
    for code in code_objects(fn.__code__):
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


def shipped_code(obj: Any) -> bool:
    """True for functions of kortsim itself, numba and numpy (run as they are)."""
    module = getattr(getattr(obj, "py_func", obj), "__module__", "") or ""
    return module.split(".")[0] in _SHIPPED_PACKAGES


def users_module(module: pytypes.ModuleType) -> bool:
    """A module of the user's own (a local helper file), not kortsim's nor an installed one."""
    if module.__name__.split(".")[0] in _SHIPPED_PACKAGES:
        return False
    file = getattr(module, "__file__", None)
    if not file or not str(file).endswith(".py"):
        return False
    resolved = str(Path(file).resolve())
    prefixes = {sys.prefix, sys.base_prefix, sys.exec_prefix}
    return not any(resolved.startswith(str(Path(p).resolve()) + os.sep) for p in prefixes)


def python_function(obj: Any) -> pytypes.FunctionType | None:
    """The Python function behind a jitted function, a ``numba.vectorize`` one or a plain
    function of users' code, else None."""
    if isinstance(obj, Dispatcher):
        obj = obj.py_func
    inner = getattr(obj, "_dispatcher", None)  # numba.vectorize's DUFunc
    if inner is not None and isinstance(getattr(inner, "py_func", None), pytypes.FunctionType):
        obj = inner.py_func
    if isinstance(obj, pytypes.FunctionType) and not shipped_code(obj):
        return obj
    return None


def callees(fn: pytypes.FunctionType) -> Iterator[tuple[str, pytypes.FunctionType]]:
    """``(how it is reached, function)`` for each function of users' code ``fn`` may call:
    a global or closure variable, or an attribute of a user's module (``helpers.peek``)."""
    for name, obj, attrs in globals_used(fn):
        reached, path = obj, [name]
        for a in attrs:
            if not (isinstance(reached, pytypes.ModuleType) and users_module(reached)):
                break
            reached = getattr(reached, a, None)
            path.append(a)
        py = python_function(reached)
        if py is not None:
            yield ".".join(path), py


def recursion(fn: Any) -> list[str] | None:
    """A chain of names by which ``fn`` (or a function it reaches) calls itself again
    (``["f", "g", "f"]``), or None."""
    start = python_function(fn)
    if start is None:
        return None
    path: list[tuple[str, pytypes.FunctionType]] = [(start.__name__, start)]
    done: set[int] = set()

    def visit(f: pytypes.FunctionType) -> list[str] | None:
        for how, g in callees(f):
            on_path = [i for i, (_, p) in enumerate(path) if p is g]
            if on_path:
                return [name for name, _ in path[on_path[0] :]] + [how]
            if id(g) in done:
                continue
            path.append((how, g))
            found = visit(g)
            if found is not None:
                return found
            path.pop()
            done.add(id(g))
        return None

    return visit(start)


def checked_copy(fn: Any, made: dict[int, Dispatcher] | None = None) -> Dispatcher:
    """``fn`` compiled with ``boundscheck=True``, every jitted function it reaches too
    (through globals, closure cells and users' modules; kortsim's helpers included), each
    as a fresh dispatcher (the originals stay as they were).

    Raises
    ------
    SpecError
        When ``fn`` calls itself (directly or through helpers): compiled recursion has no
        bound on its depth, and too deep a one crashes the process.
    """
    made = {} if made is None else made
    py = fn.py_func if isinstance(fn, Dispatcher) else fn
    if id(py) in made:
        return made[id(py)]
    if not made:
        chain = recursion(py)
        if chain is not None:
            raise SpecError(
                f"calls itself ({' -> '.join(chain)}): a strategy may not be recursive (compiled, its "
                "depth has no bound and too deep a one crashes the process); write it as a loop"
            )
    options = dict(fn.targetoptions or {}) if isinstance(fn, Dispatcher) else {}
    options.pop("parallel", None)  # a strategy is one decision: no threads of its own
    options.pop("nopython", None)  # njit implies it (and warns when told)
    # forceinline: bounds checks make the function too big for LLVM to inline by itself,
    # and a call per decision (with the kernel's stores to obs no longer forwarded) costs
    # more than the checks: inlined, the checks stay (they are the function's own flags).
    options.update(boundscheck=True, nogil=True, cache=False, forceinline=True)
    scope = dict(py.__globals__)
    # Closure cells are rebuilt for the checked helpers (the user's own cells stay as they were).
    cells = tuple(pytypes.CellType(_contents(c)) for c in py.__closure__ or ())
    new = pytypes.FunctionType(py.__code__, scope, py.__name__, py.__defaults__, cells or None)
    new.__qualname__, new.__doc__, new.__module__ = py.__qualname__, py.__doc__, py.__module__
    checked = njit(**options)(new)
    made[id(py)] = checked
    modules: dict[int, pytypes.ModuleType] = {}
    names = set()
    for code in code_objects(py.__code__):
        names.update(code.co_names)
    for n in names & scope.keys():  # builtins (int, range) are not in the globals
        scope[n] = _checked_value(scope[n], made, modules)
    for cell in cells:
        cell.cell_contents = _checked_value(cell.cell_contents, made, modules)
    return checked


def _contents(cell: pytypes.CellType) -> Any:
    try:
        return cell.cell_contents
    except ValueError:  # a cell not filled yet
        return None


def _checked_value(value: Any, made: dict[int, Dispatcher], modules: dict[int, pytypes.ModuleType]) -> Any:
    """What a global or closure variable becomes in the checked copy."""
    if isinstance(value, pytypes.ModuleType):
        return _checked_module(value, made, modules) if users_module(value) else value
    if isinstance(value, Dispatcher) and not _library(value):
        # kortsim's own helpers too: what a user's strategy calls, it calls bounds-checked.
        return checked_copy(value, made)
    return value


def _library(obj: Any) -> bool:
    module = getattr(obj.py_func, "__module__", "") or ""
    return module.split(".")[0] in ("numba", "numpy")


def _checked_module(
    module: pytypes.ModuleType, made: dict[int, Dispatcher], modules: dict[int, pytypes.ModuleType]
) -> pytypes.ModuleType:
    """A stand-in for a user's module whose jitted functions are the checked copies (what
    ``module.helper(...)`` calls in the checked strategy)."""
    if id(module) in modules:
        return modules[id(module)]
    proxy = pytypes.ModuleType(module.__name__, module.__doc__)
    modules[id(module)] = proxy
    for key, value in vars(module).items():
        if key in ("__name__", "__doc__"):
            continue
        setattr(proxy, key, _checked_value(value, made, modules))
    return proxy
