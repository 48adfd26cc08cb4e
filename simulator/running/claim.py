"""Claiming an ``--out`` folder, the same way for every command that keeps one (``simulate``,
``experiment run``, ``tune``; ``compare`` and ``sweep`` share the wording): the one-line
refusals, the lock held while a process works in it, and the clean-up of what a killed
process left.

* A folder holds one kind of work (:data:`KINDS`): a run, an experiment or a tune, each
  known by its marker file.  A folder holding files kortsim did not write is refused, as
  is one holding another kind of work, or, without ``--resume``, the same kind.
* The lock is a :mod:`filelock` lock on ``DIR/.lock`` (an OS lock: released when its
  process ends, however it ends, so a killed run never blocks its folder).  While it is
  held no other kortsim process works in the folder, so lock files other libraries left
  behind there (Optuna's ``study.journal.lock`` after a SIGKILL) are stale and removed.
"""

from __future__ import annotations

import contextlib
import os
import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import filelock

from simulator.errors import InputError
from simulator.running.journal import FolderState, read_meta, read_state
from simulator.running.run_files import (
    COMPLETE,
    FAILED,
    LOCK_FILE,
    RECORDS_DIR,
    REPLACED,
    RUN_FILE,
    RUN_FILES,
    RUNNING,
    STATUS_FILE,
    STOPPED,
    _read_json,
    read_status,
)
from simulator.running.run_settings import _plural, differences


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


def _remove_temporaries(path: Path) -> list[str]:
    """Leftovers of a process killed while writing (no other process holds the lock)."""
    removed = []
    for p in path.glob(".*.tmp"):
        if p.is_dir():
            shutil.rmtree(p, ignore_errors=True)
        else:
            p.unlink(missing_ok=True)
        removed.append(p.name)
    return removed


@dataclass(frozen=True)
class Kind:
    """A kind of work kept in a folder: its name in messages, its marker file, the files it
    writes (names, or prefixes ending in ``*``) and the lock files others leave there."""

    name: str
    marker: str
    ours: tuple[str, ...]
    stale_locks: tuple[str, ...] = ()

    def owns(self, name: str) -> bool:
        if name in (LOCK_FILE, *self.ours, *self.stale_locks) or (
            name.startswith(".") and name.endswith(".tmp")
        ):
            return True
        return self.stale_rename(name) or any(p.endswith("*") and name.startswith(p[:-1]) for p in self.ours)

    def stale_rename(self, name: str) -> bool:
        """A library's lock caught between its rename and its removal by a kill (Optuna
        releases ``study.journal.lock`` by renaming it to ``study.journal.lock<id>.rename``)."""
        return name.endswith(".rename") and any(name.startswith(lock) for lock in self.stale_locks)


REPORT = ("report.html", "report.md", "report.json", "figures", "tables", "summary.parquet", "summary.json")
KINDS = {
    "run": Kind("run", RUN_FILE, (*RUN_FILES, STATUS_FILE, RECORDS_DIR, *REPORT)),
    "experiment": Kind("experiment", "experiment.json", ("experiment.json", "steps.jsonl", "steps", *REPORT)),
    "tune": Kind(
        "tune",
        "settings.json",
        ("settings.json", "study.journal", "tune.json", "trials.parquet", "figures", "start-*"),
        ("study.journal.lock",),
    ),
}
ANOTHER = "choose another --out folder"


# Where each kind keeps its seed, in its marker file.
SEED_AT = {"run": ("settings", "seed"), "experiment": ("settings", "config", "seed"), "tune": ("seed",)}


def stored_seed(out: str | Path) -> int | None:
    """The seed of the work held in ``out`` (a run, an experiment or a tune), if there is
    one: what ``--resume`` without ``--seed`` plays with.  One line if it cannot be read."""
    path = Path(out)
    for kind, k in KINDS.items():
        marker = path / k.marker
        if not marker.is_file():
            continue
        doc: Any = _read_json(marker, f"the {kind}'s settings")
        for key in SEED_AT[kind]:
            doc = doc.get(key) if isinstance(doc, dict) else None
        return int(doc) if isinstance(doc, int) and not isinstance(doc, bool) else None
    return None


def resume_seed(seed: Any, out: str | Path | None, resume: bool) -> Any:
    """The seed to resolve: ``seed`` as given, or, resuming without one, the stored one."""
    if seed is None and resume and out is not None:
        return stored_seed(out)
    return seed


def held_names(path: Path) -> list[str]:
    return sorted(p.name for p in path.iterdir()) if path.is_dir() else []


def claim(path: Path, kind: str, resume: bool) -> bool:
    """Refuse, in one line, an ``--out`` folder that a new ``kind`` (``resume``: the
    continuation of one) may not use; writes nothing.  Returns whether it holds that work."""
    k = KINDS[kind]
    if path.exists() and not path.is_dir():
        raise InputError(f"--out {path} is a file, not a folder")
    names = held_names(path)
    for other in KINDS.values():
        if other is not k and other.marker in names and not k.owns(other.marker):
            raise InputError(f"--out {path} already holds {_a(other.name)} ({other.marker}); {ANOTHER}")
    theirs = [n for n in names if not k.owns(n)]
    if theirs:
        raise foreign(path, theirs)
    held = k.marker in names
    if resume and not held:
        raise InputError(
            f"nothing to resume in {path} (no {k.marker}); leave out --resume to start {_a(k.name)}"
        )
    return held


def foreign(path: Path, names: list[str]) -> InputError:
    shown = ", ".join(names[:3]) + (f" and {len(names) - 3} more" if len(names) > 3 else "")
    return InputError(
        f"--out {path} holds files kortsim did not write ({shown}); {ANOTHER} (a new or empty one)"
    )


def already_holds(path: Path, kind: str, file: str, extend: bool = False) -> InputError:
    what = "continue or extend it" if extend else "continue it"
    return InputError(f"{path} already holds {_a(kind)} ({file}); add --resume to {what}, or {ANOTHER}")


def cannot_resume(
    path: Path, diffs: list[str], hint: str = "start a new run in another --out folder"
) -> InputError:
    return InputError(f"cannot resume {path}: {'; '.join(diffs)} ({hint})")


def _a(kind: str) -> str:
    return ("an " if kind[0] in "aeiou" else "a ") + kind


class FolderLock:
    """The exclusive lock of an ``--out`` folder, held by the process working in it."""

    def __init__(self, path: Path, kind: str = "run") -> None:
        self.path = path
        self._lock: filelock.BaseFileLock | None = filelock.FileLock(str(path / LOCK_FILE), timeout=0)
        try:
            self._lock.acquire()
        except filelock.Timeout:
            self._lock = None
            raise InputError(f"{path} is in use by another kortsim process") from None
        try:
            self.clear_stale(kind)
        except BaseException:
            self.release()
            raise

    def clear_stale(self, kind: str) -> list[str]:
        """Remove what a killed process left: temporaries, and lock files of libraries (no
        live process can hold them while this lock is held).  Returns what was removed."""
        removed = _remove_temporaries(self.path)
        k = KINDS[kind]
        renamed = [p.name for p in self.path.iterdir() if k.stale_rename(p.name)] if k.stale_locks else []
        for name in (*k.stale_locks, *renamed):
            p = self.path / name
            if p.is_symlink() or p.exists():
                p.unlink()
                removed.append(name)
        return removed

    def release(self) -> None:
        if self._lock is not None:
            with contextlib.suppress(OSError):
                self._lock.release()
            self._lock = None

    def __enter__(self) -> FolderLock:
        return self

    def __exit__(self, *exc: object) -> None:
        self.release()


def _lock(path: Path) -> FolderLock:
    """The lock of a run folder (``simulate --out``), or a one-line refusal."""
    return FolderLock(path, "run")


def _unlock(lock: FolderLock) -> None:
    lock.release()


def check_run_folder(
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
    held = claim(path, "run", resume)
    state = read_status(path).get("state")
    if (path / STATUS_FILE).exists() and state not in (RUNNING, STOPPED, COMPLETE, FAILED):
        raise foreign(path, [STATUS_FILE])  # the user's own status.json, not a run's
    failed = state == FAILED
    if not resume:
        if held and not failed:
            raise already_holds(path, "run", RUN_FILE, extend=True)
        stray = [f for f in RUN_FILES if (path / f).exists()]
        if stray and not failed:
            raise already_holds(path, "run", stray[0], extend=True)
        return None
    meta = read_meta(path)
    diffs = differences(meta["settings"], settings)
    if diffs:
        hint = "start a new run in another --out folder"
        if failed:
            hint = "that run failed: leave out --resume to start it over"
        raise cannot_resume(path, diffs, hint)
    if bool(meta.get("records")) != records:
        how = "with --records; add --records" if meta.get("records") else "without --records; drop --records"
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
