"""How well a player remembers, estimated from the choices it made: its ``forget``.

**The model** (docs/human-players.md).  The player plays like a model strategy (``expect``
by default) on what it *remembers*: at the start of each of its turns each card it knows but
cannot see now is forgotten with probability ``forget`` (a forgotten card in its own row
makes the slot unknown again, and every forgotten card goes back to its unseen pool, as the
engine plays ``forget``), and a decision is a uniformly random legal one with probability
``slip``.  A card seen again (on the discard top, in the hand) is known again.

**The estimate.**  What the player remembered is hidden, so the likelihood of its choices
under a value of ``forget`` sums over what it may have forgotten: a particle filter (each
particle one set of forgotten cards, moved by the model's forgetting and weighted by the
probability of the choice actually made; resampled when the weights run thin) estimates it
on a grid of ``forget`` values, with ``slip`` profiled out on its own grid.  The estimate is
the grid value of the highest likelihood; the 95% interval runs between the nearest grid
values outside the likelihood-ratio bound (twice the log-likelihood more than 3.84 below the
best), so it holds every value the bound keeps, also between grid values.  Both are as good
as the model: they say how much the choices look like forgetting to a player that otherwise
plays like the model.  A pure function of the choices and the seed.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

import numpy as np

from simulator.games.spokelse.observation import DISCARD_TOP, FROM_DISCARD, HAND, PHASE, PLACE, SOURCE, Source
from simulator.games.spokelse.reference_human import forget_card, forgettable
from simulator.games.spokelse.reference_table import Table
from simulator.games.spokelse.reference_view import observe
from simulator.games.spokelse.tabletop_advice import HUMAN, Decision
from simulator.games.spokelse.variants import N_SLOTS
from strategies.registry import Player

FORGET_GRID = (0.0, 0.02, 0.05, 0.1, 0.2, 0.3, 0.5, 0.7, 1.0)
SLIP_GRID = (0.02, 0.08, 0.3)
PARTICLES = 128
CHI2_95 = 3.841458820694124  # the 95% point of chi-square with 1 degree of freedom
ESTIMATE_KEY = 0xF0267  # the estimate's own generator: it never touches the game's streams


@dataclass(frozen=True)
class MemoryEstimate:
    """``forget`` with its 95% interval (grid values), the slip that goes with it, the
    decisions it rests on, and the log-likelihood of every grid value."""

    forget: float
    forget_ci: tuple[float, float]
    slip: float
    decisions: int
    model: str
    loglik: tuple[float, ...]

    def words(self) -> str:
        lo, hi = self.forget_ci
        return (
            f"your memory, estimated: forget={self.forget:g} [{lo:g}, {hi:g}] (the chance of forgetting "
            f"each card you knew, each turn; an estimate from {self.decisions} decisions, assuming you "
            f"otherwise play like {self.model})"
        )

    def to_json(self) -> dict:
        return {
            "forget": self.forget,
            "forget_ci": list(self.forget_ci),
            "slip": self.slip,
            "decisions": self.decisions,
            "model": self.model,
            "level": 0.95,
            "grid": list(FORGET_GRID),
            "loglik": list(self.loglik),
        }


def legal_count(obs: np.ndarray) -> int:
    """How many answers the rules allow at this decision."""
    if obs[PHASE] == SOURCE:
        return 2 if obs[DISCARD_TOP] >= 0 else 1
    return N_SLOTS if obs[FROM_DISCARD] == 1 else N_SLOTS + 1


def seen_again(before: Table | None, now: Table, obs: np.ndarray) -> set[int]:
    """The cards face up at some moment since the decision of ``before`` (the same round):
    every card thrown on the pile, every card a take from the pile left on top, and what is
    in view now (the discard top, the card in hand).  A forgotten card among them is known
    again, as the reference plays it (reference.py: take_from_discard, throw_on_discard)."""
    seen = {int(obs[DISCARD_TOP])} if obs[DISCARD_TOP] >= 0 else set()
    if obs[PHASE] == PLACE and obs[HAND] >= 0:
        seen.add(int(obs[HAND]))
    if before is None:
        return seen
    pile = list(before.discard)
    for t in now.turns[len(before.turns) :]:
        if t.source == Source.DISCARD_PILE and pile:
            pile.pop()
            if pile:
                seen.add(pile[-1])
        seen.add(t.discarded)
        pile.append(t.discarded)
    return seen


def forgotten_view(d: Decision, forgotten: Sequence[int]) -> np.ndarray:
    """The observation of decision ``d`` as a player who forgot ``forgotten`` sees it (the
    reference's own forgetting, reference_human.forget_card, on a copy of the table)."""
    if not forgotten:
        return d.obs
    t = d.table
    table = replace(t, seen=[set(x) for x in t.seen], knows_slot=[list(x) for x in t.knows_slot])
    for c in forgotten:
        forget_card(table, HUMAN, c)
    return observe(table, HUMAN, int(d.obs[PHASE]), int(d.obs[HAND]), bool(d.obs[FROM_DISCARD]))


def estimate(
    decisions: Sequence[Decision],
    model: Player,
    seed: int = 0,
    particles: int = PARTICLES,
) -> MemoryEstimate:
    """The maximum-likelihood ``forget`` of the player who made ``decisions``.

    Parameters
    ----------
    decisions : sequence of Decision
        The player's decisions at the table, in order (tabletop.Human records them: the
        observation with perfect memory, the table as it stood, the seat's stream).
    model : Player
        The strategy the player is taken to play otherwise (``expect`` at the table).
    seed : int
        Seeds the filter's generator (the estimate is a pure function of it and the choices).
    particles : int

    Returns
    -------
    MemoryEstimate

    Raises
    ------
    ValueError
        With no decisions.
    """
    if not decisions:
        raise ValueError("no decisions to estimate a memory from")
    if model.human:
        raise ValueError(f"the model of a player's choices is a plain strategy, not {model.spec}")

    answers: dict[tuple[int, frozenset[int]], int] = {}  # (decision, forgotten) -> the model's answer

    def decide(k: int, forgotten: frozenset[int]) -> int:
        key = (k, forgotten)
        if key not in answers:
            d = decisions[k]
            view = forgotten_view(d, sorted(forgotten))
            answers[key] = int(model.decide(view, model.params, d.rngs[HUMAN].copy()))
        return answers[key]

    loglik = np.full((len(FORGET_GRID), len(SLIP_GRID)), -np.inf)
    for i, p in enumerate(FORGET_GRID):
        for j, e in enumerate(SLIP_GRID):
            loglik[i, j] = _filter(decisions, decide, p, e, seed, particles if p > 0 else 1)
    profile = loglik.max(axis=1)
    best = int(np.argmax(profile))
    inside = [i for i in range(len(FORGET_GRID)) if 2 * (profile[best] - profile[i]) <= CHI2_95]
    # The set within the bound lies between the nearest grid values outside it: those bound
    # the interval (conservative: the likelihood is not known between grid values).
    lo, hi = max(min(inside) - 1, 0), min(max(inside) + 1, len(FORGET_GRID) - 1)
    return MemoryEstimate(
        forget=FORGET_GRID[best],
        forget_ci=(FORGET_GRID[lo], FORGET_GRID[hi]),
        slip=SLIP_GRID[int(np.argmax(loglik[best]))],
        decisions=len(decisions),
        model=model.spec,
        loglik=tuple(float(x) for x in profile),
    )


def _filter(decisions, decide, p: float, e: float, seed: int, n: int) -> float:
    """The log-likelihood of the choices at ``forget=p``, ``slip=e`` (``n`` particles)."""
    gen = np.random.default_rng(np.random.SeedSequence([ESTIMATE_KEY, seed & (2**63 - 1)]))
    forgotten: list[frozenset[int]] = []
    weights = np.empty(0)
    total = 0.0
    before: Decision | None = None
    for i, d in enumerate(decisions):
        if before is None or d.round != before.round:  # a new deal: nothing forgotten yet
            forgotten, weights, before = [frozenset()] * n, np.full(n, 1.0 / n), None
        again = seen_again(before.table if before else None, d.table, d.obs)
        forgotten = [f - again for f in forgotten]
        if d.obs[PHASE] == SOURCE and p > 0:  # its turn begins: each card out of view may go
            known = np.array(forgettable(d.table, HUMAN), dtype=np.int64)
            lost = gen.random((n, known.size)) < p  # a draw for every card of every particle
            forgotten = [
                f | frozenset(known[row].tolist()) if row.any() else f
                for f, row in zip(forgotten, lost, strict=True)
            ]
        match = np.array([decide(i, f) == d.choice for f in forgotten], dtype=np.float64)
        emit = (1.0 - e) * match + e / legal_count(d.obs)
        step = float(np.dot(weights, emit))
        total += np.log(step)
        weights = weights * emit / step
        if 1.0 / float(np.dot(weights, weights)) < n / 2:  # thin weights: systematic resampling
            idx = np.minimum(np.searchsorted(np.cumsum(weights), (gen.random() + np.arange(n)) / n), n - 1)
            forgotten = [forgotten[i] for i in idx]
            weights = np.full(n, 1.0 / n)
        before = d
    return total
