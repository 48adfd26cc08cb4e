"""Reaction profiles measured at the table, as JSON files that ``--reaction`` accepts.

``kortsim play gris ... --save-reaction me.json`` fits a log-normal to the reaction
times measured in the game (RULES.md §4 models reaction times as log-normal) and writes::

    {"kind": "kortsim reaction profile", "version": 1,
     "median_s": 0.61, "sigma": 0.28, "n": 14,
     "median_s_ci": [0.53, 0.71], "sigma_ci": [0.20, 0.45],
     "level": 0.95, "times_s": [...]}

``median_s`` is ``exp(mean(log t))``, ``sigma`` the standard deviation of ``log t``
(``n - 1`` in the denominator); the intervals are the t interval of the mean log time
(turned back into seconds) and the chi-square interval of the standard deviation.  A fit
outside the ranges every profile must lie in (sigma under 0.01 for times that hardly
vary) is moved to the nearest end, the fitted value kept as ``sigma_fitted`` (or
``median_s_fitted``) and the key listed in ``clamped``.
``simulate --reaction SEAT=me.json`` (and ``compare``'s ``--reaction`` and
``reactions=``) read back the median and sigma, within the ranges every profile must lie
in: :func:`seat_profiles` and :func:`parse_profile` here take a file wherever
:mod:`simulator.engine.reaction`'s take ``MEDIAN[,SIGMA]``, and hand everything else to them
unchanged (the same checks and messages).  This module is plain Python, apart from the
jitted sources the kernels' cache stamp covers (``simulator/engine/cache.py``).
"""

from __future__ import annotations

import json
import math
import os
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from simulator.engine.files import what_it_is
from simulator.errors import InputError

KIND = "kortsim reaction profile"
PLAYER_KIND = "kortsim player profile"  # simulator.engine.player_file: it may hold the same fields
VERSION = 1
LEVEL = 0.95


def looks_like_file(text: str) -> bool:
    """Whether a ``--reaction`` value names a file rather than ``MEDIAN[,SIGMA]``."""
    t = text.strip()
    return t.lower().endswith(".json") or "/" in t or os.sep in t or Path(t).exists()


def fit(times: Sequence[float], level: float = LEVEL) -> dict:
    """The log-normal fitted to ``times`` (seconds, at least two), with its intervals."""
    from scipy import stats

    logs = np.log(np.asarray(times, dtype=np.float64))
    n = int(logs.size)
    if n < 2 or not np.all(np.isfinite(logs)):
        raise ValueError(f"a reaction profile needs at least two measured times, not {n}")
    mean, sd = float(logs.mean()), float(logs.std(ddof=1))
    t = float(stats.t.ppf(0.5 + level / 2, n - 1))
    lo_q, hi_q = stats.chi2.ppf([0.5 + level / 2, 0.5 - level / 2], n - 1)
    return {
        "kind": KIND,
        "version": VERSION,
        "median_s": math.exp(mean),
        "sigma": sd,
        "n": n,
        "median_s_ci": [math.exp(mean - t * sd / math.sqrt(n)), math.exp(mean + t * sd / math.sqrt(n))],
        "sigma_ci": [sd * math.sqrt((n - 1) / lo_q), sd * math.sqrt((n - 1) / hi_q)],
        "level": level,
        "times_s": [float(x) for x in times],
    }


def clamped(profile: dict) -> dict:
    """``profile`` with its median and sigma moved into the ranges every profile must lie in
    (``MEDIAN_RANGE``, ``SIGMA_RANGE``); the fitted values are kept as ``*_fitted`` and the
    names of the moved ones in ``clamped``.  Times that hardly vary (sigma under 0.01) would
    otherwise make a profile that ``--reaction`` refuses."""
    from simulator.engine.reaction import MEDIAN_RANGE, SIGMA_RANGE

    out = dict(profile, clamped=[])
    for key, (lo, hi) in (("median_s", MEDIAN_RANGE), ("sigma", SIGMA_RANGE)):
        value = min(max(profile[key], lo), hi)
        if value != profile[key]:
            out[key + "_fitted"], out[key] = profile[key], value
            out["clamped"].append(key)
    return out


def write_profile(path: str | Path, times: Sequence[float]) -> dict:
    """Fit ``times`` and write the profile to ``path``; returns what was written.

    Raises
    ------
    InputError
        Too few times, or a file that cannot be written (one line).
    """
    try:
        profile = clamped(fit(times))
    except ValueError as exc:
        raise InputError(f"--save-reaction {path}: {exc}") from None
    try:
        Path(path).write_text(json.dumps(profile, indent=1) + "\n", encoding="utf-8")
    except OSError as exc:
        raise InputError(f"--save-reaction {path}: cannot write it ({exc.strerror or exc})") from None
    return profile


def check_target(path: str | Path) -> None:
    """Refuse, before anything is measured, a ``--save-reaction`` path that could not be
    written or would overwrite a file that is not a reaction profile.

    Raises
    ------
    InputError
        A missing folder, a folder given as the file, or another kind of file (one line).
    """
    check_file_target(path, "--save-reaction", is_ours=_is_reaction_profile, what="a reaction profile")


def read_json(path: Path, where: str, *, folder: str | None = None) -> Any:
    """The JSON a file holds; every refusal is one line that starts with ``where``.  A folder
    given as the file is refused with ``folder`` when given (else as a file that cannot be
    read)."""
    kind = what_it_is(path)
    if kind == "no such file":
        raise InputError(f"{where}: no such file")
    if kind == "a folder" and folder:
        raise InputError(f"{where}: {folder}")
    if kind is not None:  # a fifo or a device would block the read, or never end
        raise InputError(f"{where}: it is {kind}, not a file")
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise InputError(f"{where}: no such file") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise InputError(f"{where}: cannot be read ({getattr(exc, 'strerror', None) or exc})") from None
    except json.JSONDecodeError as exc:
        raise InputError(f"{where}: not JSON ({exc.msg}, line {exc.lineno})") from None


def check_file_target(path: str | Path, option: str, *, is_ours: Callable[[Path], bool], what: str) -> None:
    """Refuse a path given to ``option`` that could not be written: its folder is missing, it
    is a folder, or it holds a file that ``is_ours`` does not recognise (``what`` names the kind
    of file expected).  One line each (:class:`InputError`)."""
    target = Path(path)
    if not target.resolve().parent.is_dir():
        raise InputError(f"{option} {path}: its folder does not exist")
    if target.is_dir():
        raise InputError(f"{option} {path} is a folder; give a file name, e.g. {target / 'me.json'}")
    if target.exists() and not is_ours(target):
        raise InputError(f"{option} {path}: the file exists and is not {what}; choose another name")


def _is_reaction_profile(target: Path) -> bool:
    try:
        read_profile(target)
    except InputError:
        return False
    return True


def parse_profile(text: str) -> tuple[float, float]:
    """:func:`simulator.engine.reaction.parse_profile`, or a profile file (:func:`read_profile`)."""
    from simulator.engine import reaction

    return read_profile(str(text).strip()) if looks_like_file(str(text)) else reaction.parse_profile(text)


def resolved(spec: Any) -> Any:
    """A ``--reaction`` value with a profile file in it (``FILE`` or ``SEAT=FILE``) written as
    ``MEDIAN,SIGMA`` (exactly: ``repr`` of the floats); any other value as it is."""
    if not isinstance(spec, str):
        return spec
    seat, eq, rest = spec.partition("=")
    target = rest if eq else spec
    if not looks_like_file(target):
        return spec
    median, sigma = read_profile(target.strip())
    return f"{seat}={median!r},{sigma!r}" if eq else f"{median!r},{sigma!r}"


def seat_profiles(specs: Sequence | None, n_seats: int) -> tuple[tuple[float, float], ...]:
    """:func:`simulator.engine.reaction.seat_profiles`, where a value may also be ``FILE`` (every
    seat) or ``SEAT=FILE`` (one seat), a profile written by ``kortsim play --save-reaction``."""
    from simulator.engine import reaction

    return reaction.seat_profiles([resolved(s) for s in specs or []], n_seats)


def read_profile(path: str | Path) -> tuple[float, float]:
    """``(median, sigma)`` from a profile file, checked as ``MEDIAN,SIGMA`` is.

    Raises
    ------
    InputError
        A missing or unreadable file, one that is not a profile, or values out of range.
    """
    from simulator.engine.reaction import parse_profile

    where = f"reaction profile file {str(path)!r}"
    data = read_json(Path(path), where)
    if not isinstance(data, dict) or data.get("kind") not in (KIND, PLAYER_KIND):
        raise InputError(f"{where}: not a reaction profile (written by kortsim play --save-reaction)")
    if data.get("kind") == PLAYER_KIND and "median_s" not in data:
        raise InputError(f"{where}: holds no reaction times (they are measured in the Gris games)")
    median, sigma = data.get("median_s"), data.get("sigma")
    if not all(isinstance(v, int | float) and not isinstance(v, bool) for v in (median, sigma)):
        raise InputError(f"{where}: median_s and sigma must be numbers")
    try:
        return parse_profile(f"{float(median)!r},{float(sigma)!r}")
    except InputError as exc:
        raise InputError(f"{where}: {exc}") from None
