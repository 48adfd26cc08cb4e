"""Numba's on-disk cache, made safe against edits to the code a kernel calls.

Numba checks a cached kernel only against the source file that defines it,
so a change to a rule or a strategy in another module would go on loading
the old compiled code.  kortsim's kernels inline rules and shipped strategies
from several modules, so for functions defined in this package the cache
stamp also carries a digest of every source file jitted code is compiled
from (``_KERNEL_SOURCES``): any change there recompiles, nothing else does.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

from numba.core import caching

_ROOT = Path(__file__).resolve().parent.parent
_PACKAGES = (_ROOT / "simulator", _ROOT / "strategies")


# The files jitted code is compiled from (the Python API, CLI and references are not).
_KERNEL_SOURCES = (
    "simulator/rng.py",
    "simulator/unmanaged.py",
    "simulator/reaction.py",
    "simulator/layout.py",
    "simulator/games/*/layout.py",  # the rows' offsets, frozen into the kernels
    "simulator/games/*/observation.py",
    "simulator/games/*/variants.py",
    "simulator/games/*/rules.py",
    "simulator/games/*/kernel.py",
    "simulator/games/actions.py",
    # The shipped strategies' files only: registry.py, checks.py and __init__.py hold no
    # jitted code, and an edit to them must not throw every cached kernel away.
    "strategies/spokelse.py",
    "strategies/gris.py",
    "strategies/gris_nese.py",
)


def _digest() -> str:
    h = hashlib.sha256()
    paths = sorted({p for pattern in _KERNEL_SOURCES for p in _ROOT.glob(pattern)})
    for path in paths:
        h.update(str(path.relative_to(_ROOT)).encode())
        h.update(path.read_bytes())
    return h.hexdigest()[:16]


SOURCE_DIGEST = _digest()


def _ours(py_file: str) -> bool:
    try:
        p = Path(py_file).resolve()
    except (OSError, TypeError):
        return False
    return any(pkg in p.parents for pkg in _PACKAGES)


class _PackageStampMixin:
    def get_source_stamp(self):
        return (super().get_source_stamp(), SOURCE_DIGEST)

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


def install() -> None:
    """Put the package-aware locators first (idempotent)."""
    classes = caching.CacheImpl._locator_classes
    for cls in (_UserWideLocator, _InTreeLocator, _UserDirLocator):
        if cls not in classes:
            classes.insert(0, cls)


install()
