"""Every part of numba that is not its public API and that kortsim relies on, in one place.

numba is pinned to the range the suite passes on (``pyproject.toml``).  A numba release
may move or change any name below; ``tests/engine/test_numba_internals.py`` exercises each
one and fails with a line that says which and what it is for, so that an upgrade is a
matter of reading that test's output and mending this module alone.

========================  =====================================================  ==========================
what                      used for                                               by
========================  =====================================================  ==========================
``caching``               the cache's locator classes and its function cache      engine/cache.py
``locator_classes``       put kortsim's locators first (package-digest stamps)    engine/cache.py
``index_path``            drop a cache entry numba cannot read                    engine/cache.py
``guard_cache``           give a kernel's copy the guarded function cache         kernels/specialise.py
``cache_path``            the folder of a function's cache files (old variants    kernels/specialise.py
                          of the kernels' copies are pruned there)
``Dispatcher``            tell a jitted function from a plain one                 strategies, kernels
``voidptr_t``             an address as a pointer (views without reference        engine/unmanaged.py
                          counting)
``impl_ret_borrowed``     a read-only view that borrows its array                 kernels/containment.py
``event``                 one line before numba compiles (compile events)         kernels/messages.py
``returns``               each ``return`` of a strategy and the type it returns   strategies/checks.py
``returns_while_typing``  the same while numba types a function that fails to     strategies/checks.py
                          unify its returns (a hook on the type inferer)
``dict_view_types``       name a dictionary view in a plugin's type error         strategies/checks.py
========================  =====================================================  ==========================
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import Any

from numba.core import caching, cgutils, event
from numba.core.dispatcher import Dispatcher
from numba.core.imputils import impl_ret_borrowed

voidptr_t = cgutils.voidptr_t


def locator_classes() -> list[type]:
    """numba's list of cache locator classes, tried in order (kortsim inserts its own first)."""
    return caching.CacheImpl._locator_classes


def index_path(cache: Any) -> str:
    """The index file of a function cache (``caching.FunctionCache``)."""
    return cache._cache_file._index_path


def cache_path(dispatcher: Any) -> str:
    """The folder that holds the index and object files of ``dispatcher``'s cache."""
    return dispatcher._cache._cache_path


def guard_cache(dispatcher: Any, guarded: type) -> bool:
    """Give ``dispatcher`` the cache class ``guarded`` (a subclass of numba's function cache),
    if it has numba's own; True when it was changed."""
    cache = getattr(dispatcher, "_cache", None)
    if isinstance(dispatcher, Dispatcher) and type(cache) is caching.FunctionCache:
        cache.__class__ = guarded
        return True
    return False


def returns(overload: Any) -> list[tuple[int, Any]]:
    """Each ``return`` of a compiled function: its line and the numba type of the value it
    returns (before the cast to the function's return type); empty when numba keeps no IR."""
    from numba.core import ir

    annotation = getattr(overload, "type_annotation", None)
    blocks = getattr(annotation, "blocks", None)
    if not blocks:
        return []
    typemap = annotation.typemap
    out = []
    for block in blocks.values():
        defined = {st.target.name: st.value for st in block.body if isinstance(st, ir.Assign)}
        for st in block.body:
            if not isinstance(st, ir.Return):
                continue
            value = defined.get(st.value.name)
            source = value.value if isinstance(value, ir.Expr) and value.op == "cast" else st.value
            out.append((int(st.loc.line), typemap.get(source.name)))
    return sorted(out, key=lambda item: item[0])


@contextlib.contextmanager
def returns_while_typing(py: Any, out: list[tuple[int, Any]]) -> Iterator[None]:
    """While numba types the Python function ``py``, note the line and type of each of its
    ``return`` values in ``out`` (before numba unifies them: the unification is what fails
    when they disagree).  A hook on ``TypeInferer.get_return_type``, removed on exit."""
    from numba.core import ir, typeinfer

    original = typeinfer.TypeInferer.get_return_type

    def noted(self: Any, typemap: dict) -> Any:
        if getattr(self.func_id, "func", None) is py:
            for block in self.blocks.values():
                st = block.terminator
                if isinstance(st, ir.Return):
                    out.append((int(st.loc.line), typemap.get(st.value.name)))
            out.sort(key=lambda item: item[0])
        return original(self, typemap)

    typeinfer.TypeInferer.get_return_type = noted
    try:
        yield
    finally:
        typeinfer.TypeInferer.get_return_type = original


def dict_view_types() -> tuple[type, ...]:
    """The numba types of ``d.keys()``, ``d.values()`` and ``d.items()``."""
    from numba.core.types import containers

    return (
        containers.DictKeysIterableType,
        containers.DictValuesIterableType,
        containers.DictItemsIterableType,
    )


__all__ = [
    "Dispatcher",
    "cache_path",
    "caching",
    "dict_view_types",
    "event",
    "guard_cache",
    "impl_ret_borrowed",
    "index_path",
    "locator_classes",
    "returns",
    "returns_while_typing",
    "voidptr_t",
]
