"""The result of a run: figures with intervals, histograms, provenance, Parquet I/O.

A :class:`Result` prints short (``repr``: the headline figure of every seat with
its 95% interval), shows as an HTML table in Jupyter (``_repr_html_``) and draws
itself (:meth:`Result.plot`).  Its display helpers are in :mod:`simulator.running.display`
(they serve :class:`simulator.analysis.compare.CompareResult` too), its documents (JSON,
provenance) in :mod:`simulator.running.documents`; both are importable from here as before.
pandas and pyarrow are imported when a table is asked for or a file written.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from simulator.engine import formatting
from simulator.errors import InputError
from simulator.running.display import (
    MAX_SHOWN,
    Shown,
    html_table,
    interval_plot,
    metric_shown,
    seat_figures,
    short,
    shown_of,
    unit_words,
)
from simulator.running.documents import (
    SCHEMA_VERSION,
    TIMING_FIELDS,
    dumps_json,
    json_ready,
    package_version,
    plain,
    provenance,
    settings_hash,
)

if TYPE_CHECKING:
    import numpy as np
    import pandas as pd
    from matplotlib.axes import Axes


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
        import pandas as pd

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
        import pandas as pd

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
        import pyarrow as pa
        import pyarrow.parquet as pq

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
        """The result a run folder (or its ``summary.parquet``) holds."""
        import numpy as np
        import pyarrow.parquet as pq

        p = Path(path)
        if p.is_dir():
            p = p / "summary.parquet"
        meta = pq.read_schema(p).metadata or {}
        summary = json.loads(meta[b"kortsim.summary"])
        prov = json.loads(meta.get(b"kortsim.provenance", b"{}"))
        hist = {k: np.asarray(v) for k, v in json.loads(meta.get(b"kortsim.histograms", b"{}")).items()}
        rec_dir = p.parent / "records"
        return cls(summary, hist, None, prov, records_path=rec_dir if rec_dir.is_dir() else None)


__all__ = [
    "MAX_SHOWN",
    "SCHEMA_VERSION",
    "TIMING_FIELDS",
    "Result",
    "Shown",
    "dumps_json",
    "html_table",
    "interval_plot",
    "json_ready",
    "metric_shown",
    "package_version",
    "plain",
    "provenance",
    "seat_figures",
    "settings_hash",
    "short",
    "shown_of",
    "unit_words",
]
