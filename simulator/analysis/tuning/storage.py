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

import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
import optuna

from simulator.errors import InputError
from simulator.running.results import dumps_json

if TYPE_CHECKING:
    from simulator.analysis.tuning.plan import TunePlan

JOURNAL = "study.journal"
SETTINGS = "settings.json"
OURS = (JOURNAL, SETTINGS, "tune.json", "trials.parquet", "figures")
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
    """The seed of the tune held in ``out`` (None when it holds none)."""
    try:
        return int(json.loads((out / SETTINGS).read_text())["seed"])
    except (OSError, ValueError, KeyError, TypeError):
        return None


def claim(out: Path, plan: TunePlan, resume: bool) -> None:
    """Check ``out`` before anything is played: a new or empty folder for a new tune; with
    ``resume``, the folder of a tune with the same settings."""
    names = sorted(p.name for p in out.iterdir()) if out.is_dir() else []
    foreign = [n for n in names if n not in OURS and not n.startswith("start-")]
    if foreign:
        raise InputError(
            f"--out {out} holds files a tune did not write ({', '.join(foreign[:3])}); choose another --out"
        )
    held = SETTINGS in names
    if resume and not held:
        raise InputError(
            f"--resume: {out} holds no tune to continue (no {SETTINGS}); leave out --resume to start one"
        )
    if held and not resume:
        raise InputError(
            f"--out {out} already holds a tune; give --resume to continue it, or choose another --out"
        )
    mine = settings_of(plan)
    if held:
        old = json.loads((out / SETTINGS).read_text())
        for key, value in mine.items():
            if key not in FREE and old.get(key) != value:
                raise InputError(
                    f"--resume: {out} holds a tune with {key} {old.get(key)!r}, not {value!r}; "
                    "give the same command (only --trials, --iterate and --confirm may change)"
                )
    out.mkdir(parents=True, exist_ok=True)
    (out / SETTINGS).write_text(dumps_json(mine))


def load_start(out: Path, iteration: int) -> tuple[np.ndarray, np.ndarray] | None:
    path = out / f"start-{iteration}.npz"
    if not path.is_file():
        return None
    with np.load(path) as z:
        return z["t"], z["ok"]


def save_start(out: Path, iteration: int, t: np.ndarray, ok: np.ndarray) -> None:
    np.savez_compressed(out / f"start-{iteration}.npz", t=t, ok=ok)
