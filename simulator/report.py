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

from simulator.games.base import InputError

REPORT_VERSION = 1

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
    if p is None or not math.isfinite(p):
        return ""
    if p < 0.001:
        return "p < 0.001"
    return f"p = {p:.2g}" if p < 0.1 else f"p = {p:.2f}"


def covers_zero(lo: float, hi: float) -> bool:
    return bool(lo <= 0.0 <= hi)


def estimate(
    subject: str, what: str, value: float, lo: float, hi: float, *, unit: str = "", percent: bool = False
) -> str:
    """``subject``'s ``what`` is VALUE UNIT (95% CI LO to HI)."""
    f = pct if percent else num
    u = f" {unit}" if unit and not percent else ""
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
) -> str:
    """A paired difference ``a − b`` in words, honest about an interval that covers 0.

    ``percent``: the values are rates, said in percentage points."""
    k = 100.0 if percent else 1.0
    u = " percentage points" if percent else (f" {unit}" if unit else "")
    ci = f"95% CI {num(k * lo)} to {num(k * hi)}{u}"
    p = p_text(p_holm)
    p_part = f"; Holm-corrected {p}" if p else ""
    if covers_zero(lo, hi):
        return (
            f"No difference detected at this size between {a} and {b} in {what}: "
            f"{a} minus {b} is {num(k * diff)}{u} ({ci}{p_part}), an interval that covers 0."
        )
    higher = diff > 0
    better = higher != lower_is_better
    word = "higher" if higher else "lower"
    verdict = "better" if better else "worse"
    return (
        f"{a} has a {word} {what} than {b}, by {num(k * abs(diff))}{u} "
        f"({a} minus {b}: {ci}{p_part}), so {a} does {verdict}."
    )


def variance_sentence(reduction: float | None, what: str = "the difference") -> str:
    if reduction is None or not math.isfinite(reduction):
        return ""
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
class Report:
    """What a report says; tables and figures are referred to by name."""

    title: str
    question: str = ""
    answer: list[str] = field(default_factory=list)
    sections: list[Section] = field(default_factory=list)
    tables: dict[str, pd.DataFrame] = field(default_factory=dict)
    figures: dict[str, Path] = field(default_factory=dict)  # name -> PNG (an SVG lies beside it)
    provenance: dict[str, Any] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {
            "report_version": REPORT_VERSION,
            "title": self.title,
            "question": self.question,
            "answer": self.answer,
            "sections": [asdict(s) for s in self.sections],
            "tables": list(self.tables),
            "figures": list(self.figures),
            "provenance": self.provenance,
            "notes": self.notes,
        }


# --- tables for people -------------------------------------------------------------


def display_table(df: pd.DataFrame, digits: int = 4) -> pd.DataFrame:
    """Merge ``x``, ``x_lo``, ``x_hi`` into one ``x [95% CI]`` column and round the numbers."""
    cols = list(df.columns)
    out: dict[str, list[str]] = {}
    used: set[str] = set()
    for c in cols:
        if c in used:
            continue
        lo, hi = f"{c}_lo", f"{c}_hi"
        if lo in df.columns and hi in df.columns:
            out[f"{c} [95% CI]"] = [
                f"{_cell(v, digits)} [{_cell(a, digits)}, {_cell(b, digits)}]"
                for v, a, b in zip(df[c], df[lo], df[hi])
            ]
            used |= {c, lo, hi}
        else:
            out[c] = [_cell(v, digits, p_value=c.startswith("p_") or c.endswith("_p_holm")) for v in df[c]]
            used.add(c)
    return pd.DataFrame(out)


def _cell(v: Any, digits: int, p_value: bool = False) -> str:
    if v is None or (isinstance(v, float) and math.isnan(v)):
        return "–"
    if isinstance(v, bool | np.bool_):
        return "yes" if v else "no"
    if isinstance(v, int | np.integer):
        return str(int(v))
    if isinstance(v, float | np.floating):
        v = float(v)
        if p_value:
            return "<1e-15" if v < 1e-15 else f"{v:.2g}"
        if v == 0:
            return "0"
        if abs(v) >= 1e5 or abs(v) < 1e-3:
            return f"{v:.{digits - 1}e}"
        return f"{v:.{digits}g}" if abs(v) >= 1 else f"{v:.{digits - 1}f}".rstrip("0").rstrip(".")
    return str(v)


def markdown_table(df: pd.DataFrame) -> str:
    d = display_table(df)
    head = "| " + " | ".join(d.columns) + " |"
    rule = "|" + "|".join("---" for _ in d.columns) + "|"
    rows = [
        "| " + " | ".join(str(v).replace("|", "\\|") for v in row) + " |" for row in d.itertuples(index=False)
    ]
    return "\n".join([head, rule, *rows])


# --- rendering -----------------------------------------------------------------------

CSS = """
body{font-family:system-ui,-apple-system,Segoe UI,Roboto,sans-serif;max-width:980px;margin:2em auto;
padding:0 1em;color:#222;line-height:1.5}
h1{font-size:1.6em;border-bottom:2px solid #0072B2;padding-bottom:.2em}
h2{font-size:1.25em;margin-top:1.8em;color:#0b3d62}
.question{font-style:italic;color:#444}
.answer{background:#eef6fb;border-left:4px solid #0072B2;padding:.6em 1em;margin:1em 0}
table{border-collapse:collapse;font-size:.85em;margin:.8em 0;display:block;overflow-x:auto}
th,td{border:1px solid #ddd;padding:3px 8px;text-align:right;white-space:nowrap}
th{background:#f3f3f3}td:first-child,th:first-child{text-align:left}
tr:nth-child(even){background:#fafafa}
figure{margin:1em 0}figure img{max-width:100%;height:auto}
figcaption{font-size:.85em;color:#555}
.prov{font-size:.8em;color:#555}pre{background:#f6f6f6;padding:.6em;overflow-x:auto;font-size:.8em}
"""


def render_markdown(report: Report, figure_dir: str = "figures") -> str:
    lines = [f"# {report.title}", ""]
    if report.question:
        lines += [f"*{report.question}*", ""]
    if report.answer:
        lines += ["## Answer", ""]
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
                lines += [f"**{name}**", "", markdown_table(report.tables[name]), ""]
    if report.notes:
        lines += ["## Notes", ""] + [f"- {n}" for n in report.notes] + [""]
    lines += [
        "## Provenance",
        "",
        "```json",
        json.dumps(report.provenance, indent=2, ensure_ascii=False),
        "```",
        "",
    ]
    return "\n".join(lines)


def _img(path: Path) -> str:
    data = base64.b64encode(path.read_bytes()).decode()
    return f'<img alt="{html.escape(path.stem)}" src="data:image/png;base64,{data}">'


def render_html(report: Report) -> str:
    e = html.escape
    parts = [
        "<!doctype html><html lang='en'><head><meta charset='utf-8'>",
        f"<title>{e(report.title)}</title><style>{CSS}</style></head><body>",
        f"<h1>{e(report.title)}</h1>",
    ]
    if report.question:
        parts.append(f"<p class='question'>{e(report.question)}</p>")
    if report.answer:
        parts.append("<div class='answer'><h2>Answer</h2><ul>")
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
                parts.append(f"<p><b>{e(name)}</b></p>")
                parts.append(display_table(report.tables[name]).to_html(index=False, border=0, escape=True))
    if report.notes:
        parts.append("<h2>Notes</h2><ul>" + "".join(f"<li>{e(n)}</li>" for n in report.notes) + "</ul>")
    prov = json.dumps(report.provenance, indent=2, ensure_ascii=False)
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


def render(report: Report, out_dir: str | Path) -> dict[str, Path]:
    """Write ``report.md`` and ``report.html`` (figures are referred to from ``figures/``)."""
    out = Path(out_dir)
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
    )


def refresh(out_dir: str | Path) -> dict[str, Path]:
    """(Re)write ``report.html`` and ``report.md`` from a results folder."""
    out = Path(out_dir)
    if not out.is_dir():
        raise InputError(f"{str(out)!r} is not a folder")
    if (out / "report.json").is_file():
        return render(load(out), out)
    if (out / "summary.parquet").is_file():
        from simulator.results import Result

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
    from simulator import plots

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


def from_result(result, out_dir: Path) -> Report:
    s = result.summary
    players = [seat["player"] for seat in s["seats"]]
    unit = s["unit"] + ("es" if s["unit"] == "match" else "s")
    figures = histogram_figures(result.histograms, players, Path(out_dir))
    seats = result.seats
    top = result.table
    answer = []
    for seat in s["seats"]:
        for key, v in seat.items():
            if f"{key}_ci" in seat and isinstance(v, int | float):
                lo, hi = seat[f"{key}_ci"]
                answer.append(
                    estimate(f"Seat {seat['seat']} ({seat['player']})", key.replace("_", " "), v, lo, hi)
                )
                break
    for key, v in s.items():
        if key.endswith("diff") and f"{key}_ci" in s:
            lo, hi = s[f"{key}_ci"]
            answer.append(
                difference(
                    "seat 0",
                    "seat 1",
                    v,
                    lo,
                    hi,
                    what=key.replace("_", " ").replace(" diff", ""),
                    lower_is_better=True,
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
    )


__all__ = [
    "Report",
    "Section",
    "ci_text",
    "difference",
    "display_table",
    "estimate",
    "load",
    "num",
    "refresh",
    "render",
    "variance_sentence",
    "write",
]
