"""Run folders: a run written to ``--out DIR`` as it goes, so that no finished work is lost.

Layout of ``DIR``::

    run.json          what the run is: its settings (game, unit, seed, players, rules,
                      reaction, every seat's strategy with a hash of its source), their
                      hash, the number of games asked for, whether records are kept
    blocks.jsonl      the journal: a line per finished block (its game range and its
                      integer aggregates), each with its own sha256 over the run's settings
                      hash and the line's numbers; once 1,024 lines long it is rewritten as
                      32 lines, each summing consecutive ones (ranges and aggregates)
    progress.json     the sum of the journal: the game ranges done (merged), the integer
                      sum of their aggregates, the seconds spent playing them, how many
                      journal lines, the sha256 of summary.parquet's figures, and
                      a sha256 of all that
    status.json       how the last session ended: running (or killed), stopped,
                      complete or failed (with the error)
    summary.parquet   the figures, with provenance (written when the run finishes, and
                      for the finished games when it is stopped)
    records/          with --records: one Parquet file per block (simulator/running/records.py)
    .lock             held by the process working on the run

Every file but the journal is written under a temporary name and renamed into
place; journal lines are appended, so a process killed at any moment (even by
SIGKILL) leaves each file either as it was or as it is meant to be, except for
a last journal line that may be cut short.  A block's records are in place
before the journal counts the block as done; records of a block that was not
counted yet are removed when the run is resumed, and the block is played again.

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

A run that ends in an error (an illegal strategy move, a worker that failed) is
marked ``failed`` in ``status.json``: a new run with the same ``--out`` replaces
it, with a one-line notice, while a finished, stopped or killed run stays
protected (``--resume`` continues it).

Because every game's randomness is keyed by ``(seed, game index)`` and
aggregates are integer sums, a resumed run ends with exactly the numbers of an
uninterrupted one, and a finished run can be extended to more games.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import shutil
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import numpy as np

from simulator.errors import InputError
from simulator.games.base import Table
from simulator.running.backends import merge_ranges, missing_ranges
from simulator.running.results import Result, package_version, settings_hash
from strategies.registry import Player

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


class RunInterrupted(Exception):
    """A run was stopped (``stop`` set, or Ctrl-C) before it finished.

    ``result`` holds the figures of the ``games`` finished (None if there were none;
    its summary says ``"partial": true`` and ``"n_planned"``); with ``out``, they
    are persisted there and the run can be resumed."""

    def __init__(self, out: Path | None, games: int, planned: int, unit: str, result: Result | None) -> None:
        self.out, self.games, self.planned, self.unit, self.result = out, games, planned, unit, result
        units = _plural(unit)
        where = f"{out} holds" if out is not None else "finished"
        how = "; resume it with resume=True (--resume) and the same settings" if out is not None else ""
        super().__init__(f"stopped: {where} {games:,} of {planned:,} {units}{how}")


def run_settings(table: Table, players: Sequence[Player], unit: str, seed: int) -> dict[str, Any]:
    """Everything that decides a run's games: a resumed run must match all of it."""
    return {
        "game": table.game.name,
        "unit": unit,
        "seed": int(seed),
        "players": table.n_seats,
        "rules": table.rules_dict(),
        "reaction": [list(r) for r in table.reaction],
        "strategies": [{"spec": p.spec, "source_sha256": p.family.source_hash()} for p in players],
    }


def atomic_write(path: Path, data: bytes, fsync: bool = True) -> None:
    """Write ``data`` to ``path`` via a temporary file in the same folder and a rename."""
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    with open(tmp, "wb") as f:
        f.write(data)
        if fsync:
            f.flush()
            os.fsync(f.fileno())
    os.replace(tmp, path)
    if fsync:
        _fsync_dir(path.parent)


def _fsync_dir(folder: Path) -> None:
    with contextlib.suppress(OSError):  # not every platform can open a folder
        fd = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


def _json(doc: Any) -> bytes:
    return (json.dumps(doc, indent=1, ensure_ascii=False) + "\n").encode()


def _sha(doc: Any) -> str:
    return hashlib.sha256(json.dumps(doc, sort_keys=True, separators=(",", ":")).encode()).hexdigest()


Ranges = list[tuple[int, int]]


def block_checksum(digest: str, games: Sequence[tuple[int, int]], agg: Sequence[int]) -> str:
    """The checksum of one journal line: the run's settings hash, the line's game ranges
    ``[a, b)`` and the sum of their aggregates."""
    return _sha([digest, [[int(a), int(b)] for a, b in games], [int(x) for x in agg]])


def journal_line(digest: str, games: Sequence[tuple[int, int]], agg: Sequence[int]) -> bytes:
    """One line of ``blocks.jsonl``: ``{"games": [[a, b], ...], "agg": [...], "sha256": ...}``."""
    rec = {"games": [[int(a), int(b)] for a, b in games], "agg": [int(x) for x in agg]}
    rec["sha256"] = block_checksum(digest, games, agg)
    return (json.dumps(rec, separators=(",", ":")) + "\n").encode()


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


def stored_seed(out: str | Path) -> int | None:
    """The seed of the run in ``out``, if there is one (``--resume`` without ``--seed``)."""
    path = Path(out) / RUN_FILE
    if not path.is_file():
        return None
    seed = _read_json(path, "the run's settings").get("settings", {}).get("seed")
    return int(seed) if isinstance(seed, int) else None


def read_status(out: str | Path) -> dict[str, Any]:
    """How the run in ``out`` last ended (``{"state": ...}``); ``{}`` if nothing says."""
    doc = _try_json(Path(out) / STATUS_FILE)
    return doc if isinstance(doc, dict) else {}


def _plural(unit: str) -> str:
    return "rounds" if unit == "round" else "matches"


def _seats(strategies: list[dict]) -> str:
    specs = [s["spec"] for s in strategies]
    return specs[0] + " (every seat)" if len(set(specs)) == 1 else ", ".join(specs)


def differences(old: dict[str, Any], new: dict[str, Any]) -> list[str]:
    """What differs between a run's settings and this command's, in words."""
    out = []
    if old.get("game") != new["game"]:
        return [f"it is a {old.get('game')} run, not {new['game']}"]
    if old.get("unit") != new["unit"]:
        out.append(f"it plays {_plural(old.get('unit', '?'))}, not {_plural(new['unit'])}")
    if old.get("seed") != new["seed"]:
        out.append(f"its seed is {old.get('seed')}, not {new['seed']}")
    if old.get("players") != new["players"]:
        out.append(f"it has {old.get('players')} players, not {new['players']}")
    old_rules, new_rules = old.get("rules", {}), new["rules"]
    for key in sorted(set(old_rules) | set(new_rules)):
        if old_rules.get(key) != new_rules.get(key):
            out.append(f"its rule {key} is {old_rules.get(key)}, not {new_rules.get(key)}")
    if old.get("reaction") != new["reaction"]:
        out.append(f"its reaction profiles are {old.get('reaction')}, not {new['reaction']}")
    old_s, new_s = old.get("strategies", []), new["strategies"]
    if [s.get("spec") for s in old_s] != [s["spec"] for s in new_s]:
        out.append(f"its strategies are {_seats(old_s)}, not {_seats(new_s)}")
    else:
        for o, s in zip(old_s, new_s):
            if o.get("source_sha256") != s["source_sha256"]:
                out.append(f"strategy {s['spec']}'s code has changed since the run started")
                break
    return out


# --- reading and checking a folder ------------------------------------------------------


def _changed(path: Path, what: str) -> InputError:
    return InputError(
        f"{path} {what}: it was changed after kortsim wrote it; restore it, or start over in "
        "another --out folder"
    )


@dataclass
class FolderState:
    """A run folder as read and checked: the finished blocks (from the journal) and what
    must be repaired before playing on."""

    meta: dict[str, Any]
    blocks: list[tuple[Ranges, list[int]]]  # (game ranges, summed agg) per intact journal line
    done: list[tuple[int, int]]
    agg: list[int]
    progress: dict[str, Any] | None  # progress.json when it is intact and agrees
    damaged_lines: int = 0  # journal lines that did not parse (to be dropped and replayed)
    notices: list[str] = field(default_factory=list)

    @property
    def games(self) -> int:
        return sum(b - a for a, b in self.done)

    @property
    def repaired(self) -> bool:
        return self.progress is None or self.damaged_lines > 0


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
    blocks: list[tuple[Ranges, list[int]]] = []
    damaged = 0
    try:
        lines = journal.read_bytes().split(b"\n") if journal.exists() else []
    except OSError as exc:
        raise InputError(f"{journal} cannot be read: {exc.strerror or exc}") from None
    covered: Ranges = []
    for i, raw in enumerate(lines, 1):
        if not raw.strip():
            continue
        try:
            rec = json.loads(raw)
        except ValueError:  # cut short or garbled: damage; its blocks are played again
            damaged += 1
            continue
        try:
            games = [(int(a), int(b)) for a, b in rec["games"]]
            agg, check = rec["agg"], rec["sha256"]
            ok = (
                isinstance(agg, list)
                and all(isinstance(x, int) and not isinstance(x, bool) for x in agg)
                and all(0 <= a < b for a, b in games)
                and block_checksum(digest, games, agg) == check
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
        covered = merge_ranges([*covered, *games])
        blocks.append((games, agg))
    total = np.zeros(width or 0, dtype=object)  # Python ints: no overflow in a sum of int64s
    for _, agg in blocks:
        total = total + np.array(agg, dtype=object)
    state = FolderState(meta, blocks, covered, [int(x) for x in total], None, damaged)
    progress = _try_json(path / PROGRESS_FILE)
    if isinstance(progress, dict):
        if progress.get("sha256") != progress_checksum(progress):
            raise _changed(path / PROGRESS_FILE, "fails its checksum")
        if progress.get("settings_hash") != digest or (width is not None and progress.get("width") != width):
            raise InputError(f"{path / PROGRESS_FILE} does not belong to this run's settings")
        if not damaged:
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


# --- the run's folder, open for this process ----------------------------------------------


class RunFolder:
    """A run's folder, opened for this process (it holds the folder's lock until ``close``)."""

    def __init__(self, path: Path, meta: dict[str, Any], state: FolderState, lock: Any) -> None:
        self.path = path
        self.meta = meta
        self.done: list[tuple[int, int]] = list(state.done)
        self.agg = np.array(state.agg, dtype=np.int64) if state.agg else np.zeros(0, dtype=np.int64)
        # The journal's lines, kept to rewrite it (compacted) without reading it back.
        self._lines: list[tuple[Ranges, np.ndarray]] = [
            (list(games), np.array(agg, dtype=np.int64)) for games, agg in state.blocks
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

    @classmethod
    def check(
        cls,
        out: str | Path,
        settings: dict[str, Any],
        n: int,
        *,
        width: int,
        records: bool,
        resume: bool,
    ) -> FolderState | None:
        """Refuse, in one line, a folder that :meth:`open` would refuse; writes nothing.
        For ``resume``, the run's state as read; None for a new run (also when it replaces
        a failed one)."""
        path = Path(out)
        if path.exists() and not path.is_dir():
            raise InputError(f"--out {path} is a file, not a folder")
        if not path.exists():
            _probe_creatable(path)
        elif not os.access(path, os.W_OK | os.X_OK):
            raise InputError(f"--out {path}: cannot write in this folder (permission denied)")
        status = read_status(path)
        failed = status.get("state") == FAILED
        if not resume:
            held = [f for f in RUN_FILES if (path / f).exists()]
            if held and not failed:
                raise InputError(
                    f"{path} already holds a run ({held[0]}); add --resume to continue or extend it, "
                    "or choose another --out folder"
                )
            return None
        if not (path / RUN_FILE).is_file():
            raise InputError(
                f"nothing to resume in {path} (no {RUN_FILE}); leave out --resume to start a run"
            )
        meta = read_meta(path)
        diffs = differences(meta["settings"], settings)
        if diffs:
            hint = "start a new run in another --out folder"
            if failed:
                hint = "that run failed: leave out --resume to start it over"
            raise InputError(f"cannot resume {path}: {'; '.join(diffs)} ({hint})")
        if bool(meta.get("records")) != records:
            how = (
                "with --records; add --records"
                if meta.get("records")
                else "without --records; drop --records"
            )
            raise InputError(f"cannot resume {path}: it was started {how}")
        state = read_state(path, meta, width)
        covered = state.done[-1][1] if state.done else 0
        if covered > n:
            unit = meta["settings"]["unit"]
            raise InputError(
                f"{path} already holds {_plural(unit)} up to number {covered:,}: give "
                f"--{_plural(unit)} {covered} or more to resume it"
            )
        return state

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
        if self._journal is None:
            self._journal = open(self.path / JOURNAL_FILE, "ab")  # noqa: SIM115 (kept open)
        self._journal.write(journal_line(self.meta["settings_hash"], games, agg))
        self._journal.flush()
        self._lines.append((games, np.array(agg, dtype=np.int64)))
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
        lines = self._lines
        if len(lines) >= JOURNAL_COMPACT_AT:
            size = -(-len(lines) // JOURNAL_CHUNKS)
            lines = [
                (
                    merge_ranges([r for games, _ in lines[i : i + size] for r in games]),
                    np.sum([agg for _, agg in lines[i : i + size]], axis=0, dtype=np.int64),
                )
                for i in range(0, len(lines), size)
            ]
            self._lines = lines
        digest = self.meta["settings_hash"]
        atomic_write(self.path / JOURNAL_FILE, b"".join(journal_line(digest, g, a) for g, a in lines))

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


def _unwritable(path: Path, exc: OSError, what: str = "write the run folder") -> InputError:
    """One line naming the folder and the system's reason."""
    reason = exc.strerror or str(exc)
    where = f" ({exc.filename})" if exc.filename and str(exc.filename) != str(path) else ""
    return InputError(f"--out {path}: cannot {what}{where}: {reason}")


def _probe_creatable(path: Path) -> None:
    """Refuse a folder that cannot be created (``/proc/x``, ``/dev/null/sub``), in one line,
    by creating it and its missing parents and removing them again."""
    made: list[Path] = []
    at = path
    while not at.exists() and at != at.parent:
        made.append(at)
        at = at.parent
    try:
        for p in reversed(made):
            p.mkdir()
    except OSError as exc:
        _remove_empty(made)
        raise _unwritable(path, exc, "create the run folder") from None
    _remove_empty(made)


def _remove_empty(folders: list[Path]) -> None:
    for p in folders:  # deepest first
        with contextlib.suppress(OSError):
            p.rmdir()


def _replace_failed(path: Path) -> None:
    """Remove what a failed run left, so that a new run starts clean there."""
    for name in REPLACED:
        (path / name).unlink(missing_ok=True)
    shutil.rmtree(path / RECORDS_DIR, ignore_errors=True)


def _remove_temporaries(path: Path) -> None:
    """Leftovers of a process killed while writing (no other process holds the lock)."""
    for p in path.glob(".*.tmp"):
        if p.is_dir():
            shutil.rmtree(p, ignore_errors=True)
        else:
            p.unlink(missing_ok=True)


def _lock(path: Path) -> Any:
    """An exclusive lock on the run folder, or a one-line refusal if another process has it."""
    f = open(path / LOCK_FILE, "a+b")  # noqa: SIM115 (held open until the run closes)
    try:
        import fcntl
    except ImportError:  # no advisory locks here (Windows): one process per folder is up to the user
        return f
    try:
        fcntl.flock(f.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        f.close()
        raise InputError(f"{path} is in use by another kortsim process") from None
    return f


def _unlock(lock: Any) -> None:
    with contextlib.suppress(OSError):
        lock.close()  # closing the file releases the lock
