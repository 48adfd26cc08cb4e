"""Per-game records (``--records``): one row per game, streamed to a Parquet dataset.

Every block of games is written as its own file under ``DIR/records/`` as
soon as it is played, so memory holds one block whatever the number of games.
The folder is an ordinary Parquet dataset: ``pandas.read_parquet(DIR /
"records")``, ``pyarrow.dataset.dataset(...)`` and DuckDB's
``read_parquet('DIR/records/*.parquet')`` all read it.

Columns, in order:

``game`` (int64)
    The game's index in the run: round ``i`` of ``--rounds N`` or match ``i`` of
    ``--matches N``.  With the seed it names the game: ``kortsim trace --game i``.
the game's record columns (int64)
    As the game's kernel writes them (``Game.record_columns(unit, n_seats)``;
    ``docs/records.md`` describes each game's).
``<metric>_seat<s>``
    Each seat's outcome for every metric of ``Game.metrics(unit)``, decoded from
    the record columns by ``Game.outcomes``: int8 0/1 for rates (a win, a loss,
    a letter), int64 for counts, float64 where the metric has a scale (Spøkelse
    scores are kept in half points and reported in points).
``counted`` (bool)
    Whether the game enters the figures (False for stalled, replayed or
    abandoned games, RULES.md §6).

**In memory and in long format.**  ``simulate(..., records=True)`` without
``out`` keeps the records in memory instead (at most ``MAX_RECORDS_IN_MEMORY``
games; above that it refuses and points to ``out=``): ``result.records()`` gives
the frame above, ``result.records(long=True)`` one row per game and seat with
columns ``game``, ``seat``, ``player``, the game-level columns repeated on every
seat's row, the per-seat columns (one column per metric: ``score``, ``win``, ...)
and ``counted`` (:func:`long_records`).  ``read_records(DIR,
long=True)`` reads a run folder's records in the same long format.

File and schema metadata: ``kortsim.provenance`` (seed, rules, strategies and
a hash of their source, versions), ``kortsim.settings`` (the run's settings,
as in ``run.json``) and ``kortsim.columns`` (a description of every column),
all JSON.  ``_common_metadata`` holds the schema alone.

Files are named ``part-<first game>-<end>.parquet`` (zero-padded, so they sort
in game order).  A file is written under a temporary name and renamed into
place; files of blocks that a killed run had not yet counted as finished are
removed when the run is resumed (``simulator/checkpoint.py``).
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq

from simulator.backends import merge_ranges
from simulator.games.base import Game, InputError, Metric

RECORDS_DIR = "records"
RECORDS_FORMAT = 1
MAX_RECORDS_IN_MEMORY = 1_000_000
"""Games whose records ``simulate(..., records=True)`` keeps in memory without ``out``
(1,000,000 Spøkelse rounds: about 60 MB, as much again in long format); longer runs
stream them to ``out/records/``."""
PART = re.compile(r"^part-(\d+)-(\d+)\.parquet$")

GAME_DOC = (
    "the game's index in the run (round i of --rounds, match i of --matches); "
    "with the seed it names the game (kortsim trace --game i)"
)
COUNTED_DOC = "the game enters the figures (not stalled, replayed or abandoned; RULES.md §6)"

# What each game's record columns mean (by game and unit); see docs/records.md.
COLUMN_DOCS: dict[tuple[str, str], dict[str, str]] = {
    ("spokelse", "round"): {
        "score_half_0": "seat 0's score at the end of the round, in half points",
        "score_half_1": "seat 1's score at the end of the round, in half points",
        "turns": "turns played in the round",
        "capped": "1 if the round was stopped at the 400-turn cap",
    },
    ("spokelse", "match"): {
        "total_half_0": "seat 0's match total at the end, in half points",
        "total_half_1": "seat 1's match total at the end, in half points",
        "rounds": "rounds played in the match",
        "capped_rounds": "rounds of the match stopped at the 400-turn cap",
        "first_dealer": "the seat that dealt the first round",
        "loser": "the seat that lost the match (-1 for a draw)",
    },
    ("gris", "round"): {
        "passes": "passes made in the round",
        "stalled": "1 if the round stalled (RULES.md §6)",
        "loser": "the seat that got the letter (-1 if stalled)",
        "signallers": "bit mask of the seats that signalled (bit s = seat s)",
    },
    ("gris", "match"): {
        "rounds": "counted rounds of the match",
        "stalled_rounds": "stalled deals of the match",
        "abandoned": "1 if the match was abandoned",
        "first_dealer": "the seat that dealt the first round",
        "loser": "the seat that lost the match, holding G-R-I-S (-1 if abandoned)",
        "letters_{s}": "letters seat {s} held at the end of the match",
    },
    ("gris-nese", "round"): {
        "passes": "passes made in the round",
        "stalled": "1 if the round stalled",
        "replayed": "1 if the round was replayed",
        "loser": "the original seat that left (-1 if stalled or replayed)",
        "signallers": "bit mask over original seats that held four of a kind",
    },
    ("gris-nese", "match"): {
        "abandoned": "1 if the match was abandoned",
        "rounds": "rounds of the match",
        "stalled": "stalled deals of the match",
        "replayed": "replayed deals of the match",
        "deals": "deals of the match, stalled and replayed ones included",
        "place_{s}": "original seat {s}'s place (1 for the two joint winners; 0 if abandoned)",
    },
}


def _column_doc(game: str, unit: str, name: str) -> str:
    docs = COLUMN_DOCS.get((game, unit), {})
    if name in docs:
        return docs[name]
    m = re.match(r"^(.*_)(\d+)$", name)
    if m and m.group(1) + "{s}" in docs:
        return docs[m.group(1) + "{s}"].replace("{s}", m.group(2))
    return "written by the game's kernel (see its rules module)"


def _metric_type(m: Metric) -> pa.DataType:
    if m.scale != 1.0:
        return pa.float64()
    return pa.int8() if m.kind == "rate" else pa.int64()


def record_schema(game: Game, unit: str, n_seats: int) -> pa.Schema:
    """The columns of a run's records (without metadata)."""
    fields = [pa.field("game", pa.int64(), nullable=False)]
    fields += [pa.field(c, pa.int64(), nullable=False) for c in game.record_columns(unit, n_seats)]
    for m in game.metrics(unit):
        fields += [pa.field(f"{m.name}_seat{s}", _metric_type(m), nullable=False) for s in range(n_seats)]
    fields.append(pa.field("counted", pa.bool_(), nullable=False))
    return pa.schema(fields)


def column_docs(game: Game, unit: str, n_seats: int) -> dict[str, str]:
    """A description of every column of :func:`record_schema`."""
    docs = {"game": GAME_DOC}
    for c in game.record_columns(unit, n_seats):
        docs[c] = _column_doc(game.name, unit, c)
    for m in game.metrics(unit):
        in_points = " (in points)" if m.scale != 1.0 else ""
        for s in range(n_seats):
            docs[f"{m.name}_seat{s}"] = f"seat {s}: {m.doc}{in_points}"
    docs["counted"] = COUNTED_DOC
    return docs


def records_table(
    game: Game, unit: str, n_seats: int, first: int, rec: np.ndarray, schema: pa.Schema
) -> pa.Table:
    """One block's records (``rec``: int64[games, record columns]) as an Arrow table."""
    n = rec.shape[0]
    cols: dict[str, Any] = {"game": np.arange(first, first + n, dtype=np.int64)}
    for i, c in enumerate(game.record_columns(unit, n_seats)):
        cols[c] = np.ascontiguousarray(rec[:, i])
    outcomes, counted = game.outcomes(rec, unit, n_seats)
    for m in game.metrics(unit):
        values = outcomes[m.name]
        for s in range(n_seats):
            v = values[:, s]
            cols[f"{m.name}_seat{s}"] = v * m.scale if m.scale != 1.0 else v
    cols["counted"] = np.asarray(counted, dtype=bool)
    arrays = [pa.array(cols[f.name], type=f.type) for f in schema]
    return pa.Table.from_arrays(arrays, schema=schema)


def part_name(first: int, count: int) -> str:
    return f"part-{first:015d}-{first + count:015d}.parquet"


class RecordWriter:
    """Writes each block's records to its own file in ``folder`` (created if need be)."""

    def __init__(
        self,
        folder: str | Path,
        game: Game,
        unit: str,
        n_seats: int,
        provenance: dict[str, Any],
        settings: dict[str, Any],
    ) -> None:
        self.folder = Path(folder)
        self.game, self.unit, self.n_seats = game, unit, n_seats
        meta = {
            b"kortsim.records_format": str(RECORDS_FORMAT).encode(),
            b"kortsim.provenance": json.dumps(provenance, ensure_ascii=False).encode(),
            b"kortsim.settings": json.dumps(settings, ensure_ascii=False).encode(),
            b"kortsim.columns": json.dumps(column_docs(game, unit, n_seats), ensure_ascii=False).encode(),
        }
        self.schema = record_schema(game, unit, n_seats).with_metadata(meta)
        self.folder.mkdir(parents=True, exist_ok=True)
        common = self.folder / "_common_metadata"
        if not common.is_file():
            tmp = self.folder / f"._common_metadata.{os.getpid()}.tmp"
            pq.write_metadata(self.schema, tmp)
            os.replace(tmp, common)

    def write(self, first: int, rec: np.ndarray) -> Path:
        """Write one block (``rec`` holds games ``first, first + 1, ...``); returns its file."""
        table = records_table(self.game, self.unit, self.n_seats, first, rec, self.schema)
        final = self.folder / part_name(first, rec.shape[0])
        tmp = self.folder / f".{final.name}.{os.getpid()}.tmp"
        pq.write_table(table, tmp, compression="zstd")
        with open(tmp, "rb") as f:
            os.fsync(f.fileno())  # the file is durable before the block is counted as done
        os.replace(tmp, final)
        return final

    def parts(self) -> list[tuple[int, int, Path]]:
        out = []
        for p in self.folder.iterdir():
            m = PART.match(p.name)
            if m:
                out.append((int(m.group(1)), int(m.group(2)), p))
        return sorted(out)

    def prune(self, done: Sequence[tuple[int, int]]) -> int:
        """Remove leftovers of a killed run: temporary files, and files of blocks not in
        ``done``; check that every finished game has its records.  Returns files removed."""
        removed = 0
        for p in self.folder.glob(".*.tmp"):
            p.unlink(missing_ok=True)
            removed += 1
        done = merge_ranges(done)
        kept = []
        for a, b, p in self.parts():
            if any(x <= a and b <= y for x, y in done):
                kept.append((a, b))
            else:
                p.unlink()
                removed += 1
        if merge_ranges(kept) != done:
            raise InputError(
                f"{self.folder} is missing records of finished games (were files removed?); "
                "start the run afresh in another --out folder"
            )
        return removed


def records_dataset(out: str | Path):
    """The records of a run as a ``pyarrow.dataset.Dataset`` (reads lazily)."""
    import pyarrow.dataset as ds

    folder = Path(out)
    if (folder / RECORDS_DIR).is_dir():
        folder = folder / RECORDS_DIR
    return ds.dataset(folder, format="parquet")


def read_records(out: str | Path, columns: Sequence[str] | None = None, long: bool = False) -> pd.DataFrame:
    """A run's records as a DataFrame in game order (mind memory for long runs: use
    :func:`records_dataset` or DuckDB to aggregate without loading everything).

    Parameters
    ----------
    out
        The run folder (``--out DIR``) or its ``records`` folder.
    columns
        Read only these columns of the on-disk (wide) format.
    long
        One row per game and seat (``game``, ``seat``, ``player``, one column per
        metric, ``counted``; see :func:`long_records`) instead of one row per game.
    """
    if long and columns:
        raise InputError("give columns= for the wide format or long=True, not both")
    try:
        table = records_dataset(out).to_table(columns=list(columns) if columns else None)
    except (FileNotFoundError, pa.ArrowInvalid) as exc:
        raise InputError(f"{out} holds no readable records: {str(exc).splitlines()[0]}") from None
    frame = table.to_pandas()
    if "game" in frame.columns:
        frame = frame.sort_values("game", kind="stable").reset_index(drop=True)
    if not long:
        return frame
    from simulator.games import get_game

    meta = records_metadata(out)
    settings = meta.get("settings", {})
    players = [p["spec"] for p in meta.get("provenance", {}).get("strategies", [])]
    game = get_game(settings["game"])
    return long_records(frame, game, settings["unit"], int(settings["players"]), players)


def records_frame(
    game: Game, unit: str, n_seats: int, blocks: Sequence[tuple[int, np.ndarray]]
) -> pd.DataFrame:
    """Records kept in memory, in the on-disk columns and in game order: ``blocks`` holds
    ``(first game, int64[games, record columns])`` pairs in any order."""
    schema = record_schema(game, unit, n_seats)
    tables = [
        records_table(game, unit, n_seats, first, rec, schema)
        for first, rec in sorted(blocks, key=lambda b: b[0])
    ]
    table = pa.concat_tables(tables) if tables else schema.empty_table()
    return table.to_pandas()


def _seat_groups(columns: Sequence[str], n_seats: int) -> dict[str, tuple[str, list[str]]]:
    """The wide format's per-seat columns, grouped: ``{long name: (kind, [column of seat 0,
    ...])}``, where ``kind`` is ``"metric"`` for ``<metric>_seat<s>`` and ``"record"`` for the
    kernel's own ``<name>_<s>`` columns (named ``<name>_raw`` in long format when a metric
    already has that name)."""
    present = set(columns)
    found_groups: list[tuple[str, str, list[str]]] = []
    for c in columns:
        for kind, sep in (("metric", "_seat"), ("record", "_")):
            head, found, tail = c.rpartition(sep)
            if not found or tail != "0" or not head:
                continue
            seat_cols = [f"{head}{sep}{s}" for s in range(n_seats)]
            if all(col in present for col in seat_cols):
                found_groups.append((head, kind, seat_cols))
                break
    metrics = {h for h, kind, _ in found_groups if kind == "metric"}
    return {
        (f"{h}_raw" if kind == "record" and h in metrics else h): (kind, cols)
        for h, kind, cols in found_groups
    }


def long_records(
    wide: pd.DataFrame, game: Game, unit: str, n_seats: int, players: Sequence[str]
) -> pd.DataFrame:
    """Records in long format: one row per game and seat, in game then seat order.

    Columns: ``game`` (int64), ``seat`` (int64), ``player`` (the seat's strategy spec,
    categorical), then every game-level column of the wide format (``turns``, ``capped``,
    ``rounds``, ``stalled``, ...) repeated on each of the game's rows, the kernel's
    per-seat columns (``score_half_<s>`` becomes ``score_half``; ``letters_<s>`` becomes
    ``letters_raw`` beside the metric ``letters``), one column per metric of
    ``game.metrics(unit)`` (``<metric>_seat<s>`` of the wide format) and ``counted``
    (bool, the game's).  Values and types are those of the wide format.
    """
    n = len(wide)
    if len(players) != n_seats:
        raise InputError(f"{len(players)} players for {n_seats} seats: give one strategy spec per seat")
    names = [str(p) for p in players]
    cols: dict[str, Any] = {
        "game": np.repeat(wide["game"].to_numpy(dtype=np.int64), n_seats),
        "seat": np.tile(np.arange(n_seats, dtype=np.int64), n),
        "player": pd.Categorical(
            np.tile(np.asarray(names, dtype=object), n), categories=list(dict.fromkeys(names))
        ),
    }
    groups = _seat_groups([str(c) for c in wide.columns], n_seats)
    per_seat = {c for _, seat_cols in groups.values() for c in seat_cols}
    for c in wide.columns:
        if c not in per_seat and c not in ("game", "counted"):
            cols[str(c)] = np.repeat(wide[c].to_numpy(), n_seats)
    ordered = sorted(groups.items(), key=lambda item: item[1][0] == "metric")  # records, then metrics
    for long_name, (_, seat_cols) in ordered:
        cols[long_name] = wide[seat_cols].to_numpy().reshape(-1)
    for m in game.metrics(unit):  # every metric, even if a wide frame lacked a seat's column
        if m.name not in cols:
            cols[m.name] = wide[[f"{m.name}_seat{s}" for s in range(n_seats)]].to_numpy().reshape(-1)
    cols["counted"] = np.repeat(wide["counted"].to_numpy(dtype=bool), n_seats)
    return pd.DataFrame(cols)


def records_metadata(out: str | Path) -> dict[str, Any]:
    """The JSON metadata of a run's records: provenance, settings and column docs."""
    folder = Path(out)
    if (folder / RECORDS_DIR).is_dir():
        folder = folder / RECORDS_DIR
    meta = pq.read_schema(folder / "_common_metadata").metadata or {}
    return {
        k.decode().removeprefix("kortsim."): json.loads(v)
        for k, v in meta.items()
        if k.startswith(b"kortsim.") and k != b"kortsim.records_format"
    }
