"""Reports: the answer in sentences made from computed numbers, tables and figures,
written as a self-contained ``report.html`` (images embedded as base64) and ``report.md``.

A results folder holds::

    summary.parquet          the main table; provenance and the report in its metadata
    tables/NAME.parquet      every table of the report (with the same provenance)
    figures/NAME.png, .svg   every figure
    report.json              the report's structure (title, sections, sentences)
    report.md, report.html

``kortsim report DIR`` (:func:`refresh`) rebuilds ``report.md`` and ``report.html`` from
the folder; a folder written by ``kortsim simulate --out`` (a bare ``summary.parquet``)
gets a report made from its figures and histograms.

Sentences never carry typed-in numbers: :func:`difference` and :func:`estimate` write
them from an estimate and its interval, and an interval that covers 0 is said as
"no difference detected at this size".
"""

from __future__ import annotations

import base64
import html
import json
import math
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq

from simulator.engine.stats import LEVEL
from simulator.errors import InputError
from simulator.reporting import formatting

REPORT_VERSION = 2

# --- numbers in words ------------------------------------------------------------


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
    """A p-value for a sentence, as the CLI's tables print it (:func:`simulator.reporting.formatting.p_value`):
    ``p = 0.21``, ``p = 0.0004``, ``p < 1e-16``; '' when there was no test."""
    if p is None or not math.isfinite(float(p)):
        return ""
    text = formatting.p_value(p)
    return f"p {text}" if text.startswith("<") else f"p = {text}"


def quantities(
    values: Sequence[float], lo: float, hi: float, *, scale: float = 1.0, sign: bool = False
) -> list[str]:
    """``values`` and the interval ``[lo, hi]`` (times ``scale``) with the digits the interval
    supports, as the CLI's tables print them (:func:`simulator.reporting.formatting.with_interval`)."""
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


def round_up(n: int) -> int:
    """``n`` rounded up to two significant figures (a size to say, not to compute with)."""
    if n < 100:
        return int(n)
    mag = 10 ** (len(str(int(n))) - 2)
    return int(math.ceil(n / mag) * mag)


def needed_text(
    diff: float, lo: float, hi: float, n: int | None, *, tests: int = 1, n_unit: str = "deals"
) -> str:
    """'about N deals would detect a difference this size (…; an estimate)', or ''."""
    if n is None:
        return ""
    need = detectable_n(diff, lo, hi, n, tests=tests)
    if need is None:
        return ""
    if need <= n:
        return (
            f"A true difference this size would usually show at about {num(round_up(need))} {n_unit} "
            f"(80% power, an estimate from the observed paired spread); this run's {num(int(n))} did not show it."
        )
    times = need / n
    return (
        f"To detect a difference this size, about {num(round_up(need))} {n_unit} would be needed "
        f"({num(times, 2)} times this run's {num(int(n))}; 80% power at the 5% level"
        + (f" over {tests} comparisons" if tests > 1 else "")
        + ", an estimate from the observed paired spread)."
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
        need = needed_text(diff, lo, hi, n, tests=tests, n_unit=n_unit)
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


# --- the report ----------------------------------------------------------------------


@dataclass
class Section:
    title: str
    text: list[str] = field(default_factory=list)
    tables: list[str] = field(default_factory=list)
    figures: list[str] = field(default_factory=list)


@dataclass
class Headline:
    """One question of a study and its answer in one plain line, numbers and interval included."""

    question: str
    answer: str


@dataclass
class Report:
    """What a report says; tables and figures are referred to by name.

    ``headlines`` open the report (one per question); ``answer`` holds the longer
    sentences behind them; ``partial`` (when set) says, at the very top, that the run
    did not finish and what it holds."""

    title: str
    question: str = ""
    answer: list[str] = field(default_factory=list)
    sections: list[Section] = field(default_factory=list)
    tables: dict[str, pd.DataFrame] = field(default_factory=dict)
    figures: dict[str, Path] = field(default_factory=dict)  # name -> PNG (an SVG lies beside it)
    provenance: dict[str, Any] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)
    headlines: list[Headline] = field(default_factory=list)
    partial: str = ""
    formats: dict[str, dict[str, Any]] = field(default_factory=dict)  # table -> column -> kind

    def to_json(self) -> dict[str, Any]:
        return {
            "report_version": REPORT_VERSION,
            "title": self.title,
            "question": self.question,
            "headlines": [asdict(h) for h in self.headlines],
            "partial": self.partial,
            "answer": self.answer,
            "sections": [asdict(s) for s in self.sections],
            "tables": list(self.tables),
            "figures": list(self.figures),
            "provenance": self.provenance,
            "notes": self.notes,
            "formats": self.formats,
        }


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


# --- tables for people -------------------------------------------------------------

MAX_INLINE_ROWS = 30  # a table longer than this is linked as CSV/Parquet, with its first rows shown
PREVIEW_ROWS = 8
ZERO_WIDTH_MARK = "†"
ZERO_WIDTH_NOTE = (
    "† an interval of zero width: the value was the same on every deal (for a rate: never or "
    "always seen; 0 of N deals has a 95% upper bound of about 3/N), not a measurement without error."
)


FORMAT_KINDS = ("rate", "mean", "diff", "diff_pp", "p", "factor", "count", "bool")


def _format_of(formats: Mapping[str, Any] | None, column: str) -> tuple[str | None, str | None]:
    """The kind and header declared for ``column`` (a kind, or ``{"kind": ..., "head": ...}``)."""
    spec = (formats or {}).get(column)
    if spec is None:
        return None, None
    if isinstance(spec, str):
        return spec, None
    return spec.get("kind"), spec.get("head")


def _with_interval(kind: str | None, v: Any, a: Any, b: Any) -> str:
    """A value and its interval as the CLI prints it: percentages for rates, signed
    differences (percentage points for rates), digits matched to the interval; ``n/a``
    for an interval that rests on fewer than 2 deals."""
    ci = [_num_or_none(a), _num_or_none(b)]
    v = _num_or_none(v)
    if v is None:
        return "–"
    if kind == "rate":
        return formatting.rate(v, ci)
    if kind == "diff":
        return formatting.diff(v, ci)
    if kind == "diff_pp":
        return formatting.diff(v, ci, percent=True)
    return formatting.with_interval(v, ci)


def _num_or_none(v: Any) -> float | None:
    return float(v) if _finite(v) and not isinstance(v, bool | np.bool_) else None


def display_table(
    df: pd.DataFrame, digits: int = 4, formats: Mapping[str, Any] | None = None
) -> pd.DataFrame:
    """Merge ``x``, ``x_lo``, ``x_hi`` into one ``x [95% CI]`` column and format the numbers
    with :mod:`simulator.reporting.formatting`, as the CLI's tables do.

    ``formats`` maps a column (for an interval: its value column ``x``) to its kind, one of
    :data:`FORMAT_KINDS` (``rate``: a percentage; ``diff``/``diff_pp``: a signed difference,
    in percentage points for ``diff_pp``; ``p``: a p-value; ``factor``: a ratio; ``count``),
    or to ``{"kind": ..., "head": ...}`` to name the column too.  Without a declared kind an
    interval gets the digits it supports and a column named ``p_*``/``*_p_holm``/``*_p_value``
    is a p-value.  A zero-width interval is marked with a dagger (see :data:`ZERO_WIDTH_NOTE`)."""
    cols = list(df.columns)
    out: dict[str, list[str]] = {}
    used: set[str] = set()
    for c in cols:
        if c in used:
            continue
        kind, head = _format_of(formats, c)
        lo, hi = f"{c}_lo", f"{c}_hi"
        if lo in df.columns and hi in df.columns:
            out[head or f"{c} [95% CI]"] = [
                _with_interval(kind, v, a, b) + (ZERO_WIDTH_MARK if _is_zero_width(a, b) else "")
                for v, a, b in zip(df[c], df[lo], df[hi])
            ]
            used |= {c, lo, hi}
        else:
            if kind is None and (c.startswith("p_") or c.endswith("_p_holm") or c.endswith("_p_value")):
                kind = "p"
            out[head or c] = [_cell(v, digits, kind=kind) for v in df[c]]
            used.add(c)
    return pd.DataFrame(out)


def _is_zero_width(a: Any, b: Any) -> bool:
    try:
        return zero_width(float(a), float(b))
    except (TypeError, ValueError):
        return False


def has_zero_width(df: pd.DataFrame) -> bool:
    d = display_table(df)
    return any(d[c].astype(str).str.endswith(ZERO_WIDTH_MARK).any() for c in d.columns if "[95% CI]" in c)


def _cell(v: Any, digits: int, p_value: bool = False, kind: str | None = None) -> str:
    """One cell without an interval: p-values, rates, ratios and counts as the CLI prints them,
    other numbers to ``digits`` significant digits."""
    if v is None or (isinstance(v, float) and math.isnan(v)):
        return "–"
    if isinstance(v, bool | np.bool_):
        return "yes" if v else "no"
    if p_value:
        kind = "p"
    if isinstance(v, int | np.integer) and kind in (None, "count"):
        return f"{int(v):,}"
    if isinstance(v, int | float | np.integer | np.floating):
        v = float(v)
        if kind == "p":
            return formatting.p_value(v)
        if kind == "rate":
            return formatting.rate(v)
        if kind in ("diff", "diff_pp"):
            return formatting.diff(v, percent=kind == "diff_pp")
        if kind == "factor":
            return formatting.factor(v)
        if kind == "count":
            return f"{v:,.0f}"
        return formatting.number(v, sig=digits)
    return str(v)


def markdown_table(df: pd.DataFrame, formats: Mapping[str, Any] | None = None) -> str:
    d = display_table(df, formats=formats)
    head = "| " + " | ".join(d.columns) + " |"
    rule = "|" + "|".join("---" for _ in d.columns) + "|"
    rows = [
        "| " + " | ".join(str(v).replace("|", "\\|") for v in row) + " |" for row in d.itertuples(index=False)
    ]
    return "\n".join([head, rule, *rows])


def is_large(df: pd.DataFrame) -> bool:
    """Too long to read inline: shown as a preview with the whole table linked."""
    return len(df) > MAX_INLINE_ROWS


def table_files(name: str) -> tuple[str, str]:
    """The CSV and Parquet files of table ``name``, relative to the report."""
    return f"tables/{name}.csv", f"tables/{name}.parquet"


def _table_note(name: str, df: pd.DataFrame) -> str:
    csv, parquet = table_files(name)
    if is_large(df):
        return f"The first {PREVIEW_ROWS} of {len(df):,} rows; the whole table: {csv} (CSV), {parquet} (Parquet)."
    return f"Also as {csv} (CSV) and {parquet} (Parquet)."


# --- rendering -----------------------------------------------------------------------

CSS = """
*{box-sizing:border-box}
html{-webkit-text-size-adjust:100%}
body{font-family:system-ui,-apple-system,Segoe UI,Roboto,sans-serif;max-width:980px;margin:2em auto;
padding:0 1em;color:#222;line-height:1.5;overflow-wrap:anywhere}
h1{font-size:1.6em;border-bottom:2px solid #0072B2;padding-bottom:.2em}
h2{font-size:1.25em;margin-top:1.8em;color:#0b3d62}
.question{font-style:italic;color:#444}
.partial{background:#fff3e0;border:2px solid #D55E00;padding:.6em 1em;margin:1em 0;font-weight:600}
.headlines{background:#eef6fb;border-left:4px solid #0072B2;padding:.4em 1em;margin:1em 0}
.headlines dt{font-weight:600;margin-top:.5em}.headlines dd{margin:0 0 .3em 0;font-size:1.05em}
.answer li{margin:.2em 0}
.table{max-width:100%;overflow-x:auto;margin:.8em 0}
table{border-collapse:collapse;font-size:.8em;font-variant-numeric:tabular-nums}
th,td{border:1px solid #ddd;padding:2px 6px;text-align:right;white-space:nowrap}
th{background:#f3f3f3;position:sticky;top:0}td:first-child,th:first-child{text-align:left}
tr:nth-child(even){background:#fafafa}
.tnote{font-size:.8em;color:#555;margin:.2em 0 1em}
figure{margin:1em 0;max-width:100%}figure img{max-width:100%;height:auto;display:block}
figcaption{font-size:.85em;color:#555}
img{max-width:100%;height:auto}
.prov{font-size:.8em;color:#555}
pre{background:#f6f6f6;padding:.6em;font-size:.8em;max-width:100%;overflow-x:auto;white-space:pre-wrap}
"""


def render_markdown(report: Report, figure_dir: str = "figures") -> str:
    lines = [f"# {report.title}", ""]
    if report.partial:
        lines += [f"> **{report.partial}**", ""]
    if report.headlines:
        for h in report.headlines:
            lines += [f"**{h.question}** {h.answer}", ""]
    if report.question and report.question not in {h.question for h in report.headlines}:
        lines += [f"*{report.question}*", ""]
    if report.answer:
        lines += ["## The answer in more detail", ""]
        lines += [f"- {s}" for s in report.answer]
        lines.append("")
    for sec in report.sections:
        lines += [f"## {sec.title}", ""]
        for t in sec.text:
            lines += [t, ""]
        for name in sec.figures:
            if name in report.figures:
                lines += [f"![{name}]({figure_dir}/{report.figures[name].name})", ""]
        for name in sec.tables:
            if name in report.tables:
                df = report.tables[name]
                shown = df.head(PREVIEW_ROWS) if is_large(df) else df
                csv, _ = table_files(name)
                lines += [
                    f"**{name}** ([CSV]({csv}))",
                    "",
                    markdown_table(shown, report.formats.get(name)),
                    "",
                ]
                lines += [_table_note(name, df), ""]
                if has_zero_width(shown):
                    lines += [ZERO_WIDTH_NOTE, ""]
    if report.notes:
        lines += ["## Notes", ""] + [f"- {n}" for n in report.notes] + [""]
    lines += [
        "## Provenance",
        "",
        "```json",
        json.dumps(report.provenance, indent=2, ensure_ascii=False, default=_json_default),
        "```",
        "",
    ]
    return "\n".join(lines)


def _img(path: Path) -> str:
    """A figure embedded in the page: its SVG when one lies beside the PNG (sharp at any size
    and a fraction of the PNG's bytes), else the PNG."""
    svg = path.with_suffix(".svg")
    if svg.is_file():
        kind, data = "svg+xml", base64.b64encode(svg.read_bytes()).decode()
    else:
        kind, data = "png", base64.b64encode(path.read_bytes()).decode()
    return f'<img alt="{html.escape(path.stem)}" src="data:image/{kind};base64,{data}">'


def render_html(report: Report) -> str:
    e = html.escape
    parts = [
        "<!doctype html><html lang='en'><head><meta charset='utf-8'>",
        "<meta name='viewport' content='width=device-width, initial-scale=1'>",
        f"<title>{e(report.title)}</title><style>{CSS}</style></head><body>",
        f"<h1>{e(report.title)}</h1>",
    ]
    if report.partial:
        parts.append(f"<p class='partial' id='partial'>{e(report.partial)}</p>")
    if report.headlines:
        parts.append("<dl class='headlines' id='headlines'>")
        parts += [f"<dt>{e(h.question)}</dt><dd>{e(h.answer)}</dd>" for h in report.headlines]
        parts.append("</dl>")
    if report.question and report.question not in {h.question for h in report.headlines}:
        parts.append(f"<p class='question'>{e(report.question)}</p>")
    if report.answer:
        parts.append("<div class='answer'><h2>The answer in more detail</h2><ul>")
        parts += [f"<li>{e(s)}</li>" for s in report.answer]
        parts.append("</ul></div>")
    for sec in report.sections:
        parts.append(f"<h2>{e(sec.title)}</h2>")
        parts += [f"<p>{e(t)}</p>" for t in sec.text]
        for name in sec.figures:
            if name in report.figures:
                parts.append(
                    f"<figure>{_img(report.figures[name])}<figcaption>{e(name)}</figcaption></figure>"
                )
        for name in sec.tables:
            if name in report.tables:
                df = report.tables[name]
                shown = df.head(PREVIEW_ROWS) if is_large(df) else df
                csv, parquet = table_files(name)
                parts.append(f"<p><b>{e(name)}</b></p><div class='table'>")
                parts.append(
                    display_table(shown, formats=report.formats.get(name)).to_html(
                        index=False, border=0, escape=True
                    )
                )
                parts.append("</div>")
                links = f"<a href='{e(csv)}'>{e(csv)}</a> (CSV), <a href='{e(parquet)}'>{e(parquet)}</a> (Parquet)"
                if is_large(df):
                    note = f"The first {PREVIEW_ROWS} of {len(df):,} rows; the whole table: {links}."
                else:
                    note = f"Also as {links}."
                if has_zero_width(shown):
                    note += f"<br>{e(ZERO_WIDTH_NOTE)}"
                parts.append(f"<p class='tnote'>{note}</p>")
    if report.notes:
        parts.append("<h2>Notes</h2><ul>" + "".join(f"<li>{e(n)}</li>" for n in report.notes) + "</ul>")
    prov = json.dumps(report.provenance, indent=2, ensure_ascii=False, default=_json_default)
    parts.append(f"<h2>Provenance</h2><pre class='prov'>{e(prov)}</pre></body></html>")
    return "\n".join(parts)


# --- writing and reading a results folder ------------------------------------------------


def _write_parquet(df: pd.DataFrame, path: Path, meta: Mapping[bytes, bytes]) -> None:
    table = pa.Table.from_pandas(_parquet_safe(df), preserve_index=False)
    table = table.replace_schema_metadata({**(table.schema.metadata or {}), **meta})
    pq.write_table(table, path)


def _parquet_safe(df: pd.DataFrame) -> pd.DataFrame:
    """Object columns holding mixed or nested values become JSON text."""
    out = df.copy()
    for c in out.columns:
        if out[c].dtype == object:
            vals = out[c].tolist()
            if not all(isinstance(v, str) or v is None for v in vals):
                out[c] = [v if isinstance(v, str) else json.dumps(v, default=_json_default) for v in vals]
    return out


def _json_default(v: Any) -> Any:
    if isinstance(v, np.integer):
        return int(v)
    if isinstance(v, np.floating):
        return float(v)
    if isinstance(v, np.bool_):
        return bool(v)
    if isinstance(v, np.ndarray):
        return v.tolist()
    if isinstance(v, Path):
        return str(v)
    raise TypeError(f"not JSON serialisable: {type(v).__name__}")


def write(report: Report, out_dir: str | Path, summary_table: str | None = None) -> dict[str, Path]:
    """Write the whole results folder; ``summary_table`` names the table that becomes
    ``summary.parquet`` (default: the first).  Returns the paths written."""
    out = Path(out_dir)
    (out / "tables").mkdir(parents=True, exist_ok=True)
    doc = report.to_json()
    meta = {
        b"kortsim.provenance": json.dumps(
            report.provenance, ensure_ascii=False, default=_json_default
        ).encode(),
        b"kortsim.report": json.dumps(doc, ensure_ascii=False, default=_json_default).encode(),
    }
    for name, df in report.tables.items():
        _write_parquet(df, out / "tables" / f"{name}.parquet", meta)
    main = summary_table or next(iter(report.tables), None)
    paths: dict[str, Path] = {}
    if main is not None:
        _write_parquet(report.tables[main], out / "summary.parquet", meta)
        paths["summary"] = out / "summary.parquet"
    (out / "report.json").write_text(json.dumps(doc, indent=2, ensure_ascii=False, default=_json_default))
    paths["json"] = out / "report.json"
    paths.update(render(report, out))
    return paths


def write_csv(report: Report, out_dir: str | Path) -> list[Path]:
    """Every table of the report as ``tables/NAME.csv`` beside it (what the report links to)."""
    folder = Path(out_dir) / "tables"
    folder.mkdir(parents=True, exist_ok=True)
    paths = []
    for name, df in report.tables.items():
        p = folder / f"{name}.csv"
        _parquet_safe(df).to_csv(p, index=False)
        paths.append(p)
    return paths


def render(report: Report, out_dir: str | Path) -> dict[str, Path]:
    """Write ``report.md`` and ``report.html`` (figures are referred to from ``figures/``) and
    the CSV files of the tables they link to."""
    out = Path(out_dir)
    write_csv(report, out)
    md = out / "report.md"
    md.write_text(render_markdown(report))
    page = out / "report.html"
    page.write_text(render_html(report))
    return {"md": md, "html": page}


def load(out_dir: str | Path) -> Report:
    """Read a results folder written by :func:`write`."""
    out = Path(out_dir)
    doc = json.loads((out / "report.json").read_text())
    tables = {}
    for name in doc.get("tables", []):
        p = out / "tables" / f"{name}.parquet"
        if p.is_file():
            tables[name] = pq.read_table(p).to_pandas()
    figures = {}
    for name in doc.get("figures", []):
        p = out / "figures" / f"{name}.png"
        if p.is_file():
            figures[name] = p
    return Report(
        title=doc["title"],
        question=doc.get("question", ""),
        answer=list(doc.get("answer", [])),
        sections=[Section(**s) for s in doc.get("sections", [])],
        tables=tables,
        figures=figures,
        provenance=doc.get("provenance", {}),
        notes=list(doc.get("notes", [])),
        headlines=[Headline(**h) for h in doc.get("headlines", [])],
        partial=doc.get("partial", ""),
        formats=dict(doc.get("formats", {})),
    )


def refresh(out_dir: str | Path) -> dict[str, Path]:
    """(Re)write ``report.html`` and ``report.md`` from a results folder."""
    out = Path(out_dir)
    if not out.is_dir():
        raise InputError(f"{str(out)!r} is not a folder")
    from simulator.running.checkpoint import verify_folder

    verify_folder(out)  # a run folder (simulate --out) must be as kortsim wrote it
    if (out / "report.json").is_file():
        return render(load(out), out)
    if (out / "experiment.json").is_file():  # an experiment stopped before its report was written
        try:
            state = json.loads((out / "experiment.json").read_text())
            name, size = state["settings"]["experiment"], state["settings"]["size"]
            done = len(state.get("steps", {}))
        except (OSError, ValueError, KeyError, TypeError):
            raise InputError(f"{str(out / 'experiment.json')!r} cannot be read") from None
        flag = "" if size == "full" else f" --{size}"
        raise InputError(
            f"{str(out)!r} holds an unfinished {name} run ({done} steps done, no report yet); finish it with "
            f"kortsim experiment run {name}{flag} --out {out} --resume"
        )
    if (out / "summary.parquet").is_file():
        from simulator.running.results import Result

        try:
            result = Result.read(out)
        except Exception:  # a parquet file that is not a kortsim summary
            raise InputError(f"{str(out / 'summary.parquet')!r} is not a kortsim summary") from None
        report = from_result(result, out)
        return render(report, out)
    raise InputError(f"{str(out)!r} holds no results (no report.json or summary.parquet)")


# --- a report for a plain run (kortsim simulate --out) ----------------------------------

# Histogram name prefix -> (x label, scale, title).
HISTOGRAM_AXES = {
    "score_half": ("points at the end of the round", 0.5, "Round scores"),
    "match_rounds": ("rounds in the match", 1.0, "Match length"),
    "match_deals": ("deals in the match", 1.0, "Match length"),
    "passes": ("passes in the round", 1.0, "Round length"),
    "letters": ("letters at the end of the match", 1.0, "Letters held"),
}


def histogram_axes(name: str) -> tuple[str, float, str]:
    for prefix, axes in HISTOGRAM_AXES.items():
        if name.startswith(prefix):
            return axes
    return (name, 1.0, name)


def histogram_figures(
    histograms: Mapping[str, np.ndarray], players: Sequence[str], out_dir: Path, stem: str = ""
) -> dict[str, Path]:
    """One figure per kind of histogram (the seats of one kind share a figure)."""
    from simulator.reporting import plots

    groups: dict[str, dict[str, np.ndarray]] = {}
    for name, h in histograms.items():
        base, _, seat = name.rpartition("_seat")
        if base and seat.isdigit():
            s = int(seat)
            who = players[s] if s < len(players) else ""
            groups.setdefault(base, {})[f"seat {s}" + (f" ({who})" if who else "")] = np.asarray(h)
        else:
            groups.setdefault(name, {})["all games"] = np.asarray(h)
    out = {}
    for base, series in groups.items():
        xlabel, scale, title = histogram_axes(base)
        fig = plots.histogram(series, xlabel=xlabel, title=f"{title}: distribution", scale=scale)
        name = f"{stem}{base}"
        out[name] = plots.save(fig, out_dir / "figures", name)["png"]
    return out


UNITS = {"mean_score": "points per round"}  # summary key -> unit of a figure that is not a rate


def _metric_words(key: str) -> tuple[str, bool]:
    """A summary key in words, and whether it is a rate (said in percent)."""
    rate = key.endswith("_rate")
    return key.replace("_", " "), rate


def from_result(result, out_dir: Path) -> Report:
    """A report for a folder written by ``kortsim simulate --out``: headline, seats, histograms."""
    s = result.summary
    players = [seat["player"] for seat in s["seats"]]
    unit = s["unit"] + ("es" if s["unit"] == "match" else "s")
    figures = histogram_figures(result.histograms, players, Path(out_dir))
    seats = result.seats
    top = result.table
    answer = []
    firsts = []
    for seat in s["seats"]:
        for key, v in seat.items():
            if f"{key}_ci" in seat and isinstance(v, int | float):
                lo, hi = seat[f"{key}_ci"]
                what, rate = _metric_words(key)
                fu = UNITS.get(key, "")
                answer.append(
                    estimate(
                        f"Seat {seat['seat']} ({seat['player']})",
                        what,
                        v,
                        lo,
                        hi,
                        unit=fu,
                        percent=rate,
                        n=s["n"],
                    )
                )
                f = pct if rate else num
                firsts.append(
                    (
                        what + (f", {fu}" if fu else ""),
                        f"seat {seat['seat']} ({seat['player']}) {f(v)} [{f(lo)}, {f(hi)}]",
                    )
                )
                break
    headlines = []
    if firsts:
        what = firsts[0][0]
        headlines.append(
            Headline(f"How did each seat do ({what}, 95% CI)?", "; ".join(text for _, text in firsts) + ".")
        )
    for key, v in s.items():
        if key.endswith("diff") and f"{key}_ci" in s:
            lo, hi = s[f"{key}_ci"]
            what = key.replace("_", " ").replace(" diff", "")
            fu = UNITS.get(key.removesuffix("_diff"), "")
            sentence = difference(
                "seat 0", "seat 1", v, lo, hi, what=what, unit=fu, lower_is_better=True, n=s["n"]
            )
            answer.append(sentence)
            word = {
                "better": "Seat 0 does better",
                "worse": "Seat 1 does better",
                "none": "No difference detected at this size",
            }[verdict(v, lo, hi, None, True)]
            headlines.append(
                Headline(
                    f"Do seat 0 and seat 1 differ in {what}?",
                    f"{word}: seat 0 minus seat 1 is {num(v)}{' ' + fu if fu else ''} ({ci_text(lo, hi)}; lower is better).",
                )
            )
    return Report(
        title=f"{s['game']}: {s['n']:,} {unit} of {', '.join(dict.fromkeys(players))}",
        answer=answer,
        sections=[
            Section("Per seat", tables=["seats"]),
            Section("Whole run", tables=["run"]),
            Section("Distributions", figures=list(figures)),
        ],
        tables={"seats": seats, "run": top},
        figures=figures,
        provenance=result.provenance,
        headlines=headlines,
        partial=partial_text({**result.provenance, "unit": s["unit"]}),
    )


__all__ = [
    "Headline",
    "Report",
    "Section",
    "amount",
    "ci_text",
    "detectable_n",
    "difference",
    "display_table",
    "estimate",
    "is_significant",
    "load",
    "num",
    "partial_text",
    "refresh",
    "render",
    "span",
    "value_text",
    "variance_sentence",
    "verdict",
    "write",
]
