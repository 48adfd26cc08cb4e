"""A kernel compiled for a plugin is kept on disk across processes (simulator/kernels/specialise.py).

Each test writes its plugin with a salt of its own, so its first run compiles whatever
ran before; the shipped kernels come from the cache the suite runs with.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import uuid
from pathlib import Path

import pytest

from simulator.kernels import specialise

ROOT = Path(__file__).resolve().parents[2]
SALT = uuid.uuid4().hex[:12]

TEMPLATE = '''"""A lowball Spøkelse strategy whose keeper threshold is params[0] * SCALE ({salt})."""

from simulator.games.spokelse.observation import (
    DISCARD_VALUE, FROM_DISCARD, HAND_VALUE, HIGH, HIGH_SLOT, PHASE, SOURCE, UNKNOWN_SLOT,
)
from strategies import strategy


@strategy(game="spokelse", name="cached-{salt}", params={{"keep": (3, 0, 13, 0.5)}})
def cached(obs, params, rng):
    """Keep cards worth at most keep * SCALE half points."""
    keep = params[0] * {scale}
    if obs[PHASE] == SOURCE:
        d = obs[DISCARD_VALUE]
        if 0 <= d <= keep and (obs[UNKNOWN_SLOT] >= 0 or d < obs[HIGH]):
            return 1
        return 0
    c = obs[HAND_VALUE]
    if obs[HIGH] > c and obs[HIGH] > keep:
        return obs[HIGH_SLOT]
    if c <= keep and obs[UNKNOWN_SLOT] >= 0:
        return obs[UNKNOWN_SLOT]
    if obs[HIGH] > c:
        return obs[HIGH_SLOT]
    if obs[FROM_DISCARD] == 1:
        return 0
    return 4
'''


def plugin(path: Path, scale: float, salt: str = SALT) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(TEMPLATE.format(salt=salt, scale=scale), encoding="utf-8")
    return path


def simulate(
    path: Path, salt: str = SALT, *, uncached: bool = False, folder: Path | None = None
) -> tuple[dict, list[str]]:
    """Run ``kortsim simulate`` in a new process: its JSON and its "compiling" lines."""
    args = [
        "simulate",
        "spokelse",
        "--plugin",
        str(path),
        "-s",
        f"cached-{salt}:keep=3",
        "-s",
        "threshold:k=4",
    ]
    args += ["--rounds", "2000", "--seed", "5", "--json"]
    code = "import runpy; runpy.run_module('simulator.cli', run_name='__main__')"
    if uncached:  # the same command with the kernel compiled for the process only
        code = "import simulator.kernels.specialise as s; s.ON_DISK = False; " + code
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    if folder is not None:  # a numba cache of the test's own
        env["NUMBA_CACHE_DIR"] = str(folder)
    r = subprocess.run(
        [sys.executable, "-c", code, *args], cwd=ROOT, env=env, capture_output=True, text=True, timeout=900
    )
    assert r.returncode == 0, r.stderr
    return json.loads(r.stdout), [s for s in r.stderr.splitlines() if s.startswith("compiling")]


def generated(folder: Path | None = None) -> dict[Path, int]:
    """numba's files of the Spøkelse kernel's copies for users' strategies (named by their
    variant), with their times (in ``folder``, or in the numba cache the suite runs with)."""
    from numba.core import config

    root = Path(folder or config.CACHE_DIR or ROOT / "simulator" / "games" / "spokelse" / "__pycache__")
    out = {}
    for p in root.rglob("*.nb?"):  # the copies of round.py's and kernel.py's functions
        if p.is_file() and specialise._VARIANT_FILE.match(p.name) and "spokelse" in str(p.parent):
            out[p] = p.stat().st_mtime_ns
    return out


def seats(doc: dict) -> list:
    return [{k: v for k, v in s.items() if k != "player"} for s in doc["seats"]]


@pytest.mark.slow
def test_the_second_process_loads_the_plugin_kernel_from_the_cache(tmp_path):
    path = plugin(tmp_path / "mine.py", 2.0)
    before = set(generated())
    first, said = simulate(path)
    assert said == [
        f"compiling strategy cached-{SALT} from mine.py with the Spøkelse kernel "
        "(first run of this version of the file only)"
    ]
    made = {p: t for p, t in generated().items() if p not in before}
    assert any(p.suffix == ".nbi" for p in made) and any(p.suffix == ".nbc" for p in made)
    objects = {p: t for p, t in made.items() if p.suffix == ".nbc"}
    second, said = simulate(path)
    assert said == []  # numba compiled nothing: the kernel came from the disk
    assert {p: t for p, t in generated().items() if p in objects} == objects  # reused, not rewritten
    assert seats(second) == seats(first)


@pytest.mark.slow
def test_an_edited_plugin_is_compiled_again_and_plays_the_new_code(tmp_path):
    salt = SALT + "e"
    path = plugin(tmp_path / "mine.py", 2.0, salt)
    old, said = simulate(path, salt)
    assert len(said) == 1
    plugin(path, 0.5, salt)  # keep far fewer cards
    new, said = simulate(path, salt)
    assert len(said) == 1  # a new version of the file: compiled
    assert seats(new) != seats(old)
    reference, _ = simulate(path, salt, uncached=True)
    assert seats(new) == seats(reference)


@pytest.mark.slow
def test_two_plugins_alike_but_for_one_constant_do_not_collide(tmp_path):
    salt = SALT + "c"
    x = plugin(tmp_path / "x" / "mine.py", 2.0, salt)
    y = plugin(tmp_path / "y" / "mine.py", 0.5, salt)  # same name, same lines, same function
    from_x, said_x = simulate(x, salt)
    from_y, said_y = simulate(y, salt)
    assert len(said_x) == len(said_y) == 1
    assert seats(from_x) != seats(from_y)
    again, said = simulate(x, salt)
    assert said == [] and seats(again) == seats(from_x)


@pytest.mark.slow
def test_a_corrupted_or_stale_cache_entry_is_compiled_again(tmp_path):
    salt = SALT + "k"
    path = plugin(tmp_path / "mine.py", 2.0, salt)
    own = tmp_path / "kernels"  # its own folder: a test running beside it generates kernels too
    own.mkdir()
    first, _ = simulate(path, salt, folder=own)
    files = list(generated(own))
    assert any(p.suffix == ".nbi" for p in files) and any(p.suffix == ".nbc" for p in files)
    for p in files:
        p.write_bytes(p.read_bytes()[: max(1, p.stat().st_size // 3)])  # truncated
    again, said = simulate(path, salt, folder=own)
    assert len(said) == 1 and seats(again) == seats(first)
    for p in generated(own):
        p.write_bytes(b"\x80\x04not a pickle at all")
    again, said = simulate(path, salt, folder=own)
    assert len(said) == 1 and seats(again) == seats(first)
    again, said = simulate(path, salt, folder=own)
    assert said == [] and seats(again) == seats(first)  # and cached once more


PLAY_BOTH = """
import json, sys, simulator
out = []
for path, name in zip(sys.argv[1::2], sys.argv[2::2]):
    r = simulator.simulate("spokelse", [name + ":keep=3", "threshold:k=4"], rounds=2000, seed=5, plugins=[path])
    out.append([{k: v for k, v in s.items() if k != "player"} for s in r.summary["seats"]])
print(json.dumps(out))
"""


def play_in_one_process(folder: Path, *runs: tuple[Path, str]) -> list:
    args = [a for path, salt in runs for a in (str(path), f"cached-{salt}")]
    env = dict(os.environ, PYTHONPATH=str(ROOT), NUMBA_CACHE_DIR=str(folder))
    r = subprocess.run([sys.executable, "-c", PLAY_BOTH, *args], cwd=ROOT, env=env, capture_output=True,
                       text=True, timeout=900)  # fmt: skip
    assert r.returncode == 0, r.stderr
    return json.loads(r.stdout)


@pytest.mark.slow
def test_two_line_ups_loaded_from_the_cache_into_one_process_each_play_their_own(tmp_path):
    """Each kernel copy compiled first in a process of its own, then both loaded from the
    cache into one: numba links compiled code by name, so copies of one function named
    alike would run each other's strategy (their names carry their line-up's variant)."""
    salt_x, salt_y = SALT + "x", SALT + "y"
    x = plugin(tmp_path / "x" / "mine.py", 2.0, salt_x)
    y = plugin(tmp_path / "y" / "mine.py", 0.5, salt_y)
    own = tmp_path / "numba"
    (alone_x,) = play_in_one_process(own, (x, salt_x))
    (alone_y,) = play_in_one_process(own, (y, salt_y))
    assert alone_x != alone_y
    assert play_in_one_process(own, (x, salt_x), (y, salt_y)) == [alone_x, alone_y]


def test_the_key_covers_the_strategy_file_and_refuses_what_it_cannot_fingerprint(tmp_path):
    import importlib.util

    from numba import njit

    def load(path: Path, name: str):
        spec = importlib.util.spec_from_file_location(name, path)
        mod = importlib.util.module_from_spec(spec)
        sys.modules[name] = mod
        spec.loader.exec_module(mod)
        return mod

    helper = tmp_path / "helper_mod.py"
    helper.write_text("from numba import njit\n\n@njit\ndef twice(x):\n    return 2 * x\n")
    main = tmp_path / "main_mod.py"
    main.write_text(
        "from numba import njit\nimport helper_mod\nfrom helper_mod import twice\n\n"
        "@njit\ndef decide(obs, params, rng):\n    return twice(obs[0]) + helper_mod.twice(1)\n"
    )
    sys.path.insert(0, str(tmp_path))
    try:
        load(helper, "helper_mod")
        first = specialise.source_key(load(main, "main_mod").decide)
        assert first is not None
        helper.write_text(helper.read_text() + "# edited\n")  # only the imported file changes
        load(helper, "helper_mod")
        assert specialise.source_key(load(main, "main_mod").decide) != first
    finally:
        sys.path.remove(str(tmp_path))
        for name in ("helper_mod", "main_mod"):
            sys.modules.pop(name, None)

    scope: dict = {}
    exec("def typed_in(obs, params, rng):\n    return 0\n", scope)  # no file behind it
    assert specialise.source_key(njit(scope["typed_in"])) is None

    class Opaque:
        pass

    box = Opaque()

    def reads_an_object(obs, params, rng):
        return 0 if box is None else 1

    assert specialise.source_key(njit(reads_an_object)) is None


def test_only_the_most_recently_used_variants_are_kept(tmp_path):
    folder = tmp_path / "numba"
    folder.mkdir()
    variants = [f"{i:020x}" for i in range(5)]  # variants[0] is the newest
    shipped = [folder / "kernel.run_block_nb-256.py311.nbi", folder / "kernel.run_block_nb-256.py311.1.nbc"]
    for f in shipped:
        f.write_bytes(b"the shipped kernel's")
    for age, v in enumerate(reversed(variants)):
        for name in (
            f"kernel.play_round_nb__{v}-115.py311.nbi",
            f"kernel.play_round_nb__{v}-115.py311.1.nbc",
        ):
            (folder / name).write_bytes(b"a copy")
            os.utime(folder / name, (1_000_000 + age, 1_000_000 + age))
    specialise._keep_recent({folder}, variants[4], keep=2)  # the oldest, used again: now the newest
    kept = {specialise._VARIANT_FILE.match(p.name)["variant"] for p in folder.iterdir() if p not in shipped}
    assert kept == {variants[4], variants[0]}
    assert all(f.exists() for f in shipped)  # the shipped kernel's entries are never pruned
    assert len(list(folder.iterdir())) == 2 + 4


def test_the_key_covers_a_constant_read_through_a_helper_module(tmp_path, monkeypatch):
    import importlib.util

    from numba import njit

    helper = tmp_path / "limit_mod.py"
    helper.write_text("import os\n\nLIMIT = int(os.environ['KORTSIM_TEST_LIMIT'])\n")
    sys.path.insert(0, str(tmp_path))
    try:
        keys = []
        for value in ("0", "8"):  # the file stays the same; the value numba freezes does not
            monkeypatch.setenv("KORTSIM_TEST_LIMIT", value)
            sys.modules.pop("limit_mod", None)
            spec = importlib.util.spec_from_file_location("limit_mod", helper)
            mod = importlib.util.module_from_spec(spec)
            sys.modules["limit_mod"] = mod
            spec.loader.exec_module(mod)

            def decide(obs, params, rng):
                return limit_mod.LIMIT  # noqa: F821 (a global of this test's scope, set below)

            decide.__globals__["limit_mod"] = mod
            keys.append(specialise.source_key(njit(decide)))
        assert None not in keys and keys[0] != keys[1]
    finally:
        sys.path.remove(str(tmp_path))
        sys.modules.pop("limit_mod", None)
        globals().pop("limit_mod", None)


@pytest.mark.slow
def test_a_helper_modules_constant_from_the_environment_is_not_served_stale_from_the_cache():
    plugin = ROOT / "tests" / "plugins" / "reads_a_limit.py"

    def run(limit: str, *, uncached: bool = False) -> list:
        args = ["simulate", "spokelse", "--plugin", str(plugin), "-s", "test-reads-a-limit", "-s", "passive"]
        args += ["--rounds", "2000", "--seed", "5", "--json"]
        code = "import runpy; runpy.run_module('simulator.cli', run_name='__main__')"
        if uncached:
            code = "import simulator.kernels.specialise as s; s.ON_DISK = False; " + code
        env = dict(os.environ, PYTHONPATH=str(ROOT), KORTSIM_TEST_LIMIT=limit)
        r = subprocess.run([sys.executable, "-c", code, *args], cwd=ROOT, env=env, capture_output=True,
                           text=True, timeout=900)  # fmt: skip
        assert r.returncode == 0, r.stderr
        return seats(json.loads(r.stdout))

    low = run("0")
    high = run("8")  # same files, another value frozen into the strategy
    assert high != low
    assert high == run("8", uncached=True)
