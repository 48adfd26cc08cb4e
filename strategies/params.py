"""A strategy's parameters: their bounds and grid, and the two every strategy takes.

:class:`Param` declares one parameter of a family (``k`` of ``threshold``).  Besides its
own, every strategy of every game takes ``forget`` and ``slip`` (:data:`HUMAN_PARAMS`,
docs/human-players.md), which the engine applies around the strategy; they follow the
strategy's own values in the parameter row the kernels read.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

# The parameter row's layout is the engine's (the random streams read the salt from it);
# named here too, where strategies and their specs have always found it.
from simulator.engine.param_row import FORGET_AT, MAX_PARAMS, PARAM_ROW, SALT_AT, SLIP_AT, row_salt
from simulator.errors import SpecError


@dataclass(frozen=True)
class Param:
    """One strategy parameter: ``step`` is the grid values must lie on (0 = any real).

    ``effective`` (optional) declares which values play alike: ``effective(value, rules)``
    returns the representative value that plays exactly as ``value`` under ``rules`` (the
    game's rule variants), so a sweep plays each distinct value once.  Without it every
    value on the grid is taken to play differently."""

    name: str
    default: float
    low: float
    high: float
    step: float = 1.0
    doc: str = ""
    effective: Callable[[float, Any], float] | None = field(default=None, compare=False, repr=False)

    def representative(self, value: float, rules: Any = None) -> float:
        """The value that plays exactly as ``value`` under ``rules`` (``value`` itself when
        the parameter declares no ``effective`` grid)."""
        if self.effective is None:
            return float(value)
        return float(self.effective(float(value), rules))

    def within_bounds(self, value: float) -> bool:
        """Whether ``value`` lies in ``low..high`` (a NaN does not)."""
        return self.low <= value <= self.high

    def on_step(self, value: float) -> bool:
        """Whether ``value`` is ``low`` plus a whole number of steps (any value when ``step``
        is 0, a real parameter)."""
        if self.step <= 0:
            return True
        steps = (value - self.low) / self.step
        return abs(steps - round(steps)) <= 1e-9

    def check(self, value: float, strategy: str) -> float:
        if not math.isfinite(value) or not self.within_bounds(value):
            raise SpecError(
                f"{strategy}: {self.name}={format_value(value)} is outside "
                f"{format_value(self.low)}..{format_value(self.high)}"
            )
        if not self.on_step(value):
            raise SpecError(
                f"{strategy}: {self.name}={format_value(value)} must be a multiple of "
                f"{format_value(self.step)}"
            )
        return float(value)

    def describe(self) -> str:
        grid = "any value" if self.step == 0 else f"step {format_value(self.step)}"
        return (
            f"{self.name} (default {format_value(self.default)}, "
            f"{format_value(self.low)}..{format_value(self.high)}, {grid})"
        )


FORGET = Param(
    "forget",
    0.0,
    0.0,
    1.0,
    0.0,
    "at each of its turns, each card the player knows but cannot see now is forgotten with this probability",
)
SLIP = Param(
    "slip",
    0.0,
    0.0,
    1.0,
    0.0,
    "the probability that a decision is a uniformly random legal one instead of the strategy's",
)
#: The parameters every strategy of every game takes besides its own (0 = the plain strategy).
HUMAN_PARAMS = (FORGET, SLIP)


def format_value(v: float) -> str:
    return str(int(v)) if float(v).is_integer() else repr(float(v))


__all__ = [
    "FORGET",
    "FORGET_AT",
    "HUMAN_PARAMS",
    "MAX_PARAMS",
    "PARAM_ROW",
    "SALT_AT",
    "SLIP",
    "SLIP_AT",
    "Param",
    "format_value",
    "row_salt",
]
