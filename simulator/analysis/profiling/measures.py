"""The profile's measures of one table, read from the per-game records of a run.

Everything game-specific comes from the game's declarations (:class:`simulator.games.Game`:
``length_columns``, ``irregular_columns``, ``seat_roles``, ``metrics``, ``fields``), so no
game is named here.  Each measure returns its JSON figures and keeps the per-game values it
rests on (``Measures.per_game``), so that two variants played on the same deals can be
compared game by game (:mod:`simulator.analysis.profiling.variants`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd

from simulator.analysis.profiling.intervals import count_rate_of, mean_of, quantiles, rate_of
from simulator.games.base import Game, Metric


@dataclass
class Records:
    """One run's per-game records as arrays: ``cols[name]`` (int64 or float64 [games])."""

    game: Game
    unit: str
    n_seats: int
    cols: dict[str, np.ndarray]

    @classmethod
    def of(cls, game: Game, unit: str, n_seats: int, frame: pd.DataFrame) -> Records:
        cols = {c: frame[c].to_numpy() for c in frame.columns}
        return cls(game, unit, n_seats, cols)

    @property
    def counted(self) -> np.ndarray:
        return self.cols["counted"].astype(bool)

    def outcome(self, metric: Metric, seat: int) -> np.ndarray:
        """Seat ``seat``'s value of ``metric`` in every game (float64)."""
        return self.cols[f"{metric.name}_seat{seat}"].astype(np.float64)

    def outcomes(self, metric: Metric) -> np.ndarray:
        """Every seat's value of ``metric``: float64[games, seats]."""
        return np.stack([self.outcome(metric, s) for s in range(self.n_seats)], axis=1)


@dataclass
class Measures:
    """The JSON figures of one table in one unit, and the per-game values behind them."""

    figures: dict[str, Any] = field(default_factory=dict)
    per_game: dict[str, np.ndarray] = field(default_factory=dict)  # name -> values (NaN: not counted)


def primary(game: Game, unit: str) -> Metric:
    """The unit's primary outcome (the first the game declares)."""
    return game.metrics(unit)[0]


def metric_unit(game: Game, unit: str, metric: Metric) -> str:
    """The unit a difference of ``metric`` is said in: the declared unit for a mean, else
    ``percentage points``."""
    if metric.kind == "rate":
        return "percentage points"
    return game.fields(unit)[metric.name].unit.replace("{games}", f"{unit}s")


def length(rec: Records) -> Measures:
    """How long a game lasts (the declared column), mean with interval, percentiles, histogram."""
    out = Measures()
    spec = rec.game.length_columns.get(rec.unit)
    if spec is None:
        return out
    column, words = spec
    x = rec.cols[column].astype(np.float64)[rec.counted]
    values, counts = np.unique(x.astype(np.int64), return_counts=True)
    out.figures = {
        "column": column,
        "unit": words,
        "mean": mean_of(x),
        **quantiles(x),
        "histogram": {"value": values.tolist(), "games": counts.tolist()},
    }
    out.per_game["length"] = np.where(rec.counted, rec.cols[column].astype(np.float64), np.nan)
    return out


def seats(rec: Records) -> Measures:
    """Every seat's value of the primary outcome, with intervals (counted games)."""
    m = primary(rec.game, rec.unit)
    y = rec.outcomes(m)[rec.counted]
    rows = []
    for s in range(rec.n_seats):
        est = rate_of(y[:, s] > 0) if m.kind == "rate" else mean_of(y[:, s])
        rows.append({"seat": s, "metric": m.name, **est})
    return Measures({"metric": m.name, "seats": rows})


def roles(rec: Records) -> Measures:
    """The advantage of every declared seat role: per game, the role seat's primary outcome
    against the mean of the other seats', signed so that a positive value favours the role
    (points per round, or percentage points of a rate)."""
    g, m = rec.game, primary(rec.game, rec.unit)
    y = rec.outcomes(m)
    n_games = y.shape[0]
    sign = -1.0 if m.lower_is_better else 1.0
    factor = 100.0 if m.kind == "rate" else 1.0
    out = Measures(figures={"metric": m.name, "unit": metric_unit(g, rec.unit, m), "roles": []})
    for i, role in enumerate(g.seat_roles(rec.unit, rec.n_seats)):
        seat = role.seats(rec.cols, n_games, rec.n_seats)
        own = y[np.arange(n_games), seat]
        others = (y.sum(axis=1) - own) / (rec.n_seats - 1)
        adv = np.where(rec.counted, sign * factor * (own - others), np.nan)
        out.figures["roles"].append({"role": role.words, "advantage": mean_of(adv)})
        out.per_game[f"role{i}"] = adv
    return out


def irregular(rec: Records) -> Measures:
    """Games or rounds that did not finish normally (RULES.md §6), as the game declares them:
    a 0/1 column as a rate of games (Wilson interval), a count as events per game (exact
    Poisson interval: these are rare, and a normal interval on a few events dips below 0)."""
    out = Measures(figures={"items": []})
    for column, words, kind in rec.game.irregular_columns.get(rec.unit, ()):
        x = rec.cols[column].astype(np.float64)
        est = rate_of(x > 0) if kind == "rate" else count_rate_of(x.astype(np.int64))
        out.figures["items"].append(
            {"column": column, "words": words, "kind": kind, "total": int(x.sum()), **est}
        )
        out.per_game[f"irregular:{column}"] = x
    return out
