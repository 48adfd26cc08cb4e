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

import json
import shutil
import time
from collections.abc import Callable
from importlib import import_module
from pathlib import Path
from types import ModuleType
from typing import Any

from experiments.bundle import Bundle, start, study_run
from experiments.study import (
    SIZES,
    STATE_FILE,
    STATE_FORMAT,
    STEPS_DIR,
    ExperimentInterrupted,
    ExperimentResult,
    Progress,
    Step,
    as_progress,
    default_out,
    experiment_provenance,
)
from simulator.errors import InputError
from simulator.kernels.messages import say
from simulator.running.claim import stored_seed as folder_seed
from simulator.running.setup import execution_of, resolve_seed

# experiment name -> module
EXPERIMENTS: dict[str, str] = {
    "spokelse-strategy": "experiments.spokelse_strategy",
    "commit-early": "experiments.commit_early",
    "reaction-vs-cards": "experiments.reaction_vs_cards",
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
        and state.get("kortsim_experiment") in (1, STATE_FORMAT)
        and bool(state.get("complete"))
    )


def stored_seed(out_dir: str | Path) -> int | None:
    """The seed of the experiment run in ``out_dir``, if there is one (the one
    :func:`simulator.running.claim.stored_seed` reads for every kind of folder)."""
    return folder_seed(out_dir)


__all__ = [
    "EXPERIMENTS",
    "SIZES",
    "STATE_FILE",
    "STEPS_DIR",
    "Bundle",
    "ExperimentInterrupted",
    "ExperimentResult",
    "Progress",
    "Step",
    "as_progress",
    "config",
    "default_out",
    "experiment_provenance",
    "get",
    "list_experiments",
    "plan",
    "run",
    "start",
    "stored_seed",
    "study_run",
]
