"""What a tune searches: a strategy family, the parameters it varies and their ranges.

A tune spec is a strategy spec whose values may be ranges ``lo..hi``::

    expect:k=0..4,patience=1..6,open=10..41   search three parameters, the fourth at its default
    mine:a=0..1                               one parameter of a plugin's strategy
    reader                                    no range given: every parameter within its bounds

A range must lie within the parameter's declared bounds and its ends on the parameter's
grid (``Param.step``); a plain value fixes the parameter.  When no range is given at all,
every parameter is searched within its declared bounds, except that a parameter whose
bounds span more than ``OPEN_SPAN`` (in its own units: ``reader``'s ``patience`` goes to
10,000) is searched only up to ``max(4 × default, OPEN_CEILING)``; the summary says so.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from simulator.analysis.sweep_spec import finite_number
from simulator.errors import InputError, SpecError
from simulator.games.base import Game
from strategies.registry import Family, Param, Player, families, format_value, games_with

DEFAULT_TRIALS = 40  # trials per iteration when --trials is not given
OPEN_SPAN = 1000.0  # bounds wider than this are "open-ended" for the search
OPEN_CEILING = 100.0  # the least upper end of the search range of such a parameter
MAX_GRID = 100_000  # grid points whose representatives are listed (a finite space's size)


@dataclass(frozen=True)
class Dim:
    """One searched parameter: its range on its grid (``step`` 0: any real value)."""

    name: str
    low: float
    high: float
    step: float
    note: str = ""  # why the range differs from what was asked (a clamped open bound)

    @property
    def integer(self) -> bool:
        return self.step > 0 and all(float(v).is_integer() for v in (self.low, self.high, self.step))

    def suggest(self, trial: Any) -> float:
        """This parameter's value for an optuna trial, on the grid."""
        if self.low == self.high:
            return float(self.low)
        if self.integer:
            return float(trial.suggest_int(self.name, int(self.low), int(self.high), step=int(self.step)))
        if self.step > 0:
            return float(trial.suggest_float(self.name, self.low, self.high, step=self.step))
        return float(trial.suggest_float(self.name, self.low, self.high))

    def values(self) -> list[float] | None:
        """Every value on this parameter's grid, low to high (None: any real value)."""
        if self.step == 0:
            return None
        count = int(round((self.high - self.low) / self.step)) + 1
        return [self.low + i * self.step for i in range(count)]

    def describe(self) -> str:
        grid = "any value" if self.step == 0 else f"step {format_value(self.step)}"
        text = f"{self.name} {format_value(self.low)}..{format_value(self.high)} ({grid})"
        return f"{text}; {self.note}" if self.note else text


@dataclass(frozen=True)
class Space:
    """A family, its fixed parameter values and the searched dimensions."""

    text: str
    family: Family
    fixed: dict[str, float]
    dims: tuple[Dim, ...]

    def start_values(self) -> dict[str, float]:
        """The starting point: the fixed values, every other parameter at its default."""
        out = {p.name: float(p.default) for p in self.family.params}
        out.update(self.fixed)
        return out

    def player(self, values: Mapping[str, float]) -> Player:
        """The player of ``values`` (a parameter not named keeps its starting value)."""
        vals = self.start_values()
        vals.update(values)
        try:
            return self.family.player(**vals)
        except SpecError as e:
            raise InputError(str(e)) from None

    def representative(self, values: Mapping[str, float], rules: Any) -> tuple[float, ...]:
        """The values that play exactly as ``values`` under ``rules``, in parameter order
        (``Param.representative``): two points with the same tuple play identically."""
        vals = self.start_values()
        vals.update(values)
        return tuple(p.representative(vals[p.name], rules) for p in self.family.params)

    def values_of(self, player: Player) -> dict[str, float]:
        """A player of this family as ``{parameter: value}``."""
        return dict(zip((p.name for p in self.family.params), player.values))

    def key_of(self, player: Player, rules: Any) -> tuple[float, ...]:
        """:meth:`representative` of a player's values."""
        return self.representative(self.values_of(player), rules)

    def suggest(self, trial: Any) -> dict[str, float]:
        return {d.name: d.suggest(trial) for d in self.dims}

    def contains(self, values: Mapping[str, float]) -> bool:
        """Whether ``values`` lies inside every searched range."""
        return all(d.low - 1e-12 <= values[d.name] <= d.high + 1e-12 for d in self.dims)

    def grid(self, rules: Any) -> list[dict[str, float]] | None:
        """One point per distinct way of playing (:meth:`representative` under ``rules``),
        the first on the grid in grid order, when every searched parameter is on a grid of
        at most ``MAX_GRID`` points in all; None otherwise (a real-valued parameter)."""
        axes = [d.values() for d in self.dims]
        if any(a is None for a in axes) or math.prod(len(a) for a in axes) > MAX_GRID:  # type: ignore[arg-type]
            return None
        points: dict[tuple[float, ...], dict[str, float]] = {}
        for combo in itertools.product(*axes):  # type: ignore[arg-type]
            values = dict(zip((d.name for d in self.dims), combo))
            points.setdefault(self.representative(values, rules), values)
        return list(points.values())

    def notes(self) -> list[str]:
        return [f"{d.name}: {d.note}" for d in self.dims if d.note]


def _on_grid(p: Param, v: float, where: str) -> None:
    if not p.within_bounds(v):
        raise InputError(
            f"{where} goes outside {p.name}'s bounds {format_value(p.low)}..{format_value(p.high)} "
            f"(at {format_value(v)})"
        )
    if not p.on_step(v):
        raise InputError(
            f"{where}: {format_value(v)} is not on {p.name}'s grid (step {format_value(p.step)})"
        )


def parse_range(text: str, p: Param, strategy: str) -> Dim | float:
    """``lo..hi`` as a :class:`Dim`, or one number as a fixed value, checked against ``p``."""
    where = f"{strategy}: {p.name}={text.strip()}"
    t = text.strip()
    if not t:
        raise InputError(f"{where}: give a value or a range lo..hi")
    if ".." not in t:
        v = finite_number(t, where)
        _on_grid(p, v, where)
        return v
    lo_text, _, hi_text = t.partition("..")
    lo, hi = finite_number(lo_text.strip(), where), finite_number(hi_text.strip(), where)
    if hi < lo:
        raise InputError(f"{where} is an empty range ({format_value(lo)} is above {format_value(hi)})")
    _on_grid(p, lo, where)
    _on_grid(p, hi, where)
    return Dim(p.name, lo, hi, p.step)


def open_dim(p: Param) -> Dim:
    """The search range of ``p`` when no range is given: its bounds, an open-ended upper
    bound clamped (see the module docstring)."""
    if p.high - p.low <= OPEN_SPAN:
        return Dim(p.name, p.low, p.high, p.step)
    high = max(4.0 * p.default, OPEN_CEILING, p.low + (p.step or 1.0))
    if p.step > 0:
        high = p.low + math.ceil((high - p.low) / p.step - 1e-9) * p.step
    high = min(high, p.high)
    note = (
        f"declared {format_value(p.low)}..{format_value(p.high)}, searched up to {format_value(high)} "
        f"(max(4 × default, {format_value(OPEN_CEILING)})); give {p.name}=lo..hi to search further"
    )
    return Dim(p.name, p.low, high, p.step, note)


def _family(g: Game, name: str) -> Family:
    fams = families(g.name)
    if name in fams:
        return fams[name]
    elsewhere = games_with(name)
    if elsewhere:
        raise InputError(f"strategy {name!r} is for {', '.join(elsewhere)}, not {g.name}")
    raise InputError(f"unknown strategy {name!r} for {g.name} (known: {', '.join(sorted(fams)) or 'none'})")


def parse_space(spec: str, g: Game) -> Space:
    """Read a tune spec (see the module docstring) for game ``g``.

    Raises
    ------
    InputError
        A bad range, a range outside the bounds, an unknown parameter, nothing to tune.
    """
    text = spec.strip()
    name, colon, body = text.partition(":")
    fam = _family(g, name.strip())
    params = {p.name: p for p in fam.params}
    if not params:
        raise InputError(f"{fam.name} has no parameters: nothing to tune")
    fixed: dict[str, float] = {}
    dims: list[Dim] = []
    for item in (s.strip() for s in body.split(",")) if colon else ():
        key, eq, raw = item.partition("=")
        key = key.strip()
        if not eq or not key:
            raise InputError(f"{text}: parameters are written name=lo..hi or name=value, got {item!r}")
        if key not in params:
            raise InputError(f"{fam.name}: unknown parameter {key!r} (parameters: {', '.join(params)})")
        if key in fixed or any(d.name == key for d in dims):
            raise InputError(f"{text}: {key} is given twice")
        got = parse_range(raw, params[key], fam.name)
        if isinstance(got, Dim):
            dims.append(got)
        else:
            fixed[key] = got
    if not dims and not fixed:
        dims = [open_dim(p) for p in fam.params]
    for d in [d for d in dims if d.high == d.low]:  # a range of one value fixes it
        fixed[d.name] = d.low
    dims = [d for d in dims if d.high > d.low]
    if not dims:
        raise InputError(
            f"{text}: nothing to tune; give a range, e.g. {fam.name}:{fam.params[0].name}=lo..hi"
        )
    return Space(text, fam, fixed, tuple(dims))
