"""Sentences made from computed numbers: a number, a rate, an interval, an estimate or a paired
difference in words, calling one side better only when the (corrected) test says so."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from simulator.engine import formatting
from simulator.engine.stats import LEVEL


def num(x: Any, digits: int = 3) -> str:
    """A number for a sentence: ``digits`` significant figures, no exponent for everyday sizes."""
    if x is None:
        return "n/a"
    if isinstance(x, bool | np.bool_):
        return "yes" if x else "no"
    if isinstance(x, int | np.integer):
        return f"{int(x):,}"
    x = float(x)
    if not math.isfinite(x):
        return "n/a"
    if x == 0:
        return "0"
    mag = math.floor(math.log10(abs(x)))
    if mag < -5 or mag >= 7:
        text = f"{x:.{digits - 1}e}"
    else:
        text = f"{x:,.{max(digits - 1 - mag, 0)}f}"
    return text.replace("-", "−")


def pct(x: float, digits: int = 3) -> str:
    return f"{num(100 * x, digits)}%"


def ci_text(lo: float, hi: float, digits: int = 3, percent: bool = False) -> str:
    f = pct if percent else num
    return f"95% CI {f(lo, digits)} to {f(hi, digits)}"


def p_text(p: float | None) -> str:
    """A p-value for a sentence, as the CLI's tables print it (:func:`simulator.engine.formatting.p_value`):
    ``p = 0.21``, ``p = 0.0004``, ``p < 1e-16``; '' when there was no test."""
    if p is None or not math.isfinite(float(p)):
        return ""
    text = formatting.p_value(p)
    return f"p {text}" if text.startswith("<") else f"p = {text}"


def quantities(
    values: Sequence[float], lo: float, hi: float, *, scale: float = 1.0, sign: bool = False
) -> list[str]:
    """``values`` and the interval ``[lo, hi]`` (times ``scale``) with the digits the interval
    supports, as the CLI's tables print them (:func:`simulator.engine.formatting.with_interval`)."""
    d = formatting.decimals_for(scale * lo, scale * hi) if _finite(lo) and _finite(hi) else None
    if d is None:
        d = formatting._fallback_decimals(scale * values[0] if _finite(values[0]) else None)
    return [formatting.number(scale * v if _finite(v) else None, d, sign=sign) for v in values]


def _finite(x: Any) -> bool:
    try:
        return x is not None and math.isfinite(float(x))
    except (TypeError, ValueError):
        return False


def covers_zero(lo: float, hi: float) -> bool:
    return bool(lo <= 0.0 <= hi)


ALPHA = 1 - LEVEL  # the significance level of every test said in words


def is_significant(lo: float, hi: float, p_holm: float | None = None, alpha: float = ALPHA) -> bool:
    """A difference is called real only when its interval excludes 0 *and*, where several
    comparisons were made, the Holm-corrected p-value is below ``alpha``.

    The interval is the plain (uncorrected) 95% one; with many comparisons it can exclude 0
    while the corrected test does not reject, and then no winner is named."""
    if not (math.isfinite(lo) and math.isfinite(hi)) or covers_zero(lo, hi):
        return False
    if p_holm is None or not math.isfinite(float(p_holm)):
        return True
    return bool(float(p_holm) < alpha)


def detectable_n(
    diff: float,
    lo: float,
    hi: float,
    n: int,
    *,
    tests: int = 1,
    power: float = 0.8,
    level: float = LEVEL,
) -> int | None:
    """About how many deals would detect a true difference of ``diff``: a normal power
    calculation from the observed paired spread.

    The paired standard deviation per deal is read back from the interval
    (``sd = (hi − lo) / (2 z) · √n``); then ``n ≈ ((z_{α/2m} + z_power) · sd / |diff|)²``,
    where ``m = tests`` makes it a Bonferroni bound (a little conservative for Holm).  With
    one test at 5% and 80% power the factor is the familiar 2.8.  It is an estimate: the
    observed difference and spread are themselves uncertain."""
    if n <= 1 or not all(math.isfinite(v) for v in (diff, lo, hi)) or diff == 0 or hi <= lo:
        return None
    from scipy import stats as sps

    z = sps.norm.ppf(0.5 + level / 2)
    sd = (hi - lo) / (2 * z) * math.sqrt(n)
    alpha = (1 - level) / max(int(tests), 1)
    factor = sps.norm.ppf(1 - alpha / 2) + sps.norm.ppf(power)
    return int(math.ceil((factor * sd / abs(diff)) ** 2))


def detectable_effect(
    lo: float, hi: float, n: int, *, tests: int = 1, power: float = 0.8, level: float = LEVEL
) -> float | None:
    """The smallest true difference this size would usually detect (``power``), from the
    observed paired spread alone: ``(z_{α/2m} + z_power) · sd / √n`` with ``sd`` read back
    from the interval as in :func:`detectable_n`.  It does not rest on the observed
    difference, so it may be said when that difference's interval covers 0."""
    if n <= 1 or not all(math.isfinite(v) for v in (lo, hi)) or hi <= lo:
        return None
    from scipy import stats as sps

    z = sps.norm.ppf(0.5 + level / 2)
    se = (hi - lo) / (2 * z)
    alpha = (1 - level) / max(int(tests), 1)
    return float((sps.norm.ppf(1 - alpha / 2) + sps.norm.ppf(power)) * se)


def round_up(n: int) -> int:
    """``n`` rounded up to two significant figures (a size to say, not to compute with)."""
    if n < 100:
        return int(n)
    mag = 10 ** (len(str(int(n))) - 2)
    return int(math.ceil(n / mag) * mag)


def needed_text(
    diff: float,
    lo: float,
    hi: float,
    n: int | None,
    *,
    tests: int = 1,
    n_unit: str = "deals",
    unit: str = "",
    scale: float = 1.0,
) -> str:
    """What this size can detect, as a sentence (an estimate), or ''.

    When the interval covers 0 the observed difference is no size to plan on: the sentence
    gives the smallest difference this size would usually detect (:func:`detectable_effect`).
    Otherwise it says how many deals would detect a difference of the observed size, and
    names that size (:func:`detectable_n`).  ``unit`` and ``scale`` say the difference as the
    caller does (``" percentage points"``, 100)."""
    if n is None:
        return ""
    over = f" over {tests} comparisons" if tests > 1 else ""
    if not (lo > 0 or hi < 0):
        mde = detectable_effect(lo, hi, n, tests=tests)
        if mde is None:
            return ""
        (m,) = quantities([mde], lo, hi, scale=scale)[:1]
        return (
            f"At this size a true difference of {m}{unit} or more would usually show (80% power at the 5% "
            f"level{over}, an estimate from the observed paired spread); the observed difference, whose "
            "interval covers 0, is no size to plan on."
        )
    need = detectable_n(diff, lo, hi, n, tests=tests)
    if need is None:
        return ""
    (size,) = quantities([abs(diff)], lo, hi, scale=scale)[:1]
    if need <= n:
        return (
            f"A true difference of {size}{unit} (the observed one) would usually show at about "
            f"{num(round_up(need))} {n_unit} (80% power, an estimate from the observed paired spread); "
            f"this run's {num(int(n))} did not show it."
        )
    times = need / n
    return (
        f"To detect a difference of {size}{unit} (the observed one), about {num(round_up(need))} {n_unit} "
        f"would be needed ({num(times, 2)} times this run's {num(int(n))}; 80% power at the 5% level{over}, "
        "an estimate from the observed paired spread)."
    )


def zero_width(lo: float, hi: float) -> bool:
    return bool(math.isfinite(lo) and math.isfinite(hi) and lo == hi)


def rate_bound_text(k: int, n: int) -> str:
    """``k`` of ``n`` with its Wilson 95% interval, for a rate whose normal interval has no width
    (never or always seen)."""
    from simulator.engine.stats import rate_ci

    _, (lo, hi) = rate_ci(k, n)
    if k == 0:
        return f"0 of {num(int(n))}; 95% upper bound {pct(hi, 2)}"
    if k == n:
        return f"{num(int(n))} of {num(int(n))}; 95% lower bound {pct(lo, 3)}"
    return f"{num(int(k))} of {num(int(n))} (95% CI {pct(lo)} to {pct(hi)})"


def estimate(
    subject: str,
    what: str,
    value: float,
    lo: float,
    hi: float,
    *,
    unit: str = "",
    percent: bool = False,
    n: int | None = None,
) -> str:
    """``subject``'s ``what`` is VALUE UNIT (95% CI LO to HI).

    An interval of zero width is said for what it is: a rate never (or always) seen in
    ``n`` deals gets its count and a one-sided bound; any other value is said to be the
    same on every deal."""
    f = pct if percent else num
    u = f" {unit}" if unit and not percent else ""
    if not (_finite(lo) and _finite(hi)):
        return f"{subject}: {what} {f(value)}{u} (no interval: it rests on fewer than 2 deals)."
    if zero_width(lo, hi):
        if percent and n and value in (0.0, 1.0):
            return f"{subject}: {what} {f(value)} ({rate_bound_text(round(value * n), n)})."
        return f"{subject}: {what} {f(value)}{u}, the same on every deal (an interval of zero width)."
    return f"{subject}: {what} {f(value)}{u} ({ci_text(lo, hi, percent=percent)})."


def difference(
    a: str,
    b: str,
    diff: float,
    lo: float,
    hi: float,
    *,
    what: str,
    unit: str = "",
    lower_is_better: bool = True,
    p_holm: float | None = None,
    percent: bool = False,
    n: int | None = None,
    tests: int = 1,
    n_unit: str = "deals",
) -> str:
    """A paired difference ``a − b`` in words, calling one side better only when the test says so.

    ``percent``: the values are rates, said in percentage points.  ``p_holm``: the
    Holm-corrected p-value when ``a`` is one of several comparisons; a difference whose
    interval excludes 0 but whose corrected p-value is not below 5% is "no difference
    detected".  ``n`` (deals played) and ``tests`` (comparisons corrected for) add the size
    that would detect a difference of the observed size (:func:`detectable_n`).  Numbers
    have the digits their interval supports, as in the CLI's tables; an interval resting on
    fewer than 2 deals (NaN) is said to be untested."""
    k = 100.0 if percent else 1.0
    u = " percentage points" if percent else (f" {unit}" if unit else "")
    direction = "lower is better" if lower_is_better else "higher is better"
    x_s, lo_s, hi_s, abs_s = quantities([diff, lo, hi, abs(diff)], lo, hi, scale=k, sign=True)
    abs_s = abs_s.lstrip("+")
    ci = f"95% CI {lo_s} to {hi_s}{u}"
    p = p_text(p_holm)
    p_part = f"; Holm-corrected {p}" if p else ""
    if not (_finite(lo) and _finite(hi)):
        return (
            f"{a} minus {b} is {x_s}{u} in {what}, from fewer than 2 deals: no interval and no test, "
            "so no difference is claimed."
        )
    if zero_width(lo, hi):
        if diff == 0:
            return (
                f"{a} and {b} played alike on every deal in {what}: a difference of exactly 0 "
                "(an interval of zero width, not a measurement error)."
            )
        verdict_text = ""
        if is_significant(lo, hi, p_holm):
            verdict_text = f", so {a} does {'better' if (diff < 0) == lower_is_better else 'worse'}"
        return (
            f"{a} minus {b} is {x_s}{u} in {what} on every deal alike (an interval of zero width: "
            f"the difference does not vary from deal to deal; exact sign-flip test{p_part}; {direction})"
            f"{verdict_text}."
        )
    if not is_significant(lo, hi, p_holm):
        why = (
            "an interval that covers 0"
            if covers_zero(lo, hi)
            else "its interval excludes 0 but the corrected test does not reject at 5%"
        )
        need = needed_text(diff, lo, hi, n, tests=tests, n_unit=n_unit, unit=u, scale=k)
        return (
            f"No difference detected at this size between {a} and {b} in {what}: "
            f"{a} minus {b} is {x_s}{u} ({ci}{p_part}), {why}." + (f" {need}" if need else "")
        )
    better = (diff < 0) == lower_is_better
    verdict_word = "better" if better else "worse"
    more = "more" if diff > 0 else "less"
    return (
        f"{a} minus {b} is {x_s}{u} in {what} ({ci}{p_part}; {direction}): "
        f"{abs_s}{u} {more}, so {a} does {verdict_word}."
    )


def verdict(diff: float, lo: float, hi: float, p_holm: float | None, lower_is_better: bool) -> str:
    """``"better"``, ``"worse"`` or ``"none"`` (no difference detected) for ``a − b``."""
    if not is_significant(lo, hi, p_holm):
        return "none"
    return "better" if (diff < 0) == lower_is_better else "worse"


def span(values: Sequence[float], *, percent: bool = False, digits: int = 2) -> str:
    """The range of ``values`` as 'LO–HI' (one number when they agree)."""
    k = 100.0 if percent else 1.0
    vals = [k * float(v) for v in values if v is not None and math.isfinite(float(v))]
    if not vals:
        return "n/a"
    a, b = min(vals), max(vals)
    if num(a, digits) == num(b, digits):
        return num(a, digits)
    if a < 0:  # "−1.1–0.67" would read as a subtraction
        return f"{num(a, digits)} to {num(b, digits)}"
    return f"{num(a, digits)}–{num(b, digits)}"


def amount(diff: float, lo: float, hi: float, *, unit: str = "", percent: bool = False) -> str:
    """The size of a difference with its interval, for a headline: '0.12 points per round
    (95% CI 0.08–0.16)'; a negative difference is said by its magnitude (interval flipped)."""
    k = 100.0 if percent else 1.0
    if diff < 0:
        diff, lo, hi = -diff, -hi, -lo
    u = " percentage points" if percent else (f" {unit}" if unit else "")
    return f"{num(k * diff)}{u} (95% CI {num(k * lo)} to {num(k * hi)})"


def value_text(value: float, lo: float, hi: float, *, unit: str = "", percent: bool = False) -> str:
    """'6.76 points per round (95% CI 6.61 to 6.90)' or '47.3% (95% CI 45.1% to 49.6%)'."""
    f = pct if percent else num
    u = f" {unit}" if unit and not percent else ""
    if zero_width(lo, hi):
        return f"{f(value)}{u} (the same on every deal)"
    return f"{f(value)}{u} ({ci_text(lo, hi, percent=percent)})"


def variance_sentence(reduction: float | None, what: str = "the difference") -> str:
    if reduction is None or not math.isfinite(reduction):
        return ""
    if reduction < 1.1:
        return (
            f"Playing both on the same deals hardly changed the variance of {what} "
            f"({num(reduction, 2)} times that of independent deals)."
        )
    return (
        f"Playing both on the same deals made the variance of {what} {num(reduction, 2)} times smaller "
        f"than on independent deals (an interval {num(math.sqrt(reduction), 2)} times narrower)."
    )


def partial_text(provenance: Mapping[str, Any]) -> str:
    """The warning for a run that did not finish (``provenance['run']['complete']`` false), or ''."""
    run = provenance.get("run") if isinstance(provenance, Mapping) else None
    if not isinstance(run, Mapping) or run.get("complete", True):
        return ""
    games, planned = run.get("games"), run.get("planned")
    unit = provenance.get("unit", "")
    units = "matches" if unit == "match" else "rounds" if unit == "round" else "games"
    held = f"{num(int(games))} of {num(int(planned))} {units}" if games is not None and planned else "part"
    return (
        f"Partial run: only {held} finished, so every figure here is from those alone. "
        "Resume it (kortsim simulate ... --out DIR --resume) for the full result."
    )
