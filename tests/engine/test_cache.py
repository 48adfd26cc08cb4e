"""The numba cache stamp carries a digest of the sources jitted code is built from, per game."""

import ast
import shutil
from pathlib import Path

import numpy as np
import pytest

import simulator.engine.cache as cache
from simulator.games.spokelse import kernel

GAMES = ("spokelse", "gris", "gris_nese")
#: Modules of the package that jitted files import for plain Python only (registration,
#: errors, the readable layer): an edit to them must not throw cached kernels away.
PLAIN = {
    "strategies/registry.py",
    "strategies/checks.py",
    "strategies/__init__.py",
    "simulator/__init__.py",
    "simulator/games/__init__.py",
    "simulator/games/base.py",
    "simulator/errors.py",
    "simulator/moved.py",
    "simulator/engine/__init__.py",
    "simulator/engine/cache.py",
    "simulator/engine/numba_internals.py",
}


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    """A copy of the package's sources (and nothing else) to edit freely."""
    for package in ("simulator", "strategies"):
        shutil.copytree(
            cache._ROOT / package, tmp_path / package, ignore=shutil.ignore_patterns("__pycache__")
        )
    return tmp_path


def edit(path: Path) -> None:
    path.write_text(path.read_text(encoding="utf-8") + "\n# edited\n", encoding="utf-8")


def digests(root: Path) -> dict:
    return {g: cache._digest(root, g) for g in (None, *GAMES)}


def test_kernel_sources_are_ours_and_others_are_not():
    assert cache._ours(kernel.__file__)
    assert not cache._ours(np.__file__)


def test_the_copy_digests_like_the_package(tree):
    assert digests(tree) == cache.DIGESTS
    assert cache._digest(tree, every=True) == cache.SOURCE_DIGEST


@pytest.mark.parametrize("game", GAMES)
def test_an_edit_to_one_games_file_changes_that_games_stamp_only(tree, game):
    before = digests(tree)
    edit(tree / "simulator" / "games" / game / "rules.py")
    after = digests(tree)
    assert after[game] != before[game]
    assert all(after[g] == before[g] for g in (None, *GAMES) if g != game)
    again = digests(tree)
    edit(tree / "simulator" / "games" / game / "strategies.py")  # its shipped strategies count
    changed = {g for g, d in digests(tree).items() if d != again[g]}
    assert changed == {game}


def test_strategies_kept_in_the_strategies_package_still_count_as_the_games(tree):
    kept = tree / "strategies" / "gris.py"
    shutil.move(tree / "simulator" / "games" / "gris" / "strategies.py", kept)
    before = digests(tree)
    edit(kept)
    changed = {g for g, d in digests(tree).items() if d != before[g]}
    assert changed == {"gris"}
    assert cache.game_of(kept, tree) == "gris"


@pytest.mark.parametrize("shared", cache.SHARED_SOURCES)
def test_an_edit_to_a_shared_file_changes_every_stamp(tree, shared):
    before = digests(tree)
    edit(tree / shared)
    after = digests(tree)
    assert all(after[g] != before[g] for g in (None, *GAMES))


def test_plain_modules_and_the_python_layer_change_no_stamp(tree):
    before = digests(tree)
    for rel in (
        *PLAIN,
        "simulator/cli/__init__.py",
        "simulator/games/gris/game.py",
        "simulator/games/spokelse/reference.py",
    ):
        edit(tree / rel)
    assert digests(tree) == before


def test_functions_carry_the_digest_of_their_own_game_or_the_shared_one():
    root = cache._ROOT
    assert cache.game_of(root / "simulator/games/gris_nese/kernel.py") == "gris_nese"
    assert cache.game_of(root / "simulator/games/spokelse/strategies.py") == "spokelse"
    for shared in (*cache.SHARED_SOURCES, "strategies/registry.py", "simulator/games/base.py"):
        assert cache.game_of(root / shared) is None
    assert cache.stamp_digest(kernel.__file__) == cache.DIGESTS["spokelse"]
    assert cache.stamp_digest(root / "simulator/engine/rng.py") == cache.DIGESTS[None]
    assert len(set(cache.DIGESTS.values())) == len(cache.DIGESTS)


def test_locators_are_installed_first():
    from numba.core import caching

    names = [c.__name__ for c in caching.CacheImpl._locator_classes[:3]]
    assert set(names) == {"_UserDirLocator", "_InTreeLocator", "_UserWideLocator"}
    assert Path(cache.__file__).name == "cache.py"


def _imported_files(path: Path, root: Path) -> set[Path]:
    """The package's files that ``path`` imports (a module, or a package's __init__)."""
    out = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names = [f"{node.module}.{a.name}" for a in node.names] + [node.module]
        elif isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        else:
            continue
        for name in names:
            if name.split(".")[0] not in ("simulator", "strategies"):
                continue
            base = root.joinpath(*name.split("."))
            for candidate in (base.with_suffix(".py"), base / "__init__.py"):
                if candidate.is_file():
                    out.add(candidate)
                    break
    return out


def test_every_file_jitted_code_reads_is_in_its_stamp():
    # A file jitted code is compiled from (functions, or constants numba freezes in) but
    # missing from the stamp would let an edit to it keep running stale machine code.
    root = cache._ROOT
    plain = {root / p for p in PLAIN}
    for game in (None, *GAMES):
        covered = set(cache.game_sources(game, root))
        for path in covered:
            for imported in _imported_files(path, root) - plain:
                assert imported in covered, f"{path.relative_to(root)} imports {imported.relative_to(root)}"
    for folder in ("strategies", "simulator"):
        for path in (root / folder).rglob("*.py"):
            text = path.read_text(encoding="utf-8")
            if "@njit" in text and "cache=True" in text:
                assert any(path in cache.game_sources(g, root) for g in (None, *GAMES)), path
