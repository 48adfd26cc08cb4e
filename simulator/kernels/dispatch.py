"""The dispatcher a kernel compiled for users' strategies calls them through:
``decide_nb(sid, obs, params, rng)`` calls the run's strategy number ``sid``, a user's
one contained (read-only inputs, or a copy of ``obs`` for one that keeps memory slots,
and an exception guard: :mod:`simulator.kernels.containment`).  Its source is generated
(:mod:`simulator.engine.dispatching` writes the dispatch, this module the containment), and the kernel's copies for the run
(:mod:`simulator.kernels.specialise`) call it in place of the shipped dispatcher.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from numba import njit

from simulator.engine.dispatching import dispatch_source, plain_case
from simulator.engine.numba_internals import Dispatcher

SNAP_CHUNK = 16  # entries per snapshot tuple (CPython builds a literal of 31 or more via a list)


def _case(mode: Any, i: int, prefix: str) -> str:
    """The body of ``if sid == i:`` for a strategy in containment ``mode`` (see :func:`_modes`)."""
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
        return (
            "        try:\n"
            f"{snaps}"
            f"            answer = {prefix}{i}(obs, readonly(params), rng)\n"
            f"            if ({changed}) != 0:\n                return RAISED\n"
            "            return answer\n"
            "        except Exception:\n            return RAISED"
        )
    if mode:
        return (
            "        try:\n"
            f"            return {prefix}{i}(readonly(obs), readonly(params), rng)\n"
            "        except Exception:\n            return RAISED"
        )
    return plain_case(i, prefix)


def contained_source(decides: Sequence[Dispatcher], contained: Sequence[bool], name: str, prefix: str) -> str:
    """The source of a dispatcher over ``decides`` with the users' ones (``contained``) contained."""
    modes = _modes(decides, contained)
    return dispatch_source(len(decides), name, prefix, lambda i, p: _case(modes[i], i, p))


def _modes(decides: Sequence[Dispatcher], contained: Sequence[bool]) -> tuple:
    """Per strategy: False (shipped), True (contained, read-only obs) or ``(start, stop,
    size)``: contained, writing its memory slots ``obs[start:stop]`` of an observation of
    ``size`` entries, every other entry checked unchanged after each decision."""
    from simulator.kernels.containment import memory_span, obs_size

    out = []
    for i, d in enumerate(decides):
        c = i < len(contained) and bool(contained[i])
        span = memory_span(d)
        out.append(((*span, obs_size(d)) if span else True) if c else False)
    return tuple(out)


def make_dispatch(decides: Sequence[Dispatcher], contained: Sequence[bool] = ()) -> Dispatcher:
    """``dispatch(i, obs, params, rng)`` calling ``decides[i]`` (direct calls, inlinable).

    A strategy marked in ``contained`` (a user's; see :mod:`simulator.kernels.containment`) gets
    its ``obs`` and ``params`` read-only and runs inside ``try``/``except``: an exception
    it raises becomes the answer ``RAISED``, which every kernel refuses as illegal."""
    from simulator.kernels.containment import RAISED, readonly

    ns: dict = {f"f{i}": d for i, d in enumerate(decides)}
    ns.update(readonly=readonly, RAISED=RAISED)
    exec(contained_source(decides, contained, "dispatch", "f"), ns)
    return njit(forceinline=True)(ns["dispatch"])
