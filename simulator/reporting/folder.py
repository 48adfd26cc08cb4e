"""A results folder on disk: the report's tables as Parquet (provenance in their metadata) and CSV,
``report.json``, ``report.md`` and ``report.html``; read back and re-rendered by ``kortsim report``."""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path

import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq

from simulator.engine.files import atomic_path, atomic_write
from simulator.errors import InputError
from simulator.reporting.page_model import Headline, Report, Section, _json_default
from simulator.reporting.rendering import render_html, render_markdown
from simulator.reporting.run_report import from_result


def _write_parquet(df: pd.DataFrame, path: Path, meta: Mapping[bytes, bytes]) -> None:
    table = pa.Table.from_pandas(_parquet_safe(df), preserve_index=False)
    table = table.replace_schema_metadata({**(table.schema.metadata or {}), **meta})
    with atomic_path(path) as tmp:
        pq.write_table(table, tmp)


def _parquet_safe(df: pd.DataFrame) -> pd.DataFrame:
    """Object columns holding mixed or nested values become JSON text."""
    out = df.copy()
    for c in out.columns:
        if out[c].dtype == object:
            vals = out[c].tolist()
            if not all(isinstance(v, str) or v is None for v in vals):
                out[c] = [v if isinstance(v, str) else json.dumps(v, default=_json_default) for v in vals]
    return out


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
    atomic_write(out / "report.json", json.dumps(doc, indent=2, ensure_ascii=False, default=_json_default))
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
        with atomic_path(p) as tmp:
            _parquet_safe(df).to_csv(tmp, index=False)
        paths.append(p)
    return paths


def render(report: Report, out_dir: str | Path) -> dict[str, Path]:
    """Write ``report.md`` and ``report.html`` (figures are referred to from ``figures/``) and
    the CSV files of the tables they link to."""
    out = Path(out_dir)
    write_csv(report, out)
    md = out / "report.md"
    atomic_write(md, render_markdown(report))
    page = out / "report.html"
    atomic_write(page, render_html(report))
    return {"md": md, "html": page}


def load(out_dir: str | Path) -> Report:
    """Read a results folder written by :func:`write`."""
    out = Path(out_dir)
    try:
        doc = json.loads((out / "report.json").read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise InputError(f"{out / 'report.json'} cannot be read as a report ({type(exc).__name__}): "
                         "write the folder again (kortsim experiment run, compare or sweep --out)") from None  # fmt: skip
    if not isinstance(doc, dict) or not isinstance(doc.get("title"), str):
        raise InputError(f"{out / 'report.json'} is not a kortsim report (no title); write the folder again")
    try:
        return _report_of(out, doc)
    except (TypeError, KeyError, ValueError, AttributeError) as exc:
        raise InputError(
            f"{out / 'report.json'} is not a kortsim report ({type(exc).__name__}: {exc})"
        ) from None


def _report_of(out: Path, doc: dict) -> Report:
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
        captions=dict(doc.get("captions", {})),
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
