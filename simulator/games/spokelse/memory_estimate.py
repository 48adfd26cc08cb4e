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
the grid value of the highest likelihood; the 95% interval holds the grid values within the
likelihood-ratio bound (twice the log-likelihood within 3.84 of the best).  Both are as good
as the model: they say how much the choices look like forgetting to a player that otherwise
plays like the model.  A pure function of the choices and the seed.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from simulator.games.spokelse.observation import (
    DISCARD_TOP,
    FROM_DISCARD,
    HAND,
    OPP_SLOT,
    PHASE,
    PLACE,
    SLOT,
    SOURCE,
)
from simulator.games.spokelse.variants import N_SLOTS

FORGET_GRID = (0.0, 0.01, 0.02, 0.05, 0.1, 0.15, 0.2, 0.3, 0.4, 0.5, 0.7, 1.0)
SLIP_GRID = (0.01, 0.03, 0.1, 0.3)
PARTICLES = 256
CHI2_95 = 3.841458820694124  # the 95% point of chi-square with 1 degree of freedom
ESTIMATE_KEY = 0xF0267  # the estimate's own generator: it never touches the game's streams


@dataclass(frozen=True)
class Choice:
    """One decision as the estimate reads it: the observation with perfect memory, the
    cards the player knew but could not see then, the answer and the seat's stream."""

    round: int
    obs: np.ndarray
    known: tuple[int, ...]  # cards known but not seen now (own row, opponent's public, pile)
    choice: int
    rng: np.ndarray


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


def known_cards(obs: np.ndarray, under_top: Sequence[int]) -> tuple[int, ...]:
    """The cards a player knows but cannot see now: its known slots, the opponent's public
    slots, and the discard pile under its top (``under_top``)."""
    own = [int(obs[SLOT + i]) for i in range(N_SLOTS) if obs[SLOT + i] >= 0]
    theirs = [int(obs[OPP_SLOT + i]) for i in range(N_SLOTS) if obs[OPP_SLOT + i] >= 0]
    return tuple(sorted(set(own) | set(theirs) | set(int(c) for c in under_top)))


def _visible(obs: np.ndarray) -> set[int]:
    seen = {int(obs[DISCARD_TOP])} if obs[DISCARD_TOP] >= 0 else set()
    if obs[PHASE] == PLACE and obs[HAND] >= 0:
        seen.add(int(obs[HAND]))
    return seen


def estimate(
    choices: Sequence[Choice],
    decide: Callable[[np.ndarray, np.ndarray], int],
    view: Callable[[np.ndarray, Sequence[int]], np.ndarray],
    model: str,
    seed: int = 0,
    particles: int = PARTICLES,
) -> MemoryEstimate:
    """The maximum-likelihood ``forget`` of the player who made ``choices``.

    Parameters
    ----------
    choices : sequence of Choice
        The player's decisions in order (rounds in order, each round's in play order).
    decide : callable
        ``decide(obs, rng)``: the model strategy's answer on an observation (with a copy of
        the seat's stream as it stood).
    view : callable
        ``view(obs, forgotten)``: the observation as a player who forgot ``forgotten`` sees it.
    model : str
        The model strategy's spec (said with the estimate).
    seed : int
        Seeds the filter's generator (the estimate is a pure function of it and the choices).
    particles : int

    Returns
    -------
    MemoryEstimate
    """
    if not choices:
        raise ValueError("no decisions to estimate a memory from")
    loglik = np.full((len(FORGET_GRID), len(SLIP_GRID)), -np.inf)
    for i, p in enumerate(FORGET_GRID):
        for j, e in enumerate(SLIP_GRID):
            loglik[i, j] = _filter(choices, decide, view, p, e, seed, particles if p > 0 else 1)
    profile = loglik.max(axis=1)
    best = int(np.argmax(profile))
    inside = [FORGET_GRID[i] for i in range(len(FORGET_GRID)) if 2 * (profile[best] - profile[i]) <= CHI2_95]
    return MemoryEstimate(
        forget=FORGET_GRID[best],
        forget_ci=(min(inside), max(inside)),
        slip=SLIP_GRID[int(np.argmax(loglik[best]))],
        decisions=len(choices),
        model=model,
        loglik=tuple(float(x) for x in profile),
    )


def _filter(choices, decide, view, p: float, e: float, seed: int, n: int) -> float:
    """The log-likelihood of the choices at ``forget=p``, ``slip=e`` (``n`` particles)."""
    gen = np.random.default_rng(np.random.SeedSequence([ESTIMATE_KEY, seed & (2**63 - 1)]))
    forgotten: list[frozenset[int]] = [frozenset()] * n
    weights = np.full(n, 1.0 / n)
    total = 0.0
    rnd = None
    for ch in choices:
        if ch.round != rnd:  # a new deal: nothing is remembered from the last round
            rnd = ch.round
            forgotten = [frozenset()] * n
            weights = np.full(n, 1.0 / n)
        seen_now = _visible(ch.obs)
        known = set(ch.known)
        if ch.obs[PHASE] == SOURCE and p > 0:  # a turn begins: each remembered card may go
            moved = []
            for f in forgotten:
                f = frozenset(c for c in f if c in known and c not in seen_now)
                keep = [c for c in ch.known if c not in f and c not in seen_now]
                lost = [c for c, u in zip(keep, gen.random(len(keep)), strict=True) if u < p]
                moved.append(f | frozenset(lost))
            forgotten = moved
        else:
            forgotten = [frozenset(c for c in f if c in known and c not in seen_now) for f in forgotten]
        answers: dict[frozenset[int], int] = {}
        match = np.empty(n)
        for k, f in enumerate(forgotten):
            if f not in answers:
                answers[f] = int(decide(view(ch.obs, sorted(f)), ch.rng.copy()))
            match[k] = answers[f] == ch.choice
        emit = (1.0 - e) * match + e / legal_count(ch.obs)
        step = float(np.dot(weights, emit))
        if step <= 0:
            return -np.inf
        total += np.log(step)
        weights = weights * emit / step
        if 1.0 / float(np.dot(weights, weights)) < n / 2:  # thin weights: systematic resampling
            idx = np.searchsorted(np.cumsum(weights), (gen.random() + np.arange(n)) / n)
            idx = np.minimum(idx, n - 1)
            forgotten = [forgotten[i] for i in idx]
            weights = np.full(n, 1.0 / n)
    return total
