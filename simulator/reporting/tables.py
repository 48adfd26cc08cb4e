"""Tables for people: interval columns merged into ``x [95% CI]`` and numbers formatted as the
CLI's tables print them; long tables shown as a preview with the whole table linked."""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

import numpy as np
import pandas as pd

from simulator.engine import formatting
from simulator.reporting.sentences import _finite, zero_width

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
    with :mod:`simulator.engine.formatting`, as the CLI's tables do.

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
