"""The round kernel's reaction times (RULES.md §4): every seat's log-normal, in phases.

Each seat's time is :func:`simulator.engine.rng.lognormal_at_nb` on its REACT stream, the
same operations on the same values, so the same double (``tests/games/gris/test_touch.py``
checks it); but the seats go through each step together (their uniforms, then their
logarithms, their cosines, their exponentials) instead of one seat after another.  A
seat's steps wait on each other, the seats' do not, and the library calls of one phase
follow each other with their arguments ready, so the processor overlaps them.
"""

from __future__ import annotations

import math

from numba import njit

from simulator.engine.rng import REACT, ahead_nb, stream_key_at_nb, uniform_of_nb


@njit(cache=True, inline="always")
def reaction_times_nb(base, deal, n, medians, sigmas, times, cosines):
    """``times[s]`` = seat ``s``'s reaction time in deal ``deal`` of the game whose stream base
    is ``base``, for ``s < n``; ``cosines`` (``n`` or longer) is scratch."""
    for s in range(n):
        key = stream_key_at_nb(base, REACT, deal, s)
        times[s] = 1.0 - uniform_of_nb(ahead_nb(key, 1))  # u1
        cosines[s] = uniform_of_nb(ahead_nb(key, 2))  # u2
    for s in range(n):
        times[s] = -2.0 * math.log(times[s])
    for s in range(n):
        cosines[s] = math.cos(2.0 * math.pi * cosines[s])
    for s in range(n):
        z = math.sqrt(times[s]) * cosines[s]
        times[s] = medians[s] * math.exp(sigmas[s] * z)
