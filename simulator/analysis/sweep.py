"""Sweeps: one strategy family over one or two of its parameters, on the same deals.

**Sweep specs.**  A strategy spec whose values may be ranges or lists::

    threshold:k=0..13          every value from 0 to 13 on the parameter's own step (½)
    threshold:k=0..13/1        0, 1, ..., 13
    threshold:k=1|2|5          a list (``|`` never clashes with the ``,`` between parameters)
    expect:patience=1..4/1,open=15|25   a grid of two parameters
    commit:after=0..6          Gris: own passes before the target suit is locked

A parameter without a range keeps the value given (or its default).  A range must
hold at least one value and every value must lie within the parameter's bounds
and on its grid; otherwise :class:`InputError` says which value is wrong.  A sweep
has at most ``MAX_AXES`` (2) parameters and ``MAX_POINTS`` (400) points; a spec that
asks for more is refused with the number it asked for, before anything is built.

**Design.**  Every point of the sweep is a candidate in :func:`simulator.analysis.compare.compare`
against one opponent or field (``vs``; default: the family at its default parameters
in two-seat games, ``greedy`` in the Gris games): in two-seat games each point plays the
opponent twice per deal, once in each seat; with more seats each point takes one seat
against the field, rotated through every seat.  All points meet the same deals, so the
paired differences to the baseline (the ``vs`` point when it is swept, else the first
point) are much more precise than the figures themselves; p-values are Holm-corrected
across the points.

**Points that play alike are played once.**  A parameter may declare which of its values
play identically (:attr:`strategies.registry.Param.effective`; ``threshold:k`` matters only
through comparisons with card values, so with the jack at ½ k=1.5 plays as k=1 and k=8 as
k=7).  A sweep groups the requested points by the values they play as, plays one point of
each group (the representative value itself when it was requested, else the first), and
reports every requested point: a shared point's row repeats its group's figures exactly,
with ``plays_as`` naming the point that was played and ``shared`` set.
"""

from __future__ import annotations

import inspect
import itertools
import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from simulator.analysis.compare import CompareResult, compare_setup
from simulator.engine.fields import games_word
from simulator.engine.stats import LEVEL
from simulator.errors import InputError, SpecError
from simulator.games.base import Game
from simulator.running.results import plain
from simulator.running.setup import (
    EXECUTION_OPTIONS,
    Execution,
    SeedLike,
    Setup,
    execution_of,
    load_plugins,
    resolve_game,
)
from strategies.registry import Family, Param, families, format_value, games_with, parse_spec

MAX_AXES = 2
MAX_POINTS = 400


@dataclass(frozen=True)
class Axis:
    """One swept parameter and its values, in order."""

    name: str
    values: tuple[float, ...]


@dataclass(frozen=True)
class SweepSpec:
    family: Family
    fixed: dict[str, float]
    axes: tuple[Axis, ...]

    def points(self) -> list[dict[str, float]]:
        """Every combination of the swept values (the first axis varies slowest)."""
        out = []
        for combo in itertools.product(*(a.values for a in self.axes)):
            vals = dict(self.fixed)
            vals.update({a.name: v for a, v in zip(self.axes, combo)})
            out.append(vals)
        return out

    def spec(self, values: Mapping[str, float]) -> str:
        return self.family.player(**values).spec

    def plays_as(self, points: Sequence[Mapping[str, float]], rules: Any = None) -> list[int]:
        """For each point, the index of the point played in its place (its own index when
        no earlier-chosen point plays identically under ``rules``).

        Points are grouped by the representative values their parameters declare
        (:meth:`strategies.registry.Param.representative`); a group is played by the point
        that equals its representative values when that point was requested, else by its
        first point."""
        params = {p.name: p for p in self.family.params}

        def key(vals: Mapping[str, float]) -> tuple[tuple[str, float], ...]:
            return tuple(sorted((n, params[n].representative(v, rules)) for n, v in vals.items()))

        keys = [key(v) for v in points]
        chosen: dict[tuple, int] = {}
        for i, (vals, k) in enumerate(zip(points, keys)):
            if k not in chosen or (_is_exact(vals, k) and not _is_exact(points[chosen[k]], k)):
                chosen[k] = i
        return [chosen[k] for k in keys]


def _nan_none(v: Any) -> Any:
    """A float for JSON: NaN (a figure resting on nothing) becomes None."""
    if v is None:
        return None
    try:
        f = float(v)
    except (TypeError, ValueError):
        return v
    return f if math.isfinite(f) else None


def _is_exact(vals: Mapping[str, float], key: tuple[tuple[str, float], ...]) -> bool:
    return tuple(sorted((n, float(v)) for n, v in vals.items())) == key


def _number(text: str, where: str) -> float:
    try:
        v = float(text)
    except ValueError:
        raise InputError(f"{where}: {text!r} is not a number") from None
    if not math.isfinite(v):
        raise InputError(f"{where}: {text!r} is not a finite number")
    return v


def parse_values(text: str, param: Param, strategy: str) -> tuple[float, ...]:
    """``a..b``, ``a..b/step``, ``x|y|z`` or one number, checked against the parameter."""
    where = f"{strategy}: {param.name}={text}"
    t = text.strip()
    if not t:
        raise InputError(f"{where}: give a value, a range a..b or a list a|b|c")
    if ".." in t:
        body, slash, step_text = t.partition("/")
        lo_text, _, hi_text = body.partition("..")
        lo, hi = _number(lo_text, where), _number(hi_text, where)
        if slash:
            step = _number(step_text, where)
            if step <= 0:
                raise InputError(f"{where}: the step must be positive")
        elif param.step > 0:
            step = param.step
        else:
            raise InputError(
                f"{where}: {param.name} takes any value; give a step, e.g. {lo_text}..{hi_text}/0.5"
            )
        if hi < lo:
            raise InputError(f"{where} is an empty range ({format_value(lo)} is above {format_value(hi)})")
        count = int(math.floor((hi - lo) / step + 1e-9)) + 1
        if count > MAX_POINTS:  # refuse before building the list (0..10/1e-7 is 10**8 points)
            raise InputError(
                f"{where} asks for {count:,} points; a sweep plays at most {MAX_POINTS:,} "
                "(give a coarser step or a shorter range)"
            )
        values = [round(lo + i * step, 10) for i in range(count)]
    elif "|" in t:
        values = [_number(v, where) for v in t.split("|") if v.strip()]
        if not values:
            raise InputError(f"{where} is an empty list")
    else:
        values = [_number(t, where)]
    if not values:
        raise InputError(f"{where} is an empty range")
    for v in values:
        if v < param.low or v > param.high:
            raise InputError(
                f"{where} goes outside {param.name}'s bounds {format_value(param.low)}..{format_value(param.high)} "
                f"(at {format_value(v)})"
            )
        try:
            param.check(v, strategy)
        except SpecError as e:
            raise InputError(f"{where}: {e}") from None
    return tuple(dict.fromkeys(values))


def parse_sweep(spec: str, game: str | Game) -> SweepSpec:
    """Read a sweep spec (see the module docstring) for ``game``."""
    g = resolve_game(game)
    spec = spec.strip()
    name, _, body = spec.partition(":")
    name = name.strip()
    fams = families(g.name)
    if name not in fams:
        elsewhere = games_with(name)
        if elsewhere:
            raise InputError(f"strategy {name!r} is for {', '.join(elsewhere)}, not {g.name}")
        raise InputError(
            f"unknown strategy {name!r} for {g.name} (known: {', '.join(sorted(fams)) or 'none'})"
        )
    fam = fams[name]
    params = {p.name: p for p in fam.params}
    fixed: dict[str, float] = {}
    axes: list[Axis] = []
    for item in filter(None, (s.strip() for s in body.split(","))):
        key, eq, raw = item.partition("=")
        key = key.strip()
        if not eq or not key:
            raise InputError(
                f"{spec}: parameters are written name=value, name=a..b or name=a|b, got {item!r}"
            )
        if key not in params:
            allowed = ", ".join(params) or "none"
            raise InputError(f"{name}: unknown parameter {key!r} (parameters: {allowed})")
        if key in fixed or any(a.name == key for a in axes):
            raise InputError(f"{spec}: {key} is given twice")
        values = parse_values(raw, params[key], name)
        if len(values) == 1 and ".." not in raw and "|" not in raw:
            fixed[key] = values[0]
        else:
            axes.append(Axis(key, values))
    if not axes:
        raise InputError(
            f"{spec}: nothing to sweep; give a range or a list, e.g. "
            f"{name}:{fam.params[0].name if fam.params else 'x'}=0..5 or =1|2|5"
        )
    if len(axes) > MAX_AXES:
        raise InputError(f"{spec}: sweep at most {MAX_AXES} parameters at once (got {len(axes)})")
    n = math.prod(len(a.values) for a in axes)
    if n > MAX_POINTS:
        raise InputError(f"{spec} asks for {n:,} points; a sweep plays at most {MAX_POINTS:,}")
    return SweepSpec(fam, fixed, tuple(axes))


@dataclass
class SweepResult:
    """One row per point (``table``) plus the comparison it came from."""

    spec: SweepSpec
    game: str
    unit: str
    metric: str
    vs: str
    baseline: str
    table: pd.DataFrame
    comparison: CompareResult
    summary: dict[str, Any] = field(default_factory=dict)

    @property
    def axes(self) -> tuple[Axis, ...]:
        return self.spec.axes

    def metric_info(self, metric: str | None = None) -> dict[str, Any]:
        return self.comparison.summary["metrics"][metric or self.metric]

    def best(self, metric: str | None = None) -> pd.Series:
        """The played point with the best *observed* value of ``metric`` (lowest when lower
        is better).  Observed only: whether it is better than the others is
        :meth:`top`'s question (a point is called best only when the test says so)."""
        m = metric or self.metric
        info = self.metric_info(m)
        t = self.table[~self.table["shared"]] if "shared" in self.table else self.table
        i = t[m].idxmin() if info["lower_is_better"] else t[m].idxmax()
        return self.table.loc[i]

    def top(self, metric: str | None = None) -> dict[str, Any]:
        """The point with the best observed value of ``metric`` and what the tests say of it.

        Returns a JSON-ready dict: ``player``, ``point`` (the swept values), ``observed``
        (``"lowest"``/``"highest"``), ``value`` and ``ci``; ``vs_baseline`` (its paired
        difference to the baseline, Holm-corrected over the points, as in the table) and
        ``vs_runner_up`` (its paired difference to the second-best played point);
        ``others_tested`` (how many other played points it was tested against);
        ``best`` is true only when it is better than *every* other played point on the same
        deals, Holm-corrected over those comparisons (``vs_runner_up.p_holm`` is the
        runner-up's corrected p).  Below 2 deals nothing is tested and ``best`` is false."""
        m = metric or self.metric
        info = self.metric_info(m)
        lower = bool(info["lower_is_better"])
        row = self.best(m)
        played = self.table[~self.table["shared"]] if "shared" in self.table else self.table
        others = played[played["player"] != row["player"]]
        others = others.sort_values(m, ascending=lower, kind="stable")
        out: dict[str, Any] = {
            "metric": m,
            "observed": "lowest" if lower else "highest",
            "player": row["player"],
            "point": {a.name: float(row[a.name]) for a in self.axes},
            "shares_result_with": [
                r["player"]
                for r in self.table.to_dict("records")
                if r.get("plays_as") == row["player"] and r["player"] != row["player"]
            ],
            "value": _nan_none(row[m]),
            "ci": [_nan_none(row[f"{m}_lo"]), _nan_none(row[f"{m}_hi"])],
            "vs_baseline": None,
            "vs_runner_up": None,
            "others_tested": 0,
            "best": False,
        }
        if row["player"] != self.baseline:
            out["vs_baseline"] = {
                "baseline": self.baseline,
                "diff": _nan_none(row[f"{m}_diff"]),
                "diff_ci": [_nan_none(row[f"{m}_diff_lo"]), _nan_none(row[f"{m}_diff_hi"])],
                "p_holm": _nan_none(row[f"{m}_p_holm"]),
                "significant": bool(row.get(f"{m}_significant", False)),
            }
        if others.empty:
            return plain(out)
        tests = []
        try:
            for other in others["player"]:
                tests.append((other, self.comparison.pairwise(m, row["player"], other)))
        except InputError:  # a comparison read back from disk: no pairwise sums
            return plain(out)
        p_raw = [t["p_value"] for _, t in tests]
        p_holm: list[float | None] = [None] * len(tests)
        reject = [False] * len(tests)
        if all(p is not None for p in p_raw):
            from statsmodels.stats.multitest import multipletests

            rej, ph, _, _ = multipletests(p_raw, alpha=1 - LEVEL, method="holm")
            p_holm, reject = [float(v) for v in ph], [bool(v) for v in rej]
        for i, (_, t) in enumerate(tests):
            t["p_holm"] = p_holm[i]
            t["significant"] = bool(reject[i] and ((t["diff"] < 0) == lower))
        first, t = tests[0]
        out["vs_runner_up"] = {
            "runner_up": first,
            **{
                k: _nan_none(t[k]) if k in ("diff", "p_value", "p_holm") else t[k]
                for k in ("diff", "diff_ci", "p_value", "p_holm", "significant", "test", "same_every_deal")
            },
        }
        out["vs_runner_up"]["diff_ci"] = [_nan_none(v) for v in t["diff_ci"]]
        out["others_tested"] = len(tests)
        out["best"] = all(t["significant"] for _, t in tests)
        return plain(out)

    def top_note(self, metric: str | None = None) -> str:
        """One line on the top point for people: what was observed, and whether the
        Holm-corrected tests call it best (against the runner-up and the baseline)."""
        from simulator.engine.fields import fields_for, metric_field
        from simulator.reporting import formatting

        t = self.top(metric)
        m = t["metric"]
        info = self.metric_info(m)
        f = metric_field(fields_for(self.game, self.unit), m, info)
        rate = f.kind == "rate"
        value = (formatting.rate if rate else formatting.mean)(t["value"], t["ci"])
        unit = "" if rate else f" {f.unit_text(self.unit)}"
        also = f" (shared with {', '.join(t['shares_result_with'])})" if t["shares_result_with"] else ""
        word = "best" if t["best"] else f"{t['observed']} observed"
        line = f"{word} {m}: {t['player']}{also}, {value}{unit}"
        ru = t["vs_runner_up"]
        if ru is not None:
            d = formatting.diff(ru["diff"], ru["diff_ci"], percent=rate)
            p = formatting.p_value(ru["p_holm"])
            line += f"; minus the runner-up {ru['runner_up']} {d}, p (Holm) {p}"
        if t["best"]:
            line += (
                f": {t['observed'].replace('est', 'er')} than every other point played "
                f"({t['others_tested']} tests, Holm-corrected)"
            )
        elif ru is not None and ru["p_holm"] is None:
            line += ": not tested (fewer than 2 deals), so no point is called best"
        elif ru is not None:
            line += ": not shown to beat every other point at this size, so it is not called best"
        else:
            line += ": the only point played"
        b = t["vs_baseline"]
        if b is not None:
            d = formatting.diff(b["diff"], b["diff_ci"], percent=rate)
            verdict = (
                "differs from the baseline"
                if b["significant"]
                else "no difference from the baseline detected at this size"
            )
            line += f"; minus the baseline {b['baseline']} {d}, p (Holm) {formatting.p_value(b['p_holm'])}: {verdict}"
        return line

    def shared_note(self) -> str | None:
        """One line on the points not played because they play exactly as another, e.g.
        ``13 of 27 points played; the others play exactly as a played point (skipped, their
        rows repeat its result): k=1.5 plays as k=1; ...`` (``None`` when every point was
        played)."""
        t = self.table
        if "shared" not in t or not t["shared"].any():
            return None
        names = [a.name for a in self.axes]

        def point(row) -> str:
            return ",".join(f"{n}={format_value(row[n])}" for n in names)

        played = {r["player"]: point(r) for r in t.to_dict("records") if not r["shared"]}
        parts = [f"{point(r)} plays as {played[r['plays_as']]}" for r in t.to_dict("records") if r["shared"]]
        n_played = int((~t["shared"]).sum())
        return (
            f"{n_played} of {len(t)} points played; the others play exactly as a played point "
            f"(skipped, their rows repeat its result): {'; '.join(parts)}"
        )

    def plot(self, metric: str | None = None, title: str | None = None):
        """The metric against the first swept parameter with its 95% band (one line per
        value of the second), and below it the paired difference to the baseline."""
        from simulator.reporting import plots

        m = metric or self.metric
        info = self.metric_info(m)
        x_axis = self.axes[0].name
        groups = self.table[self.axes[1].name].tolist() if len(self.axes) == 2 else None
        t = self.table
        unit_word = "round" if self.unit == "round" else "match"
        param = next(p for p in self.spec.family.params if p.name == x_axis)
        doc = f"; {param.doc}" if param.doc else ""
        fig = plots.sweep_panels(
            t[x_axis],
            t[m],
            t[f"{m}_lo"],
            t[f"{m}_hi"],
            t[f"{m}_diff"],
            t[f"{m}_diff_lo"],
            t[f"{m}_diff_hi"],
            xlabel=plots._wrap(f"{x_axis} ({self.spec.family.name} parameter{doc})", 70),
            ylabel=metric_label(m, info, unit_word),
            title=title or f"{self.game}: {metric_title(m, info)} by {x_axis}, against {self.vs}",
            baseline=self.baseline,
            groups=groups,
            group_label=f"{self.axes[1].name}=" if len(self.axes) == 2 else "",
            mark_best="min" if info["lower_is_better"] else "max",
            diff_unit=metric_unit(m, info, unit_word),
            lower_is_better=bool(info["lower_is_better"]),
            percent=info.get("kind") == "rate",
            shared=t["shared"].to_numpy() if "shared" in t else None,
            xname=x_axis,
        )
        _label_top(fig, self.top_label(m))
        return fig

    def top_label(self, metric: str | None = None) -> str:
        """The legend entry of the ringed point: ``best (...)`` only when the tests say so,
        else ``lowest observed (...)`` with what the Holm-corrected tests found."""
        from simulator.reporting import formatting

        t = self.top(metric)
        name = ",".join(f"{k}={format_value(v)}" for k, v in t["point"].items())
        if t["best"]:
            return f"best: {name}, {t['observed'].replace('est', 'er')} than every other point (Holm)"
        text = f"{t['observed']} observed: {name}"
        ru = t["vs_runner_up"]
        if ru is None:
            return text
        if ru["p_holm"] is None:
            return text + " (not tested: fewer than 2 deals; not called best)"
        ru_name = ru["runner_up"].partition(":")[2] or ru["runner_up"]
        return (
            text + f"; vs runner-up {ru_name}: p (Holm) {formatting.p_value(ru['p_holm'])}, "
            "not shown better, so not called best"
        )


def _sentence(text: str) -> str:
    """``text`` as a sentence: a capital first letter and a full stop."""
    return text[:1].upper() + text[1:] + ("" if text.endswith(".") else ".")


def _label_top(fig: Any, text: str) -> None:
    """Relabel the legend entry of the ringed point (drawn as ``best``) with ``text``."""
    from simulator.reporting import plots

    for legend in fig.legends:
        for item in legend.get_texts():
            if item.get_text() == "best":
                item.set_text(plots._wrap(text, 60))


UNITS = {"score": "points", "total": "points", "letters": "letters", "place": "places"}


def metric_title(name: str, info: Mapping[str, Any]) -> str:
    """``loss rate``, ``mean score``: what a metric is, in two words."""
    return (
        f"{name.replace('_', ' ')} rate" if info.get("kind") == "rate" else f"mean {name.replace('_', ' ')}"
    )


def metric_unit(name: str, info: Mapping[str, Any], unit_word: str = "round") -> str:
    """The unit of a metric: ``share of rounds``, ``points per round``."""
    if info.get("kind") == "rate":
        return f"share of {unit_word}es".replace("roundes", "rounds")
    return f"{UNITS.get(name, name)} per {unit_word}"


def metric_label(name: str, info: Mapping[str, Any], unit_word: str = "round") -> str:
    """An axis label with its unit: a rate per game, or a mean in points, letters, places."""
    return f"{metric_title(name, info)} ({metric_unit(name, info, unit_word)})"


def default_vs(game: Game, sw: SweepSpec) -> str:
    """The opponent a sweep plays when none is given: the game's ``default_opponent``, else
    the swept family at its default parameters."""
    return game.default_opponent or sw.family.player().spec


def sweep(
    game: str | Game,
    spec: str,
    *,
    progress: Callable[[int], None] | None = None,
    on_plan: Callable[[int], None] | None = None,
    **options: Any,
) -> SweepResult:
    """Play every point of ``spec`` against ``vs`` on the same deals (see the module docstring).

    Parameters
    ----------
    game, spec
        The game and the sweep spec (``"threshold:k=0..13"``).
    progress, on_plan
        ``progress(games)`` and ``on_plan(total)`` count games played, as for
        :func:`simulator.analysis.compare.compare`.
    **options
        What is played: the keywords of :func:`plan_sweep` (``vs``, ``rounds`` or
        ``matches``, ``baseline``, ``metric``, ``seed``, ``rules``, ``players``,
        ``reaction``, ``plugins``; ``vs`` defaults to the game's ``default_opponent``,
        else the swept family at its defaults).  How it is played:
        ``simulator.running.setup.EXECUTION_OPTIONS`` (``threads``, ``block_size``, ``backend``,
        ``scheduler``, ``workers``, ``connect_timeout``), checked as for
        :func:`simulator.simulate` (:mod:`simulator.running.setup`).

    Returns
    -------
    SweepResult

    Raises
    ------
    InputError
        For any bad input, in one line, before anything is played; also for an option
        a sweep does not take (``out``, ``resume`` and ``records`` are for ``simulate``).
    """
    inputs = {k: options.pop(k) for k in SWEEP_INPUTS if k in options}
    execution = execution_of(options, progress, caller="sweep", takes=SWEEP_INPUTS)
    plan = plan_sweep(game, spec, **inputs)
    return play_sweep(plan, execution, on_plan=on_plan)


@dataclass(frozen=True)
class SweepPlan:
    """A checked sweep, before anything is played.

    Attributes
    ----------
    text : str
        The sweep spec as given.
    sweep : SweepSpec
        The family and its swept axes.
    points : list of dict
        Every requested point's parameter values; ``specs`` their strategy specs.
    plays_as : list of str
        For each requested point, the spec of the point played in its place.
    vs, baseline, metric : str
        The opponent or field, the point differences are against, the metric ranked by.
    setup : Setup
        What is played (:mod:`simulator.running.setup`): its players are the points played.
    """

    text: str
    sweep: SweepSpec
    points: list[dict[str, float]]
    specs: list[str]
    plays_as: list[str]
    vs: str
    baseline: str
    metric: str
    setup: Setup


def plan_sweep(
    game: str | Game,
    spec: str,
    *,
    vs: str | None = None,
    rounds: int | None = None,
    matches: int | None = None,
    baseline: str | None = None,
    metric: str | None = None,
    seed: SeedLike | None = None,
    rules: Mapping[str, Any] | Any = None,
    players: int | None = None,
    reaction: Sequence[Any] | None = None,
    plugins: Sequence[str] = (),
) -> SweepPlan:
    """Check every input of a sweep (as :func:`sweep` takes them) and say what it plays.

    Raises
    ------
    InputError
        For any bad input, in one line, before anything is played.
    """
    load_plugins(plugins)
    g = resolve_game(game)
    sw = parse_sweep(spec, g)
    points = sw.points()
    specs = [sw.spec(v) for v in points]
    vs_spec = parse_spec(vs if vs is not None else default_vs(g, sw), g.name).spec
    if baseline is None:
        baseline = vs_spec if vs_spec in specs else specs[0]
    else:
        baseline = parse_spec(baseline, g.name).spec
        if baseline not in specs:
            raise InputError(f"the baseline {baseline!r} is not a point of the sweep {spec!r}")
    setup = Setup.build(
        g, specs, rounds=rounds, matches=matches, seed=seed, rules=rules, players=players,
        reaction=reaction, plugins=plugins, fill_seats=False,
    )  # fmt: skip
    names = [m.name for m in g.metrics(setup.unit)]
    m = metric or names[0]
    if m not in names:
        raise InputError(f"unknown metric {m!r} for {g.name} {setup.unit}s (metrics: {', '.join(names)})")
    # Points that play identically under these rules are played once (see the module docstring).
    plays_as = [specs[i] for i in sw.plays_as(points, setup.rules)]
    played = list(dict.fromkeys(plays_as))
    setup = setup.with_players([setup.players[specs.index(p)] for p in played])
    return SweepPlan(spec, sw, points, specs, plays_as, vs_spec, plays_as[specs.index(baseline)], m, setup)


# The keywords of what a sweep plays, declared once (by plan_sweep); sweep takes them too.
SWEEP_INPUTS = tuple(
    name for name, p in inspect.signature(plan_sweep).parameters.items() if p.kind is p.KEYWORD_ONLY
)


def _sweep_signature() -> inspect.Signature:
    """What ``inspect.signature(sweep)`` and ``help(sweep)`` show: its own parameters with the
    keywords of :func:`plan_sweep` and of :meth:`Execution.build` in place of ``**options``."""
    own = list(inspect.signature(sweep).parameters.values())[:-1]
    plan = inspect.signature(plan_sweep).parameters
    how = inspect.signature(Execution.build).parameters
    return inspect.signature(sweep).replace(
        parameters=[
            *own[:2],
            *(plan[name] for name in SWEEP_INPUTS),
            *(how[name] for name in EXECUTION_OPTIONS),
            *own[2:],
        ]
    )


sweep.__signature__ = _sweep_signature()  # type: ignore[attr-defined]


def play_sweep(
    plan: SweepPlan, execution: Execution, *, on_plan: Callable[[int], None] | None = None
) -> SweepResult:
    """Play a checked sweep as ``execution`` says (its block size, when None, is chosen
    from the number of points played)."""
    if execution.block_size is None:
        k = len(plan.setup.players)
        execution = replace(execution, block_size=max(1024, min(1 << 16, (1 << 22) // max(k * k, 1))))
    result = compare_setup(plan.setup, execution, field=plan.vs, baseline=plan.baseline, on_plan=on_plan)
    s = result.summary
    sw, specs, plays_as = plan.sweep, plan.specs, plan.plays_as
    table = sweep_table(sw, plan.points, specs, s, plays_as)
    out = SweepResult(sw, plan.setup.game.name, s["unit"], plan.metric, plan.vs, plan.baseline, table, result)
    top = out.top()
    out.summary = {
        "kind": "sweep",
        "spec": plan.text,
        "axes": {a.name: list(a.values) for a in sw.axes},
        "metric": plan.metric,
        "vs": plan.vs,
        "points_requested": len(specs),
        "points_played": len(plan.setup.players),
        "shared": [{"point": a, "plays_as": b} for a, b in zip(specs, plays_as) if a != b],
        "top": top,
        "best": top["player"] if top["best"] else None,
        **{k2: v for k2, v in s.items() if k2 not in ("kind",)},
    }
    return out


def sweep_table(
    sw: SweepSpec,
    points: list[dict[str, float]],
    specs: list[str],
    s: dict[str, Any],
    plays_as: Sequence[str] | None = None,
) -> pd.DataFrame:
    """One row per requested point; a point that plays as another (``plays_as``) repeats
    the figures of the point played in its place, and its ``shared`` column is set."""
    plays_as = list(specs) if plays_as is None else list(plays_as)
    rows = []
    for vals, sp, pa in zip(points, specs, plays_as):
        row: dict[str, Any] = {a.name: vals[a.name] for a in sw.axes}
        row["player"] = sp
        row["plays_as"] = pa
        row["shared"] = pa != sp
        rows.append(row)
    table = pd.DataFrame(rows)
    for name, block in s["metrics"].items():
        by_player = {r["player"]: r for r in block["strategies"]}
        cols: dict[str, list] = {
            c: []
            for c in (
                name,
                f"{name}_lo",
                f"{name}_hi",
                f"{name}_diff",
                f"{name}_diff_lo",
                f"{name}_diff_hi",
                f"{name}_p_holm",
                f"{name}_significant",
                f"{name}_variance_reduction",
            )
        }
        for sp in plays_as:
            r = by_player[sp]
            cols[name].append(r[name])
            cols[f"{name}_lo"].append(r[f"{name}_ci"][0])
            cols[f"{name}_hi"].append(r[f"{name}_ci"][1])
            if "diff" in r:
                cols[f"{name}_diff"].append(r["diff"])
                cols[f"{name}_diff_lo"].append(r["diff_ci"][0])
                cols[f"{name}_diff_hi"].append(r["diff_ci"][1])
                cols[f"{name}_p_holm"].append(np.nan if r.get("p_holm") is None else r["p_holm"])
                cols[f"{name}_significant"].append(bool(r.get("significant", False)))
                vr = r.get("variance_reduction")
                cols[f"{name}_variance_reduction"].append(np.nan if vr is None else vr)
            else:  # the baseline itself
                cols[f"{name}_diff"].append(0.0)
                cols[f"{name}_diff_lo"].append(0.0)
                cols[f"{name}_diff_hi"].append(0.0)
                cols[f"{name}_p_holm"].append(np.nan)
                cols[f"{name}_significant"].append(False)
                cols[f"{name}_variance_reduction"].append(np.nan)
        for c, v in cols.items():
            table[c] = v
    return table


def sweep_report(result: SweepResult, out_dir: str | Path, title: str | None = None):
    """A results folder for a sweep: table, figure (PNG+SVG), report.md and report.html."""
    from simulator.analysis.compare_report import metric_field, metric_formats
    from simulator.reporting import pages as report
    from simulator.reporting import plots
    from simulator.running.results import provenance as make_provenance

    out = Path(out_dir)
    info = result.metric_info()
    fig = result.plot()
    png = plots.save(fig, out / "figures", "sweep")["png"]
    answer = _answer(result)
    f = metric_field(result.game, result.unit, result.metric, info)
    s = result.comparison.summary
    question = (
        f"Which {', '.join(a.name for a in result.axes)} gives the best {info['doc']} "
        f"({f.direction() or 'no direction'}), against {result.vs}?"
    )
    rep = report.Report(
        title=title or f"Sweep of {result.summary['spec']} in {result.game} against {result.vs}",
        question="",  # the headline carries the question
        headlines=[report.Headline(question, _sentence(result.top_note()))],
        formats={"sweep": metric_formats(s)},
        answer=answer,
        sections=[
            report.Section(
                "Sweep",
                [
                    f"{s['n']:,} {'deal' if s['n'] == 1 else 'deals'} ({games_word(result.unit)}), seed {s['seed']}; {s['design']}."
                ]
                + ([f"{result.shared_note()}."] if result.shared_note() else []),
                tables=["sweep"],
                figures=["sweep"],
            )
        ],
        tables={"sweep": result.table},
        figures={"sweep": png},
        provenance={
            **make_provenance(
                s["seed"],
                s["rules"],
                [result.spec.family.player(**p) for p in result.spec.points()[:1]],
            ),
            "sweep": result.summary["spec"],
            "vs": result.vs,
            "unit": result.unit,
            "n": s["n"],
        },
    )
    report.write(rep, out, "sweep")
    return rep


def _answer(result: SweepResult) -> list[str]:
    """The answer of a sweep's report in sentences: the top point with its interval, its
    difference to the runner-up and to the baseline, and the variance reduction."""
    from simulator.analysis.compare_report import metric_field
    from simulator.reporting import pages as report

    m = result.metric
    info = result.metric_info()
    top = result.top()
    best = result.best()
    f = metric_field(result.game, result.unit, m, info)
    rate = f.kind == "rate"
    value_unit = "" if rate else f.unit_text(result.unit)
    what = f.unit_text(result.unit) if rate else info["doc"]
    n_used = result.comparison.summary.get("deals_used")
    point = ", ".join(f"{a.name}={format_value(best[a.name])}" for a in result.axes)
    word = "Best point" if top["best"] else f"Point with the {top['observed']} observed {m}"
    answer = [
        report.estimate(
            f"{word}: {point} ({best['player']})",
            what,
            best[m],
            best[f"{m}_lo"],
            best[f"{m}_hi"],
            unit=value_unit,
            percent=rate,
            n=n_used,
        )
    ]
    ru = top["vs_runner_up"]
    if ru is not None:
        lo, hi = (math.nan if v is None else v for v in ru["diff_ci"])
        answer.append(
            report.difference(
                best["player"],
                ru["runner_up"],
                math.nan if ru["diff"] is None else ru["diff"],
                lo,
                hi,
                what=what,
                unit=value_unit,
                lower_is_better=bool(info["lower_is_better"]),
                p_holm=ru["p_holm"],
                percent=rate,
                n=n_used,
                tests=top["others_tested"],
            )
            + (
                f" ({ru['runner_up']} is the runner-up; Holm-corrected over the "
                f"{top['others_tested']} other points played.)"
                if ru["p_holm"] is not None
                else ""
            )
        )
    if best["player"] != result.baseline:
        answer.append(
            report.difference(
                best["player"],
                result.baseline,
                best[f"{m}_diff"],
                best[f"{m}_diff_lo"],
                best[f"{m}_diff_hi"],
                what=what,
                unit=value_unit,
                lower_is_better=bool(info["lower_is_better"]),
                p_holm=best[f"{m}_p_holm"],
                percent=rate,
            )
        )
    vr = result.table[f"{m}_variance_reduction"].dropna()
    if len(vr):
        answer.append(
            report.variance_sentence(
                float(vr.median()), "a point's difference to the baseline (median over points)"
            )
        )
    return answer
