"""Users' strategy files (``--plugin FILE``): run them so that their ``@strategy`` functions
register, again when they change, and never over a name another file or kortsim owns."""

from __future__ import annotations

import hashlib
import importlib.util
import sys
from pathlib import Path

import strategies.registry as registry
from simulator.engine.files import what_it_is
from simulator.errors import SpecError

# The registry's state is read through the module (``registry._PLUGINS``), never copied here,
# so that one registry holds it (and a test may put a fresh one in its place).


def load_plugin(path: str | Path, *, source: str | Path | None = None) -> None:
    """Run a user's strategy file so that its ``@strategy`` functions register.

    Loading the same file again does nothing while its text is unchanged; when
    the file has changed it is run afresh (in the same Python session, e.g. a
    notebook), its strategies replace the ones it registered before, and ones
    it no longer defines are removed.  Only the file itself is reloaded, not
    modules it imports.  A strategy may not take the name of a shipped strategy
    or of one registered by another file.

    Parameters
    ----------
    path : str or Path
        The strategy file.
    source : str or Path, optional
        The file ``path`` is a copy of (a worker loading a shipped copy): the
        copy counts as that file when names are checked and on reload.

    Raises
    ------
    SpecError
        When the file does not exist, fails to run, or registers a name it may not.
    """
    p = Path(path)
    kind = what_it_is(p)
    if kind == "no such file":
        raise SpecError(f"strategy file {str(p)!r} does not exist")
    if kind is not None:
        raise SpecError(f"strategy file {str(p)!r} is {kind}, not a Python file")
    key = str(Path(source).resolve() if source is not None else p.resolve())
    try:
        data = p.read_bytes()
    except OSError as exc:
        raise SpecError(f"strategy file {str(p)!r} cannot be read: {exc.strerror or exc}") from None
    digest = hashlib.sha256(data).hexdigest()
    loaded = registry._PLUGINS.get(key)
    if loaded is not None and loaded[0] == digest and loaded[1] in sys.modules:
        return  # unchanged: keep what it registered (and compiled)
    mod_name = f"kortsim_user_{hashlib.sha1(key.encode()).hexdigest()[:10]}"
    spec = importlib.util.spec_from_file_location(mod_name, p)
    if spec is None or spec.loader is None:
        raise SpecError(f"strategy file {str(p)!r} is not a Python file")
    # Take away what an earlier version registered; put it back if the new one fails.
    before = {k: registry._REGISTRY[k[0]][k[1]] for k, who in registry._OWNERS.items() if who == key}
    for game, name in before:
        del registry._REGISTRY[game][name]
        del registry._OWNERS[(game, name)]
    old_module = sys.modules.get(mod_name)
    module = importlib.util.module_from_spec(spec)
    sys.modules[mod_name] = module
    registry._LOADING.append((key, str(p)))
    try:
        spec.loader.exec_module(module)
    except (Exception, SystemExit) as exc:  # a user's file (even one calling sys.exit()): one line
        for k, who in list(registry._OWNERS.items()):
            if who == key:
                del registry._REGISTRY[k[0]][k[1]]
                del registry._OWNERS[k]
        for (game, name), fam in before.items():
            registry._REGISTRY[game][name] = fam
            registry._OWNERS[(game, name)] = key
        if old_module is not None:
            sys.modules[mod_name] = old_module
        else:
            del sys.modules[mod_name]
        if isinstance(exc, SpecError):
            raise
        what = "it called sys.exit()" if isinstance(exc, SystemExit) else f"{type(exc).__name__}: {exc}"
        raise SpecError(f"strategy file {str(p)!r} failed to load: {what}") from None
    finally:
        registry._LOADING.pop()
    registry._PLUGINS[key] = (digest, mod_name)


def file_games(path: str | Path) -> set[str]:
    """The games a loaded strategy file registered strategies for (none: an empty set)."""
    key = str(Path(path).resolve())
    return {game for (game, _name), who in registry._OWNERS.items() if who == key}


__all__ = ["file_games", "load_plugin"]
