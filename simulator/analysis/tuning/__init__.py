"""Tuning a strategy's parameters against a field, on the same deals in every seat.

``simulator.tune(game, "expect:k=0..4,patience=1..6,open=10..41", vs="threshold:k=4",
rounds=4_000_000, seed=5)`` searches the ranges given (or every parameter's declared
bounds) for the best value of a metric of the game (its direction from the game's
declaration), every candidate against the field as :func:`simulator.analysis.compare.compare`
plays it, then confirms the winner on fresh deals.  The pieces:

* :mod:`~simulator.analysis.tuning.space`: the tune spec, the searched ranges on each grid;
* :mod:`~simulator.analysis.tuning.evaluate`: a candidate's paired difference to the start on
  growing prefixes (rungs) of the search's deals;
* :mod:`~simulator.analysis.tuning.search`: Optuna's TPE sampler and successive-halving pruner, and
  why; points that play alike are paid for once;
* :mod:`~simulator.analysis.tuning.seeds`: the search's and the confirmation's disjoint seeds;
* :mod:`~simulator.analysis.tuning.confirm`: the confirmation and its sentences;
* :mod:`~simulator.analysis.tuning.plan`: a tune checked before anything is played (``TunePlan``);
* :mod:`~simulator.analysis.tuning.result` and :mod:`~simulator.analysis.tuning.storage`: the summary,
  trials table, plot, and the ``--out`` folder that ``--resume`` continues from (claimed and
  locked as every run folder is, :mod:`simulator.running.claim`).
"""

import importlib
from typing import Any

from simulator.analysis.tuning.space import DEFAULT_TRIALS

_FROM = {"TunePlan": "plan", "plan_tune": "plan", "play_tune": "api", "tune": "api", "TuneResult": "result"}


def __getattr__(name: str) -> Any:
    # the modules that import Optuna load on first use (``import simulator`` stays quick)
    if name in _FROM:
        return getattr(importlib.import_module(f"simulator.analysis.tuning.{_FROM[name]}"), name)
    raise AttributeError(f"module 'simulator.analysis.tuning' has no attribute {name!r}")


__all__ = ["DEFAULT_TRIALS", "TunePlan", "TuneResult", "plan_tune", "play_tune", "tune"]
