"""The strategy registry: families by game and name, and ``name:a=1,b=2`` specs.

A *family* is a jitted decision function plus metadata (its parameters with
defaults and bounds, and a docstring in words).  A *player* is a family with
its parameter values filled in; its canonical spec (``threshold:k=4``) names it
in tables, JSON and provenance.
"""

from __future__ import annotations

import hashlib
import importlib.util
import inspect
import math
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
from numba.core.dispatcher import Dispatcher

MAX_PARAMS = 8


class SpecError(ValueError):
    """A strategy spec or plugin that cannot be used; the message is one clear line."""


@dataclass(frozen=True)
class Param:
    """One strategy parameter: ``step`` is the grid values must lie on (0 = any real)."""

    name: str
    default: float
    low: float
    high: float
    step: float = 1.0
    doc: str = ""

    def check(self, value: float, strategy: str) -> float:
        if not math.isfinite(value) or value < self.low or value > self.high:
            raise SpecError(
                f"{strategy}: {self.name}={format_value(value)} is outside "
                f"{format_value(self.low)}..{format_value(self.high)}"
            )
        if self.step > 0:
            steps = (value - self.low) / self.step
            if abs(steps - round(steps)) > 1e-9:
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


@dataclass(frozen=True)
class Family:
    game: str
    name: str
    decide: Dispatcher
    params: tuple[Param, ...] = ()
    doc: str = ""
    builtin_id: int | None = None  # position in the game's cached builtin dispatcher
    origin: str = "kortsim"

    @property
    def summary(self) -> str:
        return self.doc.strip().splitlines()[0] if self.doc.strip() else ""

    def source_hash(self) -> str:
        try:
            src = inspect.getsource(self.decide.py_func)
        except (OSError, TypeError):
            src = self.decide.py_func.__code__.co_code.hex()
        return hashlib.sha256(src.encode()).hexdigest()[:16]

    def player(self, **values: float) -> Player:
        known = {p.name for p in self.params}
        for key in values:
            if key not in known:
                allowed = ", ".join(sorted(known)) or "none"
                raise SpecError(f"{self.name}: unknown parameter {key!r} (parameters: {allowed})")
        vals = tuple(p.check(float(values.get(p.name, p.default)), self.name) for p in self.params)
        return Player(self, vals)


@dataclass(frozen=True)
class Player:
    family: Family
    values: tuple[float, ...] = field(default=())

    @property
    def name(self) -> str:
        return self.spec

    @property
    def decide(self) -> Dispatcher:
        return self.family.decide

    @property
    def spec(self) -> str:
        if not self.family.params:
            return self.family.name
        body = ",".join(f"{p.name}={format_value(v)}" for p, v in zip(self.family.params, self.values))
        return f"{self.family.name}:{body}"

    @property
    def params(self) -> np.ndarray:
        out = np.zeros(MAX_PARAMS, dtype=np.float64)
        out[: len(self.values)] = self.values
        return out

    def __str__(self) -> str:
        return self.spec


def format_value(v: float) -> str:
    return str(int(v)) if float(v).is_integer() else repr(float(v))


_REGISTRY: dict[str, dict[str, Family]] = {}


def register(family: Family) -> Family:
    _REGISTRY.setdefault(family.game, {})[family.name] = family
    return family


def strategy(
    game: str,
    name: str | None = None,
    params: dict[str, tuple] | None = None,
    doc: str | None = None,
) -> Callable:
    """Register a user strategy: decorate ``decide(obs, params, rng) -> int``.

    ``params`` maps a name to ``(default, low, high[, step])``.  A plain Python
    function is compiled with ``numba.njit``; it compiles once per process.
    """
    from numba import njit

    def wrap(fn: Callable) -> Dispatcher:
        decide = fn if isinstance(fn, Dispatcher) else njit(fn)
        plist = tuple(Param(k, *map(float, spec)) for k, spec in (params or {}).items())
        if len(plist) > MAX_PARAMS:
            raise SpecError(f"{name or fn.__name__}: at most {MAX_PARAMS} parameters")
        text = doc or inspect.getdoc(getattr(decide, "py_func", fn)) or ""
        module = sys.modules.get(getattr(getattr(decide, "py_func", fn), "__module__", ""), None)
        origin = str(getattr(module, "__file__", None) or getattr(module, "__name__", "user"))
        register(Family(game, name or fn.__name__, decide, plist, text, None, origin))
        return decide

    return wrap


def families(game: str) -> dict[str, Family]:
    return dict(_REGISTRY.get(game, {}))


def games_with(name: str) -> list[str]:
    return sorted(g for g, fams in _REGISTRY.items() if name in fams)


def parse_spec(spec: str, game: str) -> Player:
    """``name`` or ``name:a=1,b=2`` for ``game``; raises :class:`SpecError` with one clear line."""
    spec = spec.strip()
    name, _, body = spec.partition(":")
    fams = _REGISTRY.get(game, {})
    if name not in fams:
        elsewhere = games_with(name)
        if elsewhere:
            raise SpecError(f"strategy {name!r} is for {', '.join(elsewhere)}, not {game}")
        known = ", ".join(sorted(fams)) or "none"
        raise SpecError(f"unknown strategy {name!r} for {game} (known: {known})")
    values: dict[str, float] = {}
    for item in filter(None, (s.strip() for s in body.split(","))):
        key, eq, raw = item.partition("=")
        if not eq or not key.strip():
            raise SpecError(f"{spec}: parameters are written name=value, got {item!r}")
        try:
            values[key.strip()] = float(raw)
        except ValueError:
            raise SpecError(f"{name}: {key.strip()}={raw!r} is not a number") from None
    return fams[name].player(**values)


def load_plugin(path: str | Path) -> None:
    """Run a user's strategy file so that its ``@strategy`` functions register."""
    p = Path(path)
    if not p.is_file():
        raise SpecError(f"strategy file {str(p)!r} does not exist")
    mod_name = f"kortsim_user_{hashlib.sha1(str(p.resolve()).encode()).hexdigest()[:10]}"
    if mod_name in sys.modules:
        return
    spec = importlib.util.spec_from_file_location(mod_name, p)
    if spec is None or spec.loader is None:
        raise SpecError(f"strategy file {str(p)!r} is not a Python file")
    module = importlib.util.module_from_spec(spec)
    sys.modules[mod_name] = module
    try:
        spec.loader.exec_module(module)
    except SpecError:
        raise
    except Exception as exc:  # a user's file: report it in one line
        del sys.modules[mod_name]
        raise SpecError(f"strategy file {str(p)!r} failed to load: {type(exc).__name__}: {exc}") from None
