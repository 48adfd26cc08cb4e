"""Run folders: a run written to ``--out DIR`` as it goes, so that no finished work is lost.

Layout of ``DIR``::

    run.json          what the run is: its settings (game, unit, seed, players, rules,
                      reaction, every seat's strategy with a hash of its source), their
                      hash, the number of games asked for, whether records are kept
    blocks.jsonl      the journal: a line per finished block (its game range and its
                      integer aggregates; with --records, its record file and that file's
                      sha256), each with its own sha256 over the run's settings hash and the
                      line; once 1,024 lines long it is rewritten as 32 lines, each summing
                      consecutive ones (ranges, aggregates, record files)
    progress.json     the sum of the journal: the game ranges done (merged), the integer
                      sum of their aggregates, the seconds spent playing them, how many
                      journal lines, the sha256 of summary.parquet's figures, and
                      a sha256 of all that
    status.json       how the last session ended: running (or killed), stopped,
                      complete or failed (with the error)
    summary.parquet   the figures, with provenance (written when the run finishes, and
                      for the finished games when it is stopped)
    records/          with --records: one Parquet file per block (simulator/running/records.py)
    .lock             the folder's lock (filelock), held by the process working on the run;
                      an OS lock, released however that process ends

The folder is claimed as every ``--out`` folder is (:mod:`simulator.running.claim`): a
folder holding files kortsim did not write is refused, in the words every command uses.

Every file but the journal is written under a temporary name and renamed into
place; journal lines are appended, so a process killed at any moment (even by
SIGKILL) leaves each file either as it was or as it is meant to be, except for
a last journal line that may be cut short.  A block's records are in place
before the journal counts the block as done; records of a block that was not
counted yet are removed when the run is resumed, and the block is played again; a
record file cut short or changed after its block was counted is never trusted: its
journal line is dropped and its games are played again.

What a folder is checked for, on resume and by ``kortsim report``, and what is repaired:
see :mod:`simulator.running.journal`.

A run that ends in an error (an illegal strategy move, a worker that failed) is
marked ``failed`` in ``status.json``: a new run with the same ``--out`` replaces
it, with a one-line notice, while a finished, stopped or killed run stays
protected (``--resume`` continues it).

Because every game's randomness is keyed by ``(seed, game index)`` and
aggregates are integer sums, a resumed run ends with exactly the numbers of an
uninterrupted one, and a finished run can be extended to more games.
"""

# ruff: noqa: F401 -- the names of the folder's pieces (modules below) stay importable from here
from __future__ import annotations

import contextlib
import os
import shutil
import sys
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import numpy as np

from simulator.engine.files import atomic_write
from simulator.engine.files import fsync_dir as _fsync_dir
from simulator.running.block_plan import merge_ranges, missing_ranges
from simulator.running.claim import (
    _lock,
    _remove_temporaries,
    _replace_failed,
    _unlock,
    _unwritable,
    check_run_folder,
    stored_seed,
)
from simulator.running.journal import (
    FolderState,
    Parts,
    Ranges,
    block_checksum,
    compacted,
    file_sha256,
    journal_line,
    progress_checksum,
    read_meta,
    read_state,
    record_parts,
    summary_checksum,
    verify_folder,
)
from simulator.running.results import Result, package_version, settings_hash
from simulator.running.run_files import (
    COMPLETE,
    FAILED,
    FSYNC_EVERY_S,
    JOURNAL_CHUNKS,
    JOURNAL_COMPACT_AT,
    JOURNAL_FILE,
    LOCK_FILE,
    PROGRESS_FILE,
    RECORDS_DIR,
    RUN_FILE,
    RUN_FILES,
    RUN_FORMAT,
    RUNNING,
    STATUS_FILE,
    STOPPED,
    SUMMARY_FILE,
    RunInterrupted,
    _json,
    read_status,
)
from simulator.running.run_settings import differences, run_settings

# --- the run's folder, open for this process ----------------------------------------------


class RunFolder:
    """A run's folder, opened for this process (it holds the folder's lock until ``close``)."""

    def __init__(self, path: Path, meta: dict[str, Any], state: FolderState, lock: Any) -> None:
        self.path = path
        self.meta = meta
        self.done: list[tuple[int, int]] = list(state.done)
        self.agg = np.array(state.agg, dtype=np.int64) if state.agg else np.zeros(0, dtype=np.int64)
        # The journal's lines, kept to rewrite it (compacted) without reading it back.
        self._lines: list[tuple[Ranges, np.ndarray, Parts]] = [
            (list(games), np.array(agg, dtype=np.int64), list(parts)) for games, agg, parts in state.blocks
        ]
        progress = state.progress or {}
        self.elapsed_before = float(progress.get("elapsed_s", 0.0))
        self.sessions = int(progress.get("sessions", 0)) + 1
        self.summary_sha256: str | None = progress.get("summary_sha256")
        self._lock = lock
        self._clock: float | None = None
        self._synced = time.monotonic()
        self._journal: Any = None

    # --- opening -------------------------------------------------------------------

    # Refuse, in one line, a folder that :meth:`open` would refuse (claim.py holds the rules).
    check = staticmethod(check_run_folder)

    @classmethod
    def open(
        cls,
        out: str | Path,
        settings: dict[str, Any],
        n: int,
        *,
        width: int,
        records: bool,
        resume: bool,
    ) -> RunFolder:
        """Start a run in ``out`` (refused if one is there, unless that run failed: then it is
        replaced, with a notice), or resume the one there (refused if its settings differ from
        ``settings``; a larger ``n`` extends it; a damaged summary is rebuilt from the journal)."""
        path = Path(out)
        cls.check(path, settings, n, width=width, records=records, resume=resume)
        try:
            path.mkdir(parents=True, exist_ok=True)
            lock = _lock(path)
        except OSError as exc:
            raise _unwritable(path, exc) from None
        try:
            _remove_temporaries(path)
            # Read again under the lock: another process may have moved the run on meanwhile.
            state = cls.check(path, settings, n, width=width, records=records, resume=resume)
            if state is not None:
                meta = state.meta
                if n != meta.get("n"):
                    meta = {**meta, "n": n}
                    atomic_write(path / RUN_FILE, _json(meta))
                folder = cls(path, meta, state, lock)
                if state.repaired or len(folder._lines) >= JOURNAL_COMPACT_AT:
                    folder._rewrite_journal()
                    folder.save(force_sync=True)
                for line in state.notices:
                    print(f"note: {line}", file=sys.stderr, flush=True)
            else:
                status = read_status(path)
                if status.get("state") == FAILED:
                    _replace_failed(path)
                    why = f" ({status['error']})" if status.get("error") else ""
                    print(
                        f"note: {path} held a run that failed{why}; starting a new run there",
                        file=sys.stderr,
                        flush=True,
                    )
                digest = settings_hash(settings)
                meta = {
                    "kortsim_run": RUN_FORMAT,
                    "settings": settings,
                    "settings_hash": digest,
                    "n": n,
                    "records": records,
                    "created": datetime.now(UTC).isoformat(timespec="seconds"),
                    "kortsim": package_version(),
                }
                atomic_write(path / RUN_FILE, _json(meta))
                empty = FolderState(meta, [], [], [0] * width, None)
                folder = cls(path, meta, empty, lock)
                folder._rewrite_journal()
                folder.save(force_sync=True)
            folder.set_status(RUNNING)
        except OSError as exc:
            _unlock(lock)
            raise _unwritable(path, exc) from None
        except BaseException:
            _unlock(lock)
            raise
        return folder

    # --- while running ----------------------------------------------------------------

    @property
    def n(self) -> int:
        return int(self.meta["n"])

    @property
    def games(self) -> int:
        return sum(b - a for a, b in self.done)

    @property
    def unit(self) -> str:
        return self.meta["settings"]["unit"]

    def gaps(self) -> list[tuple[int, int]]:
        """The games of ``[0, n)`` still to play."""
        return missing_ranges(self.n, self.done)

    def start_clock(self) -> None:
        self._clock = time.perf_counter()

    @property
    def elapsed_s(self) -> float:
        """Seconds spent playing, over every session of the run."""
        return self.elapsed_before + (time.perf_counter() - self._clock if self._clock is not None else 0.0)

    def add(self, first: int, count: int, agg: np.ndarray) -> None:
        """A block is finished: count it and persist it (its records must be written first).
        The journal line goes first: it is what a resumed run trusts."""
        if any(a < first + count and first < b for a, b in self.done):
            raise RuntimeError(f"games {first}..{first + count - 1} are already counted in {self.path}")
        games = [(int(first), int(first + count))]
        parts = record_parts(self.path, first, count) if self.meta.get("records") else []
        if self._journal is None:
            self._journal = open(self.path / JOURNAL_FILE, "ab")  # noqa: SIM115 (kept open)
        self._journal.write(journal_line(self.meta["settings_hash"], games, agg, parts))
        self._journal.flush()
        self._lines.append((games, np.array(agg, dtype=np.int64), parts))
        self.done = merge_ranges([*self.done, *games])
        self.agg += agg
        if len(self._lines) >= JOURNAL_COMPACT_AT:
            self._rewrite_journal()
            self.save(force_sync=True)
        else:
            self.save()

    @property
    def blocks(self) -> int:
        """Lines in the journal."""
        return len(self._lines)

    def _rewrite_journal(self) -> None:
        """Write the journal afresh (atomically): without damaged lines, and, once it is long,
        compacted to ``JOURNAL_CHUNKS`` lines, each summing consecutive lines (damage to one
        then costs at most that share of the run)."""
        if self._journal is not None:
            self._journal.close()
            self._journal = None
        if len(self._lines) >= JOURNAL_COMPACT_AT:
            self._lines = compacted(self._lines, JOURNAL_CHUNKS)
        lines = self._lines
        digest = self.meta["settings_hash"]
        atomic_write(self.path / JOURNAL_FILE, b"".join(journal_line(digest, g, a, pt) for g, a, pt in lines))

    def save(self, force_sync: bool = False) -> None:
        now = time.monotonic()
        sync = force_sync or now - self._synced >= FSYNC_EVERY_S
        if sync and self._journal is not None:
            os.fsync(self._journal.fileno())  # the journal is durable before its sum is
        progress = {
            "settings_hash": self.meta["settings_hash"],
            "width": int(self.agg.shape[0]),
            "done": [list(r) for r in self.done],
            "games": self.games,
            "agg": [int(x) for x in self.agg],
            "blocks": self.blocks,
            "elapsed_s": self.elapsed_s,
            "sessions": self.sessions,
            "summary_sha256": self.summary_sha256,
        }
        progress["sha256"] = progress_checksum(progress)
        atomic_write(self.path / PROGRESS_FILE, _json(progress), fsync=sync)
        if sync:
            self._synced = now

    def set_status(self, state: str, error: str | None = None) -> None:
        """Record how the run stands (``status.json``)."""
        doc: dict[str, Any] = {"state": state, "games": self.games, "planned": self.n}
        if error:
            doc["error"] = error
        doc["at"] = datetime.now(UTC).isoformat(timespec="seconds")
        atomic_write(self.path / STATUS_FILE, _json(doc))

    def write_summary(self, result: Result) -> Path:
        """``summary.parquet``, written whole or not at all; ``progress.json`` then names it."""
        tmp = self.path / f".summary-{os.getpid()}.tmp"
        tmp.mkdir(exist_ok=True)
        try:
            written = result.write(tmp)
            with open(written, "rb") as f:
                os.fsync(f.fileno())
            sha = summary_checksum(written)
            final = self.path / SUMMARY_FILE
            os.replace(written, final)
            _fsync_dir(self.path)
        finally:
            shutil.rmtree(tmp, ignore_errors=True)
        self.summary_sha256 = sha
        self.save(force_sync=True)
        return final

    def provenance(self, complete: bool) -> dict[str, Any]:
        return {
            "run": {
                "out": str(self.path),
                "settings_hash": self.meta["settings_hash"],
                "complete": complete,
                "games": self.games,
                "planned": self.n,
                "sessions": self.sessions,
                "records": bool(self.meta.get("records")),
            }
        }

    def close(self, state: str | None = None, error: str | None = None) -> None:
        """Make the last saved progress durable, record how the session ended (``state``:
        stopped, complete or failed) and release the folder.  No block is counted here: a
        run interrupted inside ``add`` must not persist a half-updated state."""
        if self._lock is not None:
            if self._journal is not None:
                with contextlib.suppress(OSError):
                    self._journal.flush()
                    os.fsync(self._journal.fileno())
                with contextlib.suppress(OSError):
                    self._journal.close()
                self._journal = None
            with contextlib.suppress(OSError), open(self.path / PROGRESS_FILE, "rb") as f:
                os.fsync(f.fileno())
            if state is not None:
                with contextlib.suppress(OSError):
                    self.set_status(state, error)
            _unlock(self._lock)
            self._lock = None

    def __enter__(self) -> RunFolder:
        return self

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: object) -> None:
        if exc is None:
            state, error = (STOPPED if self.gaps() else COMPLETE), None
        elif isinstance(exc, RunInterrupted | KeyboardInterrupt):
            state, error = STOPPED, None  # resumable
        elif isinstance(exc, Exception):
            first = (str(exc).strip().splitlines() or [type(exc).__name__])[0]
            state, error = FAILED, first if len(first) <= 300 else first[:299] + "…"
        else:  # SystemExit and the like: say nothing new
            state, error = None, None
        self.close(state, error)
