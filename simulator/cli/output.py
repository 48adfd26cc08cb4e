"""What the ``kortsim`` commands print: the tables of a run, a comparison and a sweep.

Each figure is shown with its unit, its direction and its 95% interval (the captions
come from :mod:`simulator.engine.fields`, the numbers' form from :mod:`simulator.engine.formatting`).
Results go to stdout (:data:`out`), messages to stderr (:data:`err`).
"""

from __future__ import annotations

import shutil
from typing import TYPE_CHECKING, Any

from rich.console import Console

from simulator.engine import formatting
from simulator.engine.fields import COMMON, NOT_FIGURES, Field, games_word, metric_field
from simulator.games import fields_for

if TYPE_CHECKING:  # the tables and the run's classes load with the first result printed
    from rich.table import Table as RichTable

    from simulator.running.checkpoint import RunInterrupted
    from simulator.running.results import Result


def format_value(v: float) -> str:
    """A parameter's value as a spec writes it (``4``, ``0.5``)."""
    from strategies.registry import format_value as fmt_value

    return fmt_value(v)


# Tables stay readable when piped (rich would otherwise assume 80 columns).
out = Console(highlight=False, soft_wrap=True, width=max(shutil.get_terminal_size((140, 24)).columns, 120))
err = Console(stderr=True, highlight=False, soft_wrap=True)


def fmt(v: Any, digits: int = 4) -> str:
    if isinstance(v, float):
        return f"{v:.{digits}g}" if abs(v) < 1e-3 and v != 0 else f"{v:.{digits}f}".rstrip("0").rstrip(".")
    return str(v)


def _captions(keys: list[str], decl: dict, unit: str) -> str:
    """One line per column below a table: ``mean_score: points per round, lower is better``."""
    return "\n".join(f"{k}: {decl[k].caption(unit)}" for k in keys if k in decl)


def _meaning(f: Field | None, unit: str) -> str:
    """What a figure of the whole-run table is, in words, with its unit and direction."""
    if f is None:
        return ""
    words = f.words_text(unit)
    if f.kind == "count":
        return "; ".join(p for p in (words or f.unit_text(unit), f.direction()) if p)
    if f.kind == "setting":
        return f"{words} (a setting of the run)" if words else "a setting of the run"
    caption = f.caption(unit)
    return f"{caption} ({words})" if words else caption


def _cell(f: Field | None, row: dict, key: str, unit: str, totals: dict) -> str:
    v = row[key]
    if isinstance(v, dict):  # a reaction profile
        return formatting.reaction(v)
    return formatting.figure(f, v, row.get(key + "_ci"), unit, totals)


def _rules_text(rules: dict) -> str:
    return ", ".join(f"{k}={format_value(v) if isinstance(v, float | int) else v}" for k, v in rules.items())


def print_result(result: Result) -> None:
    """The seats' figures and the whole run's, each with its unit and direction."""
    from rich.table import Table as RichTable

    s = result.summary
    unit = s["unit"]
    decl = fields_for(s["game"], unit)
    totals = {"n": s["n"], **{k: v for k, v in s.items() if isinstance(v, int) and not isinstance(v, bool)}}
    title = f"{s['game']}: {s['n']:,} {games_word(unit, s['n'])}, seed {s['seed']}, rules {_rules_text(s['rules'])}"
    seats = s["seats"]
    seat_keys = [k for k in seats[0] if k not in ("seat", "player") and not k.endswith("_ci")]
    t = RichTable(
        title=title, title_justify="left", caption=_captions(seat_keys, decl, unit), caption_justify="left"
    )
    t.add_column("seat", justify="right")
    t.add_column("player")
    for k in seat_keys:
        t.add_column(k + (" [95% CI]" if k + "_ci" in seats[0] else ""), justify="right")
    for seat in seats:
        cells = [_cell(decl.get(k), seat, k, unit, totals) for k in seat_keys]
        t.add_row(str(seat["seat"]), seat["player"], *cells)
    out.print(t)
    keys = [
        k
        for k, v in s.items()
        if k not in NOT_FIGURES
        and k not in COMMON
        and not k.endswith("_ci")
        and not isinstance(v, dict | list)
    ]
    if keys:
        t = RichTable(title="the whole run", title_justify="left")
        t.add_column("figure")
        t.add_column("value [95% CI]", justify="right")
        t.add_column("meaning")
        for k in keys:
            t.add_row(k, _cell(decl.get(k), s, k, unit, totals), _meaning(decl.get(k), unit))
        out.print(t)
    out.print(_timing(s, unit, s["n"]))


def _timing(s: dict, unit: str, games: int) -> str:
    """``5,000 rounds played in 0.047 s (107,642 rounds/s); compiling took 0.25 s``."""
    text = f"{games:,} {games_word(unit, games)} played"
    if s.get("elapsed_s") is not None:
        text += f" in {formatting.seconds(s['elapsed_s'])}"
    if s.get("games_per_s"):
        text += f" ({formatting.speed(s['games_per_s'], unit)})"
    if s.get("compile_s"):
        text += f"; compiling took {formatting.seconds(s['compile_s'])}"
    return text


def print_partial(exc: RunInterrupted, units: str, as_json: bool) -> None:
    """A run without --out stopped by Ctrl-C: the figures of the games that finished, marked
    partial (in JSON: ``"partial": true`` and ``"n_planned"``), and how to make it resumable."""
    done = f"{exc.games:,} of {exc.planned:,} {units}"
    if exc.result is not None:
        if as_json:
            print(exc.result.to_json())
        else:
            out.print(f"partial: {done} (stopped by Ctrl-C before the end)", markup=False)
            print_result(exc.result)
    shown = "; the figures printed are theirs alone" if exc.result is not None else ""
    err.print(f"interrupted: partial: {done} finished{shown}", markup=False)
    err.print(
        "give --out DIR to make a run resumable: Ctrl-C then keeps every finished block, "
        "and --resume finishes the run",
        markup=False,
    )


def diff_unit(f: Field, unit: str) -> str:
    """The unit of a paired difference: percentage points for rates, else the metric's unit."""
    return "percentage points" if f.kind == "rate" else f.unit_text(unit)


def compare_cells(f: Field, r: dict, name: str, is_base: bool) -> list[str]:
    """Value, paired difference, Holm p-value and variance reduction of one candidate."""
    value = (formatting.rate if f.kind == "rate" else formatting.mean)(r[name], r.get(f"{name}_ci"))
    if is_base:
        return [value, "(baseline)", "", ""]
    d = formatting.diff(r["diff"], r.get("diff_ci"), percent=f.kind == "rate")
    vr = r.get("variance_reduction")  # None when the paired difference has no spread
    return [value, d, formatting.p_value(r.get("p_holm")), formatting.factor(vr)]


def compare_columns(t: RichTable, name: str, f: Field, unit: str) -> None:
    """The value and difference columns (the table's title carries unit and direction)."""
    value_unit = "%" if f.kind == "rate" else f.unit_text(unit)
    t.add_column(f"{name} [95% CI]\n{value_unit}", justify="right")
    t.add_column(f"minus baseline [95% CI]\n{diff_unit(f, unit)}", justify="right")
    t.add_column("p (Holm)", justify="right")
    t.add_column("variance\nreduction", justify="right")


def print_compare(summary: dict) -> None:
    """Each metric's table (value, paired difference to the baseline, Holm p-value), then
    the ranking; every figure says its unit and which way is better."""
    from rich.table import Table as RichTable

    s = summary
    unit = s["unit"]
    decl = fields_for(s["game"], unit)
    out.print(f"{s['game']}: {s['n']:,} deals ({games_word(unit)}), seed {s['seed']}; {s['design']}")
    line = _timing(s, unit, s["games_played"]) + f"; baseline {s['baseline']}"
    out.print(line + (f"; field {s['field']}" if s["field"] else ""))
    if s.get("deals_dropped"):
        shown = formatting.count(s["deals_dropped"], s["n"], "deals")
        out.print(f"left out: {shown}, stalled or abandoned in some seating")
    for name, block in s["metrics"].items():
        f = metric_field(decl, name, block)
        t = RichTable(title=f"{name}: {block['doc']} ({f.caption(unit)})", title_justify="left")
        t.add_column("player")
        compare_columns(t, name, f, unit)
        for r in block["strategies"]:
            t.add_row(r["player"], *compare_cells(f, r, name, "diff" not in r))
        out.print(t)
    if s.get("ranking"):
        primary = s["head_to_head"]["metric"]
        t = RichTable(
            title=f"Bradley-Terry ranking on {primary} (log-strength from the deals each did better on; "
            "higher is stronger; baseline fixed at 0)",
            title_justify="left",
        )
        for col in ("rank", "player", "strength [95% CI]"):
            t.add_column(col, justify="left" if col == "player" else "right")
        for r in s["ranking"]:
            fixed = r["player"] == s["baseline"]
            text = "0 (fixed)" if fixed else formatting.diff(r["strength"], r.get("strength_ci"))
            t.add_row(str(r["rank"]), r["player"], text)
        out.print(t)


def print_sweep(result) -> None:
    """The swept metric at every point with its paired difference to the baseline; the
    table's title says the unit and which way is better."""
    from rich.table import Table as RichTable

    from simulator.analysis.sweep import metric_title

    s = result.comparison.summary
    m = result.metric
    info = result.metric_info()
    unit = s["unit"]
    f = metric_field(fields_for(s["game"], unit), m, info)
    out.print(
        f"{s['game']}: {result.summary['spec']} against {result.vs}; {s['n']:,} deals "
        f"({games_word(unit)}), seed {s['seed']}"
    )
    out.print(f"{s['design']}; {_timing(s, unit, s['games_played'])}; differences against {result.baseline}")
    t = RichTable(title=f"{metric_title(m, info)}: {info['doc']} ({f.caption(unit)})", title_justify="left")
    axes = [a.name for a in result.axes]
    for a in axes:
        t.add_column(a, justify="right")
    compare_columns(t, m, f, unit)
    for r in result.table.to_dict("records"):
        is_base = r.get("plays_as", r["player"]) == result.baseline
        row = {
            m: r[m],
            f"{m}_ci": [r[f"{m}_lo"], r[f"{m}_hi"]],
            "diff": r[f"{m}_diff"],
            "diff_ci": [r[f"{m}_diff_lo"], r[f"{m}_diff_hi"]],
            "p_holm": r[f"{m}_p_holm"],
            "variance_reduction": r[f"{m}_variance_reduction"],
        }
        t.add_row(
            *(format_value(r[a]) + (" (shared)" if r.get("shared") else "") for a in axes),
            *compare_cells(f, row, m, is_base),
        )
    out.print(t)
    note = result.shared_note()
    if note:
        out.print(note)
    # The top point is called best only when it beats every other point played (Holm).
    out.print(result.top_note(), markup=False)
