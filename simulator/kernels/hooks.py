"""A kernel specialised for a run's strategies without touching its text.

A game kernel calls its strategies through one *hook*, the module global ``decide_nb``
(bound to the shipped strategies' dispatcher, so the compiler can inline them).  To play
other strategies, every jitted function that reaches the hook, directly or through
other jitted functions of the package, is made again from its own code object
(:func:`rebound`): the same bytecode, run against a copy of its module's globals in
which the hook is the run's dispatcher and each function that reaches it is its own
rebound copy.  Nothing is parsed, edited or executed as text, and the kernel may spread
over several modules: what counts is what reaches the hook.

Each copy is named by a *variant* of the line-up (``play_round_nb__<variant>``): numba
names compiled code and cache files by a function's module and qualified name, so the
shipped kernel and the copies of every line-up stay apart in the process (two compiled
functions of one name would have calls linked to the first loaded) and in numba's cache,
where their entries lie side by side, each under its own name.  An edit to the kernel's
files invalidates all of them as it does the shipped one (their stamps are the same).
"""

from __future__ import annotations

import types as pytypes
from typing import Any

import numba

from simulator.engine.chunks import ChunkedBlock
from simulator.engine.numba_internals import Dispatcher
from simulator.kernels.reach import globals_used

#: The name of a kernel module's hook: the strategies' dispatcher, called by id.
HOOK = "decide_nb"
_OWN = ("simulator", "strategies")


class HookError(RuntimeError):
    """A kernel reaches its hook in a way :func:`rebound` cannot follow."""


def _ours(fn: Dispatcher) -> bool:
    return (fn.py_func.__module__ or "").split(".")[0] in _OWN


def reaching(kernel: pytypes.ModuleType) -> list[Dispatcher]:
    """The jitted functions of the package that reach ``kernel``'s hook, each once, in
    the order they were found (from the kernel module's globals).

    Raises
    ------
    HookError
        When a function reaches the hook through a module attribute
        (``other.play_round_nb``), which a copy of the globals cannot redirect.
    """
    hook = kernel.__dict__[HOOK]
    verdict: dict[int, bool] = {id(hook): True}
    order: list[Dispatcher] = []

    def reaches(fn: Dispatcher) -> bool:
        if id(fn) in verdict:
            return verdict[id(fn)]
        verdict[id(fn)] = False  # jitted code is not recursive; this only ends a cycle
        found = False
        for name, value, attrs in globals_used(fn.py_func):
            for attr in attrs:
                if not isinstance(value, pytypes.ModuleType):
                    break
                value = getattr(value, attr, None)
                if isinstance(value, Dispatcher) and _ours(value) and reaches(value):
                    raise HookError(
                        f"{fn.py_func.__qualname__} reaches the strategies' hook through the module "
                        f"attribute {name}.{'.'.join(attrs)}: import the function by name, so that a "
                        "kernel specialised for other strategies calls its copy"
                    )
            if not attrs and (
                value is hook or (isinstance(value, Dispatcher) and _ours(value) and reaches(value))
            ):
                found = True
        verdict[id(fn)] = found
        if found and fn is not hook:
            order.append(fn)
        return found

    for value in list(kernel.__dict__.values()):
        if isinstance(value, ChunkedBlock):
            value = value.chunk
        if isinstance(value, Dispatcher) and _ours(value):
            reaches(value)
    return order


def rebound(
    kernel: pytypes.ModuleType,
    decide: Dispatcher,
    *,
    cache: bool,
    variant: str,
    name: str | None = None,
    nogil: bool = True,
) -> pytypes.ModuleType:
    """A stand-in for ``kernel`` whose hook is ``decide``.

    Parameters
    ----------
    kernel : module
        A game kernel module (it defines the hook :data:`HOOK`).
    decide : numba dispatcher
        The run's dispatcher, ``decide(sid, obs, params, rng)``.
    cache : bool
        Keep the copies in numba's on-disk cache, under ``variant``.
    variant : str
        What tells this line-up's copies from every other's, in the process and in the
        cache: letters, digits and underscores (it ends the copies' names), unique in the
        process, and for cached copies changed whenever anything compiled into them but
        not in the package's files changes (the strategies, the dispatcher).
    name : str, optional
        The stand-in module's name (default: the kernel's, with the variant).
    nogil : bool, default True
        Compile the copies to release the GIL (what a run needs; False only to measure
        what releasing it costs).

    Returns
    -------
    module
        Every name of ``kernel``; those bound to a function that reaches the hook (or to
        a :class:`~simulator.engine.chunks.ChunkedBlock` over one) are bound to the copies,
        and the hook to ``decide``.  The copies release the GIL (``nogil``), so that
        a watchdog thread can stop a strategy that never answers.  ``COPIES`` holds every
        copy (of whatever module), in the order :func:`reaching` gives.
    """
    if not f"_{variant}".isidentifier():  # numba builds variable names from a function's name
        raise ValueError(f"a variant is letters, digits and underscores, not {variant!r}")
    hook = kernel.__dict__[HOOK]
    old = reaching(kernel)
    made: dict[int, Any] = {id(hook): decide}
    scopes: dict[int, dict] = {}  # one copy of each module's globals, shared by its functions
    for fn in old:
        py = fn.py_func
        scope = scopes.setdefault(id(py.__globals__), dict(py.__globals__))
        new = pytypes.FunctionType(py.__code__, scope, py.__name__, py.__defaults__, py.__closure__)
        # The variant in the name: numba names the compiled code, and the cache its files, by
        # module and qualified name, and two copies of one name in a process (the shipped
        # kernel and a line-up's copy, or two line-ups' copies, one compiled here, one loaded
        # from the cache) would have their calls linked to whichever was loaded first.
        new.__qualname__ = f"{py.__qualname__}__{variant}"
        new.__doc__, new.__module__, new.__kwdefaults__ = py.__doc__, py.__module__, py.__kwdefaults__
        options = dict(fn.targetoptions)
        options.pop("nopython", None)  # njit implies it (and warns when told)
        options.update(cache=cache, nogil=nogil)
        made[id(fn)] = numba.njit(**options)(new)
    for scope in scopes.values():
        for key, value in list(scope.items()):
            if id(value) in made:
                scope[key] = made[id(value)]
    module = pytypes.ModuleType(name or f"{kernel.__name__}[{variant}]", kernel.__doc__)
    module.COPIES = tuple(made[id(fn)] for fn in old)
    for key, value in kernel.__dict__.items():
        if key in ("__name__", "__doc__"):
            continue
        if isinstance(value, ChunkedBlock) and id(value.chunk) in made:
            value = value.with_chunk(made[id(value.chunk)])
        setattr(module, key, made.get(id(value), value))
    return module
