"""Numbers for people: rates as percentages, digits matched to the interval, counts with
their totals, readable speeds and p-values.  Used by every table the CLI prints.

The digits follow the interval: the half-width is kept to one significant digit, or two
when it starts with 1, 2 or 3 (the usual rule for quoting uncertainties), and the value
and both bounds are given to the same decimal place::

    >>> rate(0.48, [0.4762, 0.4838])
    '48.0% [47.6, 48.4]'
    >>> mean(5.9151, [5.8967, 5.9334])
    '5.915 [5.897, 5.933]'
    >>> p_value(0.0)
    '< 1e-16'

The JSON output never passes through here: it keeps fractions at full precision.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from simulator.engine.fields import Field, games_word

NA = "n/a"
P_FLOOR = 1e-16  # below this a p-value says only "far smaller than anything that matters"
MAX_DECIMALS = 6


def _finite(x: Any) -> bool:
    try:
        return x is not None and math.isfinite(float(x))
    except (TypeError, ValueError):
        return False


def decimals_for(lo: Any, hi: Any) -> int | None:
    """Decimal places for a value with the interval ``[lo, hi]``; None if it has no width."""
    if not (_finite(lo) and _finite(hi)):
        return None
    half = (float(hi) - float(lo)) / 2
    if half <= 0:
        return None
    exponent = math.floor(math.log10(half))
    leading = half / 10**exponent
    sig = 2 if leading < 3.55 else 1
    return max(0, min(MAX_DECIMALS, sig - 1 - exponent))


def number(x: Any, decimals: int | None = None, *, sig: int = 4, sign: bool = False) -> str:
    """``x`` with ``decimals`` places (or ``sig`` significant digits), thousands separated."""
    if not _finite(x):
        return NA
    x = float(x)
    if decimals is None:
        if x == 0:
            decimals = 0
        else:
            decimals = max(0, min(MAX_DECIMALS, sig - 1 - math.floor(math.log10(abs(x)))))
        text = f"{x:,.{decimals}f}"
        if "." in text:
            text = text.rstrip("0").rstrip(".")
    else:
        text = f"{x:,.{decimals}f}"
    if text.lstrip("-").strip("0.,") == "":  # what rounds to 0 gets no sign ("-0.0" misleads)
        return text.lstrip("-")
    if sign and not text.startswith("-"):
        text = "+" + text
    return text


def with_interval(
    value: Any,
    ci: Sequence[Any] | None,
    *,
    scale: float = 1.0,
    sign: bool = False,
    decimals: int | None = None,
) -> str:
    """``value [lo, hi]`` with the digits of the interval (``scale`` 100 for percentages), or
    with ``decimals`` places (those of a column: :func:`column_decimals`)."""
    if ci is None or len(ci) != 2:
        return number(_scaled(value, scale), sign=sign)
    lo, hi = (_scaled(v, scale) for v in ci)
    v = _scaled(value, scale)
    d = decimals if decimals is not None else decimals_for(lo, hi)
    if d is None:
        d = _fallback_decimals(v)
    if not (_finite(lo) and _finite(hi)):
        return f"{number(v, d, sign=sign)} [{NA}]"
    return f"{number(v, d, sign=sign)} [{number(lo, d, sign=sign)}, {number(hi, d, sign=sign)}]"


def _scaled(v: Any, scale: float) -> float | None:
    return float(v) * scale if _finite(v) else None


def _fallback_decimals(v: float | None) -> int:
    """Digits for a value whose interval has no width: three significant digits."""
    if not _finite(v) or v == 0:
        return 1
    return max(0, min(MAX_DECIMALS, 2 - math.floor(math.log10(abs(float(v))))))


def rate(value: Any, ci: Sequence[Any] | None = None, *, decimals: int | None = None) -> str:
    """A share as a percentage: ``48.0% [47.6, 48.4]`` (``%`` once, after the value)."""
    if not _finite(value):
        return NA
    if ci is None:
        return f"{number(float(value) * 100, sig=3)}%"
    text = with_interval(value, ci, scale=100.0, decimals=decimals)
    head, _, rest = text.partition(" ")
    return f"{head}% {rest}"


def mean(value: Any, ci: Sequence[Any] | None = None, *, decimals: int | None = None) -> str:
    """A mean, with its interval if given: ``5.915 [5.897, 5.933]``."""
    if not _finite(value):
        return NA
    return with_interval(value, ci, decimals=decimals)


def column_decimals(cis: Sequence[Sequence[Any] | None], *, percent: bool = False) -> int | None:
    """The decimal places of a column of figures: the most any of its intervals asks for
    (:func:`decimals_for`), so that one column shows one number of digits and no figure
    loses a digit its interval supports (``21.67%`` beside ``20.17%``, not ``20.168%``
    beside ``21.67%``); None when no interval has a width."""
    k = 100.0 if percent else 1.0
    places = [
        decimals_for(_scaled(ci[0], k), _scaled(ci[1], k)) for ci in cis if ci is not None and len(ci) == 2
    ]
    known = [d for d in places if d is not None]
    return max(known) if known else None


def diff(value: Any, ci: Sequence[Any] | None = None, *, percent: bool = False) -> str:
    """A signed difference: ``-0.073 [-0.094, -0.051]``; ``percent``: in percentage points
    (``+0.74 pp [+0.09, +1.40]``)."""
    if not _finite(value):
        return NA
    text = with_interval(value, ci, scale=100.0 if percent else 1.0, sign=True)
    if percent:
        head, _, rest = text.partition(" ")
        return f"{head} pp {rest}".rstrip()
    return text


def p_value(p: Any) -> str:
    """Two significant digits; ``< 1e-16`` below what double precision can tell from 0."""
    if not _finite(p):
        return "-"
    p = float(p)
    if p < P_FLOOR:
        return f"< {P_FLOOR:.0e}"
    return f"{p:.2g}"


# Nouns whose plural is not the singular plus "s" (the words the tables count in).
_PLURALS = {"match": "matches", "pass": "passes", "pass step": "pass steps"}
_SINGULARS = {v: k for k, v in _PLURALS.items()}


def noun(n: Any, word: str) -> str:
    """``word`` in the number that agrees with ``n``: singular for 1, plural otherwise.

    ``word`` may be given in either number and may be several words (the last one is
    inflected): ``noun(1, "stalled rounds") == "stalled round"``,
    ``noun(2, "match") == "matches"``."""
    head, _, last = word.rpartition(" ")
    pre = f"{head} " if head else ""
    if last in _SINGULARS:
        singular, plural_form = _SINGULARS[last], last
    elif last in _PLURALS:
        singular, plural_form = last, _PLURALS[last]
    elif last.endswith("s") and not last.endswith("ss"):
        singular, plural_form = last[:-1], last
    else:
        singular, plural_form = last, f"{last}s"
    try:
        one = n is not None and float(n) == 1
    except (TypeError, ValueError):
        one = False
    return pre + (singular if one else plural_form)


def plural(n: Any, word: str) -> str:
    """``n`` with ``word`` in the agreeing number: ``1 round``, ``2,000 rounds``, ``0 matches``.

    ``word`` may be singular or plural (see :func:`noun`)."""
    shown = f"{n:,}" if isinstance(n, int) and not isinstance(n, bool) else number(n)
    return f"{shown} {noun(n, word)}"


def count(k: Any, total: Any = None, unit: str = "") -> str:
    """``1,357 of 100,000 rounds (1.36%)``, ``0 of 1 round (0%)``; without a total
    ``12 rounds``.  The unit agrees with the total (or with ``k`` when there is none)."""
    if k is None:
        return NA
    k = int(k)
    if total is None or not _finite(total) or int(total) <= 0:
        return f"{k:,} {noun(k, unit)}" if unit else f"{k:,}"
    total = int(total)
    u = f" {noun(total, unit)}" if unit else ""
    share = number(100 * k / total, sig=3)
    return f"{k:,} of {total:,}{u} ({share}%)"


def reaction(profile: Any) -> str:
    """A seat's reaction profile in words: ``0.80 s median, σ 0.35``.

    ``profile`` is the per-seat ``reaction`` of a summary (``{"median_s": 0.8, "sigma":
    0.35}``): reaction times are log-normal with that median and that standard deviation
    of their logarithm.  Anything else is shown as ``key=value`` pairs."""
    if isinstance(profile, dict) and set(profile) == {"median_s", "sigma"}:
        m, sd = profile["median_s"], profile["sigma"]
        if _finite(m) and _finite(sd):
            return f"{float(m):.2f} s median, σ {float(sd):.2f}"
    if isinstance(profile, dict):
        return ", ".join(f"{k}={v:g}" if isinstance(v, float) else f"{k}={v}" for k, v in profile.items())
    return str(profile)


def no_spread(ci: Sequence[Any] | None) -> bool:
    """True when ``ci`` is an interval of zero width (every game gave the same value)."""
    return (
        ci is not None and len(ci) == 2 and _finite(ci[0]) and _finite(ci[1]) and float(ci[0]) == float(ci[1])
    )


def same_every(unit: str) -> str:
    """The words a zero-width interval gets: ``the same in every match``."""
    return f"the same in every {unit}"


def seconds(s: Any) -> str:
    """``0.047 s``, ``12.3 s``, ``73 s``, ``4 min 05 s``."""
    if not _finite(s):
        return NA
    s = float(s)
    if s < 60:
        return f"{number(s, sig=2 if s < 1 else 3)} s"
    m, rest = divmod(int(round(s)), 60)
    return f"{m} min {rest:02d} s"


def speed(per_s: Any, unit: str = "round") -> str:
    """``99,422 rounds/s``."""
    if not _finite(per_s):
        return NA
    v = float(per_s)
    text = f"{v:,.0f}" if v >= 100 else number(v, sig=3)
    return f"{text} {games_word(unit)}/s"


def factor(x: Any) -> str:
    """A ratio to three significant digits, zeros kept: ``1.00x``, ``45.7x``, ``102x``."""
    if not _finite(x):
        return "-"
    x = float(x)
    d = 2 if x == 0 else max(0, min(MAX_DECIMALS, 2 - math.floor(math.log10(abs(x)))))
    return f"{x:,.{d}f}x"


def figure(
    f: Field | None,
    value: Any,
    ci: Sequence[Any] | None,
    unit: str,
    totals: dict,
    decimals: int | None = None,
) -> str:
    """One figure as its declaration says (a field nobody declared is shown plainly).

    A mean whose interval has zero width says so (``3.00 [3.00, 3.00] (the same in every
    match)``); a reaction profile (a dict) reads ``0.80 s median, σ 0.35``.
    ``totals`` maps field names (and ``"n"``) to numbers a count may be out of; ``decimals``
    gives a rate or a mean the places of its column (:func:`column_decimals`)."""
    if isinstance(value, dict):
        return reaction(value)
    if f is not None and f.kind == "mean" and _finite(value) and no_spread(ci):
        # An interval of zero width: every game gave this value (the rules fix it).
        return f"{mean(value, ci)} ({same_every(unit)})"
    if f is None:
        if isinstance(value, bool):
            return "yes" if value else "no"
        if isinstance(value, int):
            return f"{value:,}"
        if isinstance(value, float):
            return with_interval(value, ci)
        return str(value)
    if f.kind == "rate":
        return rate(value, ci, decimals=decimals)
    if f.kind == "diff":
        return diff(value, ci)
    if f.kind == "mean":
        return mean(value, ci, decimals=decimals)
    if f.kind == "count":
        total = totals.get(f.of) if f.of else None
        return count(value, total, f.unit_text(unit))
    if f.kind == "time":
        return seconds(value)
    if f.kind == "speed":
        return speed(value, unit)
    return (
        number(value) if isinstance(value, float) else f"{value:,}" if isinstance(value, int) else str(value)
    )


__all__ = [
    "column_decimals",
    "count",
    "decimals_for",
    "diff",
    "factor",
    "figure",
    "mean",
    "no_spread",
    "noun",
    "number",
    "p_value",
    "plural",
    "rate",
    "reaction",
    "same_every",
    "seconds",
    "speed",
    "with_interval",
]
