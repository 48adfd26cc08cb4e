"""Compile a game kernel against user strategies, cached on disk across processes.

A kernel module calls its strategies through its hook, the module global ``decide_nb``
(so the compiler can inline the shipped ones).  For a run that includes user strategies
kortsim makes a copy of every kernel function that reaches the hook, bound to a
dispatcher over exactly the strategies of the run (:mod:`simulator.kernels.hooks`: the
same code objects, other globals; the kernel's text is never read).  The copies are
compiled with numba's ``cache=True``.  Numba checks a cached function only against the
file that defines it, never against the functions it calls, so each copy carries a
*variant* in its name, which also names its cache entry: a key over everything compiled into it that the
kernel's own stamp does not cover (the stamp already covers every jitted source of the
package, ``simulator.engine.cache``): :mod:`simulator.kernels` itself (containment's
``readonly`` and ``RAISED`` are compiled in), the generated dispatcher (the strategies'
positions and containment flags) and each user strategy's fingerprint
(:func:`source_key`: its own file, the files of the helpers and modules it reaches
outside the package, its compile options and the values of the globals it reads).  So
the second run of an unchanged plugin loads the compiled kernel in well under a second,
and an edit to the plugin (or to the package) gives a new variant and compiles afresh.
The cache keeps the :data:`KEEP` most recently used variants of each kernel file.

A strategy whose code cannot be pinned down that way (defined in a notebook cell or at
the prompt, or reading a global numba would freeze but kortsim cannot fingerprint) is
compiled for the process only, as is every kernel while :data:`ON_DISK` is False.  An
unreadable cache entry is compiled again (``simulator.engine.cache.GuardedFunctionCache``).
"""

from __future__ import annotations

import hashlib
import os
import re
import sys
import time
import types as pytypes
from collections.abc import Iterator, Sequence
from contextlib import contextmanager, suppress
from pathlib import Path
from types import ModuleType
from typing import Any

import filelock
import numba
import numpy as np

from simulator.engine import numba_internals as ni
from simulator.engine.numba_internals import Dispatcher
from simulator.kernels.dispatch import contained_source, make_dispatch
from simulator.kernels.hooks import rebound

_CACHE: dict[tuple, ModuleType] = {}
#: What the variants cover; change it when :func:`_variant` changes what it hashes.
FORMAT = 2
#: How many variants (plugin versions x line-ups) of each kernel file the cache keeps.
KEEP = 64
#: False: compile every kernel for users' strategies for this process only.
ON_DISK = True
_ROOT = Path(__file__).resolve().parents[2]
_PACKAGE = (_ROOT / "simulator", _ROOT / "strategies")
_PLAIN = (int, float, complex, bool, str, bytes, type(None), np.number, np.bool_)
#: numba's cache files of a copy: ``<module>.<function>__<variant>-<line>.py<ver>...``
_VARIANT_FILE = re.compile(r"^[^.]+\..+__(?P<variant>[0-9a-f]{20})-\d+\.py\d+")


def specialised_kernel(
    kernel: ModuleType, decides: Sequence[Dispatcher], contained: Sequence[bool] = ()
) -> ModuleType:
    """A stand-in for ``kernel`` whose ``decide_nb`` dispatches to ``decides`` by position
    (``contained``: as for :func:`make_dispatch`).  Its functions release the GIL, so that
    a watchdog thread can stop a strategy that never answers (:mod:`simulator.kernels.containment`).

    The copy is compiled into numba's on-disk cache when every strategy's code can be
    fingerprinted (:func:`source_key`), else for this process only."""
    key = (kernel.__name__, tuple(id(d) for d in decides), tuple(contained))
    if key in _CACHE:
        return _CACHE[key]
    decide = make_dispatch(decides, contained)
    variant = _variant(decides, contained)
    if variant is None:
        module = rebound(kernel, decide, cache=False, variant=f"process{len(_CACHE)}")
    else:
        module = rebound(kernel, decide, cache=True, variant=variant)
        from simulator.engine.cache import GuardedFunctionCache

        for copy in module.COPIES:
            ni.guard_cache(copy, GuardedFunctionCache)
        with suppress(OSError):
            _keep_recent({Path(ni.cache_path(c)) for c in module.COPIES}, variant, KEEP)
        module.COMPILE_LOCK = str(Path(ni.cache_path(module.COPIES[0])) / f"compiling-{variant}.lock")
    _CACHE[key] = module
    return module


@contextmanager
def compiling_alone(lock_path: str | None) -> Iterator[None]:
    """Around the first call of a kernel copy: hold its variant's lock, so that a second
    process needing the same copy (another run, a test worker, a Dask worker on this
    machine) waits and then loads it from numba's cache instead of compiling it too.
    ``None`` (a copy for this process only), or a cache folder that cannot be written:
    no lock."""
    if lock_path is None:
        yield
        return
    lock = filelock.FileLock(lock_path)
    try:
        lock.acquire()
    except OSError:
        yield
        return
    try:
        yield
    finally:
        lock.release()


def cacheable(decides: Sequence[Any]) -> bool:
    """True when a kernel over ``decides`` is kept in the on-disk cache."""
    return ON_DISK and all(source_key(d) is not None for d in decides)


def _variant(decides: Sequence[Dispatcher], contained: Sequence[bool]) -> str | None:
    """The name of the cache entries of a kernel over ``decides``, or None (not cached)."""
    if not cacheable(decides):
        return None
    keys = [source_key(d) for d in decides]
    dispatcher = contained_source(decides, contained, "decide_nb", "_strategy_")
    own = [p.read_bytes() for p in sorted((_ROOT / "simulator" / "kernels").glob("*.py"))]
    h = hashlib.sha256()
    for part in (str(FORMAT), numba.__version__, sys.version, dispatcher, *own, *keys):
        h.update(part.encode() if isinstance(part, str) else part)
        h.update(b"\0")
    return h.hexdigest()[:20]


def _keep_recent(folders: set[Path], used: str, keep: int) -> None:
    """Mark variant ``used`` as used now and remove, in each of ``folders`` (numba's cache
    folders of the kernel files), the files of all but the ``keep`` most recently used
    variants (each version of a plugin leaves about a megabyte behind)."""
    now = time.time()
    for folder in folders:
        groups: dict[str, list[Path]] = {}
        for f in folder.iterdir():
            m = _VARIANT_FILE.match(f.name)
            if m:
                groups.setdefault(m["variant"], []).append(f)
        for f in groups.get(used, ()):
            if f.suffix == ".nbi":  # the index says when it was last used; the code is not touched
                with suppress(OSError):
                    os.utime(f, (now, now))

        def newest(files: list[Path]) -> float:
            return max((f.stat().st_mtime for f in files if f.exists()), default=0.0)

        ranked = sorted(groups, key=lambda v: (v == used, newest(groups[v])), reverse=True)
        for old in ranked[keep:]:
            for f in groups[old]:
                with suppress(OSError):
                    f.unlink()


# --- what a strategy's compiled code depends on -----------------------------------------


def _in_package(path: str) -> bool:
    try:
        p = Path(path).resolve()
    except (OSError, ValueError):
        return False
    return any(pkg in p.parents for pkg in _PACKAGE)


def _file_digest(path: str) -> str | None:
    try:
        return hashlib.sha256(Path(path).read_bytes()).hexdigest()
    except (OSError, ValueError):
        return None


def _third_party(module: ModuleType) -> bool:
    """A module installed with Python or in the environment (numpy, math, numba...)."""
    file = getattr(module, "__file__", None)
    if not file or not str(file).endswith(".py"):
        return True
    prefixes = {sys.prefix, sys.base_prefix, sys.exec_prefix}
    resolved = str(Path(file).resolve())
    return any(resolved.startswith(str(Path(p).resolve()) + os.sep) for p in prefixes)


def _value_key(value: Any) -> str | None:
    """A fingerprint of a constant numba freezes into compiled code, or None."""
    if isinstance(value, _PLAIN):
        return f"{type(value).__name__}:{value!r}"
    if isinstance(value, np.ndarray):
        return f"array:{value.dtype}:{value.shape}:{hashlib.sha256(value.tobytes()).hexdigest()}"
    if isinstance(value, tuple):
        parts = [_value_key(v) for v in value]
        return None if any(p is None for p in parts) else "(" + ",".join(parts) + ")"
    return None


def source_key(fn: Any) -> str | None:
    """A fingerprint of everything numba compiles into a kernel from strategy ``fn``,
    or None when it cannot be taken (then the kernel is not cached on disk).

    It covers the file of ``fn`` and of every jitted helper it reaches outside the
    package (whole files, so a change anywhere in them counts), user modules it reads
    from, its compile options, defaults, closure cells and the constant globals it
    reads.  Code of the package itself is covered by ``simulator.engine.cache.SOURCE_DIGEST``.
    """
    parts: list[str] = []
    return "\n".join(parts) if _fingerprint(fn, parts, set()) else None


def _fingerprint(obj: Any, parts: list[str], seen: set[int]) -> bool:
    from simulator.kernels.reach import globals_used as _globals_used

    options = getattr(obj, "targetoptions", None)
    py = obj.py_func if isinstance(obj, Dispatcher) else obj
    if not isinstance(py, pytypes.FunctionType):
        return False
    if id(py) in seen:
        return True
    seen.add(id(py))
    file = py.__code__.co_filename
    if _in_package(file):
        parts.append(f"package:{py.__module__}:{py.__qualname__}:{sorted((options or {}).items())!r}")
        return True
    digest = _file_digest(file)
    if digest is None:
        return False
    parts.append(
        f"code:{digest}:{py.__qualname__}:{py.__code__.co_firstlineno}:{sorted((options or {}).items())!r}"
    )
    for value in (*(py.__defaults__ or ()), *(py.__kwdefaults__ or {}).values()):
        if _value_key(value) is None:
            return False
        parts.append(f"default:{_value_key(value)}")
    for name, value, attrs in _globals_used(py):
        if not _global_key(name, value, parts, seen):
            return False
        if (
            isinstance(value, ModuleType)
            and attrs
            and not _third_party(value)
            and not _in_package(value.__file__)
        ):
            reached = value  # `mylib.helper_nb`: the helper is compiled in too
            for a in attrs:
                reached = getattr(reached, a, None)
                if not isinstance(reached, ModuleType):
                    break
            if isinstance(reached, (Dispatcher, pytypes.FunctionType)):
                if not _fingerprint(reached, parts, seen):
                    return False
            elif not isinstance(reached, (ModuleType, type)):
                # `mylib.LIMIT`: numba freezes its value, which may come from outside the
                # file (an environment variable read at import): the value is the key.
                key = _value_key(reached)
                if key is None:
                    return False
                parts.append(f"global:{name}.{'.'.join(attrs)}:{key}")
    return True


def _global_key(name: str, value: Any, parts: list[str], seen: set[int]) -> bool:
    if isinstance(value, (Dispatcher, pytypes.FunctionType)):
        return _fingerprint(value, parts, seen)
    if isinstance(value, ModuleType):
        if _third_party(value) or _in_package(value.__file__):
            parts.append(f"module:{name}:{value.__name__}")
            return True
        digest = _file_digest(value.__file__)
        parts.append(f"module:{name}:{value.__name__}:{digest}")
        return digest is not None
    if isinstance(value, type):
        module = sys.modules.get(value.__module__)
        if module is not None and not _third_party(module) and not _in_package(module.__file__ or ""):
            digest = _file_digest(module.__file__)
            parts.append(f"class:{name}:{value.__module__}:{value.__qualname__}:{digest}")
            return digest is not None
        parts.append(f"class:{name}:{value.__module__}:{value.__qualname__}")
        return True
    key = _value_key(value)
    if key is None:
        return False
    parts.append(f"global:{name}:{key}")
    return True


def timed_compile(fn, *args) -> float:
    """Call ``fn(*args)`` on a tiny input to compile it; return the seconds it took."""
    t0 = time.perf_counter()
    fn(*args)
    return time.perf_counter() - t0
