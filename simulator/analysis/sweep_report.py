"""A sweep's table (one row per requested point) and its report page."""

from __future__ import annotations

import math
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from simulator.analysis.sweep_result import SweepResult, _sentence
from simulator.analysis.sweep_spec import SweepSpec
from simulator.analysis.verdicts import paragraphs, verdicts
from simulator.engine.fields import games_word
from strategies.registry import format_value


def sweep_table(
    sw: SweepSpec,
    points: list[dict[str, float]],
    specs: list[str],
    s: dict[str, Any],
    plays_as: Sequence[str] | None = None,
) -> pd.DataFrame:
    """One row per requested point; a point that plays as another (``plays_as``) repeats
    the figures of the point played in its place, and its ``shared`` column is set."""
    plays_as = list(specs) if plays_as is None else list(plays_as)
    rows = []
    for vals, sp, pa in zip(points, specs, plays_as):
        row: dict[str, Any] = {a.name: vals[a.name] for a in sw.axes}
        row["player"] = sp
        row["plays_as"] = pa
        row["shared"] = pa != sp
        rows.append(row)
    table = pd.DataFrame(rows)
    for name, block in s["metrics"].items():
        by_player = {r["player"]: r for r in block["strategies"]}
        cols: dict[str, list] = {
            c: []
            for c in (
                name,
                f"{name}_lo",
                f"{name}_hi",
                f"{name}_diff",
                f"{name}_diff_lo",
                f"{name}_diff_hi",
                f"{name}_p_holm",
                f"{name}_significant",
                f"{name}_variance_reduction",
            )
        }
        for sp in plays_as:
            r = by_player[sp]
            cols[name].append(r[name])
            cols[f"{name}_lo"].append(r[f"{name}_ci"][0])
            cols[f"{name}_hi"].append(r[f"{name}_ci"][1])
            if "diff" in r:
                cols[f"{name}_diff"].append(r["diff"])
                cols[f"{name}_diff_lo"].append(r["diff_ci"][0])
                cols[f"{name}_diff_hi"].append(r["diff_ci"][1])
                cols[f"{name}_p_holm"].append(np.nan if r.get("p_holm") is None else r["p_holm"])
                cols[f"{name}_significant"].append(bool(r.get("significant", False)))
                vr = r.get("variance_reduction")
                cols[f"{name}_variance_reduction"].append(np.nan if vr is None else vr)
            else:  # the baseline itself
                cols[f"{name}_diff"].append(0.0)
                cols[f"{name}_diff_lo"].append(0.0)
                cols[f"{name}_diff_hi"].append(0.0)
                cols[f"{name}_p_holm"].append(np.nan)
                cols[f"{name}_significant"].append(False)
                cols[f"{name}_variance_reduction"].append(np.nan)
        for c, v in cols.items():
            table[c] = v
    return table


def sweep_report(result: SweepResult, out_dir: str | Path, title: str | None = None):
    """A results folder for a sweep: table, figure (PNG+SVG), report.md and report.html."""
    from simulator.analysis.compare_report import metric_field, metric_formats
    from simulator.reporting import pages as report
    from simulator.reporting import plots
    from simulator.running.results import provenance as make_provenance

    out = Path(out_dir)
    info = result.metric_info()
    fig = result.plot()
    png = plots.save(fig, out / "figures", "sweep")["png"]
    answer = _answer(result)
    f = metric_field(result.game, result.unit, result.metric, info)
    s = result.comparison.summary
    question = (
        f"Which {', '.join(a.name for a in result.axes)} gives the best {info['doc']} "
        f"({f.direction() or 'no direction'}), against {result.vs}?"
    )
    rep = report.Report(
        title=title or f"Sweep of {result.summary['spec']} in {result.game} against {result.vs}",
        question="",  # the headline carries the question
        headlines=[report.Headline(question, _sentence(result.top_note()))],
        formats={"sweep": metric_formats(s)},
        answer=answer,
        sections=[
            report.Section(
                f"In plain words: each point played minus {result.baseline}",
                paragraphs([v for v in s.get("verdicts") or verdicts(s) if v["metric"] == result.metric]),
            ),
            report.Section(
                "Sweep",
                [
                    f"{s['n']:,} {'deal' if s['n'] == 1 else 'deals'} ({games_word(result.unit)}), seed {s['seed']}; {s['design']}."
                ]
                + ([f"{result.shared_note()}."] if result.shared_note() else []),
                tables=["sweep"],
                figures=["sweep"],
            ),
        ],
        tables={"sweep": result.table},
        figures={"sweep": png},
        provenance={
            **make_provenance(
                s["seed"],
                s["rules"],
                [result.spec.family.player(**p) for p in result.spec.points()[:1]],
            ),
            "sweep": result.summary["spec"],
            "vs": result.vs,
            "unit": result.unit,
            "n": s["n"],
        },
    )
    report.write(rep, out, "sweep")
    return rep


def _answer(result: SweepResult) -> list[str]:
    """The answer of a sweep's report in sentences: the top point with its interval, its
    difference to the runner-up and to the baseline, and the variance reduction."""
    from simulator.analysis.compare_report import metric_field
    from simulator.reporting import pages as report

    m = result.metric
    info = result.metric_info()
    top = result.top()
    best = result.best()
    f = metric_field(result.game, result.unit, m, info)
    rate = f.kind == "rate"
    value_unit = "" if rate else f.unit_text(result.unit)
    what = f.unit_text(result.unit) if rate else info["doc"]
    n_used = result.comparison.summary.get("deals_used")
    point = ", ".join(f"{a.name}={format_value(best[a.name])}" for a in result.axes)
    word = "Best point" if top["best"] else f"Point with the {top['observed']} observed {m}"
    answer = [
        report.estimate(
            f"{word}: {point} ({best['player']})",
            what,
            best[m],
            best[f"{m}_lo"],
            best[f"{m}_hi"],
            unit=value_unit,
            percent=rate,
            n=n_used,
        )
    ]
    ru = top["vs_runner_up"]
    if ru is not None:
        lo, hi = (math.nan if v is None else v for v in ru["diff_ci"])
        answer.append(
            report.difference(
                best["player"],
                ru["runner_up"],
                math.nan if ru["diff"] is None else ru["diff"],
                lo,
                hi,
                what=what,
                unit=value_unit,
                lower_is_better=bool(info["lower_is_better"]),
                p_holm=ru["p_holm"],
                percent=rate,
                n=n_used,
                tests=top["others_tested"],
            )
            + (
                f" ({ru['runner_up']} is the runner-up; Holm-corrected over the "
                f"{top['others_tested']} other points played.)"
                if ru["p_holm"] is not None
                else ""
            )
        )
    if best["player"] != result.baseline:
        answer.append(
            report.difference(
                best["player"],
                result.baseline,
                best[f"{m}_diff"],
                best[f"{m}_diff_lo"],
                best[f"{m}_diff_hi"],
                what=what,
                unit=value_unit,
                lower_is_better=bool(info["lower_is_better"]),
                p_holm=best[f"{m}_p_holm"],
                percent=rate,
            )
        )
    vr = result.table[f"{m}_variance_reduction"].dropna()
    if len(vr):
        answer.append(
            report.variance_sentence(
                float(vr.median()), "a point's difference to the baseline (median over points)"
            )
        )
    return answer
