"""Each numba internal kortsim relies on still does what kortsim uses it for.

A failure here after a numba upgrade names the internal and its use: mend
``simulator/engine/numba_internals.py`` (and nothing else), or keep numba in the pinned range.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator

import numba
import numpy as np
import pytest
from numba import njit

from simulator.engine import numba_internals as ni


@contextlib.contextmanager
def needed(what: str) -> Iterator[None]:
    try:
        yield
    except (AttributeError, ImportError, TypeError, KeyError) as exc:
        pytest.fail(f"numba {numba.__version__} no longer provides {what} as kortsim uses it ({exc!r}): "
                    "mend simulator/engine/numba_internals.py")  # fmt: skip


def _plain(x):
    return x + 1


def test_the_locator_classes_are_a_list_kortsim_can_put_its_own_first():
    import simulator.engine.cache as cache

    with needed("CacheImpl._locator_classes (the package-digest cache stamps)"):
        classes = ni.locator_classes()
        assert isinstance(classes, list)
        assert classes[0].__module__ == cache.__name__  # kortsim's locators are tried first
        assert any(c is ni.caching.UserWideCacheLocator for c in classes)


def test_a_function_cache_has_an_index_file_and_can_be_guarded(tmp_path, monkeypatch):
    import simulator.engine.cache as cache

    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path))
    with needed("FunctionCache, its index file and its class swap (unreadable entries recompile)"):
        f = njit(cache=True)(_plain)
        assert type(f._cache) is ni.caching.FunctionCache
        assert ni.index_path(f._cache).endswith(".nbi")
        assert ni.guard_cache(f, cache.GuardedFunctionCache)
        assert type(f._cache) is cache.GuardedFunctionCache
        assert f(1) == 2  # still compiles and runs with the guarded cache
        assert not ni.guard_cache(_plain, cache.GuardedFunctionCache)  # a plain function is left alone


def test_a_function_cache_knows_its_folder_and_names_its_files_by_the_qualified_name(tmp_path, monkeypatch):
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path))
    with needed("Cache._cache_path (where old variants of the kernels' copies are pruned)"):
        f = njit(cache=True)(_plain)
        assert os.path.isdir(ni.cache_path(f))
    # kortsim's copies of a kernel are told apart in the cache by their qualified names
    renamed = type(_plain)(_plain.__code__, globals(), "_plain")
    renamed.__qualname__ = "_plain__0123456789abcdef0123"
    g = njit(cache=True)(renamed)
    assert g._cache._impl.filename_base.startswith("test_numba_internals._plain__0123456789abcdef0123-")


def test_a_jitted_function_is_a_dispatcher():
    with needed("numba.core.dispatcher.Dispatcher"):
        assert isinstance(njit(_plain), ni.Dispatcher) and not isinstance(_plain, ni.Dispatcher)


def test_an_address_becomes_a_view_without_reference_counting():
    from simulator.engine.unmanaged import int64_at

    with needed("cgutils.voidptr_t (unmanaged views)"):
        assert str(ni.voidptr_t) in ("i8*", "ptr")
        a = np.arange(5, dtype=np.int64)

        @njit
        def second(addr):
            return int64_at(addr, (5,))[1]

        assert second(a.ctypes.data) == 1


def test_a_readonly_view_borrows_its_array():
    from simulator.kernels.containment import readonly

    with needed("imputils.impl_ret_borrowed (read-only views for users' strategies)"):

        @njit
        def first(a):
            return readonly(a)[0]

        assert first(np.array([7, 8], dtype=np.int64)) == 7


def test_compile_events_reach_a_listener():
    seen = []

    class Listener(ni.event.Listener):
        def on_start(self, event):
            seen.append("start")

        def on_end(self, event):
            seen.append("end")

    with needed("numba.core.event (the line before a compile)"):
        with ni.event.install_listener("numba:compile", Listener()):
            njit(lambda x: x * 3)(2)
        assert seen[:1] == ["start"] and "end" in seen


def test_each_return_of_a_strategy_is_found_with_its_type():
    def two_ways(x):
        if x > 0:
            return 1
        return 2.5

    f = njit(two_ways)
    f(1)
    with needed("the typed IR of an overload (a plugin's wrong return type, at its line)"):
        found = ni.returns(next(iter(f.overloads.values())))
        first = two_ways.__code__.co_firstlineno
        assert [line - first for line, _ in found] == [2, 3]
        assert [str(t) for _, t in found] == ["Literal[int](1)", "float64"]


def test_dictionary_views_have_their_numba_types():
    with needed("numba.core.types.containers dictionary views"):
        assert len(ni.dict_view_types()) == 3 and all(isinstance(t, type) for t in ni.dict_view_types())


def test_the_returns_are_noted_while_numba_types_a_function_that_cannot_unify_them():
    def str_or_int(x):
        if x > 0:
            return "stock"
        return 1

    seen: list = []
    with needed("TypeInferer.get_return_type (a plugin's returns that do not unify)"):
        with ni.returns_while_typing(str_or_int, seen), pytest.raises(numba.core.errors.TypingError):
            njit(str_or_int)(1)
        first = str_or_int.__code__.co_firstlineno
        assert [line - first for line, _ in seen] == [2, 3]
        assert "stock" in str(seen[0][1])
