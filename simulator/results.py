"""The result of a run: figures with intervals, histograms, provenance, Parquet I/O."""

from __future__ import annotations

import hashlib
import json
import platform
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numba
import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq

SCHEMA_VERSION = 1
TIMING_FIELDS = ("elapsed_s", "games_per_s", "compile_s")


def package_version() -> str:
    try:
        from importlib.metadata import version

        return version("kortsim")
    except Exception:  # not installed (running from a checkout)
        return "0+unknown"


@dataclass
class Result:
    """Figures of one run.  ``summary`` is the JSON document (see README: JSON fields)."""

    summary: dict[str, Any]
    histograms: dict[str, np.ndarray] = field(default_factory=dict)
    aggregates: np.ndarray | None = None
    provenance: dict[str, Any] = field(default_factory=dict)

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
        return json.dumps(self.summary, indent=indent, ensure_ascii=False)

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
        return cls(summary, hist, None, prov)


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
