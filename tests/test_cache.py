"""The numba cache stamp carries a digest of the sources jitted code is built from."""

from pathlib import Path

import numpy as np

import simulator.cache as cache
from simulator.games.spokelse import kernel


def test_kernel_sources_are_ours_and_others_are_not():
    assert cache._ours(kernel.__file__)
    assert not cache._ours(np.__file__)


def test_digest_covers_rules_kernels_and_strategies(tmp_path, monkeypatch):
    root = tmp_path
    for rel in ("simulator/rng.py", "simulator/games/spokelse/kernel.py", "strategies/spokelse.py"):
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text("x = 1\n")
    monkeypatch.setattr(cache, "_ROOT", root)
    first = cache._digest()
    (root / "strategies/spokelse.py").write_text("x = 2\n")
    assert cache._digest() != first
    (root / "simulator/cli.py").write_text("anything\n")  # not compiled: no recompile
    second = cache._digest()
    (root / "simulator/cli.py").write_text("changed\n")
    assert cache._digest() == second


def test_locators_are_installed_first():
    from numba.core import caching

    names = [c.__name__ for c in caching.CacheImpl._locator_classes[:3]]
    assert set(names) == {"_UserDirLocator", "_InTreeLocator", "_UserWideLocator"}
    assert Path(cache.__file__).name == "cache.py"


def test_every_file_with_jitted_code_is_in_the_digest_and_plain_modules_are_not():
    # A file that defines jitted code but is missing from the digest would let an edit to it
    # keep running stale machine code; a plain module in it would recompile everything for
    # nothing (registry.py and checks.py hold no kernels).
    digested = {p for pattern in cache._KERNEL_SOURCES for p in cache._ROOT.glob(pattern)}
    for folder in ("strategies", "simulator/games"):
        for path in (cache._ROOT / folder).rglob("*.py"):
            if "@njit" in path.read_text(encoding="utf-8"):
                assert path in digested, path
    for plain in ("strategies/registry.py", "strategies/checks.py", "strategies/__init__.py"):
        assert cache._ROOT / plain not in digested
