"""Named, versioned, reproducible studies.

Each experiment is a module here with

* ``NAME``, ``TITLE``, ``QUESTION`` and ``VERSION`` (bumped whenever the design or the
  code changes what the numbers mean);
* ``CONFIG``: a dict of sizes ``tiny`` (seconds; the test suite runs it), ``quick``
  (under five minutes on a two-core machine) and ``full`` (the study), each a dict of
  plain values, with a fixed default ``seed``;
* ``plan(cfg) -> list[Step]``: the steps the study takes (each a simulation or a
  comparison), with the games each plays and a relative cost, so that progress and a
  time estimate can be shown and an interrupted run can resume at the step it stopped in;
* ``run(size, out_dir, seed, progress, resume, **backend) -> ExperimentResult``.

A run writes into its folder the summary Parquet with provenance (the experiment, its
version, size and config, the seed, the strategies and their source hashes, the
package versions), every table as Parquet and CSV, the figures as PNG and SVG,
``report.md`` and a self-contained ``report.html`` that opens with one headline per
question, made from the numbers.

The folder is also the run's checkpoint: ``experiment.json`` holds the settings and the
finished steps, ``steps/`` the result of each finished step (with its SHA-256 in
``experiment.json``, checked before it is read back).  Run again with ``resume=True``
(``--resume``) and the same settings, a stopped run plays only the steps not finished;
the numbers are those of an uninterrupted run, because every step's randomness is keyed
by the seed alone.

From Python::

    import experiments
    res = experiments.run("spokelse-strategy", size="tiny", out_dir="results/spokelse-strategy")
    res.headlines        # one (question, answer) per question
    res.answer           # the answer in sentences
    res.tables["sweep"]  # pandas DataFrames

From the shell: ``kortsim experiment list`` and ``kortsim experiment run NAME --quick``.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import pickle
import re
import shutil
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from importlib import import_module
from pathlib import Path
from types import ModuleType
from typing import Any

import pandas as pd

from simulator.errors import InputError
from simulator.kernels.messages import say
from simulator.running.checkpoint import atomic_write
from simulator.running.setup import execution_of, resolve_seed

SIZES = ("tiny", "quick", "full")
STATE_FILE = "experiment.json"
STEPS_DIR = "steps"
STATE_FORMAT = 1

# experiment name -> module
EXPERIMENTS: dict[str, str] = {
    "spokelse-strategy": "experiments.spokelse_strategy",
    "commit-early": "experiments.commit_early",
    "reaction-vs-cards": "experiments.reaction_vs_cards",
}


@dataclass(frozen=True)
class Step:
    """One unit of an experiment's work: a key (unique in the plan), the games it plays and
    the cost of one of its games relative to others (seatings × a per-game factor), so that
    ``games × weight`` is comparable across steps."""

    key: str
    games: int
    weight: float = 1.0
    label: str = ""

    @property
    def cost(self) -> float:
        return float(self.games) * float(self.weight)


class Progress:
    """What a running experiment reports; the default does nothing.  Subclass and override."""

    def plan(self, total_cost: float, steps: int, resumed: int) -> None:
        """The run starts: ``steps`` steps of total cost ``total_cost``, ``resumed`` already done."""

    def step(self, index: int, steps: int, label: str, resumed: bool) -> None:
        """Step ``index`` (from 1) of ``steps`` starts (or is read back from the folder)."""

    def advance(self, cost: float) -> None:
        """``cost`` more of the total is done."""


class _Messages(Progress):
    """Adapter: one message per step for a plain ``callable(str)``."""

    def __init__(self, say: Callable[[str], None]) -> None:
        self.say = say

    def step(self, index: int, steps: int, label: str, resumed: bool) -> None:
        self.say(f"[{index}/{steps}] {label}" + (" (finished earlier)" if resumed else ""))


def as_progress(progress: Progress | Callable[[str], None] | None) -> Progress:
    if progress is None:
        return Progress()
    if isinstance(progress, Progress) or all(hasattr(progress, m) for m in ("plan", "step", "advance")):
        return progress  # type: ignore[return-value]
    return _Messages(progress)


class ExperimentInterrupted(Exception):
    """An experiment was stopped (Ctrl-C) between or inside steps; its folder keeps the
    finished steps, and ``resume=True`` continues it."""

    def __init__(self, out: Path, done: int, steps: int) -> None:
        self.out, self.done, self.steps = out, done, steps
        super().__init__(f"stopped: {out} holds {done} of {steps} steps; resume it with --resume")


@dataclass
class ExperimentResult:
    """What a run computed and where it wrote it."""

    name: str
    version: str
    size: str
    seed: int
    config: dict[str, Any]
    out_dir: Path
    answer: list[str]
    tables: dict[str, pd.DataFrame]
    figures: dict[str, Path]
    elapsed_s: float = 0.0
    extra: dict[str, Any] = field(default_factory=dict)
    headlines: list[Any] = field(default_factory=list)

    @property
    def report_html(self) -> Path:
        return self.out_dir / "report.html"

    @property
    def report_md(self) -> Path:
        return self.out_dir / "report.md"

    @property
    def summary_path(self) -> Path:
        return self.out_dir / "summary.parquet"

    def to_json(self) -> dict[str, Any]:
        """The run in plain values (what ``kortsim experiment run --json`` prints)."""
        return {
            "experiment": self.name,
            "version": self.version,
            "size": self.size,
            "seed": self.seed,
            "out": str(self.out_dir),
            "headlines": [{"question": h.question, "answer": h.answer} for h in self.headlines],
            "answer": list(self.answer),
            "tables": list(self.tables),
            "figures": list(self.figures),
            "elapsed_s": self.elapsed_s,
            **self.extra,
        }


def get(name: str) -> ModuleType:
    """The module of experiment ``name``; :class:`InputError` for an unknown name."""
    key = name.strip().lower().replace("_", "-")
    if key not in EXPERIMENTS:
        raise InputError(f"unknown experiment {name!r} (experiments: {', '.join(EXPERIMENTS)})")
    return import_module(EXPERIMENTS[key])


def list_experiments() -> list[dict[str, str]]:
    """Name, version, title and question of every experiment."""
    out = []
    for name in EXPERIMENTS:
        mod = get(name)
        out.append({"name": name, "version": mod.VERSION, "title": mod.TITLE, "question": mod.QUESTION})
    return out


def config(name: str, size: str) -> dict[str, Any]:
    mod = get(name)
    if size not in SIZES:
        raise InputError(f"unknown size {size!r} (sizes: {', '.join(SIZES)})")
    return dict(mod.CONFIG[size])


def plan(name: str, size: str) -> list[Step]:
    """The steps of experiment ``name`` at ``size``."""
    return list(get(name).plan(config(name, size)))


def default_out(name: str) -> Path:
    return Path("results") / name


def run(
    name: str,
    size: str = "full",
    out_dir: str | Path | None = None,
    seed: int | None = None,
    progress: Progress | Callable[[str], None] | None = None,
    resume: bool = False,
    **backend: Any,
) -> ExperimentResult:
    """Run experiment ``name`` at ``size`` into ``out_dir`` (default ``results/NAME``).

    ``seed`` overrides the config's seed; ``progress`` is a :class:`Progress` (or a
    function given one line per step); ``resume`` continues the run in ``out_dir`` (a
    folder holding a run is refused without it); ``backend`` (e.g. ``threads=2``; the
    options of :func:`simulator.running.setup.execution_of`) is checked before anything runs and
    passed to every simulation the experiment makes (it does not change the numbers)."""
    mod = get(name)
    if size not in SIZES:
        raise InputError(f"unknown size {size!r} (sizes: {', '.join(SIZES)})")
    # Checked once, before anything is played or replaced; every step builds its own setup
    # and execution through the same constructors (simulator/running/setup.py).
    execution_of(backend)
    if seed is not None:
        resolve_seed(seed)
    out = Path(out_dir) if out_dir is not None else default_out(mod.NAME)
    if out_dir is None and not resume and _holds_complete_run(out):
        # The default folder is where a repeated tour command writes: a finished run there is
        # replaced (an explicit --out folder stays protected, and an unfinished run too).
        say(f"note: {out} held a finished run of {mod.NAME}; replacing it (give --out to keep several)")
        shutil.rmtree(out)
    t0 = time.perf_counter()
    res = mod.run(size=size, out_dir=out, seed=seed, progress=progress, resume=resume, **backend)
    res.elapsed_s = time.perf_counter() - t0
    return res


def _holds_complete_run(out: Path) -> bool:
    """Whether ``out`` is an experiment folder whose run finished (and nothing else)."""
    path = out / STATE_FILE
    if not path.is_file():
        return False
    try:
        state = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return False
    return (
        isinstance(state, dict)
        and state.get("kortsim_experiment") == STATE_FORMAT
        and bool(state.get("complete"))
    )


def stored_seed(out_dir: str | Path) -> int | None:
    """The seed of the experiment run in ``out_dir``, if there is one."""
    path = Path(out_dir) / STATE_FILE
    if not path.is_file():
        return None
    with contextlib.suppress(OSError, ValueError, KeyError, TypeError):
        return int(json.loads(path.read_text())["settings"]["config"]["seed"])
    return None


def experiment_provenance(
    mod: ModuleType, size: str, cfg: Mapping[str, Any], seed: int, players: list
) -> dict:
    """Provenance of an experiment run: the study, its config, and the usual run provenance."""
    import subprocess

    from simulator.running.results import provenance

    prov = provenance(seed, {}, players)
    prov.pop("rules", None)
    try:
        commit = subprocess.run(
            ["git", "rev-parse", "HEAD"],
            capture_output=True,
            text=True,
            timeout=5,
            cwd=Path(__file__).resolve().parent,
        ).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        commit = ""
    return {
        "experiment": mod.NAME,
        "version": mod.VERSION,
        "size": size,
        "config": dict(cfg),
        **prov,
        "git_commit": commit or None,
    }


def _source_hash(mod: ModuleType) -> str:
    try:
        return hashlib.sha256(Path(mod.__file__).read_bytes()).hexdigest()[:16]  # type: ignore[arg-type]
    except (OSError, TypeError):
        return ""


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
            "code_sha256": _source_hash(self.mod),
        }

    def _open(self, resume: bool) -> None:
        out = self.out
        if out.exists() and not out.is_dir():
            raise InputError(f"--out {out} is a file, not a folder")
        path = out / STATE_FILE
        if not resume:
            held = [
                f for f in (STATE_FILE, "report.json", "summary.parquet", "run.json") if (out / f).exists()
            ]
            if held:
                raise InputError(
                    f"{out} already holds a run ({held[0]}); add --resume to continue it, "
                    "or choose another --out folder"
                )
            out.mkdir(parents=True, exist_ok=True)
            self.state = {
                "kortsim_experiment": STATE_FORMAT,
                "settings": self.settings,
                "created": datetime.now(UTC).isoformat(timespec="seconds"),
                "sessions": 1,
                "complete": False,
                "steps": {},
                "strategies": {},
            }
            self._save_state()
            return
        if not path.is_file():
            raise InputError(
                f"nothing to resume in {out} (no {STATE_FILE}); leave out --resume to start a run"
            )
        try:
            state = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError) as exc:
            raise InputError(f"{path} cannot be read: {exc}") from None
        if not isinstance(state, dict) or state.get("kortsim_experiment") != STATE_FORMAT:
            raise InputError(f"{path} is not an experiment run this kortsim can resume")
        diffs = _differences(state.get("settings", {}), self.settings)
        if diffs:
            raise InputError(
                f"cannot resume {out}: {'; '.join(diffs)} (start a new run in another --out folder)"
            )
        state["sessions"] = int(state.get("sessions", 1)) + 1
        state.setdefault("steps", {})
        state.setdefault("strategies", {})
        self.state = state
        self._save_state()

    def _save_state(self) -> None:
        atomic_write(
            self.out / STATE_FILE, (json.dumps(self.state, indent=1, ensure_ascii=False) + "\n").encode()
        )

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
            done = sum(1 for s in self.steps if s.key in self.state["steps"])
            raise ExperimentInterrupted(self.out, done, len(self.steps)) from None

    def _step(self, key: str, st: Step, fn: Callable[[Callable[[int], None]], Any]) -> Any:
        index = self.steps.index(st) + 1
        label = st.label or key
        rec = self.state["steps"].get(key)
        if rec is not None:
            value = self._load(key, rec)
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
        data = pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL)
        folder = self.out / STEPS_DIR
        folder.mkdir(exist_ok=True)
        name = f"{index:03d}-{_slug(key)}.pkl"
        atomic_write(folder / name, data)
        self.state["steps"][key] = {
            "file": f"{STEPS_DIR}/{name}",
            "sha256": hashlib.sha256(data).hexdigest(),
            "elapsed_s": round(elapsed, 3),
        }
        self._save_state()

    def _load(self, key: str, rec: Mapping[str, Any]) -> Any:
        path = self.out / str(rec.get("file", ""))
        try:
            data = path.read_bytes()
        except OSError:
            raise InputError(
                f"{path} (step {key!r}) is missing; remove its entry from {self.out / STATE_FILE} "
                "to play it again, or start over in another --out folder"
            ) from None
        if hashlib.sha256(data).hexdigest() != rec.get("sha256"):
            raise InputError(
                f"{path} (step {key!r}) does not match its checksum in {self.out / STATE_FILE}; "
                "delete the file and its entry to play that step again, or start over in another --out folder"
            )
        try:
            return pickle.loads(data)  # our own file, checked against its recorded hash
        except Exception as exc:  # written by another version of the code
            raise InputError(f"{path} (step {key!r}) cannot be read back: {exc}") from None

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
                raise InputError(
                    f"cannot resume {self.out}: strategy {p.spec}'s code has changed since the run started "
                    "(start a new run in another --out folder)"
                )
            if old is None:
                self.state["strategies"][who] = digest
                changed = True
        if changed:
            self._save_state()

    def table(self, name: str, df: pd.DataFrame) -> pd.DataFrame:
        self.tables[name] = df.reset_index(drop=True)
        return self.tables[name]

    def figure(self, name: str, fig) -> Path:
        from simulator.reporting import plots

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
        )
        report.write(rep, self.out, summary_table)
        self.state["complete"] = True
        self._save_state()
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


def _differences(old: Mapping[str, Any], new: Mapping[str, Any]) -> list[str]:
    """What differs between a stored experiment run's settings and this one's, in words."""
    if old.get("experiment") != new["experiment"]:
        return [f"it is a {old.get('experiment')} run, not {new['experiment']}"]
    out = []
    if old.get("version") != new["version"]:
        out.append(f"it was made by version {old.get('version')} of the experiment, not {new['version']}")
    if old.get("size") != new["size"]:  # a size is a whole config: say only that
        flag = "" if old.get("size") == "full" else f" (give --{old.get('size')})"
        return [*out, f"it is the {old.get('size')} size{flag}, not {new['size']}"]
    oc, nc = old.get("config", {}), new["config"]
    for key in sorted(set(oc) | set(nc)):
        if oc.get(key) != nc.get(key):
            out.append(f"its {key} is {oc.get(key)}, not {nc.get(key)}")
    if not out and old.get("code_sha256") != new["code_sha256"]:
        out.append("the experiment's code has changed since the run started")
    return out


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
    if seed is None and resume:
        seed = stored_seed(out)
    seed = resolve_seed(cfg["seed"] if seed is None else seed)
    cfg["seed"] = seed
    return Bundle(mod, size, out, seed, cfg, resume=resume, progress=progress)


__all__ = [
    "EXPERIMENTS",
    "SIZES",
    "Bundle",
    "ExperimentInterrupted",
    "ExperimentResult",
    "Progress",
    "Step",
    "config",
    "get",
    "list_experiments",
    "plan",
    "run",
    "start",
]
