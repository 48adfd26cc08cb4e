"""What every experiment is made of: its steps, the progress it reports, how it is stopped,
what a run returns, and its settings and provenance (shared by :mod:`experiments` and
:mod:`experiments.bundle`)."""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import Any

import pandas as pd

SIZES = ("tiny", "quick", "full")
STATE_FILE = "experiment.json"
STEPS_DIR = "steps"
STATE_FORMAT = 2  # 1: the finished steps were kept in experiment.json (resumed, and moved)


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


def default_out(name: str) -> Path:
    return Path("results") / name


# --- a run's settings and provenance ----------------------------------------------------


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


def source_hash(mod: ModuleType) -> str:
    try:
        return hashlib.sha256(Path(mod.__file__).read_bytes()).hexdigest()[:16]  # type: ignore[arg-type]
    except (OSError, TypeError):
        return ""


def settings_differences(old: Mapping[str, Any], new: Mapping[str, Any]) -> list[str]:
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
