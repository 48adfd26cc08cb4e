"""A tune's ``--out`` folder: the optimiser's journal, what is needed to resume, the results.

``DIR/study.journal``
    Optuna's journal (``JournalStorage`` on a file: no database server); one study per
    iteration, ``iteration-1``, ``iteration-2``, ...
``DIR/settings.json``
    What was tuned (game, spec, field, metric, deals, seed, table); ``--resume`` refuses a
    command that differs in any of these (``--trials``, ``--iterate`` and ``--confirm`` may).
``DIR/start-<iteration>.npz``
    The starting parameters' per-deal totals, so that a resumed search does not play them again.
``DIR/tune.json``, ``DIR/trials.parquet``, ``DIR/figures/tune.{png,svg}``
    The summary with provenance, one row per trial, the plot of the search
    (:func:`simulator.analysis.tuning.result.write_outputs`).
"""

from __future__ import annotations

import io
import json
import sys
import zipfile
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
import optuna

from simulator.engine.files import atomic_write
from simulator.errors import InputError
from simulator.running.claim import ANOTHER, FolderLock, already_holds, cannot_resume
from simulator.running.claim import claim as claim_folder
from simulator.running.claim import stored_seed as folder_seed
from simulator.running.results import dumps_json
from simulator.running.run_files import _read_json

if TYPE_CHECKING:
    from simulator.analysis.tuning.plan import TunePlan

JOURNAL = "study.journal"
SETTINGS = "settings.json"
FREE = ("trials", "iterate", "confirm")  # settings a resumed tune may change


def journal(out: Path) -> optuna.storages.BaseStorage:
    from optuna.storages.journal import JournalFileBackend

    return optuna.storages.JournalStorage(JournalFileBackend(str(out / JOURNAL)))


def settings_of(plan: TunePlan) -> dict[str, Any]:
    s = plan.search
    return {
        "game": s.game.name,
        "spec": plan.space.text,
        "vs": plan.field.spec,
        "metric": plan.metric.name,
        "unit": s.unit,
        "n": s.n,
        "seed": plan.seed,
        "players": s.table.n_seats,
        "rules": {k: str(v) for k, v in s.table.rules_dict().items()},
        "reaction": [list(r) for r in s.table.reaction],
        "trials": plan.trials,
        "iterate": plan.iterate,
        "confirm": plan.confirm.n,
    }


def stored_seed(out: Path) -> int | None:
    """The seed of the tune held in ``out`` (None when it holds none): the one
    :func:`simulator.running.claim.stored_seed` reads for every kind of folder."""
    return folder_seed(out)


def claim(out: Path, plan: TunePlan, resume: bool) -> None:
    """Check ``out`` before anything is played (:func:`simulator.running.claim.claim`): a new
    or empty folder for a new tune; with ``resume``, the folder of a tune with the same
    settings, whose journal is whole (a line cut short by a kill is dropped, see
    :func:`repair_journal`)."""
    held = claim_folder(out, "tune", resume)
    if held and not resume:
        raise already_holds(out, "tune", SETTINGS)
    mine = settings_of(plan)
    if held:
        old = _read_json(out / SETTINGS, "the tune's settings")
        diffs = [
            f"its {key} is {old.get(key)!r}, not {value!r}"
            for key, value in mine.items()
            if key not in FREE and old.get(key) != value
        ]
        if diffs:
            raise cannot_resume(
                out, diffs, "give the same command; only --trials, --iterate and --confirm may change"
            )
        repair_journal(out, dry_run=True)


def open_folder(out: Path, plan: TunePlan, resume: bool) -> FolderLock:
    """Claim ``out`` and take its lock (which clears Optuna's stale ``study.journal.lock``);
    with ``resume``, a journal cut short is repaired first.  Hold the lock while playing."""
    claim(out, plan, resume)
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise InputError(f"--out {out}: cannot create the tune's folder: {exc.strerror or exc}") from None
    lock = FolderLock(out, "tune")
    try:
        claim(out, plan, resume)  # again under the lock: another process may have started meanwhile
        if resume:
            repair_journal(out)
        atomic_write(out / SETTINGS, dumps_json(settings_of(plan)))
    except BaseException:
        lock.release()
        raise
    return lock


def repair_journal(out: Path, dry_run: bool = False) -> int:
    """Make Optuna's journal end on a whole line before anything is appended to it.

    A process killed while writing may leave the last line cut short: it is dropped (the
    operation it held never happened; a trial it left running is tried again), with one
    line on stderr.  A line before the last that is not a whole record is damage kortsim
    cannot undo: the folder is refused in one line and nothing is written.  Returns the
    number of lines dropped."""
    path = out / JOURNAL
    try:
        data = path.read_bytes() if path.is_file() else b""
    except OSError as exc:
        raise InputError(f"{path} cannot be read: {exc.strerror or exc}") from None
    complete, _, tail = data.rpartition(b"\n")
    lines = complete.split(b"\n") if complete else []
    for i, raw in enumerate(lines, 1):
        try:
            ok = isinstance(json.loads(raw), dict)
        except ValueError:
            ok = False
        if not ok:
            raise InputError(
                f"{path} is damaged at line {i} (not a whole record); it cannot be resumed: "
                f"{ANOTHER} to tune again"
            )
    if not tail.strip():
        return 0
    if not dry_run:
        atomic_write(path, complete + b"\n" if complete else b"")
        print(
            f"note: {path}: its last line was cut short (the process was killed while writing); "
            f"dropped it and resuming from the {len(lines):,} whole lines",
            file=sys.stderr,
            flush=True,
        )
    return 1


def load_start(out: Path, iteration: int) -> tuple[np.ndarray, np.ndarray] | None:
    """The start's per-deal totals saved by an earlier session (None when there are none, or
    when the file is damaged: the start is then played again)."""
    path = out / f"start-{iteration}.npz"
    if not path.is_file():
        return None
    try:
        with np.load(path) as z:
            return z["t"], z["ok"]
    except (OSError, ValueError, KeyError, EOFError, zipfile.BadZipFile):
        return None


def save_start(out: Path, iteration: int, t: np.ndarray, ok: np.ndarray) -> None:
    buf = io.BytesIO()
    np.savez_compressed(buf, t=t, ok=ok)
    atomic_write(out / f"start-{iteration}.npz", buf.getvalue())
