"""The study's steps: a sweep, a comparison or a plain simulation, kept in the run folder as
plain values (so a resumed run reads them back instead of playing them again)."""

from __future__ import annotations

from typing import Any

import numpy as np

import experiments
from simulator.analysis.compare import compare
from simulator.analysis.sweep import sweep
from simulator.api import simulate


def _sweep_step(b: experiments.Bundle, key: str, spec: str, backend: dict, **kw: Any):
    """A sweep as a step: stored as plain values, rebuilt into a SweepResult."""
    from simulator.analysis.compare import CompareResult, frames_of
    from simulator.analysis.sweep import SweepResult, parse_sweep

    def play(progress):
        res = sweep("spokelse", spec, progress=progress, **kw, **backend)
        return {
            "game": res.game,
            "unit": res.unit,
            "metric": res.metric,
            "vs": res.vs,
            "baseline": res.baseline,
            "table": res.table,
            "comparison": res.comparison.summary,
            "summary": res.summary,
        }

    d = b.step(key, play)
    return SweepResult(
        parse_sweep(spec, "spokelse"),
        d["game"],
        d["unit"],
        d["metric"],
        d["vs"],
        d["baseline"],
        d["table"],
        CompareResult(d["comparison"], frames_of(d["comparison"])),
        d["summary"],
    )


def _compare_step(b: experiments.Bundle, key: str, players: list, backend: dict, **kw: Any) -> dict:
    """A comparison as a step: its JSON summary."""
    return b.step(
        key, lambda progress: compare("spokelse", players, progress=progress, **kw, **backend).summary
    )


def _simulate_step(b: experiments.Bundle, key: str, spec: str, backend: dict, **kw: Any) -> dict:
    """A plain simulation as a step: its summary and histograms."""

    def play(progress):
        r = simulate("spokelse", [spec], seed=b.seed, progress=progress, **kw, **backend)
        return {"summary": r.summary, "histograms": {k: np.asarray(v) for k, v in r.histograms.items()}}

    return b.step(key, play)
