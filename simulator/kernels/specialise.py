"""Compile a game kernel against user strategies, cached on disk across processes.

A kernel module calls its strategies through the module global ``decide_nb``
(so the compiler can inline the shipped ones).  For a run that includes user
strategies kortsim writes a copy of the kernel module's source, with
``decide_nb`` bound to a dispatcher over exactly the strategies in the run, as
a real file into a cache folder (:func:`cache_folder`), and compiles it with
numba's ``cache=True`` there.  Numba checks a cached function only against the
text of the file that defines it, never against the functions it calls, so the
file's *name* carries a key over everything compiled into it: the kernel's
text, every jitted source of the package (``simulator.engine.cache.SOURCE_DIGEST``),
:mod:`simulator.kernels.containment` (its ``readonly`` and ``RAISED`` are compiled in),
the strategies' positions and containment flags (the generated dispatcher), and
each user strategy's fingerprint (:func:`source_key`: its own file, the files
of the helpers and modules it reaches outside the package, its compile options
and the values of the globals it reads).  So the second run of an unchanged
plugin loads the compiled kernel in well under a second, and an edit to the
plugin (or to the package) gives a new name and compiles afresh.  The folder
keeps the :data:`KEEP` most recently used kernels.

A strategy whose code cannot be pinned down that way (defined in a notebook
cell or at the prompt, or reading a global numba would freeze but kortsim
cannot fingerprint) is compiled for the process only, as before.  An
unreadable cache entry is compiled again (``simulator.engine.cache.GuardedFunctionCache``).
"""

from __future__ import annotations

import hashlib
import os
import sys
import time
import types as pytypes
from collections.abc import Sequence
from contextlib import suppress
from pathlib import Path
from types import ModuleType
from typing import Any

import numba
import numpy as np

from simulator.engine import numba_internals as ni
from simulator.engine.numba_internals import Dispatcher
from simulator.kernels.dispatch import _dispatch_source, _modes, make_dispatch

_CACHE: dict[tuple, ModuleType] = {}
#: The generated modules' layout; change it when :func:`_module_text` changes shape.
FORMAT = 1
#: The folder (under the cache root) that holds the generated kernel modules.
FOLDER = "kortsim-plugin-kernels"
#: How many generated kernels (plugin versions x games x line-ups) are kept.
KEEP = 64
_ROOT = Path(__file__).resolve().parents[2]
_PACKAGE = (_ROOT / "simulator", _ROOT / "strategies")
_PLAIN = (int, float, complex, bool, str, bytes, type(None), np.number, np.bool_)


def specialised_kernel(
    kernel: ModuleType, decides: Sequence[Dispatcher], contained: Sequence[bool] = ()
) -> ModuleType:
    """A copy of ``kernel`` whose ``decide_nb`` dispatches to ``decides`` by position
    (``contained``: as for :func:`make_dispatch`).  The copy releases the GIL, so that a
    watchdog thread can stop a strategy that never answers (:mod:`simulator.kernels.containment`).

    The copy is compiled into numba's on-disk cache when every strategy's code can be
    fingerprinted (:func:`source_key`), else for this process only."""
    key = (kernel.__name__, tuple(id(d) for d in decides), tuple(contained))
    if key in _CACHE:
        return _CACHE[key]
    module = _cached_copy(kernel, decides, contained)
    if module is None:
        module = _process_copy(kernel, decides, contained)
    _CACHE[key] = module
    return module


def cacheable(decides: Sequence[Any]) -> bool:
    """True when a kernel over ``decides`` is kept in the on-disk cache."""
    return cache_folder() is not None and all(source_key(d) is not None for d in decides)


def _process_copy(kernel: ModuleType, decides: Sequence[Dispatcher], contained: Sequence[bool]) -> ModuleType:
    source = _kernel_text(kernel).replace("cache=True", "cache=False, nogil=True")
    module = ModuleType(f"{kernel.__name__}__user{len(_CACHE)}")
    module.__file__ = kernel.__file__
    exec(compile(source, kernel.__file__ or "<kernel>", "exec"), module.__dict__)
    module.decide_nb = make_dispatch(decides, contained)
    return module


# --- the cached copy --------------------------------------------------------------------


def cache_folder() -> Path | None:
    """Where the generated kernel modules live, or None when no folder can be written.

    ``NUMBA_CACHE_DIR/kortsim-plugin-kernels`` when ``NUMBA_CACHE_DIR`` is set, else a
    ``kortsim`` folder beside numba's user-wide cache (``~/.cache/kortsim/...`` on Linux).
    """
    configured = ni.cache_dir()
    if configured:
        base = Path(configured)
    else:
        base = Path(ni.user_cache_dir()).parent / "kortsim"
    folder = base / FOLDER
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError:
        return None
    return folder if os.access(folder, os.W_OK | os.X_OK) else None


def _kernel_text(kernel: ModuleType) -> str:
    return Path(kernel.__file__).read_text(encoding="utf-8")


def _module_text(kernel: ModuleType, n: int, contained: Sequence[Any]) -> str:
    body = _kernel_text(kernel).replace("cache=True", "cache=True, nogil=True")
    head = (
        f"# {kernel.__name__} compiled against the strategies of a run (generated by\n"
        f"# simulator/kernels/specialise.py; the name of this file is the key of what it holds).\n"
    )
    tail = (
        "\n\n# --- the run's strategies, by position ----------------------------------------\n"
        "from simulator.kernels.containment import RAISED, readonly  # noqa: E402\n\n\n"
        + _dispatch_source(n, contained, "decide_nb", "_strategy_")
        + "\n\ndecide_nb = njit(nogil=True, forceinline=True)(decide_nb)\n"
    )
    return head + body + tail


def _cached_copy(
    kernel: ModuleType, decides: Sequence[Dispatcher], contained: Sequence[bool]
) -> ModuleType | None:
    folder = cache_folder()
    if folder is None:
        return None
    keys = [source_key(d) for d in decides]
    if any(k is None for k in keys):
        return None
    from simulator.engine.cache import SOURCE_DIGEST, GuardedFunctionCache

    text = _module_text(kernel, len(decides), _modes(decides, contained))
    # The package's jitted code is in SOURCE_DIGEST, what this module generates in `text`,
    # and what containment compiles in (readonly, the checked copies) here.
    own = [p.read_bytes() for p in sorted((_ROOT / "simulator" / "kernels").glob("*.py"))]
    h = hashlib.sha256()
    for part in (str(FORMAT), SOURCE_DIGEST, numba.__version__, sys.version, text, *own, *keys):
        h.update(part.encode() if isinstance(part, str) else part)
        h.update(b"\0")
    name = f"{kernel.__name__.rpartition('.')[2]}_{kernel.__name__.split('.')[-2]}_{h.hexdigest()[:20]}"
    path = folder / f"{name}.py"
    try:
        _write_once(path, text)
    except OSError:
        return None
    with suppress(OSError):
        _prune(folder, keep=KEEP)
    module = ModuleType(name)
    module.__file__ = str(path)
    module.__package__ = kernel.__package__
    module.__dict__.update({f"_strategy_{i}": d for i, d in enumerate(decides)})
    sys.modules[name] = module  # numba imports it by name to rebuild a cached kernel
    try:
        exec(compile(text, str(path), "exec"), module.__dict__)
    except Exception:
        del sys.modules[name]
        raise
    for value in list(module.__dict__.values()):
        ni.guard_cache(value, GuardedFunctionCache)
    return module


def _write_once(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` unless it holds it already (atomically: a reader never
    sees half a file); a file reused is marked as used now (for :func:`_prune`)."""
    data = text.encode("utf-8")
    with suppress(OSError):
        if path.read_bytes() == data:
            os.utime(path)
            return
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    tmp.write_bytes(data)
    os.replace(tmp, path)


def _numba_folders(folder: Path) -> list[Path]:
    """Where numba keeps the compiled code of the modules in ``folder`` (it names the
    folder after the directory of the source file: see numba.core.caching)."""
    configured = ni.cache_dir()
    if configured:
        return [Path(configured) / ni.cache_subpath(str(folder / "kernel.py"))]
    return [folder / "__pycache__"]


def _prune(folder: Path, keep: int) -> None:
    """Remove all but the ``keep`` most recently used generated modules, and numba's
    files for them (each version of a plugin leaves about a megabyte behind)."""
    modules = sorted(folder.glob("kernel_*.py"), key=lambda p: p.stat().st_mtime, reverse=True)
    if len(modules) <= keep:
        return
    places = _numba_folders(folder)
    for old in modules[keep:]:
        for place in places:
            for f in place.glob(f"{old.stem}.*"):
                with suppress(OSError):
                    f.unlink()
        with suppress(OSError):
            old.unlink()


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
