"""An experiment's journal of finished steps, ``steps.jsonl``: the run folder's journal
format (:mod:`simulator.running.journal_lines`) with one line per step.

Each line names its step, the step's result file in ``steps/`` and that file's sha256, and
carries a checksum over the experiment's settings hash and those fields.  Read back as a
run folder's journal is: a line that does not parse (cut short by a kill) is dropped and
its step played again; a line that fails its checksum, or names a step the plan does not
have, refuses the folder; a result file cut short, changed or missing is never trusted,
and its step is played again.
"""

from __future__ import annotations

import hashlib
import pickle
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from experiments.study import STEPS_DIR
from simulator.engine.files import atomic_write
from simulator.errors import InputError
from simulator.running.journal import file_sha256
from simulator.running.journal_lines import (
    append_durably,
    changed,
    encode_line,
    line_checksum,
    parsed_lines,
)

JOURNAL_FILE = "steps.jsonl"


@dataclass(frozen=True)
class StepRecord:
    """One finished step: its key, its result file (relative to the folder), the file's
    sha256 and the seconds it took."""

    key: str
    file: str
    sha256: str
    elapsed_s: float

    def line(self, digest: str) -> bytes:
        rec = {"step": self.key, "file": self.file, "file_sha256": self.sha256, "elapsed_s": self.elapsed_s}
        return encode_line(rec, line_checksum(digest, self.key, self.file, self.sha256))


@dataclass
class StepJournal:
    """The finished steps of the experiment in ``folder`` whose settings hash is ``digest``."""

    folder: Path
    digest: str
    done: dict[str, StepRecord] = field(default_factory=dict)
    notices: list[str] = field(default_factory=list)

    @property
    def path(self) -> Path:
        return self.folder / JOURNAL_FILE

    def read(self, plan: list[str], old_steps: dict[str, Any] | None = None) -> None:
        """Read and check the journal against the plan's step keys; with ``old_steps`` (the
        ``steps`` of an experiment.json written before the journal), take them instead.
        Damage is dropped (noted in :attr:`notices`) and the journal rewritten whole."""
        if old_steps is not None:
            entries = [
                (
                    0,
                    {
                        "step": k,
                        "file": r.get("file"),
                        "file_sha256": r.get("sha256"),
                        "elapsed_s": r.get("elapsed_s"),
                    },
                )
                for k, r in old_steps.items()
                if isinstance(r, dict)
            ]
            damaged = 0
        else:
            entries, damaged = parsed_lines(self.path)
        bad_files = 0
        for i, rec in entries:
            try:
                step = StepRecord(
                    str(rec["step"]), str(rec["file"]), str(rec["file_sha256"]), float(rec["elapsed_s"])
                )
                ok = (
                    old_steps is not None
                    or line_checksum(self.digest, step.key, step.file, step.sha256) == rec["sha256"]
                )
            except (KeyError, TypeError, ValueError):
                ok = False
            if not ok:
                raise changed(self.path, f"line {i} fails its checksum")
            if step.key not in plan or step.key in self.done:
                raise changed(
                    self.path, f"line {i} names a step the experiment's plan does not have, or again"
                )
            if not step.file.startswith(f"{STEPS_DIR}/") or ".." in step.file:
                raise changed(self.path, f"line {i} names a file outside steps/")
            if file_sha256(self.folder / step.file) != step.sha256:
                bad_files += 1  # cut short, changed or missing: never trusted; played again
                continue
            self.done[step.key] = step
        if damaged:
            self.notices.append(
                f"{self.path}: {damaged:,} damaged line(s) dropped; their steps are played again"
            )
        if bad_files:
            self.notices.append(
                f"{self.folder / STEPS_DIR}: the result files of {bad_files:,} step(s) are cut short, changed or "
                "missing; those steps are played again"
            )
        if damaged or bad_files or old_steps is not None:
            self.rewrite()

    def rewrite(self) -> None:
        """Write the journal afresh (atomically) with the finished steps only."""
        atomic_write(self.path, b"".join(s.line(self.digest) for s in self.done.values()))

    def add(self, key: str, name: str, value: Any, elapsed: float) -> None:
        """Step ``key`` finished with ``value``: its result file in ``steps/`` first, then the
        journal line that counts it (durable before this returns)."""
        data = pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL)
        (self.folder / STEPS_DIR).mkdir(exist_ok=True)
        atomic_write(self.folder / STEPS_DIR / name, data)
        step = StepRecord(key, f"{STEPS_DIR}/{name}", hashlib.sha256(data).hexdigest(), round(elapsed, 3))
        append_durably(self.path, step.line(self.digest))
        self.done[key] = step

    def load(self, key: str) -> Any:
        """The value of finished step ``key``, read back from its (checked) result file."""
        step = self.done[key]
        path = self.folder / step.file
        data = path.read_bytes()
        if hashlib.sha256(data).hexdigest() != step.sha256:
            raise changed(path, f"(step {key!r}) does not match its checksum in {self.path}")
        try:
            return pickle.loads(data)  # our own file, checked against its recorded hash
        except Exception as exc:  # written by another version of the code
            raise InputError(f"{path} (step {key!r}) cannot be read back: {exc}") from None
