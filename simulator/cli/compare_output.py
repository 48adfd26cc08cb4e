"""What ``kortsim compare`` and ``kortsim sweep`` print: one table per metric (each
candidate's figure, its paired difference to the baseline, the Holm-corrected p-value and
the variance reduction), the ranking, and last one plain sentence per candidate
(:mod:`simulator.analysis.verdicts`).

Every table fits the width it is printed at (:mod:`simulator.cli.tables`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from simulator.cli import tables
from simulator.cli.output import format_value, out, timing
from simulator.engine import formatting
from simulator.engine.fields import Field, games_word, metric_field
from simulator.games import fields_for

if TYPE_CHECKING:
    from rich.table import Table as RichTable

#: what the sentences at the end of a comparison stand on
PLAIN_WORDS = (
    "in plain words (each minus {baseline} on the same deals; called better or worse only when "
    "the Holm-corrected test finds a difference):"
)


def diff_unit(f: Field, unit: str) -> str:
    """The unit of a paired difference: percentage points for rates, else the metric's unit."""
    return "percentage points" if f.kind == "rate" else f.unit_text(unit)


#: the p-value and variance-reduction cells of a candidate whose difference to the baseline
#: is exactly 0 on every deal (two copies of a deterministic strategy): nothing was tested
IDENTICAL = "identical"


def identical(r: dict) -> bool:
    """Whether a candidate's row shows no difference at all: exactly 0 on every deal."""
    return bool(r.get("same_every_deal")) and r.get("diff") == 0


def compare_cells(
    f: Field, r: dict, name: str, is_base: bool, narrow: bool = False, places: int | None = None
) -> list[str]:
    """Value, paired difference, Holm p-value and variance reduction of one candidate
    (``narrow``: each interval under its value; ``places``: the value column's decimals).
    A candidate that did exactly as the baseline on every deal says :data:`IDENTICAL` in
    the p-value and variance-reduction cells rather than a p-value of 1."""
    shown = formatting.rate if f.kind == "rate" else formatting.mean
    value = shown(r[name], r.get(f"{name}_ci"), decimals=places)
    if is_base:
        cells = [value, "(baseline)", "", ""]
    elif identical(r):
        d = formatting.diff(r["diff"], r.get("diff_ci"), percent=f.kind == "rate")
        cells = [value, d, IDENTICAL, IDENTICAL]
    else:
        d = formatting.diff(r["diff"], r.get("diff_ci"), percent=f.kind == "rate")
        vr = r.get("variance_reduction")  # None when the paired difference has no spread
        cells = [value, d, formatting.p_value(r.get("p_holm")), formatting.factor(vr)]
    return [tables.stacked(c) for c in cells] if narrow else cells


def compare_columns(t: RichTable, name: str, f: Field, unit: str, narrow: bool = False) -> None:
    """The value and difference columns (the table's title carries unit and direction)."""
    value_unit = "%" if f.kind == "rate" else f.unit_text(unit)
    ci = "\n[95% CI]" if narrow else " [95% CI]"
    t.add_column(f"{name}{ci}\n{value_unit}", justify="right", no_wrap=True)
    t.add_column(f"minus baseline{ci}\n{diff_unit(f, unit)}", justify="right", no_wrap=True)
    t.add_column("p (Holm)", justify="right", no_wrap=True)
    t.add_column("variance\nreduction", justify="right", no_wrap=True)


def _table(leading: list[tuple[str, dict[str, Any]]]) -> RichTable:
    from rich.table import Table as RichTable

    t = RichTable()
    for head, options in leading:
        t.add_column(head, **options)
    return t


def _player_column(narrow: bool) -> tuple[str, dict[str, Any]]:
    return "player", {"overflow": "fold", "max_width": tables.name_width(out) if narrow else None}


def _sentences(lines: list[str], baseline: str) -> None:
    """The plain sentences that end a comparison, one per candidate (and metric)."""
    if not lines:
        return
    out.print(PLAIN_WORDS.format(baseline=baseline), markup=False)
    tables.print_points(out, lines)


def print_compare(summary: dict) -> None:
    """Each metric's table (value, paired difference to the baseline, Holm p-value), the
    ranking, then each candidate against the baseline in a plain sentence; every figure says
    its unit and which way is better."""
    from simulator.analysis.verdicts import verdicts

    s = summary
    unit = s["unit"]
    decl = fields_for(s["game"], unit)
    out.print(f"{s['game']}: {s['n']:,} deals ({games_word(unit)}), seed {s['seed']}; {s['design']}")
    line = timing(s, unit, s["games_played"]) + f"; baseline {s['baseline']}"
    out.print(line + (f"; field {s['field']}" if s["field"] else ""), markup=False)
    if s.get("deals_dropped"):
        shown = formatting.count(s["deals_dropped"], s["n"], "deals")
        out.print(f"left out: {shown}, stalled or abandoned in some seating")
    for name, block in s["metrics"].items():
        f = metric_field(decl, name, block)

        def build(narrow: bool, name: str = name, block: dict = block, f: Field = f) -> RichTable:
            rows = block["strategies"]
            places = formatting.column_decimals([r.get(f"{name}_ci") for r in rows], percent=f.kind == "rate")
            t = _table([_player_column(narrow)])
            compare_columns(t, name, f, unit, narrow)
            for r in rows:
                t.add_row(r["player"], *compare_cells(f, r, name, "diff" not in r, narrow, places))
            return t

        title = f"{name}: {block['doc']} ({f.caption(unit)})"
        tables.print_tables(out, [tables.fitted_table(out, build)], title)
    if s.get("ranking"):
        _print_ranking(s)
    said = s.get("verdicts") or verdicts(s)
    _sentences([v["sentence"] for v in said], s["baseline"])


def _print_ranking(s: dict) -> None:
    """The Bradley-Terry ranking on the primary metric."""
    primary = s["head_to_head"]["metric"]
    title = (
        f"ranking on {primary} by the deals each did better on (Bradley-Terry log-strength: "
        "higher is stronger; the baseline fixed at 0)"
    )

    def build(narrow: bool) -> RichTable:
        t = _table(
            [
                ("rank", {"justify": "right", "no_wrap": True}),
                _player_column(narrow),
                ("strength [95% CI]", {"justify": "right", "no_wrap": True}),
            ]
        )
        for r in s["ranking"]:
            t.add_row(str(r["rank"]), r["player"], _strength(s, r))
        return t

    tables.print_tables(out, [tables.fitted_table(out, build)], title)


def _strength(s: dict, r: dict) -> str:
    """A ranking's log-strength with its interval; a strategy that never did better (or
    never worse) than another on a deal has no finite strength, and is said so rather than
    given the fitting's arbitrary number with an interval of thousands."""
    if r["player"] == s["baseline"]:
        return "0 (fixed)"
    better = s["head_to_head"]["better"]
    i = list(s["strategies"]).index(r["player"])
    if not any(better[i]):
        return "never did better on a deal"
    if not any(row[i] for row in better):
        return "never did worse on a deal"
    return formatting.diff(r["strength"], r.get("strength_ci"))


def print_sweep(result) -> None:
    """The swept metric at every point with its paired difference to the baseline (the
    table's title says the unit and which way is better), the top point, then each point
    played against the baseline in a plain sentence."""
    from simulator.analysis.sweep import metric_title
    from simulator.analysis.verdicts import verdicts

    s = result.comparison.summary
    m = result.metric
    info = result.metric_info()
    unit = s["unit"]
    f = metric_field(fields_for(s["game"], unit), m, info)
    out.print(
        f"{s['game']}: {result.summary['spec']} against {result.vs}; {s['n']:,} deals "
        f"({games_word(unit)}), seed {s['seed']}",
        markup=False,
    )
    out.print(f"{s['design']}; {timing(s, unit, s['games_played'])}; differences against {result.baseline}")
    axes = [a.name for a in result.axes]
    records = result.table.to_dict("records")

    cis = [[r[f"{m}_lo"], r[f"{m}_hi"]] for r in records]
    places = formatting.column_decimals(cis, percent=f.kind == "rate")

    def build(narrow: bool) -> RichTable:
        t = _table([(a, {"justify": "right", "no_wrap": True}) for a in axes])
        compare_columns(t, m, f, unit, narrow)
        for r in records:
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
                *compare_cells(f, row, m, is_base, narrow, places),
            )
        return t

    title = f"{metric_title(m, info)}: {info['doc']} ({f.caption(unit)})"
    tables.print_tables(out, [tables.fitted_table(out, build)], title)
    note = result.shared_note()
    if note:
        out.print(note, markup=False)
    # The top point is called best only when it beats every other point played (Holm).
    out.print(result.top_note(), markup=False)
    said = [v for v in (s.get("verdicts") or verdicts(s)) if v["metric"] == m]
    _sentences([v["sentence"] for v in said], result.baseline)


__all__ = ["compare_cells", "compare_columns", "diff_unit", "print_compare", "print_sweep"]
