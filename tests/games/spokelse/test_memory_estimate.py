"""The estimate of a player's ``forget`` from its choices (memory_estimate.py): a simulated
person who forgets as the model says is found out, and the estimate is a pure function of
the choices and the seed."""

from __future__ import annotations

import copy
from dataclasses import dataclass, field

import numpy as np
import pytest

from simulator.games.spokelse import memory_estimate as me
from simulator.games.spokelse import tabletop
from simulator.games.spokelse.observation import PHASE, SOURCE
from simulator.games.spokelse.reference_human import forgettable
from simulator.games.spokelse.tabletop_advice import HUMAN, Decision
from simulator.games.spokelse.variants import Rules
from simulator.tabletop.console import Scripted
from strategies import parse_spec

MODEL = parse_spec("expect", "spokelse")
BOT = parse_spec("threshold:k=4", "spokelse")


@dataclass
class Person(tabletop.Human):
    """A person who plays ``MODEL`` on what it remembers: the estimate's own model, with
    its own generator (``forget``, ``slip``)."""

    forget: float = 0.0
    slip: float = 0.0
    gen: np.random.Generator = field(default_factory=lambda: np.random.default_rng(0))
    lost: frozenset = frozenset()
    before: Decision | None = None

    def decide(self, obs, params, rng):
        d = Decision(self.round, obs.copy(), -1, copy.deepcopy(self.table),
                     (self.rngs[0].copy(), self.rngs[1].copy()), frozenset())  # fmt: skip
        if self.before is None or self.before.round != d.round:
            self.lost, self.before = frozenset(), None
        self.lost -= me.seen_again(self.before.table if self.before else None, d.table, obs)
        if obs[PHASE] == SOURCE:
            self.lost |= {
                c
                for c in forgettable(d.table, HUMAN)
                if c not in self.lost and self.gen.random() < self.forget
            }
        if self.gen.random() < self.slip:
            choice = int(self.gen.integers(me.legal_count(obs)))
            if obs[PHASE] == SOURCE:
                choice = min(choice, 1)
        else:
            choice = int(
                MODEL.decide(me.forgotten_view(d, sorted(self.lost)), MODEL.params, d.rngs[HUMAN].copy())
            )
        self.before = d
        return self.record(obs, choice)


def person_plays(forget: float, slip: float, seed: int, matches: int = 2) -> list[Decision]:
    decisions: list[Decision] = []
    for game in range(matches):
        p = Person(Scripted([]), opponent="threshold", forget=forget, slip=slip,
                   gen=np.random.default_rng([seed, game]))  # fmt: skip
        tabletop.play_match(Scripted([]), Rules(), [p, BOT], seed=seed, game=game)
        decisions += p.decisions
    return decisions


def test_a_person_with_perfect_memory_is_estimated_to_forget_little():
    est = me.estimate(person_plays(0.0, 0.02, seed=11, matches=1), MODEL, seed=1)
    assert est.forget_ci[0] == 0.0 and est.forget <= 0.05, est


def test_a_careless_person_is_not_taken_for_a_forgetful_one():
    est = me.estimate(person_plays(0.0, 0.15, seed=14, matches=1), MODEL, seed=1)
    assert est.forget_ci[0] == 0.0 and est.slip >= 0.08, est


@pytest.mark.parametrize("forget, matches", [(0.2, 2), (0.5, 1)])
def test_a_forgetful_person_is_found_out(forget, matches):
    est = me.estimate(person_plays(forget, 0.02, seed=12, matches=matches), MODEL, seed=1)
    assert 0.0 < est.forget_ci[0] < forget < est.forget_ci[1], est
    assert "an estimate" in est.words() and "assuming you otherwise play like expect" in est.words()


def test_the_estimate_is_a_pure_function_of_the_choices_and_the_seed():
    decisions = person_plays(0.2, 0.05, seed=13, matches=1)
    a = me.estimate(decisions, MODEL, seed=5, particles=32)
    b = me.estimate(decisions, MODEL, seed=5, particles=32)
    assert a == b and len(a.loglik) == len(me.FORGET_GRID)


def test_the_model_is_a_plain_strategy_and_there_are_decisions():
    with pytest.raises(ValueError, match="plain strategy"):
        me.estimate(person_plays(0.0, 0.0, seed=1, matches=1), parse_spec("expect:forget=0.1", "spokelse"))
    with pytest.raises(ValueError, match="no decisions"):
        me.estimate([], MODEL)
