"""Named, versioned, reproducible studies.

Each experiment is a module here with

* ``NAME``, ``TITLE``, ``QUESTION`` and ``VERSION`` (bumped whenever the design or the
  code changes what the numbers mean);
* ``CONFIG``: a dict of sizes ``tiny`` (seconds; the test suite runs it), ``quick``
  (minutes on a laptop) and ``full`` (the study), each a dict of plain values, with a
  fixed default ``seed``;
* ``run(size, out_dir, seed, **backend) -> ExperimentResult``.

A run writes into its folder the summary Parquet with provenance (the experiment, its
version, size and config, the seed, the strategies and their source hashes, the
package versions), every table as Parquet, the figures as PNG and SVG, ``report.md``
and a self-contained ``report.html`` whose sentences are made from the numbers.

From Python::

    import experiments
    res = experiments.run("spokelse-strategy", size="tiny", out_dir="results/spokelse-strategy")
    res.answer           # the answer in sentences
    res.tables["sweep"]  # pandas DataFrames

From the shell: ``kortsim experiment list`` and ``kortsim experiment run NAME --quick``.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from importlib import import_module
from pathlib import Path
from types import ModuleType
from typing import Any

import pandas as pd

from simulator.games.base import InputError

SIZES = ("tiny", "quick", "full")

# experiment name -> module
EXPERIMENTS: dict[str, str] = {
    "spokelse-strategy": "experiments.spokelse_strategy",
    "commit-early": "experiments.commit_early",
    "reaction-vs-cards": "experiments.reaction_vs_cards",
}


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

    @property
    def report_html(self) -> Path:
        return self.out_dir / "report.html"

    @property
    def report_md(self) -> Path:
        return self.out_dir / "report.md"

    @property
    def summary_path(self) -> Path:
        return self.out_dir / "summary.parquet"


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


def default_out(name: str) -> Path:
    return Path("results") / name


def run(
    name: str,
    size: str = "full",
    out_dir: str | Path | None = None,
    seed: int | None = None,
    progress: Callable[[str], None] | None = None,
    **backend: Any,
) -> ExperimentResult:
    """Run experiment ``name`` at ``size`` into ``out_dir`` (default ``results/NAME``).

    ``seed`` overrides the config's seed; ``backend`` (e.g. ``threads=2``) is passed to
    every simulation the experiment makes."""
    mod = get(name)
    if size not in SIZES:
        raise InputError(f"unknown size {size!r} (sizes: {', '.join(SIZES)})")
    out = Path(out_dir) if out_dir is not None else default_out(mod.NAME)
    t0 = time.perf_counter()
    res = mod.run(size=size, out_dir=out, seed=seed, progress=progress, **backend)
    res.elapsed_s = time.perf_counter() - t0
    return res


def experiment_provenance(
    mod: ModuleType, size: str, cfg: Mapping[str, Any], seed: int, players: list
) -> dict:
    """Provenance of an experiment run: the study, its config, and the usual run provenance."""
    import subprocess

    from simulator.results import provenance

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


class Bundle:
    """Collects an experiment's tables, figures and sentences, then writes the folder."""

    def __init__(self, mod: ModuleType, size: str, out_dir: str | Path, seed: int, cfg: Mapping[str, Any]):
        self.mod = mod
        self.size = size
        self.out = Path(out_dir)
        self.seed = seed
        self.cfg = dict(cfg)
        self.answer: list[str] = []
        self.notes: list[str] = []
        self.sections: list = []
        self.tables: dict[str, pd.DataFrame] = {}
        self.figures: dict[str, Path] = {}
        self.players: dict[str, Any] = {}
        self.out.mkdir(parents=True, exist_ok=True)

    def use(self, *players: Any) -> None:
        """Record strategies used (Player objects or specs with a game) for the provenance."""
        for p in players:
            self.players.setdefault(p.spec, p)

    def table(self, name: str, df: pd.DataFrame) -> pd.DataFrame:
        self.tables[name] = df.reset_index(drop=True)
        return self.tables[name]

    def figure(self, name: str, fig) -> Path:
        from simulator import plots

        self.figures[name] = plots.save(fig, self.out / "figures", name)["png"]
        return self.figures[name]

    def section(self, title: str, text: list[str] | None = None, tables=(), figures=()) -> None:
        from simulator.report import Section

        self.sections.append(Section(title, [t for t in (text or []) if t], list(tables), list(figures)))

    def finish(self, summary_table: str) -> ExperimentResult:
        from simulator import report

        prov = experiment_provenance(self.mod, self.size, self.cfg, self.seed, list(self.players.values()))
        rep = report.Report(
            title=f"{self.mod.TITLE} ({self.mod.NAME} v{self.mod.VERSION}, size {self.size})",
            question=self.mod.QUESTION,
            answer=[a for a in self.answer if a],
            sections=self.sections,
            tables=self.tables,
            figures=self.figures,
            provenance=prov,
            notes=self.notes,
        )
        report.write(rep, self.out, summary_table)
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
        )


def start(mod: ModuleType, size: str, out_dir: str | Path | None, seed: int | None) -> Bundle:
    """The config of ``size`` and a Bundle writing into ``out_dir`` (default results/NAME)."""
    if size not in SIZES:
        raise InputError(f"unknown size {size!r} (sizes: {', '.join(SIZES)})")
    cfg = dict(mod.CONFIG[size])
    seed = int(cfg["seed"] if seed is None else seed)
    cfg["seed"] = seed
    out = Path(out_dir) if out_dir is not None else default_out(mod.NAME)
    return Bundle(mod, size, out, seed, cfg)


__all__ = [
    "EXPERIMENTS",
    "SIZES",
    "Bundle",
    "ExperimentResult",
    "config",
    "get",
    "list_experiments",
    "run",
    "start",
]
