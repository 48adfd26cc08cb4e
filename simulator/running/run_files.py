"""The files of a run folder (``--out DIR``), their names, and reading them back.

A run folder is written only by kortsim: :mod:`~simulator.running.claim` refuses a folder
holding anything else.  The layout is described in :mod:`simulator.running.checkpoint`.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

from simulator.errors import InputError

if TYPE_CHECKING:
    from simulator.running.results import Result

RUN_FILE = "run.json"
PROGRESS_FILE = "progress.json"
JOURNAL_FILE = "blocks.jsonl"
STATUS_FILE = "status.json"
SUMMARY_FILE = "summary.parquet"
LOCK_FILE = ".lock"
RECORDS_DIR = "records"  # as simulator.running.records.RECORDS_DIR (not imported: records imports pyarrow)
RUN_FORMAT = 2
FSYNC_EVERY_S = 1.0  # the journal and progress.json are made durable this often (and at the end)
JOURNAL_COMPACT_AT = 1024  # journal lines that make it be rewritten as ...
JOURNAL_CHUNKS = 32  # ... this many lines, each the sum of consecutive ones
RUN_FILES = (RUN_FILE, PROGRESS_FILE, JOURNAL_FILE, SUMMARY_FILE)
# What a failed run's folder loses when a new run replaces it (reports of it would be stale).
REPLACED = (*RUN_FILES, STATUS_FILE, "report.html", "report.md")

RUNNING, STOPPED, COMPLETE, FAILED = "running", "stopped", "complete", "failed"


def _json(doc: Any) -> bytes:
    return (json.dumps(doc, indent=1, ensure_ascii=False) + "\n").encode()


def _sha(doc: Any) -> str:
    return hashlib.sha256(json.dumps(doc, sort_keys=True, separators=(",", ":")).encode()).hexdigest()


def _read_json(path: Path, what: str) -> dict[str, Any]:
    try:
        doc = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise InputError(f"{path} ({what}) cannot be read: {exc}") from None
    if not isinstance(doc, dict):
        raise InputError(f"{path} ({what}) is not a kortsim run file")
    return doc


def _try_json(path: Path) -> Any:
    """The JSON in ``path``; None when it is missing or does not parse (damage)."""
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None


def read_status(out: str | Path) -> dict[str, Any]:
    """How the run in ``out`` last ended (``{"state": ...}``); ``{}`` if nothing says."""
    doc = _try_json(Path(out) / STATUS_FILE)
    return doc if isinstance(doc, dict) else {}


class RunInterrupted(Exception):
    """A run was stopped (``stop`` set, or Ctrl-C) before it finished.

    ``result`` holds the figures of the ``games`` finished (None if there were none;
    its summary says ``"partial": true`` and ``"n_planned"``); with ``out``, they
    are persisted there and the run can be resumed."""

    def __init__(self, out: Path | None, games: int, planned: int, unit: str, result: Result | None) -> None:
        self.out, self.games, self.planned, self.unit, self.result = out, games, planned, unit, result
        units = "rounds" if unit == "round" else "matches"
        where = f"{out} holds" if out is not None else "finished"
        how = "; resume it with resume=True (--resume) and the same settings" if out is not None else ""
        super().__init__(f"stopped: {where} {games:,} of {planned:,} {units}{how}")
