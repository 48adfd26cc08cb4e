"""The strategy registry: families by game and name, and ``name:a=1,b=2`` specs.

A *family* is a jitted decision function plus metadata (its parameters with
defaults and bounds, and a docstring in words).  A *player* is a family with
its parameter values filled in; its canonical spec (``threshold:k=4``) names it
in tables, JSON and provenance.
"""

from __future__ import annotations

import hashlib
import inspect
import sys
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path

import numpy as np

from simulator.engine.numba_internals import Dispatcher
from simulator.errors import SpecError
from strategies.params import (  # noqa: F401  (re-exported: the registry's names since 1.0)
    FORGET,
    FORGET_AT,
    HUMAN_PARAMS,
    MAX_PARAMS,
    PARAM_ROW,
    SALT_AT,
    SLIP,
    SLIP_AT,
    Param,
    format_value,
    row_salt,
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
        """The player with ``values`` (the family's own parameters, and ``forget`` and
        ``slip``, which every strategy takes); a parameter not named keeps its default."""
        known = {p.name for p in self.params + HUMAN_PARAMS}
        for key in values:
            if key not in known:
                allowed = ", ".join(sorted(known))
                raise SpecError(f"{self.name}: unknown parameter {key!r} (parameters: {allowed})")
        vals = tuple(p.check(float(values.get(p.name, p.default)), self.name) for p in self.params)
        forget, slip = (p.check(float(values.get(p.name, p.default)), self.name) for p in HUMAN_PARAMS)
        return Player(self, vals, forget, slip)


@dataclass(frozen=True)
class Player:
    """A family with its parameter values, and how human it plays: ``forget`` and ``slip``
    (both 0 for the plain strategy, which then plays bit-identically to the family alone).

    ``salt`` is not part of the strategy: it is the copy number a comparison gives the
    second, third... copy of a strategy it was given more than once (1, 2...), so that each
    copy draws its random choices from a stream of its own (docs/random-streams.md).  With
    salt 0, as everywhere else, the player draws exactly as it always has.  The spec does
    not show it."""

    family: Family
    values: tuple[float, ...] = field(default=())
    forget: float = 0.0
    slip: float = 0.0
    salt: int = 0

    @property
    def human(self) -> bool:
        """True when the player forgets or slips (``forget > 0`` or ``slip > 0``)."""
        return self.forget > 0 or self.slip > 0

    @property
    def name(self) -> str:
        return self.spec

    @property
    def decide(self) -> Dispatcher:
        return self.family.decide

    @property
    def spec(self) -> str:
        """The canonical spec: every own parameter, then ``forget``/``slip`` when not 0."""
        items = [f"{p.name}={format_value(v)}" for p, v in zip(self.family.params, self.values)]
        items += [
            f"{p.name}={format_value(v)}" for p, v in zip(HUMAN_PARAMS, (self.forget, self.slip)) if v != 0
        ]
        return f"{self.family.name}:{','.join(items)}" if items else self.family.name

    @property
    def plain(self) -> Player:
        """The same strategy with perfect memory and no slips (and the same copy salt)."""
        return Player(self.family, self.values, salt=self.salt)

    def copy_number(self, salt: int) -> Player:
        """The same player as copy ``salt`` of a strategy given more than once (0: the first)."""
        if not isinstance(salt, int) or isinstance(salt, bool) or not 0 <= salt < 1 << 32:
            raise ValueError(f"a copy salt is a whole number from 0 to 2**32 - 1, not {salt!r}")
        return replace(self, salt=salt)

    @property
    def params(self) -> np.ndarray:
        """The parameter row the kernels read (``PARAM_ROW`` values: the strategy's own,
        padded with 0, then ``forget`` at ``FORGET_AT``, ``slip`` at ``SLIP_AT`` and the
        copy salt at ``SALT_AT``)."""
        out = np.zeros(PARAM_ROW, dtype=np.float64)
        out[: len(self.values)] = self.values
        out[FORGET_AT] = self.forget
        out[SLIP_AT] = self.slip
        out[SALT_AT] = self.salt
        return out

    def __str__(self) -> str:
        return self.spec


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


_SHIPPED: set[str] = set()  # the games whose shipped strategies are registered


def shipped(game: str | None = None) -> None:
    """Register the strategies kortsim ships for ``game`` (every game when None), once: each
    game of the registry (simulator/games/__init__.py) names the module that registers its
    strategies, and its folder may name parameter sets of them (``presets.py``: ``follow@6``).

    Done on first need rather than when :mod:`strategies` is imported: a game's kernel
    imports its strategies module, which imports this registry, so registering every game
    at import would ask for the game being imported (``simulator.all_games()`` first); and a
    run of one game need not load the others."""
    from importlib import import_module
    from importlib.util import find_spec

    from simulator.games import GAMES, get_game

    for name in [game] if game in GAMES else list(GAMES):
        if name in _SHIPPED:
            continue
        _SHIPPED.add(name)
        try:
            module = get_game(name).strategies_module
            import_module(module)
            presets_module = module.rpartition(".")[0] + ".presets"
            if find_spec(presets_module) is not None:
                import_module(presets_module)
        except BaseException:
            _SHIPPED.discard(name)
            raise


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
    if not _shipped(family):
        shipped(family.game)  # a user's strategy may not take a shipped name: know them first
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
        reserved = [p.name for p in plist if p.name in {h.name for h in HUMAN_PARAMS}]
        if reserved:
            raise SpecError(
                f"{name or fn.__name__}: the parameter name {reserved[0]!r} is reserved (every strategy "
                "takes forget and slip; give yours another name)"
            )
        if len(plist) > MAX_PARAMS:
            raise SpecError(f"{name or fn.__name__}: at most {MAX_PARAMS} parameters")
        text = doc or inspect.getdoc(getattr(decide, "py_func", fn)) or ""
        module = sys.modules.get(getattr(getattr(decide, "py_func", fn), "__module__", ""), None)
        origin = str(getattr(module, "__file__", None) or getattr(module, "__name__", "user"))
        register(Family(game, name or fn.__name__, decide, plist, text, None, origin))
        return decide

    return wrap


def builtin_decides(game: str) -> list:
    """The decide functions of ``game``'s built-in strategies registered so far, by
    ``builtin_id`` (what the game's shipped dispatcher calls; its strategies module asks
    once all its entries are registered).

    Raises
    ------
    ValueError
        When the ids are not 0, 1, ... without a gap or a repeat.
    """
    fams = sorted(
        (f for f in _REGISTRY.get(game, {}).values() if f.builtin_id is not None), key=lambda f: f.builtin_id
    )
    if [f.builtin_id for f in fams] != list(range(len(fams))):
        raise ValueError(f"{game}: the built-in ids are {[f.builtin_id for f in fams]}, not 0, 1, ...")
    return [f.decide for f in fams]


def shipped_decides(game: str) -> list:
    """The decide functions of every strategy shipped for ``game``: the built-in ones by
    ``builtin_id``, then those compiled on demand (``search``) by name.  A kernel copy
    over this list serves every line-up of shipped strategies."""
    fams = families(game).values()
    on_demand = sorted((f for f in fams if f.on_demand), key=lambda f: f.name)
    return builtin_decides(game) + [f.decide for f in on_demand]


def families(game: str) -> dict[str, Family]:
    shipped(game)
    return dict(_REGISTRY.get(game, {}))


def games_with(name: str) -> list[str]:
    shipped()
    return sorted(g for g, fams in _REGISTRY.items() if name in fams)


# Named parameter sets of a family (``follow@6``): (game, family) -> {preset: (values, doc)}.
_PRESETS: dict[tuple[str, str], dict[str, tuple[dict[str, float], str]]] = {}


def register_preset(game: str, family: str, name: str, values: dict[str, float], doc: str = "") -> None:
    """Name a parameter set of ``family``: ``family@name`` then reads as the family with
    ``values`` (a parameter not named keeps its default; ``family@name:a=1`` overrides one).
    A preset is only a shorter way to write a spec: the player, its canonical spec and its
    results are those of the spec written out, and no default changes."""
    shipped(game)
    fam = _REGISTRY.get(game, {}).get(family)
    if fam is None:
        raise SpecError(f"preset {family}@{name}: no {game} strategy {family!r}")
    fam.player(**values)  # every value checked against the parameter's bounds and grid
    _PRESETS.setdefault((game, family), {})[name] = (dict(values), doc)


def presets(game: str, family: str) -> dict[str, tuple[dict[str, float], str]]:
    """The presets of a family: ``{name: (values, doc)}``."""
    shipped(game)
    return dict(_PRESETS.get((game, family), {}))


def _preset_values(name: str, game: str) -> tuple[str, dict[str, float]]:
    """``family@preset`` as the family's name and the preset's values; ``family@FILE.json``
    takes ``forget`` and ``slip`` from a player profile (simulator.engine.player_file)."""
    base, _, preset = name.partition("@")
    from simulator.engine import player_file

    if player_file.looks_like_file(preset):
        return base, player_file.memory_values(preset, base)
    known = _PRESETS.get((game, base), {})
    if preset not in known:
        shown = ", ".join(f"{base}@{p}" for p in known) or "none"
        raise SpecError(f"{name}: no preset {preset!r} of {base} for {game} (presets: {shown})")
    return base, dict(known[preset][0])


def parse_spec(spec: str, game: str) -> Player:
    """``name``, ``name:a=1,b=2`` or ``name@preset[:a=1]`` for ``game``; raises
    :class:`SpecError` with one clear line."""
    shipped(game)
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
