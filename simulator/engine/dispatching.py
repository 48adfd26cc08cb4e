"""Dispatchers over a list of strategies, generated: ``decide(sid, obs, params, rng)`` calls
strategy number ``sid`` (a direct call, which the compiler inlines) and returns -1 for
any other id.

Written out as source, one ``if sid == i`` per strategy, because numba can inline a call
only to a function it knows at compile time: a tuple of functions indexed at run time
(or a first-class function value) is an indirect call (docs/kernels.md).  The shipped
dispatcher of each game (``decide_builtin_nb``) is generated here from the registry,
so it cannot fall out of step with the strategies' ids; a run with users' strategies
adds containment to its dispatcher (:mod:`simulator.kernels.dispatch`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from numba import njit


def plain_case(i: int, prefix: str) -> str:
    """The body of ``if sid == i:`` that calls strategy ``i`` as it is."""
    return f"        return {prefix}{i}(obs, params, rng)"


def dispatch_source(n: int, name: str, prefix: str, case: Callable[[int, str], str] = plain_case) -> str:
    """The source of ``name(sid, obs, params, rng)`` over the functions ``{prefix}0`` ..
    ``{prefix}{n-1}``: ``case(i, prefix)`` is the body of ``if sid == i:`` (by default the
    plain call; containment writes its own, :mod:`simulator.kernels.dispatch`)."""
    lines = [f"def {name}(sid, obs, params, rng):"]
    lines += [f"    if sid == {i}:\n{case(i, prefix)}" for i in range(n)]
    lines.append("    return -1")
    return "\n".join(lines) + "\n"


def plain_dispatch(decides: Sequence[Any], name: str = "decide_builtin_nb") -> Any:
    """``name(sid, obs, params, rng)`` calling ``decides[sid]``, uncontained.

    Compiled once and inlined by LLVM (``forceinline``), not by numba (``inline="always"``),
    which would type and lower its body again at every call site of a kernel (half of the
    Spøkelse kernel's compile time).  Not cached by itself (it has no file): the kernels
    that call it are, and their stamps cover the module that registers the strategies.
    """
    ns: dict = {f"f{i}": d for i, d in enumerate(decides)}
    ns["__name__"] = __name__  # its module, for numba's messages and kortsim's walks
    exec(dispatch_source(len(decides), name, "f"), ns)
    fn = ns[name]
    fn.__doc__ = f"Dispatch to the strategy with id ``sid``: {', '.join(_name(d) for d in decides)}."
    return njit(forceinline=True)(fn)


def _name(fn: Any) -> str:
    return getattr(getattr(fn, "py_func", fn), "__name__", repr(fn))
