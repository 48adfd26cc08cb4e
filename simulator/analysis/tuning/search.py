"""The search: Optuna's TPE sampler with successive halving on rungs of common deals.

**Why this optimiser.**  Optuna is well kept, its TPE sampler (Bergstra et al. 2011)
takes integer, stepped and real parameters in one space, and with a fixed seed it
proposes the same points for the same history, so a search is a pure function of
``--seed``.  Its successive-halving pruner (Jamieson & Talwalkar 2016; Li et al.'s
asynchronous form, 2020) stops a poor candidate early: each candidate reports its
estimate after ``n/16``, ``n/4`` and ``n`` deals, and goes on to the next rung only when
it is among the best quarter of the candidates that reached this rung.  Every candidate
plays the *same* deals at each rung, so the rung comparisons are paired, as a race
(F-race, irace) would make them; unlike a race, TPE proposes new candidates from what it
has learned rather than racing a fixed set.

**Ask and tell.**  Before every trial the sampler is made afresh with a seed derived from
``--seed``, the iteration and the number of trials finished
(:func:`simulator.analysis.tuning.seeds.sampler_seed`): TPE keeps no other state than the trials
in its storage, so a search resumed from its journal proposes exactly what an
uninterrupted one would have.  Points that play alike (``Param.representative``) share
one :class:`~simulator.analysis.tuning.evaluate.Entry`: a point proposed again is given the figures
already measured, and only deals it has not played are ever played for it.

**Repeats do not use up trials; a small finite space is enumerated.**  A trial that proposes a
point an earlier trial measured and plays no new deal for it is a *repeat*: it is kept in the
trials table (``repeat``) and tells the sampler its figures, but it does not count against
``--trials``.  When every searched parameter is on a grid (``Param.step``), the space has as
many points as distinct ways of playing (:meth:`~simulator.analysis.tuning.space.Space.grid`);
when that is no more than ``--trials``, the search does not sample at all: it plays every
point, the start first and then in grid order (``study.enqueue_trial``), on all the deals
(no pruning), so that its best is the best of the whole space.  Either way a resumed search
measures what an uninterrupted one would have.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import optuna
from optuna.trial import TrialState

from simulator.analysis.tuning.confirm import metric_unit
from simulator.analysis.tuning.evaluate import RUNG_STEPS, Entry, Evaluator, Sums
from simulator.analysis.tuning.seeds import sampler_seed
from simulator.analysis.tuning.space import Space

optuna.logging.set_verbosity(optuna.logging.WARNING)
REDUCTION = 4  # successive halving keeps the best quarter at each rung
# Proposals in a row of points already measured after which a search ends: its sampler has
# nothing new to propose (a finite space it keeps circling, or a pruned corner).
MAX_REPEATS = 50


def make_sampler(seed: int) -> optuna.samplers.BaseSampler:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", optuna.exceptions.ExperimentalWarning)
        return optuna.samplers.TPESampler(seed=seed, multivariate=True, n_startup_trials=8)


def make_pruner() -> optuna.pruners.BasePruner:
    return optuna.pruners.SuccessiveHalvingPruner(
        min_resource=RUNG_STEPS[0], reduction_factor=REDUCTION, min_early_stopping_rate=0
    )


@dataclass
class Search:
    """One study: the space, the evaluator, and the cache of points by representative.

    ``grid`` lists one point per distinct way of playing when the space is finite (else
    None); ``enumerating`` says that it has no more points than the trials asked for, and
    is played whole, point by point in grid order, without pruning."""

    study: optuna.Study
    space: Space
    evaluator: Evaluator
    seed: int
    iteration: int
    cache: dict[tuple[float, ...], Entry] = field(default_factory=dict)
    grid: list[dict[str, float]] | None = None
    enumerating: bool = False
    stopped: str | None = None  # why the search ended before its trials, when it did

    @property
    def finished(self) -> list[optuna.trial.FrozenTrial]:
        states = (TrialState.COMPLETE, TrialState.PRUNED)
        return [t for t in self.study.get_trials(deepcopy=False) if t.state in states]

    @property
    def counted(self) -> list[optuna.trial.FrozenTrial]:
        """The finished trials that count against ``--trials``: all but the repeats."""
        return [t for t in self.finished if not t.user_attrs.get("repeat", False)]

    def _measured(self, key: tuple[float, ...]) -> bool:
        return len(self.cache.get(key, Entry()).rungs) == len(RUNG_STEPS)

    def _grid_keys(self) -> list[tuple[float, ...]]:
        rules = self.evaluator.setup.rules
        return [self.space.representative(v, rules) for v in self.grid or ()]

    def covered(self) -> bool:
        """Whether every point of a finite space has been measured on all the deals."""
        return self.grid is not None and all(self._measured(k) for k in self._grid_keys())

    def restore(self) -> None:
        """Rebuild the cache from the trials in storage; a trial an interrupted run left
        running is marked failed (it is proposed again, with the same seed)."""
        for t in self.study.get_trials(deepcopy=False):
            if t.state == TrialState.RUNNING:
                self.study.tell(t.number, state=TrialState.FAIL)
            elif t.state in (TrialState.COMPLETE, TrialState.PRUNED) and "rungs" in t.user_attrs:
                key = tuple(t.user_attrs["plays_as_values"])
                rungs = [Sums.of_json(r) for r in t.user_attrs["rungs"]]
                if len(rungs) > len(self.cache.get(key, Entry()).rungs):
                    self.cache[key] = Entry(rungs)

    def run(self, trials: int, on_trial: Callable[[dict[str, Any]], None] | None = None) -> None:
        """Run trials until ``trials`` count (completed or pruned; a repeat, a point proposed
        again that plays no deal not played before, does not), or a finite space is
        measured whole, or the sampler proposes only repeats ``MAX_REPEATS`` times in a row."""
        streak = 0
        for t in reversed(self.finished):  # a resumed search goes on counting where it was
            if not t.user_attrs.get("repeat", False):
                break
            streak += 1
        while len(self.counted) < trials and not self.covered():
            if streak >= MAX_REPEATS:
                self.stopped = (
                    f"the sampler proposed only points already measured, {MAX_REPEATS} times in a row"
                )
                return
            if self.enumerating:
                self._enqueue_next()
            self.study.sampler = make_sampler(sampler_seed(self.seed, self.iteration, len(self.finished)))
            trial = self.study.ask()
            row = self._trial(trial)
            streak = streak + 1 if row["repeat"] else 0
            if on_trial is not None:
                on_trial(row)

    def _enqueue_next(self) -> None:
        """Queue the first point of the grid not yet measured on all the deals (unless a
        point is queued already: the start, at the study's creation)."""
        if self.study.get_trials(deepcopy=False, states=(TrialState.WAITING,)):
            return
        for values, key in zip(self.grid or (), self._grid_keys()):
            if not self._measured(key):
                self.study.enqueue_trial(values)
                return

    def _trial(self, trial: optuna.Trial) -> dict[str, Any]:
        ev, space = self.evaluator, self.space
        values = space.suggest(trial)
        player = space.player(values)
        key = space.representative(values, ev.setup.rules)
        proposed = {tuple(t.user_attrs["plays_as_values"]) for t in self.finished}
        entry = self.cache.setdefault(key, Entry())
        before = ev.budget.deals
        pruned = False
        for r, step in enumerate(RUNG_STEPS):
            ev.extend(player, entry, r)
            fig = ev.figures(entry.rungs[r])
            trial.report(fig["diff"], step)
            if not self.enumerating and r < len(RUNG_STEPS) - 1 and trial.should_prune():
                pruned = True
                break
        reached = entry.rungs[: r + 1]
        played = ev.budget.deals - before
        repeat = key in proposed and played == 0
        rep = space.player(dict(zip((p.name for p in space.family.params), key)))
        trial.set_user_attr("spec", player.spec)
        trial.set_user_attr("plays_as", rep.spec)
        trial.set_user_attr("plays_as_values", list(key))
        trial.set_user_attr("rungs", [s.to_json() for s in reached])
        trial.set_user_attr("deals_played", played)
        trial.set_user_attr("repeat", repeat)
        if pruned:
            self.study.tell(trial, state=TrialState.PRUNED)
        else:
            self.study.tell(trial, fig["diff"])
        return {
            "number": trial.number,
            "spec": player.spec,
            "pruned": pruned,
            "repeat": repeat,
            **fig,
            # what ``diff`` is (a difference to the start): for a caller that says it in words
            "start": ev.start_spec,
            "lower_is_better": ev.metric.lower_is_better,
            "metric_kind": ev.metric.kind,  # a rate's diff is a fraction; its unit percentage points
            "diff_unit": metric_unit(ev.metric, ev.setup.unit),
        }
