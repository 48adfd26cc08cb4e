"""What memory and care are worth: the best strategy forgetting and slipping, on the same deals.

**The design.**  The game's best shipped strategy plays with ``forget`` at each value of
``FORGET_GRID`` (docs/human-players.md), and once with ``slip=SLIP``, in every seat in turn,
against the plain best strategy in every other seat, on the same deals as the plain one
(:func:`simulator.analysis.profiling.skill.ladder_table`).  A value's *cost* on a deal is how
much worse its primary outcome is than the plain strategy's on that deal (Spøkelse: points
more; Gris: percentage points more of the letter rate), so a positive cost is worse, and its
interval is that of a mean of paired differences.

**A slip.**  With ``slip=E`` a share E of the decisions is replaced by a uniformly random
legal one.  The cost of one slip is the cost per round divided by the slips per round
(``E`` times the seat's decisions per round, which the game declares), a ratio of two means
over the same deals; its 95% interval is the delta method's for a ratio.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import replace
from typing import Any

import numpy as np

from simulator.analysis.profiling.intervals import NAN, estimate, mean_of
from simulator.analysis.profiling.measures import Records, metric_unit, primary
from simulator.analysis.profiling.skill import ladder_table
from simulator.engine.stats import z_value
from simulator.games.base import Game
from strategies.registry import parse_spec

FORGET_GRID = (0.0, 0.02, 0.05, 0.1, 0.2, 0.5, 1.0)
SLIP = 0.1  # the slip rate the cost of one slip is measured at (small: slips rarely meet)
DECISIONS = "decisions"  # the per-deal table of the slipping seat's decisions


def human_specs(game: Game, best: str) -> tuple[str, list[str], str]:
    """The plain best strategy's canonical spec, one spec per ``FORGET_GRID`` value (the
    first is the plain one), and the spec with ``slip=SLIP``."""
    plain = parse_spec(best, game.name).plain
    forgetting = [replace(plain, forget=f).spec for f in FORGET_GRID]
    return plain.spec, forgetting, replace(plain, slip=SLIP).spec


def memory(
    game: Game, play: Callable[[tuple[str, ...]], Records], best: str, n_seats: int, rounds: int
) -> dict[str, Any]:
    """The memory section of one page: the cost of each ``forget`` value and of one slip.

    Parameters
    ----------
    game : Game
    play : callable
        ``play(specs)`` plays one seating (a spec per seat) on the page's deals, in round play,
        and returns its records.
    best : str
        The strategy whose memory is measured (its plain form plays in the other seats).
    n_seats : int
    rounds : int
        The rounds of each seating (recorded with the figures).

    Returns
    -------
    dict
        JSON-ready: ``strategy`` (as given), ``spec`` (its canonical spec), ``metric``, ``unit``, ``better``, ``rounds``, ``forget`` (one
        row per value: ``forget``, ``spec``, ``mean``, ``cost``) and ``slip`` (``slip``,
        ``spec``, ``cost_per_round``, ``decisions``, ``cost_per_slip``; None when the game
        declares no decisions per round).
    """
    plain, forgetting, slipping = human_specs(game, best)
    ladder = [*forgetting, slipping]
    y, counted = ladder_table(play, ladder, plain, n_seats, {DECISIONS: _decisions})
    m = primary(game, "round")
    factor = 100.0 if m.kind == "rate" else 1.0
    worse = 1.0 if m.lower_is_better else -1.0  # a cost is positive when the outcome is worse
    t = factor * y[m.name][counted]
    unit = metric_unit(game, "round", m)
    rows = [
        {"forget": f, "spec": spec, "mean": mean_of(t[:, k]), "cost": mean_of(worse * (t[:, k] - t[:, 0]))}
        for k, (f, spec) in enumerate(zip(FORGET_GRID, forgetting, strict=True))
    ]
    cost = worse * (t[:, -1] - t[:, 0])
    slip: dict[str, Any] | None = None
    decisions = y[DECISIONS][counted][:, -1]
    if np.isfinite(decisions).any():
        slip = {
            "slip": SLIP,
            "spec": slipping,
            "cost_per_round": mean_of(cost),
            "decisions": mean_of(decisions),
            "cost_per_slip": ratio_of(cost, SLIP * decisions),
        }
    return {
        "strategy": best,
        "spec": plain,
        "metric": m.name,
        "unit": unit,
        "percent": m.kind == "rate",
        "better": "lower" if m.lower_is_better else "higher",
        "rounds": int(rounds),
        "forget": rows,
        "slip": slip,
    }


def _decisions(rec: Records, seat: int) -> np.ndarray:
    """The seat's decisions in each round (NaN where the game does not say)."""
    d = rec.game.decisions_per_round(rec.cols, seat, rec.n_seats)
    return np.full(len(rec.counted), NAN) if d is None else d


def ratio_of(numerator: np.ndarray, denominator: np.ndarray) -> dict[str, Any]:
    """``mean(numerator) / mean(denominator)`` over the same games, with the delta method's
    normal 95% interval (the residuals ``numerator − r·denominator`` carry both spreads)."""
    a = np.asarray(numerator, dtype=np.float64)
    b = np.asarray(denominator, dtype=np.float64)
    ok = np.isfinite(a) & np.isfinite(b)
    a, b = a[ok], b[ok]
    n = int(a.size)
    if n < 2 or not b.mean() > 0:
        return estimate(NAN, NAN, NAN, n)
    r = float(a.mean() / b.mean())
    half = z_value() * float((a - r * b).std(ddof=1)) / (math.sqrt(n) * float(b.mean()))
    return estimate(r, r - half, r + half, n)
