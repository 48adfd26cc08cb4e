"""The summary, the histograms and the per-seat outcomes, generated from a game's layouts.

Every game reads its aggregates and records through these functions and the
declarations of :mod:`simulator.engine.plays` (a :class:`~simulator.engine.plays.Play` per unit of
play); no game maps offsets to JSON keys by hand.  The arithmetic is that of
:mod:`simulator.engine.stats` on the aggregates' int64 values, in a fixed order, so a seeded
run's figures are the same bit for bit whatever computes them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from simulator.engine.layout import Layout
from simulator.engine.plays import Figure, Play
from simulator.engine.stats import mean_ci, rate_ci


def with_interval(figures: Mapping[str, Any], name: str, column: str | None = None) -> dict[str, Any]:
    """Figure ``name`` of a summary (its value and ``name + "_ci"``, its 95% interval) as
    three table columns: ``column`` (default ``name``), ``column_lo`` and ``column_hi``.

    Parameters
    ----------
    figures : mapping
        A summary, or one strategy's or seat's figures in it.
    name : str
        The figure.
    column : str, optional
        The columns' name, when it is not the figure's.

    Returns
    -------
    dict
        The three columns, in that order.
    """
    column = name if column is None else column
    lo, hi = figures[f"{name}_ci"][0], figures[f"{name}_ci"][1]
    return {column: figures[name], f"{column}_lo": lo, f"{column}_hi": hi}


def _of(name: str, layout: Layout, a: np.ndarray, totals: dict[str, int]) -> int:
    """A figure's denominator: ``n``, a count figure before it, or a one-slot piece."""
    if name in totals:
        return totals[name]
    return int(a[layout.offset(name)])


def figure_values(f: Figure, layout: Layout, a: np.ndarray, seat: int, totals: dict[str, int]) -> dict:
    """The JSON entries of one figure (``name`` and, for rates and means, ``name_ci``);
    a count is also kept in ``totals`` as a denominator for the figures after it."""
    if f.how == "setting":
        return {f.name: f.value}
    if f.how == "count":
        value = sum(int(a[layout.offset(p)]) for p in f.pieces)
        totals[f.name] = value
        return {f.name: value}
    at = [layout.offset(p) + seat for p in f.pieces]
    of = _of(f.of, layout, a, totals)
    scale = layout.piece(f.pieces[0]).scale
    if f.how == "ratio":
        return {f.name: a[at[0]] * scale / of}
    if f.how == "rate":
        value, ci = rate_ci(a[at[0]], of)
    elif f.how == "mean":
        value, ci = mean_ci(a[at[0]], a[at[1]], of, scale=scale)
    elif f.how == "diff":  # seat 0 minus seat 1 on the same deals
        d_sum = a[at[0]] - a[at[0] + 1]
        d_sq = a[at[1]] + a[at[1] + 1] - 2 * a[at[2]]
        value, ci = mean_ci(d_sum, d_sq, of, scale=scale)
    else:
        raise ValueError(f"figure {f.name!r}: unknown how {f.how!r}")
    return {f.name: value, f"{f.name}_ci": ci}


def summarise(play: Play, agg: np.ndarray, n_seats: int, players: Sequence[Any], n: int) -> dict:
    """JSON-ready figures: the run's figures in their declared order, then ``seats`` (one
    dict per seat: ``seat``, ``player`` and the seat's figures)."""
    a = np.asarray(agg, dtype=np.int64)
    totals: dict[str, int] = {"n": n}
    out: dict[str, Any] = {}
    for f in play.figures:
        out.update(figure_values(f, play.agg, a, 0, totals))
    seats = []
    for s in range(n_seats):
        row: dict[str, Any] = {"seat": s, "player": players[s].spec}
        for f in play.seat_figures:
            row.update(figure_values(f, play.agg, a, s, totals))
        seats.append(row)
    out["seats"] = seats
    return out


def histograms(play: Play, agg: np.ndarray, n_seats: int) -> dict[str, np.ndarray]:
    """The declared histograms, views of ``agg`` (a per-seat one for each seat at the table)."""
    out: dict[str, np.ndarray] = {}
    for h in play.histograms:
        piece = play.agg.piece(h.piece)
        start, b = play.agg.offset(h.piece), piece.bins
        if "{s}" not in h.name:
            out[h.name] = agg[start : start + b]
            continue
        for s in range(n_seats):
            out[h.name.format(s=s)] = agg[start + s * b : start + (s + 1) * b]
    return out


def _outcome(read: str, block: np.ndarray, n_seats: int, equals: int) -> np.ndarray:
    seats = np.arange(n_seats)
    if read == "value":
        return block[:, :n_seats].astype(np.int64)
    if read == "is_seat":
        return (block[:, 0:1] == seats[None, :]).astype(np.int64)
    if read == "bit":
        return ((block[:, 0:1] >> seats[None, :]) & 1).astype(np.int64)
    if read == "equals":
        return (block[:, :n_seats] == equals).astype(np.int64)
    # "lowest": strictly below every other seat's value
    lowest = [block[:, s] < np.delete(block[:, :n_seats], s, axis=1).min(axis=1) for s in range(n_seats)]
    return np.stack(lowest, axis=1).astype(np.int64)


def outcomes(play: Play, rec: np.ndarray, n_seats: int) -> tuple[dict[str, np.ndarray], np.ndarray]:
    """Per-seat integer outcomes from records, ``{name: int64[games, seats]}``, and a bool
    mask of the games that count (every declared ``uncounted`` flag 0)."""
    out = {}
    for o in play.outcomes:
        block = rec[:, play.records.slice(o.piece, n_seats)]
        out[o.name] = _outcome(o.read, block, n_seats, o.equals)
    valid = np.ones(rec.shape[0], dtype=bool)
    for name in play.uncounted:
        valid &= rec[:, play.records.offset(name, n_seats)] == 0
    return out, valid
