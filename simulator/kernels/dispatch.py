"""The dispatcher a kernel compiled for users' strategies calls them through:
``decide_nb(sid, obs, params, rng)`` calls the run's strategy number ``sid``, a user's
one contained (read-only inputs, or a copy of ``obs`` for one that keeps memory slots,
and an exception guard: :mod:`simulator.kernels.containment`).  Its source is generated
(:mod:`simulator.engine.dispatching`), and the kernel's copies for the run
(:mod:`simulator.kernels.specialise`) call it in place of the shipped dispatcher.
"""

from __future__ import annotations

from collections.abc import Sequence

from numba import njit

from simulator.engine.dispatching import dispatch_source
from simulator.engine.numba_internals import Dispatcher


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
    exec(dispatch_source(len(decides), _modes(decides, contained), "dispatch", "f"), ns)
    return njit(forceinline=True)(ns["dispatch"])
