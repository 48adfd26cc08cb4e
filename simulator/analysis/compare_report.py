"""A comparison's results folder: ``kortsim compare --out DIR`` and ``--plot FILE``.

The folder has the shape of every results folder (:mod:`simulator.reporting.pages`)::

    summary.parquet          one row per candidate: every metric with its interval, the
                             paired difference to the baseline, Holm p-value, variance
                             reduction; provenance and the JSON summary in its metadata
    summary.json             the JSON summary (what ``kortsim compare --json`` prints)
    tables/compare.parquet   the same table (and tables/ranking.parquet with a ranking)
    figures/compare.png      the paired differences (and .svg)
    report.json, report.md, report.html

so ``kortsim report DIR`` rebuilds the report from it.  Units, directions and words come
from the game's declared fields (:mod:`simulator.engine.fields`).
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import pandas as pd
import pyarrow.parquet as pq

from simulator.analysis.compare import CompareResult
from simulator.analysis.compare_seatings import unnumbered
from simulator.analysis.verdicts import paragraphs, verdicts
from simulator.engine import fields
from simulator.engine.fields import Field, games_word
from simulator.engine.files import atomic_path, atomic_write
from simulator.games import fields_for
from strategies.registry import Player, parse_spec


def metric_field(game: str, unit: str, name: str, block: dict[str, Any]) -> Field:
    """A compared metric's declared field, or one built from the metric itself."""
    return fields.metric_field(fields_for(game, unit), name, block)


def compare_table(summary: dict[str, Any]) -> pd.DataFrame:
    """One row per candidate, for every metric ``m``: ``m``, ``m_lo``, ``m_hi``, ``m_diff``
    (minus the baseline), ``m_diff_lo``, ``m_diff_hi``, ``m_p_holm``, ``m_significant`` and
    ``m_variance_reduction`` (missing on the baseline's own row)."""
    players = list(summary["strategies"])
    rows: dict[str, dict[str, Any]] = {
        p: {"player": p, "baseline": p == summary["baseline"]} for p in players
    }
    for name, block in summary["metrics"].items():
        for r in block["strategies"]:
            row = rows[r["player"]]
            row[name] = r[name]
            row[f"{name}_lo"], row[f"{name}_hi"] = r[f"{name}_ci"]
            base = "diff" not in r
            row[f"{name}_diff"] = math.nan if base else r["diff"]
            row[f"{name}_diff_lo"], row[f"{name}_diff_hi"] = [math.nan, math.nan] if base else r["diff_ci"]
            row[f"{name}_p_holm"] = math.nan if base else r.get("p_holm", math.nan)
            row[f"{name}_significant"] = False if base else bool(r.get("significant", False))
            vr = None if base else r.get("variance_reduction")
            row[f"{name}_variance_reduction"] = math.nan if vr is None else vr
    return pd.DataFrame([rows[p] for p in players])


def ranking_table(summary: dict[str, Any]) -> pd.DataFrame | None:
    """The Bradley–Terry ranking with its interval as ``strength_lo``/``strength_hi``."""
    if not summary.get("ranking"):
        return None
    rows = []
    for r in summary["ranking"]:
        lo, hi = r["strength_ci"]
        rows.append(
            {
                "rank": r["rank"],
                "player": r["player"],
                "strength": r["strength"],
                "strength_lo": lo,
                "strength_hi": hi,
            }
        )
    return pd.DataFrame(rows)


def compare_figure(result: CompareResult, title: str | None = None):
    """The paired differences to the baseline, one panel per metric, each in its own unit
    and marked with which way is better (a forest plot, :func:`simulator.reporting.plots.diff_bars`)."""
    from simulator.reporting import pages as report
    from simulator.reporting import plots

    s = result.summary
    unit = s["unit"]
    labels, diff, lo, hi, sig, groups = [], [], [], [], [], []
    xlabel, lower, percent = {}, {}, {}
    for name, block in s["metrics"].items():
        f = metric_field(s["game"], unit, name, block)
        rate = f.kind == "rate"
        key = f"{name}: {block['doc']}"
        xlabel[key] = f"minus {s['baseline']}" + ("" if rate else f" ({f.unit_text(unit)})")
        lower[key] = bool(block["lower_is_better"])
        percent[key] = rate
        for r in block["strategies"]:
            if "diff" not in r:
                continue
            labels.append(r["player"])
            diff.append(r["diff"])
            lo.append(r["diff_ci"][0])
            hi.append(r["diff_ci"][1])
            sig.append(report.is_significant(r["diff_ci"][0], r["diff_ci"][1], r.get("p_holm")))
            groups.append(key)
    n = s.get("deals_used", s["n"])
    return plots.diff_bars(
        labels,
        diff,
        lo,
        hi,
        xlabel=xlabel,
        title=title
        or f"{s['game']}: each strategy minus {s['baseline']} on the same {n:,} deals ({games_word(unit)}), 95% CI",
        significant=sig,
        groups=groups,
        lower_is_better=lower,
        percent=percent,
    )


def save_figure(result: CompareResult, path: str | Path) -> list[Path]:
    """Write the paired-difference figure as ``path`` with a ``.png`` and a ``.svg`` suffix."""
    from simulator.reporting import plots

    p = Path(path)
    fig = compare_figure(result)
    written = plots.save(fig, p.parent, p.stem)
    return [written["png"], written["svg"]]


def _players(summary: dict[str, Any]) -> list[Player]:
    """The candidates (and the field) as players, for the provenance's strategy hashes."""
    specs = [unnumbered(spec).split(" @")[0] for spec in summary["strategies"]]
    if summary.get("field"):
        specs.append(summary["field"])
    return [parse_spec(spec, summary["game"]) for spec in dict.fromkeys(specs)]


def compare_provenance(summary: dict[str, Any]) -> dict[str, Any]:
    from simulator.running.results import provenance

    extra = {
        "kind": "compare",
        "unit": summary["unit"],
        "n": summary["n"],
        "players": summary["players"],
        "design": summary["design"],
        "baseline": summary["baseline"],
        "field": summary["field"],
        "candidates": summary["strategies"],
    }
    if summary.get("reactions"):
        extra["reactions"] = summary["reactions"]
    return provenance(summary["seed"], summary["rules"], _players(summary), extra)


def metric_formats(summary: dict[str, Any], table: str = "compare") -> dict[str, dict[str, str]]:
    """How the report shows each metric's columns (:func:`simulator.reporting.pages.display_table`):
    the figure as a percentage (rates) or a mean in its unit, the difference to the baseline
    signed (in percentage points for rates), the Holm p-value and the variance reduction as
    the CLI prints them.  ``table`` "sweep" words the columns for a sweep's table."""
    unit = summary["unit"]
    out: dict[str, dict[str, str]] = {}
    for name, block in summary["metrics"].items():
        f = metric_field(summary["game"], unit, name, block)
        rate = f.kind == "rate"
        value_unit = "%" if rate else f.unit_text(unit)
        diff_unit = "percentage points" if rate else f.unit_text(unit)
        out[name] = {"kind": "rate" if rate else "mean", "head": f"{name} [95% CI] ({value_unit})"}
        out[f"{name}_diff"] = {
            "kind": "diff_pp" if rate else "diff",
            "head": f"{name} minus baseline [95% CI] ({diff_unit})",
        }
        out[f"{name}_p_holm"] = {"kind": "p", "head": f"{name}: p (Holm)"}
        out[f"{name}_significant"] = {"kind": "bool", "head": f"{name}: significant (Holm, 5%)"}
        out[f"{name}_variance_reduction"] = {"kind": "factor", "head": f"{name}: variance reduction"}
    return out


def ranking_formats() -> dict[str, dict[str, str]]:
    """The ranking's log-strength as the CLI prints it (signed, digits from its interval)."""
    return {"strength": {"kind": "diff", "head": "log-strength [95% CI] (baseline = 0, higher is stronger)"}}


def _said_difference(r: dict[str, Any], f: Field, unit: str) -> str:
    """``0.039 points per round lower (95% CI 0.023 to 0.054; Holm-corrected p = 1.3e-06)``:
    a difference to the baseline by its size, direction and unit (the interval flipped to
    magnitudes when the difference is negative)."""
    from simulator.reporting import pages as report

    rate = f.kind == "rate"
    lo, hi = r["diff_ci"]
    d = r["diff"]
    if d < 0:
        d, lo, hi = -d, -hi, -lo
    size, a, b = report.quantities([d, lo, hi], lo, hi, scale=100.0 if rate else 1.0)
    word = "higher" if r["diff"] > 0 else "lower"
    if rate:
        amount = f"{size} percentage points {word} in {f.unit_text(unit)}"
    else:
        amount = f"{size} {f.unit_text(unit)} {word}"
    p = report.p_text(r.get("p_holm"))
    return f"{amount} (95% CI {a} to {b}; Holm-corrected {p})"


def _headline(summary: dict[str, Any], name: str, block: dict[str, Any], f: Field) -> tuple[str, str]:
    """The question the comparison answers for its main metric, and the answer in one plain
    sentence with direction and unit."""
    from simulator.reporting import pages as report

    unit = summary["unit"]
    base = summary["baseline"]
    lower = bool(block["lower_is_better"])
    direction = "lower is better" if lower else "higher is better"
    question = f"Does any strategy do better than {base} in {block['doc']} ({direction})?"
    better, worse, untested = [], [], 0
    for r in block["strategies"]:
        if "diff" not in r:
            continue
        lo, hi = r["diff_ci"]
        if r.get("p_holm") is None:
            untested += 1
            continue
        v = report.verdict(r["diff"], lo, hi, r.get("p_holm"), lower)
        if v != "none":
            (better if v == "better" else worse).append((r["player"], _said_difference(r, f, unit)))
    n = summary.get("deals_used", summary["n"])
    deals = f"{n:,} {'deal' if n == 1 else 'deals'}"
    if better:
        parts = [f"{who} does better than {base}, {said}" for who, said in better]
        answer = f"Yes: {'; '.join(parts)}, on the same {deals}; {direction}."
    elif worse:
        parts = [f"{who} does worse, {said}" for who, said in worse]
        answer = f"No: none does better than {base} on the same {deals}; {'; '.join(parts)}; {direction}."
    elif untested:
        answer = f"Not tested: {deals} {'says' if n == 1 else 'say'} nothing about the spread, so no strategy is called better or worse."
    else:
        answer = f"No: no difference from {base} detected at this size ({deals}); {direction}."
    return question, answer


def compare_report(result: CompareResult, out_dir: str | Path, title: str | None = None):
    """Write the results folder of a comparison (see the module docstring); returns the report."""
    from simulator.reporting import pages as report
    from simulator.reporting import plots

    s = result.summary
    out = Path(out_dir)
    unit = s["unit"]
    n = s.get("deals_used", s["n"])
    tests = max(len(s["strategies"]) - 1, 1)
    figure = plots.save(compare_figure(result), out / "figures", "compare")["png"]
    answer: list[str] = []
    headlines = []
    for i, (name, block) in enumerate(s["metrics"].items()):
        f = metric_field(s["game"], unit, name, block)
        rate = f.kind == "rate"
        if i == 0:
            headlines.append(report.Headline(*_headline(s, name, block, f)))
        for r in block["strategies"]:
            if "diff" not in r:
                continue
            answer.append(
                report.difference(
                    r["player"],
                    s["baseline"],
                    r["diff"],
                    r["diff_ci"][0],
                    r["diff_ci"][1],
                    what=f.unit_text(unit) if rate else block["doc"],
                    unit="" if rate else f.unit_text(unit),
                    lower_is_better=bool(block["lower_is_better"]),
                    p_holm=r.get("p_holm"),
                    percent=rate,
                    n=n,
                    tests=tests,
                )
            )
    tables = {"compare": compare_table(s)}
    ranking = ranking_table(s)
    if ranking is not None:
        tables["ranking"] = ranking
    captions = [
        f"{name}: {block['doc']} ({metric_field(s['game'], unit, name, block).caption(unit)})"
        for name, block in s["metrics"].items()
    ]
    setup = (
        f"{s['n']:,} {'deal' if s['n'] == 1 else 'deals'} ({games_word(unit)}), seed {s['seed']}; {s['design']}; "
        f"{s['games_played']:,} games played; baseline {s['baseline']}"
        + (f"; field {s['field']}" if s["field"] else "")
        + "."
    )
    plain_words = report.Section(
        f"In plain words: each strategy minus {s['baseline']}",
        paragraphs(s.get("verdicts") or verdicts(s)),
    )
    sections = [
        plain_words,
        report.Section("Paired differences", [setup], figures=["compare"]),
        report.Section("Figures per strategy", captions, tables=["compare"]),
    ]
    if ranking is not None:
        sections.append(
            report.Section(
                "Ranking",
                [
                    "Bradley–Terry log-strengths from the deals on which each strategy did better "
                    f"in {next(iter(s['metrics']))}; higher is stronger, the baseline is fixed at 0."
                ],
                tables=["ranking"],
            )
        )
    formats = {"compare": metric_formats(s)}
    if ranking is not None:
        formats["ranking"] = ranking_formats()
    rep = report.Report(
        title=title or f"{s['game']}: {', '.join(s['strategies'])} on the same deals",
        question="",  # the headline carries the question
        answer=answer,
        sections=sections,
        tables=tables,
        figures={"compare": figure},
        provenance=compare_provenance(s),
        headlines=headlines,
        formats=formats,
    )
    report.write(rep, out, "compare")
    _add_summary(out / "summary.parquet", result)
    atomic_write(out / "summary.json", result.to_json() + "\n")
    return rep


def _add_summary(path: Path, result: CompareResult) -> None:
    """Put the JSON summary into the Parquet file's metadata beside the provenance."""
    table = pq.read_table(path)
    meta = dict(table.schema.metadata or {})
    meta[b"kortsim.summary"] = result.to_json(indent=None).encode()
    with atomic_path(path) as tmp:
        pq.write_table(table.replace_schema_metadata(meta), tmp)


def read_summary(path: str | Path) -> dict[str, Any]:
    """The JSON summary and provenance stored in a comparison's ``summary.parquet``."""
    p = Path(path)
    if p.is_dir():
        p = p / "summary.parquet"
    meta = pq.read_schema(p).metadata or {}
    return {
        "summary": json.loads(meta[b"kortsim.summary"]),
        "provenance": json.loads(meta.get(b"kortsim.provenance", b"{}")),
    }


__all__ = [
    "compare_figure",
    "compare_provenance",
    "compare_report",
    "compare_table",
    "metric_field",
    "metric_formats",
    "ranking_table",
    "read_summary",
    "save_figure",
]
