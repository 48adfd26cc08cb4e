"""The reaction model of both Gris games (RULES.md §4), shared by kernels and references.

Each seat has a reaction profile: log-normal reaction times with median ``m``
seconds and shape ``sigma`` (defaults 0.8 and 0.35).  Time 0 is the moment the
signallers' hands became complete.  A signaller touches at its own reaction
time ``S_i``; every other seat reacts to the first touch, at
``min_j S_j + R_i``.  The latest touch loses.

Every seat draws exactly one reaction time per deal, from its own REACT stream
``(seed, game, REACT, deal, seat)``, whether it signals or not: ``S_i`` for a
signaller, ``R_i`` otherwise.  So a seat's reaction never depends on the other
seats' strategies.  Exact ties in touch time (probability zero) go to the
lowest seat as the loser.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
from numba import njit

from simulator.engine.rng import REACT, Stream, lognormal_nb, stream_key_nb
from simulator.errors import InputError

DEFAULT_MEDIAN = 0.8
DEFAULT_SIGMA = 0.35
# The ranges a profile given by the user must lie in (seconds; sigma has no unit).  Sigma is
# kept away from 0: with sigma = 0 every non-signaller would touch at the same instant and the
# "latest" touch would be decided by the tie rule (the lowest seat), not by reactions.
MEDIAN_RANGE = (0.01, 60.0)
SIGMA_RANGE = (0.01, 3.0)


def parse_profile(text: str) -> tuple[float, float]:
    """``"MEDIAN"`` or ``"MEDIAN,SIGMA"`` in seconds, each within its documented range.

    The median lies in ``MEDIAN_RANGE`` (0.01 to 60 seconds) and the shape sigma in
    ``SIGMA_RANGE`` (0.01 to 3): sigma = 0 would give every seat the same reaction time, so
    that the "latest touch" would be a tie decided by seat number alone, not by reactions.
    """
    parts = [p.strip() for p in str(text).split(",")]
    if len(parts) not in (1, 2) or not all(parts):
        raise InputError(f"reaction profile {text!r}: write MEDIAN or MEDIAN,SIGMA (seconds)")
    try:
        median = float(parts[0])
        sigma = float(parts[1]) if len(parts) == 2 else DEFAULT_SIGMA
    except ValueError:
        raise InputError(f"reaction profile {text!r}: MEDIAN and SIGMA must be numbers") from None
    lo, hi = MEDIAN_RANGE
    if not (math.isfinite(median) and lo <= median <= hi):
        raise InputError(
            f"reaction profile {text!r}: the median must be a number of seconds from {lo:g} to {hi:g}, "
            f"not {median:g}"
        )
    lo, hi = SIGMA_RANGE
    if not (math.isfinite(sigma) and lo <= sigma <= hi):
        raise InputError(
            f"reaction profile {text!r}: the shape sigma must be from {lo:g} to {hi:g}, not {sigma:g} "
            "(with sigma 0 every reaction time would be the median and ties would go by seat number)"
        )
    return median, sigma


def seat_profiles(specs: Sequence | None, n_seats: int) -> tuple[tuple[float, float], ...]:
    """Per-seat profiles from ``--reaction`` values.

    Each value is ``MEDIAN[,SIGMA]`` (every seat) or ``SEAT=MEDIAN[,SIGMA]`` (one seat);
    later values override earlier ones.  Tuples ``(median, sigma)`` are accepted too.  Every
    value must lie in ``MEDIAN_RANGE`` and ``SIGMA_RANGE`` (:func:`parse_profile`).
    """
    prof = [(DEFAULT_MEDIAN, DEFAULT_SIGMA)] * n_seats
    for spec in specs or []:
        if isinstance(spec, tuple | list):
            m, s = float(spec[0]), float(spec[1])
            prof = [parse_profile(f"{m},{s}")] * n_seats
            continue
        seat_text, eq, rest = str(spec).partition("=")
        if eq:
            try:
                seat = int(seat_text)
            except ValueError:
                raise InputError(
                    f"--reaction {spec!r}: write SEAT=MEDIAN[,SIGMA] with a seat number"
                ) from None
            if not 0 <= seat < n_seats:
                raise InputError(f"--reaction {spec!r}: seat must be 0 to {n_seats - 1}")
            prof[seat] = parse_profile(rest)
        else:
            prof = [parse_profile(spec)] * n_seats
    return tuple(prof)


def profile_arrays(profiles: Sequence[tuple[float, float]]) -> np.ndarray:
    """``[medians..., sigmas...]`` as one float64 array (for ``rules_f``)."""
    m = [p[0] for p in profiles]
    s = [p[1] for p in profiles]
    return np.array(m + s, dtype=np.float64)


# --- plain Python (references) ------------------------------------------------


def touch_times(
    seed: int, game: int, deal: int, signallers: Sequence[bool], profiles: Sequence[tuple[float, float]]
) -> list[float]:
    """RULES.md §4: every seat's touch time for a deal with these signallers."""
    draws = [Stream(seed, game, REACT, deal, seat).lognormal(m, s) for seat, (m, s) in enumerate(profiles)]
    first = min(d for d, sig in zip(draws, signallers) if sig)
    return [d if sig else first + d for d, sig in zip(draws, signallers)]


def last_to_touch(times: Sequence[float]) -> int:
    """The seat that touched last (exact ties: the lowest seat)."""
    latest = max(times)
    return min(i for i, t in enumerate(times) if t == latest)


# --- jitted (kernels) ------------------------------------------------------------


@njit(cache=True)
def touch_times_nb(seed, game, deal, signallers, medians, sigmas, seats, times, rng):
    """Touch times of the seats in ``seats`` (original seat numbers) into ``times``;
    ``signallers[i]`` says whether ``seats[i]`` signalled; ``rng`` a uint64[1] scratch."""
    n = seats.shape[0]
    first = np.inf
    for i in range(n):
        s = seats[i]
        rng[0] = stream_key_nb(seed, game, REACT, deal, s)
        times[i] = lognormal_nb(rng, medians[s], sigmas[s])
        if signallers[i] and times[i] < first:
            first = times[i]
    for i in range(n):
        if not signallers[i]:
            times[i] += first


@njit(cache=True)
def last_to_touch_nb(times, n):
    """Index of the latest of ``times[:n]`` (exact ties: the lowest index)."""
    best = 0
    for i in range(1, n):
        if times[i] > times[best]:
            best = i
    return best
