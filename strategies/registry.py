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
from typing import Any

import numpy as np
from numba.core.dispatcher import Dispatcher

from simulator.errors import SpecError

MAX_PARAMS = 8


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
    #: A shipped strategy too costly to compile into every kernel (``search``): it has no
    #: builtin id and is compiled, like a user's, into a kernel for the runs that play it
    #: (cached on disk, :mod:`simulator.kernels.specialise`), but runs uncontained at full speed.
    on_demand: bool = False

    @property
    def user(self) -> bool:
        """A user's strategy (a plugin, a script, a notebook): compiled per run and contained."""
        return self.builtin_id is None and not self.on_demand

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
# Who registered each (game, name): "kortsim" for the package, a plugin's resolved path, or the
# origin of a strategy defined elsewhere (a script, a notebook).  A name may be registered again
# only by the same owner (a reloaded plugin, a re-run notebook cell).
_OWNERS: dict[tuple[str, str], str] = {}
_LOADING: list[tuple[str, str]] = []  # plugin files being loaded (key, as given), innermost last
# Loaded plugin files: resolved path -> (sha256 of the text, module name).
_PLUGINS: dict[str, tuple[str, str]] = {}
_PACKAGE_DIRS = tuple(
    Path(__file__).resolve().parent.parent / d for d in ("strategies", "simulator", "experiments")
)


def _shipped(family: Family) -> bool:
    """True for the strategies that come with kortsim (their names are reserved)."""
    if family.origin == "kortsim":
        return True
    try:
        origin = Path(family.origin).resolve()
    except (OSError, ValueError):
        return False
    return any(d in origin.parents for d in _PACKAGE_DIRS)


def _owner(family: Family) -> str:
    if _shipped(family):
        return "kortsim"
    if _LOADING:
        return _LOADING[-1][0]
    origin = Path(family.origin)
    return str(origin.resolve()) if origin.is_file() else family.origin


def register(family: Family) -> Family:
    """Add ``family`` to its game's strategies.

    Names are unique within a game.  The names of the shipped strategies are
    reserved; a name a plugin file registered can be registered again only by
    that file (when it is reloaded), and likewise for a script or notebook.

    Raises
    ------
    SpecError
        When the name is taken by a shipped strategy or by another file.
    """
    key = (family.game, family.name)
    owner = _owner(family)
    old = _REGISTRY.get(family.game, {}).get(family.name)
    if old is not None and old is not family and _OWNERS.get(key) != owner:
        where = f"{_LOADING[-1][1]}: " if _LOADING else ""
        if _shipped(old):
            raise SpecError(
                f"{where}the strategy name {family.name!r} is reserved: kortsim ships a {family.game} "
                "strategy by that name; give yours another name"
            )
        raise SpecError(
            f"{where}the {family.game} strategy name {family.name!r} is already taken by {old.origin}; "
            "give yours another name"
        )
    _REGISTRY.setdefault(family.game, {})[family.name] = family
    _OWNERS[key] = owner
    return family


def strategy(
    game: str,
    name: str | None = None,
    params: dict[str, tuple] | None = None,
    doc: str | None = None,
) -> Callable:
    """Register a user strategy: decorate ``decide(obs, params, rng) -> int``.

    ``params`` maps a name to ``(default, low, high[, step])``.  A plain Python
    function is compiled with ``numba.njit``; it compiles once per process, when
    a run first uses it (``strategies.checks``: a function numba cannot compile,
    or that returns anything but an integer, raises ``StrategyCompileError``).
    It answers with an integer action or an action enum member (Spøkelse's
    ``Source`` / ``Place``; see the game's ``observation`` module).  The name
    must not be a shipped strategy's, nor one registered by another file
    (:func:`register`).
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


# Named parameter sets of a family (``follow@6``): (game, family) -> {preset: (values, doc)}.
_PRESETS: dict[tuple[str, str], dict[str, tuple[dict[str, float], str]]] = {}


def register_preset(game: str, family: str, name: str, values: dict[str, float], doc: str = "") -> None:
    """Name a parameter set of ``family``: ``family@name`` then reads as the family with
    ``values`` (a parameter not named keeps its default; ``family@name:a=1`` overrides one).
    A preset is only a shorter way to write a spec: the player, its canonical spec and its
    results are those of the spec written out, and no default changes."""
    fam = _REGISTRY.get(game, {}).get(family)
    if fam is None:
        raise SpecError(f"preset {family}@{name}: no {game} strategy {family!r}")
    fam.player(**values)  # every value checked against the parameter's bounds and grid
    _PRESETS.setdefault((game, family), {})[name] = (dict(values), doc)


def presets(game: str, family: str) -> dict[str, tuple[dict[str, float], str]]:
    """The presets of a family: ``{name: (values, doc)}``."""
    return dict(_PRESETS.get((game, family), {}))


def _preset_values(name: str, game: str) -> tuple[str, dict[str, float]]:
    """``family@preset`` as the family's name and the preset's values."""
    base, _, preset = name.partition("@")
    known = _PRESETS.get((game, base), {})
    if preset not in known:
        shown = ", ".join(f"{base}@{p}" for p in known) or "none"
        raise SpecError(f"{name}: no preset {preset!r} of {base} for {game} (presets: {shown})")
    return base, dict(known[preset][0])


def parse_spec(spec: str, game: str) -> Player:
    """``name``, ``name:a=1,b=2`` or ``name@preset[:a=1]`` for ``game``; raises
    :class:`SpecError` with one clear line."""
    spec = spec.strip()
    name, colon, body = spec.partition(":")
    values: dict[str, float] = {}
    if "@" in name:
        name, values = _preset_values(name.strip(), game)
    fams = _REGISTRY.get(game, {})
    if name not in fams:
        elsewhere = games_with(name)
        if elsewhere:
            raise SpecError(f"strategy {name!r} is for {', '.join(elsewhere)}, not {game}")
        known = ", ".join(sorted(fams)) or "none"
        empty = [Path(k).name for k in _PLUGINS if k not in _OWNERS.values()]
        hint = (
            f"; strategy file {', '.join(map(repr, empty))} registered no strategy (decorate a function "
            "with @strategy)"
            if empty
            else ""
        )
        raise SpecError(f"unknown strategy {name!r} for {game} (known: {known}){hint}")
    preset = dict(values)
    values = {}
    if colon and not body.strip():
        raise SpecError(f"{spec}: no parameters after the colon (write {name} or {name}:name=value)")
    for item in (s.strip() for s in body.split(",") if colon):
        if not item:
            raise SpecError(f"{spec}: an empty parameter between commas (write name=value,name=value)")
        key, eq, raw = item.partition("=")
        if not eq or not key.strip():
            raise SpecError(f"{spec}: parameters are written name=value, got {item!r}")
        if key.strip() in values:
            raise SpecError(f"{spec}: parameter {key.strip()!r} is given twice (give each once)")
        try:
            values[key.strip()] = float(raw)
        except ValueError:
            raise SpecError(f"{name}: {key.strip()}={raw!r} is not a number") from None
    return fams[name].player(**{**preset, **values})


def load_plugin(path: str | Path, *, source: str | Path | None = None) -> None:
    """Run a user's strategy file so that its ``@strategy`` functions register.

    Loading the same file again does nothing while its text is unchanged; when
    the file has changed it is run afresh (in the same Python session, e.g. a
    notebook), its strategies replace the ones it registered before, and ones
    it no longer defines are removed.  Only the file itself is reloaded, not
    modules it imports.  A strategy may not take the name of a shipped strategy
    or of one registered by another file.

    Parameters
    ----------
    path : str or Path
        The strategy file.
    source : str or Path, optional
        The file ``path`` is a copy of (a worker loading a shipped copy): the
        copy counts as that file when names are checked and on reload.

    Raises
    ------
    SpecError
        When the file does not exist, fails to run, or registers a name it may not.
    """
    p = Path(path)
    if not p.is_file():
        raise SpecError(f"strategy file {str(p)!r} does not exist")
    key = str(Path(source).resolve() if source is not None else p.resolve())
    try:
        data = p.read_bytes()
    except OSError as exc:
        raise SpecError(f"strategy file {str(p)!r} cannot be read: {exc.strerror or exc}") from None
    digest = hashlib.sha256(data).hexdigest()
    loaded = _PLUGINS.get(key)
    if loaded is not None and loaded[0] == digest and loaded[1] in sys.modules:
        return  # unchanged: keep what it registered (and compiled)
    mod_name = f"kortsim_user_{hashlib.sha1(key.encode()).hexdigest()[:10]}"
    spec = importlib.util.spec_from_file_location(mod_name, p)
    if spec is None or spec.loader is None:
        raise SpecError(f"strategy file {str(p)!r} is not a Python file")
    # Take away what an earlier version registered; put it back if the new one fails.
    before = {k: _REGISTRY[k[0]][k[1]] for k, who in _OWNERS.items() if who == key}
    for game, name in before:
        del _REGISTRY[game][name]
        del _OWNERS[(game, name)]
    old_module = sys.modules.get(mod_name)
    module = importlib.util.module_from_spec(spec)
    sys.modules[mod_name] = module
    _LOADING.append((key, str(p)))
    try:
        spec.loader.exec_module(module)
    except (Exception, SystemExit) as exc:  # a user's file (even one calling sys.exit()): one line
        for k, who in list(_OWNERS.items()):
            if who == key:
                del _REGISTRY[k[0]][k[1]]
                del _OWNERS[k]
        for (game, name), fam in before.items():
            _REGISTRY[game][name] = fam
            _OWNERS[(game, name)] = key
        if old_module is not None:
            sys.modules[mod_name] = old_module
        else:
            del sys.modules[mod_name]
        if isinstance(exc, SpecError):
            raise
        what = "it called sys.exit()" if isinstance(exc, SystemExit) else f"{type(exc).__name__}: {exc}"
        raise SpecError(f"strategy file {str(p)!r} failed to load: {what}") from None
    finally:
        _LOADING.pop()
    _PLUGINS[key] = (digest, mod_name)
