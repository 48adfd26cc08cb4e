"""The grammar of a sweep spec (``threshold:k=0..13``, ``k=1|2|5``, a grid of two parameters):
parsed and checked against the family's parameters (and `forget` and `slip`, which every
strategy takes) before anything is built."""

from __future__ import annotations

import itertools
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from simulator.errors import InputError, SpecError
from simulator.games.base import Game
from simulator.running.setup import resolve_game
from strategies.registry import HUMAN_PARAMS, Family, Param, families, format_value, games_with

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
        params = _sweepable(self.family)

        def key(vals: Mapping[str, float]) -> tuple[tuple[str, float], ...]:
            return tuple(sorted((n, params[n].representative(v, rules)) for n, v in vals.items()))

        keys = [key(v) for v in points]
        chosen: dict[tuple, int] = {}
        for i, (vals, k) in enumerate(zip(points, keys)):
            if k not in chosen or (_is_exact(vals, k) and not _is_exact(points[chosen[k]], k)):
                chosen[k] = i
        return [chosen[k] for k in keys]


def _sweepable(family: Family) -> dict[str, Param]:
    """The parameters a sweep may vary: the family's own, then ``forget`` and ``slip``, which
    every strategy takes (how much memory and care are worth, point by point)."""
    return {p.name: p for p in (*family.params, *HUMAN_PARAMS)}


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


def finite_number(text: str, where: str) -> float:
    """The number ``text`` spells in a spec, refused unless it is finite.

    Parameters
    ----------
    text : str
        The value as written (``"2.5"``).
    where : str
        The spec and parameter, which begin the line that refuses it.

    Returns
    -------
    float
        The value.

    Raises
    ------
    InputError
        When ``text`` is not a number, or not a finite one.
    """
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
        lo, hi = finite_number(lo_text, where), finite_number(hi_text, where)
        if slash:
            step = finite_number(step_text, where)
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
        items = [v.strip() for v in t.split("|")]
        if "" in items:
            raise InputError(f"{where} has an empty item (a list is A|B|C)")
        values = [finite_number(v, where) for v in items]
        if len(set(values)) != len(values):
            raise InputError(f"{where} gives a value twice (give each value once)")
    else:
        values = [finite_number(t, where)]
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
    params = _sweepable(fam)
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
