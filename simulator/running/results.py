"""The result of a run: figures with intervals, histograms, provenance, Parquet I/O.

A :class:`Result` prints short (``repr``: the headline figure of every seat with
its 95% interval), shows as an HTML table in Jupyter (``_repr_html_``) and draws
itself (:meth:`Result.plot`).  The same display helpers serve
:class:`simulator.analysis.compare.CompareResult`.
"""

from __future__ import annotations

import hashlib
import html
import json
import math
import platform
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numba
import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq

from simulator.engine.fields import Field, fields_for, games_word
from simulator.errors import InputError
from simulator.reporting import formatting

if TYPE_CHECKING:
    from matplotlib.axes import Axes

SCHEMA_VERSION = 1
TIMING_FIELDS = ("elapsed_s", "games_per_s", "compile_s")
MAX_SHOWN = 10  # rows a repr shows before it says how many it left out


def plain(value: Any) -> Any:
    """``value`` with numpy scalars and arrays replaced by Python ones, at any depth.

    Summaries hold only ``int``, ``float``, ``bool``, ``str``, ``None``, lists and
    dicts, so they print without ``np.float64(...)`` and serialise as before
    (a numpy float and the Python float of the same value give the same JSON).
    """
    if isinstance(value, Mapping):
        return {k: plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [plain(v) for v in value]
    if isinstance(value, tuple):
        return tuple(plain(v) for v in value)
    if isinstance(value, np.ndarray):
        return plain(value.tolist())
    if isinstance(value, np.bool_):
        return bool(value)
    if isinstance(value, np.integer):
        return int(value)
    if isinstance(value, np.floating):
        return float(value)
    return value


# --- display: figures with their units, intervals, short text, HTML, plots -------------


@dataclass(frozen=True)
class Shown:
    """One figure as it is displayed: its key, words, unit and direction.

    Built from the game's declaration of the figure (``Game.fields``,
    :mod:`simulator.engine.fields`), so it says what the CLI's tables say."""

    key: str
    title: str
    unit: str
    direction: str = ""
    doc: str = ""
    percent: bool = False

    @property
    def label(self) -> str:
        """An axis label or column head: ``mean score (points per round)``."""
        return f"{self.title} ({self.unit})"

    @property
    def caption(self) -> str:
        """``mean score: points per round, lower is better (points at the end of the round)``."""
        text = f"{self.title}: " + ", ".join(p for p in (self.unit, self.direction) if p)
        return text + (f" — {self.doc}" if self.doc else "")

    def text(self, value: Any, ci: Sequence[Any] | None) -> str:
        """``5.87 [5.69, 6.05]``, ``98.7% [98.1, 99.1]`` (digits matched to the interval)."""
        return formatting.rate(value, ci) if self.percent else formatting.mean(value, ci)

    def diff_text(self, value: Any, ci: Sequence[Any] | None) -> str:
        """A paired difference: ``-0.073 [-0.094, -0.051]``, ``+0.74 pp [+0.09, +1.40]``."""
        return formatting.diff(value, ci, percent=self.percent)


def unit_words(unit: str) -> str:
    return games_word(unit)


def shown_of(key: str, unit: str, declared: Mapping[str, Field], metric: Any = None) -> Shown:
    """How the figure ``key`` is shown: from its declaration, else from the game's
    :class:`~simulator.games.base.Metric` ``metric``, else from its name alone."""
    base = key.removesuffix("_rate").removeprefix("mean_")
    f = declared.get(key) or (declared.get(metric.name) if metric is not None else None)
    kind = f.kind if f is not None else (metric.kind if metric is not None else None)
    if kind is None:
        kind = "rate" if key.endswith("_rate") else "mean"
    title = f"{base.replace('_', ' ')} rate" if kind == "rate" else f"mean {base.replace('_', ' ')}"
    if f is not None:
        unit_text = f.unit_text(unit)
        if kind == "rate":
            unit_text = unit_text.replace("share of", "% of", 1)
        doc = "; ".join(p for p in (f.words_text(unit), f.remark_text(unit)) if p)
        return Shown(key, title, unit_text, f.direction(), doc, kind == "rate")
    direction = ""
    if metric is not None:
        direction = "lower is better" if metric.lower_is_better else "higher is better"
    unit_text = f"% of {games_word(unit)}" if kind == "rate" else f"per {unit}"
    return Shown(key, title, unit_text, direction, getattr(metric, "doc", ""), kind == "rate")


def _declared(game: str, unit: str) -> tuple[Mapping[str, Field], tuple]:
    try:
        from simulator.games import get_game

        g = get_game(game)
        return fields_for(g, unit), tuple(g.metrics(unit))
    except Exception:  # a summary of a game this version does not know: show what it holds
        return {}, ()


def metric_shown(summary: Mapping[str, Any], name: str) -> Shown:
    """How the metric ``name`` of a comparison is shown (``summary["metrics"][name]``)."""
    declared, metrics = _declared(summary["game"], summary["unit"])
    metric = next((m for m in metrics if m.name == name), None)
    shown = shown_of(name, summary["unit"], declared, metric)
    info = summary.get("metrics", {}).get(name, {})
    title = (
        f"{name.replace('_', ' ')} rate" if info.get("kind") == "rate" else f"mean {name.replace('_', ' ')}"
    )
    return Shown(name, title, shown.unit, shown.direction, shown.doc, info.get("kind", "rate") == "rate")


def seat_figures(summary: Mapping[str, Any]) -> list[Shown]:
    """The per-seat figures of a simulate summary that have intervals, the headline first:
    the game's metrics (``Game.metrics``) in its order, found under ``<name>_rate`` or
    ``mean_<name>``, then the seats' other figures with intervals."""
    seats = summary.get("seats") or []
    if not seats:
        return []
    have = [k for k in seats[0] if f"{k}_ci" in seats[0]]
    declared, metrics = _declared(summary.get("game", ""), summary.get("unit", "round"))
    shown: list[Shown] = []
    for m in metrics:
        key = f"{m.name}_rate" if m.kind == "rate" else f"mean_{m.name}"
        if key in have:
            shown.append(shown_of(key, summary["unit"], declared, m))
    used = {f.key for f in shown}
    shown += [shown_of(k, summary.get("unit", "round"), declared) for k in have if k not in used]
    return shown


def short(text: str, width: int = 28) -> str:
    return text if len(text) <= width else text[: width - 1] + "…"


def html_table(
    caption: str, head: Sequence[str], rows: Sequence[Sequence[Any]], css: str, left: int = 2
) -> str:
    """A small HTML table (every cell escaped): the first ``left`` columns left-aligned,
    the figures right-aligned, a caption above."""
    out = [f'<table class="{css}">', f'<caption style="text-align:left">{html.escape(caption)}</caption>']
    out.append("<thead><tr>" + "".join(f"<th>{html.escape(str(h))}</th>" for h in head) + "</tr></thead>")
    out.append("<tbody>")
    for r in rows:
        cells = []
        for i, c in enumerate(r):
            align = "left" if i < left else "right"
            cells.append(f'<td style="text-align:{align}">{html.escape(str(c))}</td>')
        out.append("<tr>" + "".join(cells) + "</tr>")
    out.append("</tbody></table>")
    return "\n".join(out)


def interval_plot(
    labels: Sequence[str],
    values: Sequence[Any],
    cis: Sequence[Sequence[Any]],
    *,
    shown: Shown,
    xlabel: str,
    title: str,
    ax: Axes | None = None,
    reference: float | None = None,
    reference_label: str | None = None,
) -> Axes:
    """Points with 95% interval whiskers, one per label; returns the Axes.

    Without ``ax`` a new pyplot figure is made (so Jupyter shows it inline).  The
    vertical axis zooms to the intervals; its label carries the unit and which way is
    better."""
    import matplotlib.pyplot as plt

    from simulator.reporting import plots

    k = 100.0 if shown.percent else 1.0
    nan = float("nan")
    v = np.array([nan if x is None else float(x) * k for x in values])
    lo = np.array([nan if c is None or c[0] is None else float(c[0]) * k for c in cis])
    hi = np.array([nan if c is None or c[1] is None else float(c[1]) * k for c in cis])
    import textwrap

    width = max(6.0, 1.3 * len(labels) + 2.5)
    with plots.style():
        if ax is None:
            _, ax = plt.subplots(figsize=(width, 4.2), layout="constrained")
        xs = np.arange(len(labels))
        yerr = np.vstack([np.nan_to_num(v - lo), np.nan_to_num(hi - v)])
        ax.errorbar(xs, v, yerr=yerr, fmt="o", color=plots.colour(0), ecolor="black", capsize=5, lw=1.2)
        if reference is not None:
            ax.axhline(reference, color="0.5", ls="--", lw=1, label=reference_label)
            if reference_label:
                ax.legend()
        ax.set_xticks(xs, [short(lab, 22) for lab in labels])
        ax.set_xlim(-0.6, len(labels) - 0.4)
        chars = int(ax.figure.get_figwidth() * 10)
        ax.set_xlabel(textwrap.fill(xlabel, chars))
        direction = f"; {shown.direction}" if shown.direction else ""
        unit_line = textwrap.fill(f"({shown.unit}{direction})", int(ax.figure.get_figheight() * 10))
        ax.set_ylabel(f"{shown.title}\n{unit_line}")
        ax.set_title(textwrap.fill(title, int(chars * 0.85)), loc="left")
        ax.grid(axis="x", visible=False)
    return ax


def json_ready(value: Any) -> Any:
    """``value`` (after :func:`plain`) with every float that is not finite replaced by None.

    A figure that rests on nothing (a rate of 0 counted games, the interval of a mean
    of one game) is NaN in Python; JSON has no NaN, so it is written as ``null``.
    """
    value = plain(value)
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, Mapping):
        return {k: json_ready(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [json_ready(v) for v in value]
    return value


def dumps_json(value: Any, indent: int | None = 2) -> str:
    """``value`` as strict JSON (RFC 8259): undefined figures are ``null``, never ``NaN``."""
    return json.dumps(json_ready(value), indent=indent, ensure_ascii=False, allow_nan=False)


def package_version() -> str:
    try:
        from importlib.metadata import version

        return version("kortsim")
    except Exception:  # not installed (running from a checkout)
        return "0+unknown"


@dataclass(repr=False, eq=False)
class Result:
    """Figures of one run.  ``summary`` is the JSON document (see README: JSON fields).

    ``repr(result)`` is a few lines (the game, the number of games, the seed and each
    seat's headline figure with its 95% interval); in Jupyter it shows as a table of
    the seats (``_repr_html_``); :meth:`plot` draws the headline figure per seat.
    :attr:`seats` and :attr:`table` hold every figure as DataFrames, and
    :meth:`records` the per-game records when the run kept them.
    """

    summary: dict[str, Any]
    histograms: dict[str, np.ndarray] = field(default_factory=dict)
    aggregates: np.ndarray | None = None
    provenance: dict[str, Any] = field(default_factory=dict)
    record_frame: pd.DataFrame | None = None
    """The per-game records held in memory (``simulate(..., records=True)`` without ``out``)."""
    records_path: Path | None = None
    """The records folder of a run that wrote them to disk (``records=True, out=DIR``)."""

    def __post_init__(self) -> None:
        self.summary = plain(self.summary)
        self.provenance = plain(self.provenance)

    # --- display --------------------------------------------------------------------

    def _heading(self) -> str:
        s = self.summary
        n = s.get("n", 0)
        return f"{s.get('game', '?')}: {formatting.plural(n, s.get('unit', 'round'))}, seed {s.get('seed')}"

    def __repr__(self) -> str:
        s = self.summary
        seats = s.get("seats") or []
        lines = [f"<kortsim Result> {self._heading()}"]
        rules = ", ".join(f"{k}={v}" for k, v in (s.get("rules") or {}).items())
        lines.append(f"{s.get('players', len(seats))} seats" + (f"; rules {rules}" if rules else ""))
        figures = seat_figures(s)
        if figures and seats:
            head = figures[0]
            lines.append(", ".join(p for p in (head.label, head.direction) if p) + "; [95% interval]:")
            width = max(len(short(str(seat.get("player", "")))) for seat in seats[:MAX_SHOWN])
            for seat in seats[:MAX_SHOWN]:
                text = head.text(seat.get(head.key), seat.get(f"{head.key}_ci"))
                lines.append(
                    f"  seat {seat.get('seat')}  {short(str(seat.get('player', ''))):<{width}}  {text}"
                )
            if len(seats) > MAX_SHOWN:
                lines.append(f"  ... and {len(seats) - MAX_SHOWN} more seats (see .seats)")
        lines.append(".seats / .table: every figure; .plot(); .summary: the JSON document")
        return "\n".join(lines)

    def _repr_html_(self) -> str:
        s = self.summary
        figures = seat_figures(s)
        head = ["seat", "player", *(f.label for f in figures)]
        rows = [
            [seat.get("seat"), seat.get("player")]
            + [f.text(seat.get(f.key), seat.get(f"{f.key}_ci")) for f in figures]
            for seat in s.get("seats") or []
        ]
        caption = (
            f"{self._heading()}. " + "; ".join(f.caption for f in figures) + ". In brackets: 95% intervals."
        )
        return html_table(caption, head, rows, "kortsim-result")

    def plot(self, metric: str | None = None, ax: Axes | None = None) -> Axes:
        """The headline figure of every seat with its 95% interval (or ``metric``, a key
        of :attr:`seats` such as ``"win_rate"`` or a metric name such as ``"win"``).

        Parameters
        ----------
        metric
            Which figure to draw; default: the game's primary metric.
        ax
            Draw into these Axes; default: a new figure.

        Returns
        -------
        matplotlib.axes.Axes
            The Axes drawn into (labelled with the unit and which way is better).
        """
        figures = seat_figures(self.summary)
        if not figures:
            raise InputError("this result has no per-seat figures to plot")
        chosen = figures[0]
        if metric is not None:
            match = [
                f for f in figures if metric in (f.key, f.key.removesuffix("_rate").removeprefix("mean_"))
            ]
            if not match:
                raise InputError(
                    f"no per-seat figure {metric!r} (figures: {', '.join(f.key for f in figures)})"
                )
            chosen = match[0]
        seats = self.summary["seats"]
        return interval_plot(
            [f"seat {seat['seat']}\n{seat['player']}" for seat in seats],
            [seat.get(chosen.key) for seat in seats],
            [seat.get(f"{chosen.key}_ci") for seat in seats],
            shown=chosen,
            xlabel="seat (player)",
            title=f"{self._heading()}: {chosen.title} per seat, 95% intervals",
            ax=ax,
        )

    # --- per-game records -----------------------------------------------------------

    def records(self, long: bool = False) -> pd.DataFrame:
        """The per-game records of the run, in game order.

        Parameters
        ----------
        long
            False: one row per game, the on-disk columns (``docs/records.md``).
            True: one row per game and seat, with columns ``game``, ``seat``,
            ``player``, one column per metric (``score``, ``win``, ...) and ``counted``.

        Returns
        -------
        pandas.DataFrame

        Raises
        ------
        InputError
            When the run kept no records (give ``records=True`` to ``simulate``).
        """
        from simulator.running.records import long_records, read_records

        if self.record_frame is not None:
            wide = self.record_frame
        elif self.records_path is not None and Path(self.records_path).is_dir():
            wide = read_records(self.records_path)
        else:
            raise InputError("this result holds no per-game records: run simulate(..., records=True)")
        if not long:
            return wide
        from simulator.games import get_game

        s = self.summary
        players = [seat["player"] for seat in s["seats"]]
        return long_records(wide, get_game(s["game"]), s["unit"], int(s["players"]), players)

    @property
    def seats(self) -> pd.DataFrame:
        """One row per seat: the player and its figures, intervals as ``_lo``/``_hi`` columns."""
        rows = []
        for s in self.summary["seats"]:
            row: dict[str, Any] = {}
            for k, v in s.items():
                if k.endswith("_ci"):
                    row[k[:-3] + "_lo"], row[k[:-3] + "_hi"] = v
                elif isinstance(v, dict | list):
                    row[k] = json.dumps(v)
                else:
                    row[k] = v
            rows.append(row)
        return pd.DataFrame(rows)

    @property
    def table(self) -> pd.DataFrame:
        """The top-level figures as a one-row DataFrame (intervals as ``_lo``/``_hi``)."""
        row: dict[str, Any] = {}
        for k, v in self.summary.items():
            if k == "seats":
                continue
            if k.endswith("_ci"):
                row[k[:-3] + "_lo"], row[k[:-3] + "_hi"] = v
            elif isinstance(v, dict | list):
                row[k] = json.dumps(v, ensure_ascii=False)
            else:
                row[k] = v
        return pd.DataFrame([row])

    def to_json(self, indent: int | None = 2) -> str:
        """The summary as strict JSON: a figure nothing was counted for is ``null``."""
        return dumps_json(self.summary, indent=indent)

    def without_timing(self) -> dict[str, Any]:
        return {k: v for k, v in self.summary.items() if k not in TIMING_FIELDS}

    def write(self, out_dir: str | Path) -> Path:
        """Write ``summary.parquet`` (one row per seat, top-level figures repeated) with
        provenance and the JSON summary in the file metadata; returns the path."""
        out = Path(out_dir)
        out.mkdir(parents=True, exist_ok=True)
        seats = self.seats
        top = self.table
        frame = seats.merge(top, how="cross", suffixes=("", "_all"))
        table = pa.Table.from_pandas(frame, preserve_index=False)
        meta = dict(table.schema.metadata or {})
        meta[b"kortsim.provenance"] = json.dumps(self.provenance, ensure_ascii=False).encode()
        meta[b"kortsim.summary"] = self.to_json(indent=None).encode()
        hist = {k: v.tolist() for k, v in self.histograms.items()}
        meta[b"kortsim.histograms"] = json.dumps(hist).encode()
        table = table.replace_schema_metadata(meta)
        path = out / "summary.parquet"
        pq.write_table(table, path)
        return path

    @classmethod
    def read(cls, path: str | Path) -> Result:
        p = Path(path)
        if p.is_dir():
            p = p / "summary.parquet"
        meta = pq.read_schema(p).metadata or {}
        summary = json.loads(meta[b"kortsim.summary"])
        prov = json.loads(meta.get(b"kortsim.provenance", b"{}"))
        hist = {k: np.asarray(v) for k, v in json.loads(meta.get(b"kortsim.histograms", b"{}")).items()}
        rec_dir = p.parent / "records"
        return cls(summary, hist, None, prov, records_path=rec_dir if rec_dir.is_dir() else None)


def provenance(seed: int, rules: dict, players: list, extra: dict | None = None) -> dict[str, Any]:
    """Where a result came from: enough to reproduce it and to notice a changed strategy."""
    return {
        "seed": seed,
        "rules": rules,
        "strategies": [
            {
                "spec": p.spec,
                "origin": p.family.origin,
                "source_sha256": p.family.source_hash(),
            }
            for p in players
        ],
        "kortsim": package_version(),
        "numba": numba.__version__,
        "numpy": np.__version__,
        "python": platform.python_version(),
        **(extra or {}),
    }


def settings_hash(settings: dict) -> str:
    return hashlib.sha256(json.dumps(settings, sort_keys=True).encode()).hexdigest()[:16]
