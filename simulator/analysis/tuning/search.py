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
"""

from __future__ import annotations

import warnings
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import optuna
from optuna.trial import TrialState

from simulator.analysis.tuning.evaluate import RUNG_STEPS, Entry, Evaluator, Sums
from simulator.analysis.tuning.seeds import sampler_seed
from simulator.analysis.tuning.space import Space

optuna.logging.set_verbosity(optuna.logging.WARNING)
REDUCTION = 4  # successive halving keeps the best quarter at each rung


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
    """One study: the space, the evaluator, and the cache of points by representative."""

    study: optuna.Study
    space: Space
    evaluator: Evaluator
    seed: int
    iteration: int
    cache: dict[tuple[float, ...], Entry] = field(default_factory=dict)

    @property
    def finished(self) -> list[optuna.trial.FrozenTrial]:
        states = (TrialState.COMPLETE, TrialState.PRUNED)
        return [t for t in self.study.get_trials(deepcopy=False) if t.state in states]

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
        """Run trials until ``trials`` have finished (completed or pruned)."""
        while (done := len(self.finished)) < trials:
            self.study.sampler = make_sampler(sampler_seed(self.seed, self.iteration, done))
            trial = self.study.ask()
            row = self._trial(trial)
            if on_trial is not None:
                on_trial(row)

    def _trial(self, trial: optuna.Trial) -> dict[str, Any]:
        ev, space = self.evaluator, self.space
        values = space.suggest(trial)
        player = space.player(values)
        key = space.representative(values, ev.setup.rules)
        entry = self.cache.setdefault(key, Entry())
        before = ev.budget.deals
        pruned = False
        for r, step in enumerate(RUNG_STEPS):
            ev.extend(player, entry, r)
            fig = ev.figures(entry.rungs[r])
            trial.report(fig["diff"], step)
            if r < len(RUNG_STEPS) - 1 and trial.should_prune():
                pruned = True
                break
        reached = entry.rungs[: r + 1]
        rep = space.player(dict(zip((p.name for p in space.family.params), key)))
        trial.set_user_attr("spec", player.spec)
        trial.set_user_attr("plays_as", rep.spec)
        trial.set_user_attr("plays_as_values", list(key))
        trial.set_user_attr("rungs", [s.to_json() for s in reached])
        trial.set_user_attr("deals_played", ev.budget.deals - before)
        if pruned:
            self.study.tell(trial, state=TrialState.PRUNED)
        else:
            self.study.tell(trial, fig["diff"])
        return {"number": trial.number, "spec": player.spec, "pruned": pruned, **fig}
