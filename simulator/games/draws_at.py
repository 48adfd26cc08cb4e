"""Draws of the random-stream contract on a stream's state held in a register.

The kernels of the Gris games draw each seat's reaction time from a stream that starts and
ends inside one function; keeping its state in a local (not in a one-element array, as
:mod:`simulator.rng` does for streams a strategy draws from) lets the compiler keep it in a
register.  The operations are those of :mod:`simulator.rng` in the same order, so every
value is the same double (``tests/test_speed_paths.py`` checks it).
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from simulator.rng import GOLDEN, mix64_nb

_GOLDEN = np.uint64(GOLDEN)
_TWO_POW_M53 = 1.0 / 9007199254740992.0


@njit(cache=True, inline="always")
def lognormal_at_nb(key, median, sigma):
    """:func:`simulator.rng.lognormal_nb` on the stream whose state is ``key`` (its first
    two draws): ``median * exp(sigma * z)``, z standard normal by Box-Muller."""
    s = key + _GOLDEN
    u1 = 1.0 - np.float64(mix64_nb(s) >> np.uint64(11)) * _TWO_POW_M53
    s = s + _GOLDEN
    u2 = np.float64(mix64_nb(s) >> np.uint64(11)) * _TWO_POW_M53
    z = math.sqrt(-2.0 * math.log(u1)) * math.cos(2.0 * math.pi * u2)
    return median * math.exp(sigma * z)
