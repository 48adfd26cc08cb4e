"""Where the ``kortsim`` commands print, and the tables of a run (a comparison's and a
sweep's are in :mod:`simulator.cli.compare_output`).

Each figure is shown with its unit, its direction and its 95% interval (the captions
come from :mod:`simulator.engine.fields`, the numbers' form from :mod:`simulator.engine.formatting`).
Results go to stdout (:data:`out`, as wide as the reader's terminal: :mod:`simulator.cli.width`),
messages to stderr (:data:`err`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from simulator.cli import tables
from simulator.cli.width import FittedConsole
from simulator.engine import formatting
from simulator.engine.fields import COMMON, NOT_FIGURES, Field, games_word
from simulator.games import fields_for

if TYPE_CHECKING:  # the tables and the run's classes load with the first result printed
    from rich.table import Table as RichTable

    from simulator.running.checkpoint import RunInterrupted
    from simulator.running.results import Result


def format_value(v: float) -> str:
    """A parameter's value as a spec writes it (``4``, ``0.5``)."""
    from strategies.registry import format_value as fmt_value

    return fmt_value(v)


# Results fit the reader's terminal, and stay wide when piped (simulator.cli.width).
out = FittedConsole(highlight=False)
# Messages wrap between words on a terminal (or at ``--width``/``COLUMNS``) and stay one
# whole line for a script that reads them from a pipe.
err = FittedConsole(stderr=True, highlight=False)


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


def _cell(f: Field | None, row: dict, key: str, unit: str, totals: dict, decimals: int | None = None) -> str:
    v = row[key]
    if isinstance(v, dict):  # a reaction profile
        return formatting.reaction(v)
    if f is not None and row.get("seat") in f.not_for:  # the rules fix it there (the caption says why)
        return formatting.NA
    return formatting.figure(f, v, row.get(key + "_ci"), unit, totals, decimals)


def _column_decimals(f: Field | None, rows: list[dict], key: str) -> int | None:
    """The decimal places of a column of rates or means: one number of digits in a column."""
    if f is None or f.kind not in ("rate", "mean"):
        return None
    cis = [r.get(key + "_ci") for r in rows if r.get("seat") not in f.not_for]
    return formatting.column_decimals(cis, percent=f.kind == "rate")


def _rules_text(rules: dict) -> str:
    return ", ".join(f"{k}={format_value(v) if isinstance(v, float | int) else v}" for k, v in rules.items())


def print_result(result: Result) -> None:
    """The seats' figures and the whole run's, each with its unit and direction."""
    s = result.summary
    unit = s["unit"]
    decl = fields_for(s["game"], unit)
    totals = {"n": s["n"], **{k: v for k, v in s.items() if isinstance(v, int) and not isinstance(v, bool)}}
    seats = s["seats"]
    seat_keys = [k for k in seats[0] if k not in ("seat", "player") and not k.endswith("_ci")]
    places = {k: _column_decimals(decl.get(k), seats, k) for k in seat_keys}
    cells = [{k: _cell(decl.get(k), seat, k, unit, totals, places[k]) for k in seat_keys} for seat in seats]

    def seat_table(keys: list[str], narrow: bool) -> RichTable:
        from rich.table import Table as RichTable

        t = RichTable()
        t.add_column("seat", justify="right", no_wrap=True)
        t.add_column("player", overflow="fold", max_width=tables.name_width(out) if narrow else None)
        for k in keys:
            interval = k + "_ci" in seats[0]
            head = k + ("\n[95% CI]" if narrow and interval else " [95% CI]" if interval else "")
            t.add_column(head, justify="right", no_wrap=True)
        for seat, row in zip(seats, cells):
            shown = [tables.stacked(row[k]) if narrow else row[k] for k in keys]
            t.add_row(str(seat["seat"]), seat["player"], *shown)
        return t

    title = f"{s['game']}: {s['n']:,} {games_word(unit, s['n'])}, seed {s['seed']}, rules {_rules_text(s['rules'])}"
    parts = tables.fitted_tables(out, seat_table, seat_keys)
    tables.print_tables(out, parts, title, _captions(seat_keys, decl, unit))
    keys = [
        k
        for k, v in s.items()
        if k not in NOT_FIGURES
        and k not in COMMON
        and not k.endswith("_ci")
        and not isinstance(v, dict | list)
    ]
    if keys:
        out.print(_run_table(s, keys, decl, unit, totals))
    out.print(timing(s, unit, s["n"]))


def _run_table(s: dict, keys: list[str], decl: dict, unit: str, totals: dict) -> RichTable:
    """The whole run's figures: name, value with its interval, and what it means (wrapped)."""
    from rich.table import Table as RichTable

    t = RichTable(title="the whole run", title_justify="left")
    t.add_column("figure", no_wrap=True)
    t.add_column("value [95% CI]", justify="right", no_wrap=True)
    t.add_column("meaning", overflow="fold")
    for k in keys:
        t.add_row(k, _cell(decl.get(k), s, k, unit, totals), _meaning(decl.get(k), unit))
    return t


def timing(s: dict, unit: str, games: int) -> str:
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
