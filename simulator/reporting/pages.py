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

This module gathers the report's names in one place; they live in
:mod:`~simulator.reporting.sentences` (numbers and differences in words),
:mod:`~simulator.reporting.page_model` (what a report says),
:mod:`~simulator.reporting.tables` (tables for people),
:mod:`~simulator.reporting.rendering` (``report.md`` and the Jinja2 ``report.html``),
:mod:`~simulator.reporting.folder` (a results folder written and read back) and
:mod:`~simulator.reporting.run_report` (the report of a plain run).
"""

from __future__ import annotations

from simulator.reporting.folder import (  # noqa: F401
    load,
    refresh,
    render,
    write,
    write_csv,
)
from simulator.reporting.page_model import (  # noqa: F401
    REPORT_VERSION,
    Headline,
    Report,
    Section,
)
from simulator.reporting.rendering import (  # noqa: F401
    CSS,
    render_html,
    render_markdown,
)
from simulator.reporting.run_report import (  # noqa: F401
    HISTOGRAM_AXES,
    UNITS,
    from_result,
    histogram_axes,
    histogram_figures,
)
from simulator.reporting.sentences import (  # noqa: F401
    ALPHA,
    amount,
    ci_text,
    covers_zero,
    detectable_effect,
    detectable_n,
    difference,
    estimate,
    is_significant,
    needed_text,
    num,
    p_text,
    partial_text,
    pct,
    quantities,
    rate_bound_text,
    round_up,
    span,
    value_text,
    variance_sentence,
    verdict,
    zero_width,
)
from simulator.reporting.tables import (  # noqa: F401
    FORMAT_KINDS,
    MAX_INLINE_ROWS,
    PREVIEW_ROWS,
    ZERO_WIDTH_MARK,
    ZERO_WIDTH_NOTE,
    display_table,
    has_zero_width,
    is_large,
    markdown_table,
    table_files,
)

__all__ = [
    "Headline",
    "Report",
    "Section",
    "amount",
    "ci_text",
    "detectable_effect",
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
