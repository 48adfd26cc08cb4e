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
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from simulator.analysis.compare import compare_setup
from simulator.analysis.sweep_report import sweep_report, sweep_table
from simulator.analysis.sweep_result import UNITS, SweepResult, metric_label, metric_title, metric_unit
from simulator.analysis.sweep_spec import MAX_AXES, MAX_POINTS, Axis, SweepSpec, parse_sweep, parse_values
from simulator.engine.arguments import callback, optional_text, text
from simulator.errors import InputError
from simulator.games.base import Game
from simulator.running.setup import (
    EXECUTION_OPTIONS,
    Execution,
    SeedLike,
    Setup,
    execution_of,
    load_plugins,
    resolve_game,
)
from strategies.registry import parse_spec


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
        For any bad input (a wrong type, a value out of range), in one line naming the
        argument, before anything is played; also for an option a sweep does not take
        (``out``, ``resume`` and ``records`` are for ``simulate``).
    """
    callback(on_plan, "on_plan")
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
        For any bad input (a wrong type, a value out of range), in one line naming the
        argument, before anything is played.
    """
    load_plugins(plugins, game)
    g = resolve_game(game)
    text(spec, "spec")
    vs, baseline = optional_text(vs, "vs"), optional_text(baseline, "baseline")
    metric = optional_text(metric, "metric")
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


# The public names of sweeps, here since before the spec grammar, the result and the report had
# modules of their own.
__all__ = [
    "MAX_AXES",
    "MAX_POINTS",
    "SWEEP_INPUTS",
    "UNITS",
    "Axis",
    "SweepPlan",
    "SweepResult",
    "SweepSpec",
    "default_vs",
    "metric_label",
    "metric_title",
    "metric_unit",
    "parse_sweep",
    "parse_values",
    "plan_sweep",
    "play_sweep",
    "sweep",
    "sweep_report",
    "sweep_table",
]
