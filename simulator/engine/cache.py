"""Numba's on-disk cache, made safe against edits to the code a kernel calls.

Numba checks a cached kernel only against the source file that defines it,
so a change to a rule or a strategy in another module would go on loading
the old compiled code.  kortsim's kernels inline rules and shipped strategies
from several modules, so for functions defined in this package the cache
stamp also carries a digest of the source files jitted code is compiled from,
**per game**: a function defined in a game's folder (``simulator/games/<g>/``)
or in that game's shipped strategies (``simulator/games/<g>/strategies.py``) carries the
digest of its own game's files plus the shared files (:data:`SHARED_SOURCES`);
any other function of the package carries the shared digest.  An edit to one
game's files recompiles that game only; an edit to a shared file recompiles
every game; an edit to the Python API, the CLI or the strategy registry
recompiles nothing.

Every ``.py`` file in a game's folder counts as that game's (its kernels read
constants from the layout and variant modules as well as calling the rules),
wherever in the folder the game keeps its shipped strategies, except the files
named in :data:`NOT_COMPILED` (the readable reference and the engine's view of
the game), which no jitted code may import (``tests/engine/test_cache.py`` checks it).
"""

from __future__ import annotations

import hashlib
import os
import warnings
from collections.abc import Iterable
from contextlib import suppress
from pathlib import Path

from simulator.engine import numba_internals as ni
from simulator.engine.numba_internals import caching

_ROOT = Path(__file__).resolve().parents[2]
_PACKAGES = (_ROOT / "simulator", _ROOT / "strategies")

#: The files outside any game's folder that jitted code is compiled from (functions,
#: or constants that numba freezes into the machine code).
SHARED_SOURCES = (
    "simulator/engine/rng.py",
    "simulator/engine/unmanaged.py",
    "simulator/engine/reaction.py",
    "simulator/engine/layout.py",  # computes the rows' offsets that numba freezes into the kernels
    "simulator/engine/cards.py",
    "simulator/engine/fields.py",  # imported by layout.py
    "simulator/engine/chunks.py",  # the chunk kernels' compile options
    "simulator/games/actions.py",
    "simulator/engine/dispatching.py",  # the dispatchers' generated source
    "simulator/engine/param_row.py",  # the parameter row's layout (FORGET_AT, SLIP_AT, SALT_AT), frozen in
)
#: Files of a game's folder that jitted code is never compiled from (the table modules
#: of ``kortsim play`` are plain Python over the reference).
NOT_COMPILED = (
    "game.py",
    "reference.py",
    "reference_table.py",
    "reference_view.py",
    "reference_records.py",
    "reference_human.py",
    "illegal.py",
    "tabletop.py",
    "tabletop_advice.py",
    "tabletop_belief.py",
    "profile.py",
    "presets.py",
    "advise.py",
    "advise_text.py",
    "calibration_play.py",
    "memory_estimate.py",
)
_GAMES_DIR = "simulator/games"
_STRATEGIES_DIR = "strategies"


def games(root: Path | None = None) -> list[str]:
    """The game folders under ``simulator/games`` (each a package).

    Parameters
    ----------
    root : Path, optional
        The repository root (default: this package's).

    Returns
    -------
    list of str
    """
    base = (_ROOT if root is None else root) / _GAMES_DIR
    if not base.is_dir():
        return []
    return sorted(p.name for p in base.iterdir() if p.is_dir() and (p / "__init__.py").is_file())


def game_sources(game: str | None, root: Path | None = None) -> list[Path]:
    """The files one stamp covers: a game's own files plus the shared ones (``game=None``:
    the shared ones alone).

    Parameters
    ----------
    game : str or None
        A game folder's name, or None for the functions shared by every game.
    root : Path, optional
        The repository root (default: this package's).

    Returns
    -------
    list of Path
        Sorted, each once.
    """
    root = _ROOT if root is None else root
    paths = {root / rel for rel in SHARED_SOURCES}
    if game is not None:
        own = [*(root / _GAMES_DIR / game).rglob("*.py"), *(root / _STRATEGIES_DIR / game).rglob("*.py")]
        paths.update(p for p in own if p.name not in NOT_COMPILED)
        paths.add(root / _STRATEGIES_DIR / f"{game}.py")
    return sorted(p for p in paths if p.is_file() and "__pycache__" not in p.parts)


def _digest_of(paths: Iterable[Path], root: Path) -> str:
    h = hashlib.sha256()
    for path in paths:
        h.update(str(path.relative_to(root)).encode())
        h.update(b"\0")
        h.update(path.read_bytes())
        h.update(b"\0")
    return h.hexdigest()[:16]


def _digest(root: Path | None = None, game: str | None = None, *, every: bool = False) -> str:
    """The digest of :func:`game_sources` (``every=True``: of every game's and the shared).

    Parameters
    ----------
    root : Path, optional
        The repository root (default: this package's).
    game : str or None
        The game (None: the shared files only).
    every : bool
        Cover every game at once (what a kernel mixing code of several games needs).

    Returns
    -------
    str
        16 hex digits.
    """
    root = _ROOT if root is None else root
    if every:
        paths = sorted({p for g in [None, *games(root)] for p in game_sources(g, root)})
    else:
        paths = game_sources(game, root)
    return _digest_of(paths, root)


def game_of(py_file: str | Path, root: Path | None = None) -> str | None:
    """The game whose stamp a function defined in ``py_file`` carries, or None (shared).

    Parameters
    ----------
    py_file : str or Path
        The file that defines the function.
    root : Path, optional
        The repository root (default: this package's).

    Returns
    -------
    str or None
    """
    root = _ROOT if root is None else root
    try:
        rel = Path(py_file).resolve().relative_to(root.resolve())
    except (OSError, ValueError, TypeError):
        return None
    parts = rel.parts
    known = games(root)
    if len(parts) >= 4 and parts[:2] == ("simulator", "games") and parts[2] in known:
        return parts[2]
    if len(parts) >= 2 and parts[0] == _STRATEGIES_DIR:
        name = parts[1].removesuffix(".py") if len(parts) == 2 else parts[1]
        if name in known:
            return name
    return None


#: One digest per game (and ``None``: the shared files), taken once at import.
DIGESTS: dict[str | None, str] = {g: _digest(game=g) for g in [None, *games()]}
#: The digest of every jitted source of the package (all games and the shared files).
SOURCE_DIGEST = _digest(every=True)


def stamp_digest(py_file: str | Path) -> str:
    """The digest a function defined in ``py_file`` carries in its cache stamp."""
    return DIGESTS.get(game_of(py_file), DIGESTS[None])


def _ours(py_file: str) -> bool:
    try:
        p = Path(py_file).resolve()
    except (OSError, TypeError):
        return False
    return any(pkg in p.parents for pkg in _PACKAGES)


class _PackageStampMixin:
    def get_source_stamp(self):
        return (super().get_source_stamp(), stamp_digest(self._py_file))

    @classmethod
    def from_function(cls, py_func, py_file):
        if not _ours(py_file):
            return None
        return super().from_function(py_func, py_file)


class _UserDirLocator(_PackageStampMixin, caching.UserProvidedCacheLocator):
    pass


class _InTreeLocator(_PackageStampMixin, caching.InTreeCacheLocator):
    pass


class _UserWideLocator(_PackageStampMixin, caching.UserWideCacheLocator):
    pass


class GuardedFunctionCache(caching.FunctionCache):
    """Numba's function cache, except that an entry it cannot read (a truncated or
    corrupted index or object file, one left by another version) is dropped and the
    function compiled again, and one it cannot write only warns: never a crash."""

    def load_overload(self, sig, target_context):
        try:
            return super().load_overload(sig, target_context)
        except Exception:  # unpickling or relinking a damaged entry: compile instead
            self._forget()
            return None

    def save_overload(self, sig, data):
        try:
            super().save_overload(sig, data)
        except Exception as exc:  # the run goes on; the next one compiles again
            self._forget()
            warnings.warn(f"kortsim: could not save a compiled kernel to the cache ({exc})", stacklevel=2)

    def _forget(self) -> None:
        with suppress(OSError, AttributeError):
            os.unlink(ni.index_path(self))


def install() -> None:
    """Put the package-aware locators first (idempotent)."""
    classes = ni.locator_classes()
    for cls in (_UserWideLocator, _InTreeLocator, _UserDirLocator):
        if cls not in classes:
            classes.insert(0, cls)


install()
