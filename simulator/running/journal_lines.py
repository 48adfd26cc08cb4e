"""A journal of finished work: one JSON line per piece, each with a sha256 over the settings
hash of the work it belongs to and the line's own fields.

Run folders keep their blocks in one (``blocks.jsonl``, :mod:`simulator.running.journal`),
experiments their steps (``steps.jsonl``, :mod:`experiments.bundle`).  Lines are appended,
so a process killed while writing can leave only the last line cut short: a line that
does not parse is damage, dropped and its work done again; a line that parses but fails
its checksum was changed after kortsim wrote it, and the folder is refused.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from simulator.errors import InputError
from simulator.running.run_files import _sha


def line_checksum(digest: str, *fields: Any) -> str:
    """The checksum of one journal line: the work's settings hash and the line's fields."""
    return _sha([digest, *fields])


def encode_line(record: dict[str, Any], check: str) -> bytes:
    """``record`` with its checksum as ``"sha256"``, as one line of a journal."""
    return (json.dumps({**record, "sha256": check}, separators=(",", ":")) + "\n").encode()


def parsed_lines(path: Path) -> tuple[list[tuple[int, Any]], int]:
    """The lines of the journal at ``path`` that parse, with their line numbers (from 1), and
    how many did not (cut short or garbled: damage).  A missing journal has no lines."""
    try:
        raw_lines = path.read_bytes().split(b"\n") if path.exists() else []
    except OSError as exc:
        raise InputError(f"{path} cannot be read: {exc.strerror or exc}") from None
    lines, damaged = [], 0
    for i, raw in enumerate(raw_lines, 1):
        if not raw.strip():
            continue
        try:
            lines.append((i, json.loads(raw)))
        except ValueError:
            damaged += 1
    return lines, damaged


def changed(path: Path, what: str) -> InputError:
    """The refusal of a file that parses but fails a check: one wording for every folder."""
    return InputError(
        f"{path} {what}: it was changed after kortsim wrote it; restore it, or start over in "
        "another --out folder"
    )


def append_durably(path: Path, line: bytes) -> None:
    """Append one line to the journal at ``path`` and make it durable before returning."""
    with open(path, "ab") as f:
        f.write(line)
        f.flush()
        os.fsync(f.fileno())
