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

from collections.abc import Sequence
from typing import Any

from numba import njit

SNAP_CHUNK = 16  # entries per snapshot tuple (CPython builds a literal of 31 or more via a list)


def dispatch_source(n: int, contained: Sequence[Any], name: str, prefix: str) -> str:
    lines = [f"def {name}(sid, obs, params, rng):"]
    for i in range(n):
        mode = contained[i] if i < len(contained) else False
        if isinstance(mode, tuple):  # it may write its memory slots [lo, hi) of obs, nothing else
            lo, hi, size = mode
            kept = [j for j in range(size) if not lo <= j < hi]
            # Tuples on the stack: no allocation per decision.  A long tuple literal is built
            # through a list by CPython 3.11's compiler (31 entries or more), which numba
            # cannot type, so the entries are kept in tuples of SNAP_CHUNK.
            chunks = [kept[c : c + SNAP_CHUNK] for c in range(0, len(kept), SNAP_CHUNK)]
            snaps = "".join(
                f"            snap{c} = ({', '.join(f'obs[{j}]' for j in chunk)},)\n"
                for c, chunk in enumerate(chunks)
            )
            # One test of all the differences OR-ed together (no branch per entry).
            changed = " | ".join(
                f"(obs[{j}] ^ snap{c}[{k}])" for c, chunk in enumerate(chunks) for k, j in enumerate(chunk)
            )
            lines.append(
                f"    if sid == {i}:\n        try:\n"
                f"{snaps}"
                f"            answer = {prefix}{i}(obs, readonly(params), rng)\n"
                f"            if ({changed}) != 0:\n                return RAISED\n"
                f"            return answer\n"
                f"        except Exception:\n            return RAISED"
            )
        elif mode:
            lines.append(
                f"    if sid == {i}:\n        try:\n"
                f"            return {prefix}{i}(readonly(obs), readonly(params), rng)\n"
                f"        except Exception:\n            return RAISED"
            )
        else:
            lines.append(f"    if sid == {i}:\n        return {prefix}{i}(obs, params, rng)")
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
    exec(dispatch_source(len(decides), (), name, "f"), ns)
    fn = ns[name]
    fn.__doc__ = f"Dispatch to the strategy with id ``sid``: {', '.join(_name(d) for d in decides)}."
    return njit(forceinline=True)(fn)


def _name(fn: Any) -> str:
    return getattr(getattr(fn, "py_func", fn), "__name__", repr(fn))
