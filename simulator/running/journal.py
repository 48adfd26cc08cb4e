"""The run folder's journal of finished blocks, checksummed line by line, and the checks of a
folder read back (on resume and by ``kortsim report``).

What a folder is checked for, on resume and by ``kortsim report``:

* ``run.json``'s settings must match their hash, each journal line its checksum,
  and ``progress.json`` its checksum and the sum of the journal lines it counts;
  ``summary.parquet`` must be the one ``progress.json`` names.  A file that parses
  but fails a check was changed after kortsim wrote it: the folder is refused,
  in one line naming the file (the checksums catch edits and damage, not a
  forger who recomputes them).
* A file that no longer parses is damage, not an edit: an unreadable
  ``progress.json`` is rebuilt from the journal, and journal lines that do not
  parse (a cut-short last line) are dropped and their blocks played again; one
  line on stderr says so.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from simulator.errors import InputError
from simulator.running.block_plan import merge_ranges
from simulator.running.journal_lines import changed, encode_line, line_checksum, parsed_lines
from simulator.running.results import settings_hash
from simulator.running.run_files import (
    JOURNAL_FILE,
    PROGRESS_FILE,
    RECORDS_DIR,
    RUN_FILE,
    RUN_FORMAT,
    SUMMARY_FILE,
    _read_json,
    _sha,
    _try_json,
)
from simulator.running.run_settings import _plural

Ranges = list[tuple[int, int]]


Parts = list[tuple[str, str]]  # a line's record files (with --records): (name, sha256)


def block_checksum(
    digest: str, games: Sequence[tuple[int, int]], agg: Sequence[int], parts: Parts | None = None
) -> str:
    """The checksum of one journal line: the run's settings hash, the line's game ranges
    ``[a, b)``, the sum of their aggregates and (with records) its record files' sha256."""
    fields: list[Any] = [[[int(a), int(b)] for a, b in games], [int(x) for x in agg]]
    if parts:
        fields.append([[str(n), str(h)] for n, h in parts])
    return line_checksum(digest, *fields)


def journal_line(
    digest: str, games: Sequence[tuple[int, int]], agg: Sequence[int], parts: Parts | None = None
) -> bytes:
    """One line of ``blocks.jsonl``: ``{"games": [[a, b], ...], "agg": [...], "sha256": ...}``,
    with ``"parts": [[file, sha256], ...]`` when the run keeps records."""
    rec: dict[str, Any] = {"games": [[int(a), int(b)] for a, b in games], "agg": [int(x) for x in agg]}
    if parts:
        rec["parts"] = [[str(n), str(h)] for n, h in parts]
    return encode_line(rec, block_checksum(digest, games, agg, parts))


def file_sha256(path: Path) -> str | None:
    """The sha256 of a file's bytes (None when it cannot be read)."""
    h = hashlib.sha256()
    try:
        with open(path, "rb") as f:
            for chunk in iter(lambda: f.read(1 << 20), b""):
                h.update(chunk)
    except OSError:
        return None
    return h.hexdigest()


def progress_checksum(progress: dict[str, Any]) -> str:
    """The checksum of ``progress.json``: everything in it but the checksum itself."""
    return _sha({k: v for k, v in progress.items() if k != "sha256"})


def summary_checksum(path: Path) -> str | None:
    """The sha256 of the figures stored in ``summary.parquet`` (None if it cannot be read)."""
    try:
        import pyarrow.parquet as pq

        meta = pq.read_schema(path).metadata or {}
    except Exception:  # not there, or not Parquet
        return None
    data = meta.get(b"kortsim.summary")
    return hashlib.sha256(data).hexdigest() if data is not None else None


def record_parts(path: Path, first: int, count: int) -> Parts:
    """With records, a block's record file and its sha256, for the block's journal line (so
    that a file cut short or changed later is noticed on resume, and its block played again)."""
    from simulator.running.records import part_name  # records imports pyarrow

    name = part_name(first, count)
    sha = file_sha256(path / RECORDS_DIR / name)
    if sha is None:
        raise RuntimeError(f"the records of games {first}..{first + count - 1} were not written")
    return [(name, sha)]


# --- reading and checking a folder ------------------------------------------------------


_changed = changed  # the one wording (simulator.running.journal_lines)


@dataclass
class FolderState:
    """A run folder as read and checked: the finished blocks (from the journal) and what
    must be repaired before playing on."""

    meta: dict[str, Any]
    blocks: list[tuple[Ranges, list[int], Parts]]  # (ranges, summed agg, record files) per intact line
    done: list[tuple[int, int]]
    agg: list[int]
    progress: dict[str, Any] | None  # progress.json when it is intact and agrees
    damaged_lines: int = 0  # journal lines that did not parse (to be dropped and replayed)
    notices: list[str] = field(default_factory=list)
    damaged_parts: int = 0  # lines whose record files are cut, changed or missing (replayed)

    @property
    def games(self) -> int:
        return sum(b - a for a, b in self.done)

    @property
    def repaired(self) -> bool:
        return self.progress is None or self.damaged_lines > 0 or self.damaged_parts > 0


def read_meta(path: Path) -> dict[str, Any]:
    """``run.json``, checked against its settings hash."""
    meta = _read_json(path / RUN_FILE, "the run's settings")
    if meta.get("kortsim_run") == 1:
        raise InputError(
            f"{path / RUN_FILE} is a run folder of an older kortsim (without a block journal): "
            "start the run again in another --out folder"
        )
    if meta.get("kortsim_run") != RUN_FORMAT or not isinstance(meta.get("settings"), dict):
        raise InputError(f"{path / RUN_FILE} is not a run this kortsim can resume")
    try:
        digest = settings_hash(meta["settings"])
    except (TypeError, ValueError):
        digest = None
    if digest != meta.get("settings_hash") or not isinstance(meta.get("n"), int):
        raise _changed(path / RUN_FILE, "does not match its settings hash")
    return meta


def read_state(path: Path, meta: dict[str, Any], width: int | None = None) -> FolderState:
    """Read the journal and ``progress.json`` of the run in ``path`` and check them against
    each other and ``meta``; writes nothing.  An edited file is refused (:class:`InputError`
    naming it); damage is noted in the returned state, to be repaired by :meth:`RunFolder.open`."""
    digest = meta["settings_hash"]
    journal = path / JOURNAL_FILE
    blocks: list[tuple[Ranges, list[int], Parts]] = []
    bad_parts = 0
    lines, damaged = parsed_lines(journal)  # a line cut short or garbled: its blocks are played again
    covered: Ranges = []
    for i, rec in lines:
        try:
            games = [(int(a), int(b)) for a, b in rec["games"]]
            agg, check = rec["agg"], rec["sha256"]
            parts = [(str(n), str(h)) for n, h in rec.get("parts", [])]
            ok = (
                isinstance(agg, list)
                and all(isinstance(x, int) and not isinstance(x, bool) for x in agg)
                and all(0 <= a < b for a, b in games)
                and all("/" not in n and "\\" not in n and n.startswith("part-") for n, _ in parts)
                and block_checksum(digest, games, agg, parts) == check
            )
        except (KeyError, TypeError, ValueError):
            ok = False
        if not ok:
            raise _changed(journal, f"line {i} fails its checksum")
        if width is None:
            width = len(agg)
        if len(agg) != width:
            raise InputError(f"{journal} does not belong to this run's settings (line {i})")
        if any(a < d and c < b for a, b in games for c, d in covered) or len(merge_ranges(games)) != len(
            games
        ):
            raise _changed(journal, f"line {i} counts games already counted")
        if any(file_sha256(path / RECORDS_DIR / name) != sha for name, sha in parts):
            bad_parts += 1  # a record file cut short or changed: damage, never trusted; replayed
            continue
        covered = merge_ranges([*covered, *games])
        blocks.append((games, agg, parts))
    total = np.zeros(width or 0, dtype=object)  # Python ints: no overflow in a sum of int64s
    for _, agg, _ in blocks:
        total = total + np.array(agg, dtype=object)
    state = FolderState(
        meta, blocks, covered, [int(x) for x in total], None, damaged, damaged_parts=bad_parts
    )
    progress = _try_json(path / PROGRESS_FILE)
    if isinstance(progress, dict):
        if progress.get("sha256") != progress_checksum(progress):
            raise _changed(path / PROGRESS_FILE, "fails its checksum")
        if progress.get("settings_hash") != digest or (width is not None and progress.get("width") != width):
            raise InputError(f"{path / PROGRESS_FILE} does not belong to this run's settings")
        if not damaged and not bad_parts:
            # The journal is written first: it holds what progress.json sums, and perhaps a
            # block or more that a killed process had no time to add to it.
            summed = progress.get("done")
            try:
                summed_ranges = merge_ranges([(int(a), int(b)) for a, b in summed])
            except (TypeError, ValueError):
                summed_ranges = None
            if (
                summed_ranges is None
                or merge_ranges([*summed_ranges, *covered]) != covered  # not all in the journal
                or (summed_ranges == covered and progress.get("agg") != state.agg)
            ):
                raise _changed(path / PROGRESS_FILE, f"does not match {JOURNAL_FILE}")
        state.progress = progress
    elif blocks or (path / PROGRESS_FILE).exists():
        state.notices.append(
            f"{path / PROGRESS_FILE} was damaged or missing: rebuilt it from the {len(blocks):,} "
            f"intact lines of {JOURNAL_FILE} ({state.games:,} {_plural(meta['settings']['unit'])})"
        )
    if bad_parts:
        state.notices.append(
            f"{path / RECORDS_DIR}: the record files of {bad_parts:,} journal line(s) are cut short, "
            "changed or missing; their games are played again"
        )
    if damaged:
        state.notices.append(f"{journal}: {damaged:,} damaged line(s) dropped; their games are played again")
    return state


def verify_folder(out: str | Path) -> FolderState | None:
    """Check a finished or stopped run folder before it is reported on: every check of a
    resume, and that ``summary.parquet`` is the one the run wrote.  None when ``out`` holds
    no run (a sweep's or an experiment's folder)."""
    path = Path(out)
    if not (path / RUN_FILE).is_file():
        return None
    meta = read_meta(path)
    state = read_state(path, meta)
    if state.repaired:
        raise InputError(
            f"{path} is damaged ({state.notices[0]}); resume the run (--resume) to repair it, "
            "then report on it"
        )
    summary = path / SUMMARY_FILE
    if summary.exists():
        wanted = (state.progress or {}).get("summary_sha256")
        if wanted is None or summary_checksum(summary) != wanted:
            raise _changed(summary, f"is not the summary of the run's finished blocks ({PROGRESS_FILE})")
    return state


def compacted(
    lines: list[tuple[Ranges, np.ndarray, Parts]], chunks: int
) -> list[tuple[Ranges, np.ndarray, Parts]]:
    """``lines`` summed into ``chunks`` lines of consecutive ones (ranges and aggregates), so
    that damage to one line then costs at most that share of the run."""
    size = -(-len(lines) // chunks)
    return [
        (
            merge_ranges([r for games, _, _ in lines[i : i + size] for r in games]),
            np.sum([agg for _, agg, _ in lines[i : i + size]], axis=0, dtype=np.int64),
            [p for _, _, parts in lines[i : i + size] for p in parts],
        )
        for i in range(0, len(lines), size)
    ]
