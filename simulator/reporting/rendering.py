"""A report as a page: ``report.md`` written line by line, ``report.html`` from the Jinja2
template in ``templates/`` (autoescaped; figures embedded, so the page stands alone)."""

from __future__ import annotations

import base64
import json
import re
from functools import cache
from importlib.resources import files
from pathlib import Path
from typing import TYPE_CHECKING, Any

from markupsafe import Markup, escape

from simulator.reporting.page_model import Report, _json_default

if TYPE_CHECKING:
    import jinja2

from simulator.reporting.tables import (
    PREVIEW_ROWS,
    ZERO_WIDTH_NOTE,
    _table_note,
    display_table,
    has_zero_width,
    is_large,
    markdown_table,
    table_files,
)

#: A table of more columns than this shows its rows as lists below 900 px (others below 640 px).
WIDE_COLUMNS = 8

#: A table of more columns than this never fits a page as columns: each row is shown as a card
#: of ``column: value`` pairs, at any width.
CARD_COLUMNS = 14


def _template_text(name: str) -> str:
    return files("simulator.reporting").joinpath("templates", name).read_text(encoding="utf-8")


# The page's style sheet (shipped as package data beside the page template).
CSS = "\n" + _template_text("report.css")


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
                caption = report.caption(name)
                lines += [f"![{caption}]({figure_dir}/{report.figures[name].name})", "", f"*{caption}*", ""]
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


@cache
def _page_template() -> jinja2.Template:
    """The page template, loaded once (Jinja2 is imported only when a page is written)."""
    import jinja2

    env = jinja2.Environment(
        loader=jinja2.PackageLoader("simulator.reporting", "templates"),
        autoescape=True,  # every report text is escaped; only the pandas tables are marked safe
        trim_blocks=True,
        lstrip_blocks=True,
        undefined=jinja2.StrictUndefined,
    )
    return env.get_template("report.html.j2")


def _figure(caption: str, path: Path) -> dict[str, str]:
    """A figure embedded in the page: its SVG when one lies beside the PNG (sharp at any size
    and a fraction of the PNG's bytes), else the PNG; ``caption`` (words, not the file's
    name) is both its caption and its text alternative."""
    svg = path.with_suffix(".svg")
    if svg.is_file():
        kind, data = "svg+xml", base64.b64encode(svg.read_bytes()).decode()
    else:
        kind, data = "png", base64.b64encode(path.read_bytes()).decode()
    return {"alt": caption, "kind": kind, "data": data, "caption": caption}


_BREAK_AFTER = re.compile(r"([_:/]|,(?=\D))")  # not in 2,000 or jack=0.5

_NUMBER_CELL = re.compile(r"^(?:[+\-−]?[\d.]|–$|-$|n/a$|< )")


def _breakable(text: str) -> Markup:
    """``text`` escaped, with a line-break opportunity after each ``_``, ``:``, ``/`` and a
    comma before a word (so ``letter_or_out`` or ``commit:after=0`` may wrap in a narrow
    column, never inside a word or a number)."""
    return Markup(_BREAK_AFTER.sub(r"\1<wbr>", str(escape(text))))


def _text_columns(d: Any) -> list[bool]:
    """Which columns hold words (set flush left) rather than numbers (flush right)."""
    return [not all(_NUMBER_CELL.match(str(v)) for v in d[c]) for c in d.columns]


def _table(report: Report, name: str) -> dict[str, Any]:
    """A table of the page: its first rows when it is long, formatted as the CLI prints them
    (the template writes it, escaped, each cell labelled with its column for narrow screens)."""
    df = report.tables[name]
    shown = df.head(PREVIEW_ROWS) if is_large(df) else df
    csv, parquet = table_files(name)
    d = display_table(shown, formats=report.formats.get(name))
    return {
        "name": name,
        "columns": [str(c) for c in d.columns],
        "heads": [_breakable(str(c)) for c in d.columns],
        "cells": [[_breakable(str(v)) for v in row] for row in d.itertuples(index=False)],
        "layout": "cards"
        if len(d.columns) > CARD_COLUMNS
        else "wide"
        if len(d.columns) > WIDE_COLUMNS
        else "",
        "text": _text_columns(d),
        "csv": csv,
        "parquet": parquet,
        "large": is_large(df),
        "preview": PREVIEW_ROWS,
        "rows": f"{len(df):,}",
        "zero_width": has_zero_width(shown),
    }


def render_html(report: Report) -> str:
    """The self-contained ``report.html`` page of ``report``."""
    sections = [
        {
            "title": sec.title,
            "text": sec.text,
            "figures": [
                _figure(report.caption(n), report.figures[n]) for n in sec.figures if n in report.figures
            ],
            "tables": [_table(report, n) for n in sec.tables if n in report.tables],
        }
        for sec in report.sections
    ]
    question = report.question if report.question not in {h.question for h in report.headlines} else ""
    return _page_template().render(
        title=report.title,
        css=CSS,
        partial=report.partial,
        headlines=report.headlines,
        question=question,
        answer=report.answer,
        sections=sections,
        notes=report.notes,
        zero_width_note=ZERO_WIDTH_NOTE,
        provenance=json.dumps(report.provenance, indent=2, ensure_ascii=False, default=_json_default),
    )
