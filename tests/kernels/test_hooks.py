"""A kernel is specialised for other strategies by rebinding its hook, never by its text
(simulator/kernels/hooks.py), and each game's shipped dispatcher is generated from the
registry (simulator/engine/dispatching.py)."""

from __future__ import annotations

import types as pytypes
from pathlib import Path

import numpy as np
import pytest
from numba import njit

from simulator.engine.chunks import ChunkedBlock
from simulator.games import get_game
from simulator.kernels import hooks, specialise
from strategies.registry import builtin_decides, families, shipped_decides

GAMES = ("spokelse", "gris", "gris-nese")


@pytest.mark.parametrize("name", GAMES)
def test_what_reaches_the_hook_is_the_play_and_nothing_else(name):
    kernel = get_game(name).kernel
    found = {fn.py_func.__name__ for fn in hooks.reaching(kernel)}
    # every entry point that plays a strategy's decisions
    assert {"play_round_nb", "block_chunk_nb", "trace_round_nb"} <= found
    # helpers that never decide are shared with the shipped kernel, not copied
    assert "obs_row_nb" not in found and "empty_nb" not in found
    assert all(fn.py_func.__module__.startswith("simulator.") for fn in hooks.reaching(kernel))


@pytest.mark.parametrize("name", GAMES)
def test_a_copy_runs_the_kernels_own_code_objects_against_the_runs_dispatcher(name):
    kernel = get_game(name).kernel
    decide = njit(lambda sid, obs, params, rng: -1)
    module = hooks.rebound(kernel, decide, cache=False, variant="t")
    assert module.decide_nb is decide
    old = {fn.py_func.__name__: fn for fn in hooks.reaching(kernel)}
    assert len(module.COPIES) == len(old)
    for copy in module.COPIES:
        original = old[copy.py_func.__name__]
        assert copy is not original
        assert copy.py_func.__code__ is original.py_func.__code__  # the same bytecode, not new text
        assert copy.targetoptions["nogil"] and not copy.targetoptions.get("cache")
        # every function the copy calls that reaches the hook is a copy too
        for fn in old.values():
            if fn.py_func.__name__ in copy.py_func.__code__.co_names:
                assert copy.py_func.__globals__[fn.py_func.__name__] is not fn
        assert copy.py_func.__globals__.get("decide_nb", decide) is decide
    assert isinstance(module.run_block_nb, ChunkedBlock)
    assert module.run_block_nb.chunk is not kernel.run_block_nb.chunk
    assert module.records_block_nb.unit_offset == kernel.records_block_nb.unit_offset
    assert kernel.decide_nb is not decide  # the shipped kernel is left as it was
    assert module.obs_row_nb is kernel.obs_row_nb if hasattr(kernel, "obs_row_nb") else True


def test_a_copy_is_named_by_its_variant_in_the_process_and_in_the_cache():
    kernel = get_game("spokelse").kernel
    decide = njit(lambda sid, obs, params, rng: -1)
    uncached = hooks.rebound(kernel, decide, cache=False, variant="process_t")
    assert all(c.py_func.__qualname__.endswith("__process_t") for c in uncached.COPIES)
    assert all(c._cache.__class__.__name__ == "NullCache" for c in uncached.COPIES)
    cached = hooks.rebound(kernel, decide, cache=True, variant="0123456789abcdef0123")
    for copy, original in zip(cached.COPIES, hooks.reaching(kernel), strict=True):
        assert copy.py_func.__qualname__ == f"{original.py_func.__qualname__}__0123456789abcdef0123"
        name = copy._cache._impl.filename_base  # numba names the cache files by the qualified name
        module = Path(original.py_func.__code__.co_filename).stem  # numba's prefix: the file's name
        assert name.startswith(f"{module}.{original.py_func.__qualname__}__0123456789abcdef0123-")
        assert specialise._VARIANT_FILE.match(name + ".nbi")["variant"] == "0123456789abcdef0123"


def _toy(attribute: bool) -> pytypes.ModuleType:
    """A kernel of two functions in a module of the package's name, the outer calling the
    inner by name or through a module attribute."""
    inner_mod = pytypes.ModuleType("simulator.toy_inner")
    outer = pytypes.ModuleType("simulator.toy_kernel")
    hook = njit(lambda sid, obs, params, rng: 7)
    hook.py_func.__module__ = outer.__name__
    inner_mod.decide_nb = hook
    exec("def inner_nb(x):\n    return decide_nb(0, x, x, x)\n", inner_mod.__dict__)
    inner_mod.inner_nb.__module__ = inner_mod.__name__
    inner_mod.inner_nb = njit(inner_mod.inner_nb)
    outer.decide_nb = hook
    outer.inner = inner_mod
    outer.inner_nb = inner_mod.inner_nb
    body = "inner.inner_nb(x)" if attribute else "inner_nb(x)"
    exec(f"def outer_nb(x):\n    return {body} + 1\n", outer.__dict__)
    outer.outer_nb.__module__ = outer.__name__
    outer.outer_nb = njit(outer.outer_nb)
    return outer


def test_a_hook_reached_by_name_across_modules_is_rebound():
    toy = _toy(attribute=False)
    assert toy.outer_nb(np.int64(1)) == 8
    module = hooks.rebound(toy, njit(lambda sid, obs, params, rng: 40), cache=False, variant="x")
    assert module.outer_nb(np.int64(1)) == 41  # the inner function of the other module is a copy too
    assert toy.outer_nb(np.int64(1)) == 8


def test_a_hook_reached_through_a_module_attribute_is_refused_in_words():
    with pytest.raises(
        hooks.HookError, match=r"module attribute inner\.inner_nb: import the function by name"
    ):
        hooks.reaching(_toy(attribute=True))


@pytest.mark.parametrize("name", ["spokelse", "gris", "gris_nese"])
def test_the_shipped_dispatcher_calls_the_registrys_strategies_by_their_ids(name):
    import importlib

    strategies = importlib.import_module(f"simulator.games.{name}.strategies")
    game = name.replace("_", "-")
    by_id = sorted(
        (f for f in families(game).values() if f.builtin_id is not None), key=lambda f: f.builtin_id
    )
    assert [f.builtin_id for f in by_id] == list(range(len(by_id)))
    scope = strategies.decide_builtin_nb.py_func.__globals__
    assert [scope[f"f{i}"] for i in range(len(by_id))] == [f.decide for f in by_id]
    assert f"f{len(by_id)}" not in scope
    assert builtin_decides(game) == [f.decide for f in by_id]


@pytest.mark.parametrize("game", ["spokelse", "gris", "gris-nese"])
def test_the_copy_for_shipped_line_ups_holds_every_shipped_strategy_and_no_users(game, monkeypatch):
    from strategies import registry, strategy

    monkeypatch.setitem(registry._REGISTRY, game, dict(families(game)))  # the user's entry goes away after

    @strategy(game, name="a_users_own")
    def a_users_own(obs, params, rng):
        return 0

    decides = shipped_decides(game)
    on_demand = sorted((f for f in families(game).values() if f.on_demand), key=lambda f: f.name)
    assert on_demand, "every game ships a strategy compiled on demand"
    assert decides == builtin_decides(game) + [f.decide for f in on_demand]
    assert a_users_own not in decides


def test_builtin_ids_with_a_gap_are_refused(monkeypatch):
    from strategies import registry

    fams = families("gris")
    shifted = {k: (f if f.builtin_id is None else pytypes.SimpleNamespace(builtin_id=f.builtin_id * 2, decide=f.decide))
               for k, f in fams.items()}  # fmt: skip
    monkeypatch.setitem(registry._REGISTRY, "gris", shifted)
    with pytest.raises(ValueError, match=r"gris: the built-in ids are \[0, 2, 4, 6\]"):
        builtin_decides("gris")
