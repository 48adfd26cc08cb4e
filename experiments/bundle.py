"""An experiment's run folder and report: :class:`Bundle` collects the steps, tables, figures
and sentences of a run and writes the folder; :func:`start` opens one.

The folder is claimed as every ``--out`` folder is (:mod:`simulator.running.claim`: one
wording for every refusal, a folder holding files kortsim did not write refused, the
folder's lock held while the run plays), and every file is written whole or not at all
(:mod:`simulator.engine.files`).  ``experiment.json`` holds the settings, their hash and
the keys of the finished steps; ``steps.jsonl`` is the journal of finished steps, in the
run folder's journal format (:mod:`experiments.step_journal`): each line names its step's
result file in ``steps/`` and that file's SHA-256, checked before it is read back.
"""

from __future__ import annotations

import json
import re
import sys
import time
from collections.abc import Callable, Mapping
from datetime import UTC, datetime
from pathlib import Path
from types import ModuleType
from typing import Any

import pandas as pd

from experiments.step_journal import StepJournal
from experiments.study import (
    SIZES,
    STATE_FILE,
    STATE_FORMAT,
    ExperimentInterrupted,
    ExperimentResult,
    Progress,
    Step,
    as_progress,
    default_out,
    experiment_provenance,
    settings_differences,
    source_hash,
)
from simulator.engine.files import atomic_write
from simulator.errors import InputError
from simulator.running.claim import FolderLock, already_holds, cannot_resume, claim, resume_seed
from simulator.running.journal_lines import changed
from simulator.running.results import settings_hash
from simulator.running.setup import resolve_seed


def _slug(key: str) -> str:
    return re.sub(r"[^A-Za-z0-9.=_-]+", "_", key)[:80]


class Bundle:
    """Collects an experiment's steps, tables, figures and sentences, then writes the folder.

    Opening it starts a run in ``out_dir`` or, with ``resume``, continues the one there."""

    def __init__(
        self,
        mod: ModuleType,
        size: str,
        out_dir: str | Path,
        seed: int,
        cfg: Mapping[str, Any],
        *,
        resume: bool = False,
        progress: Progress | Callable[[str], None] | None = None,
    ):
        self.mod = mod
        self.size = size
        self.out = Path(out_dir)
        self.seed = seed
        self.cfg = dict(cfg)
        self.answer: list[str] = []
        self.headlines: list = []
        self.notes: list[str] = []
        self.sections: list = []
        self.tables: dict[str, pd.DataFrame] = {}
        self.figures: dict[str, Path] = {}
        self.captions: dict[str, str] = {}
        self.formats: dict[str, dict[str, Any]] = {}
        self.players: dict[str, Any] = {}
        self.progress = as_progress(progress)
        self.steps: list[Step] = list(mod.plan(self.cfg))
        self._plan = {s.key: s for s in self.steps}
        if len(self._plan) != len(self.steps):
            raise RuntimeError(f"{mod.NAME}: the plan repeats a step key")
        self._ran: list[str] = []
        self._open(resume)
        done = sum(1 for s in self.steps if s.key in self.state["steps"])
        self.progress.plan(sum(s.cost for s in self.steps), len(self.steps), done)

    # --- the run folder ---------------------------------------------------------------

    @property
    def settings(self) -> dict[str, Any]:
        return {
            "experiment": self.mod.NAME,
            "version": self.mod.VERSION,
            "size": self.size,
            "config": self.cfg,
            "code_sha256": source_hash(self.mod),
        }

    def _open(self, resume: bool) -> None:
        out = self.out
        held = claim(out, "experiment", resume)
        if held and not resume:
            raise already_holds(out, "run", STATE_FILE)
        if not resume:
            stray = [f for f in ("report.json", "summary.parquet") if (out / f).exists()]
            if stray:
                raise already_holds(out, "run", stray[0])
        try:
            out.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise InputError(
                f"--out {out}: cannot create the experiment's folder: {exc.strerror or exc}"
            ) from None
        self._lock: FolderLock | None = FolderLock(out, "experiment")
        try:
            self.state = self._read_state() if resume else self._new_state()
            self.journal = StepJournal(out, self.state["settings_hash"])
            if resume:
                old = self.state.pop("steps_before_journal", None)
                self.journal.read([s.key for s in self.steps], old)
                for line in self.journal.notices:
                    print(f"note: {line}", file=sys.stderr, flush=True)
            else:
                self.journal.rewrite()
            self.state["steps"] = [s.key for s in self.steps if s.key in self.journal.done]
            self._save_state()
        except BaseException:
            self.close()
            raise

    def _new_state(self) -> dict[str, Any]:
        return {
            "kortsim_experiment": STATE_FORMAT,
            "settings": self.settings,
            "settings_hash": settings_hash(self.settings),
            "created": datetime.now(UTC).isoformat(timespec="seconds"),
            "sessions": 1,
            "complete": False,
            "steps": [],
            "strategies": {},
        }

    def _read_state(self) -> dict[str, Any]:
        path = self.out / STATE_FILE
        try:
            state = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError) as exc:
            raise InputError(f"{path} cannot be read: {exc}") from None
        form = state.get("kortsim_experiment") if isinstance(state, dict) else None
        if form not in (1, STATE_FORMAT):
            raise InputError(f"{path} is not an experiment run this kortsim can resume")
        diffs = settings_differences(state.get("settings", {}), self.settings)
        if diffs:
            raise cannot_resume(self.out, diffs)
        if form == 1:  # its steps were kept in experiment.json: they move to the journal
            steps = state.get("steps")
            state["steps_before_journal"] = steps if isinstance(steps, dict) else {}
            state["kortsim_experiment"] = STATE_FORMAT
            state["settings_hash"] = settings_hash(state["settings"])
        elif state.get("settings_hash") != settings_hash(state["settings"]):
            raise changed(path, "does not match its settings hash")
        state["sessions"] = int(state.get("sessions", 1)) + 1
        state.setdefault("strategies", {})
        return state

    def close(self) -> None:
        """Release the folder (when the run finishes, stops or fails)."""
        lock, self._lock = getattr(self, "_lock", None), None
        if lock is not None:
            lock.release()

    def __del__(self) -> None:
        self.close()

    def _save_state(self) -> None:
        atomic_write(self.out / STATE_FILE, json.dumps(self.state, indent=1, ensure_ascii=False) + "\n")

    def step(self, key: str, fn: Callable[[Callable[[int], None]], Any]) -> Any:
        """The value of step ``key``: read back from the folder if it finished earlier, else
        ``fn(progress)`` (``progress(k)``: k more of the step's games are done), stored."""
        st = self._plan.get(key)
        if st is None:
            raise RuntimeError(f"{self.mod.NAME}: step {key!r} is not in its plan")
        if key in self._ran:
            raise RuntimeError(f"{self.mod.NAME}: step {key!r} ran twice")
        self._ran.append(key)
        try:
            return self._step(key, st, fn)
        except KeyboardInterrupt:
            self.close()
            done = sum(1 for s in self.steps if s.key in self.state["steps"])
            raise ExperimentInterrupted(self.out, done, len(self.steps)) from None
        except BaseException:
            self.close()
            raise

    def _step(self, key: str, st: Step, fn: Callable[[Callable[[int], None]], Any]) -> Any:
        index = self.steps.index(st) + 1
        label = st.label or key
        if key in self.journal.done:
            value = self.journal.load(key)
            self.progress.step(index, len(self.steps), label, True)
            self.progress.advance(st.cost)
            return value
        self.progress.step(index, len(self.steps), label, False)
        spent = 0.0

        def games(k: int) -> None:
            nonlocal spent
            c = min(k * st.weight, st.cost - spent)
            if c > 0:
                spent += c
                self.progress.advance(c)

        t0 = time.perf_counter()
        value = fn(games)
        if st.cost > spent:
            self.progress.advance(st.cost - spent)
        self._store(key, index, value, time.perf_counter() - t0)
        return value

    def _store(self, key: str, index: int, value: Any, elapsed: float) -> None:
        self.journal.add(key, f"{index:03d}-{_slug(key)}.pkl", value, elapsed)
        self.state["steps"] = [s.key for s in self.steps if s.key in self.journal.done]
        self._save_state()

    # --- what the report says -----------------------------------------------------------

    def use(self, *players: Any) -> None:
        """Record strategies used (Player objects) for the provenance; a strategy whose code
        changed since the run started is refused (its finished steps would not match)."""
        changed = False
        for p in players:
            self.players.setdefault(p.spec, p)
            digest = p.family.source_hash()
            who = f"{p.family.game}/{p.spec}"  # the same name in two games is two strategies
            old = self.state["strategies"].get(who)
            if old is not None and old != digest:
                self.close()
                raise InputError(
                    f"cannot resume {self.out}: strategy {p.spec}'s code has changed since the run started "
                    "(start a new run in another --out folder)"
                )
            if old is None:
                self.state["strategies"][who] = digest
                changed = True
        if changed:
            self._save_state()

    def table(self, name: str, df: pd.DataFrame, formats: dict[str, Any] | None = None) -> pd.DataFrame:
        """Keep table ``name``; ``formats`` declares how its columns read (see
        :func:`simulator.reporting.display_table`)."""
        if formats:
            self.formats[name] = dict(formats)
        self.tables[name] = df.reset_index(drop=True)
        return self.tables[name]

    def figure(self, name: str, fig, caption: str) -> Path:
        """Save ``fig`` as ``figures/NAME.png`` and ``.svg``; ``caption`` says in words what it
        shows (its units and which way is better)."""
        from simulator.reporting import plots

        self.captions[name] = caption
        self.figures[name] = plots.save(fig, self.out / "figures", name)["png"]
        return self.figures[name]

    def section(self, title: str, text: list[str] | None = None, tables=(), figures=()) -> None:
        from simulator.reporting.pages import Section

        self.sections.append(Section(title, [t for t in (text or []) if t], list(tables), list(figures)))

    def headline(self, question: str, answer: str) -> None:
        """One question of the study and its answer in one plain line (numbers and interval)."""
        from simulator.reporting.pages import Headline

        self.headlines.append(Headline(question, answer))

    def finish(self, summary_table: str) -> ExperimentResult:
        from simulator.reporting import pages as report

        missing = [s.key for s in self.steps if s.key not in self._ran]
        if missing:
            raise RuntimeError(f"{self.mod.NAME}: planned steps never ran: {', '.join(missing)}")
        prov = experiment_provenance(self.mod, self.size, self.cfg, self.seed, list(self.players.values()))
        prov["run"] = {
            "out": str(self.out),
            "complete": True,
            "steps": len(self.steps),
            "sessions": int(self.state.get("sessions", 1)),
        }
        rep = report.Report(
            title=f"{self.mod.TITLE} ({self.mod.NAME} v{self.mod.VERSION}, size {self.size})",
            question=self.mod.QUESTION,
            answer=[a for a in self.answer if a],
            sections=self.sections,
            tables=self.tables,
            figures=self.figures,
            provenance=prov,
            notes=self.notes,
            headlines=self.headlines,
            formats=self.formats,
            captions=self.captions,
        )
        report.write(rep, self.out, summary_table)
        self.state["complete"] = True
        self._save_state()
        self.close()
        return ExperimentResult(
            self.mod.NAME,
            self.mod.VERSION,
            self.size,
            self.seed,
            self.cfg,
            self.out,
            rep.answer,
            self.tables,
            self.figures,
            headlines=list(self.headlines),
            extra={"steps": len(self.steps), "sessions": int(self.state.get("sessions", 1))},
        )


def start(
    mod: ModuleType,
    size: str,
    out_dir: str | Path | None,
    seed: int | None,
    *,
    resume: bool = False,
    progress: Progress | Callable[[str], None] | None = None,
) -> Bundle:
    """The config of ``size`` and a Bundle writing into ``out_dir`` (default results/NAME).

    With ``resume`` and no ``seed``, the stored run's seed is used."""
    if size not in SIZES:
        raise InputError(f"unknown size {size!r} (sizes: {', '.join(SIZES)})")
    cfg = dict(mod.CONFIG[size])
    out = Path(out_dir) if out_dir is not None else default_out(mod.NAME)
    seed = resume_seed(seed, out, resume)
    seed = resolve_seed(cfg["seed"] if seed is None else seed)
    cfg["seed"] = seed
    return Bundle(mod, size, out, seed, cfg, resume=resume, progress=progress)


def study_run(
    study: Callable[[Bundle, dict[str, Any]], ExperimentResult],
) -> Callable[..., ExperimentResult]:
    """An experiment module's ``run(size, out_dir, seed, progress, resume, **backend)`` from
    its study: ``study(b, backend)`` plays into the Bundle that :func:`start` opens for the
    module that defines it, passing ``backend`` to every simulation, and returns the result.

    Use it as a decorator on the module's ``run``; the run keeps the study's name and docs.
    """
    module = study.__module__

    def run(
        size: str = "full",
        out_dir: str | Path | None = None,
        seed: int | None = None,
        progress: Progress | Callable[[str], None] | None = None,
        resume: bool = False,
        **backend: Any,
    ) -> ExperimentResult:
        b = start(sys.modules[module], size, out_dir, seed, resume=resume, progress=progress)
        return study(b, backend)

    run.__name__, run.__qualname__, run.__doc__ = study.__name__, study.__qualname__, study.__doc__
    run.__module__ = module
    return run
