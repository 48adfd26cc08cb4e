"""The module paths of before the layers, kept importable: ``simulator.rng`` is ``simulator.engine.rng``.

Users' plugins, notebooks and scripts import kortsim's modules by name (``simulator.rng.below_nb``
in a strategy, ``from simulator.records import read_records`` in a notebook).  When the flat
package became layer folders, every module kept working under its old name: an old name is
an alias of the module at its new place (the same module object, not a copy).
"""

from __future__ import annotations

import importlib
import importlib.machinery
import sys
import types
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import inspect

#: old name -> new name, below ``simulator.``
MOVED = {
    "rng": "engine.rng",
    "cards": "engine.cards",
    "chunks": "engine.chunks",
    "unmanaged": "engine.unmanaged",
    "layout": "engine.layout",
    "fields": "engine.fields",
    "figures": "engine.summary",
    "stats": "engine.stats",
    "reaction": "engine.reaction",
    "reaction_file": "engine.reaction_file",
    "specialise": "kernels.specialise",
    "cache": "engine.cache",
    "containment": "kernels.containment",
    "compiling": "kernels.messages",
    "illegal": "games.illegal",
    "setup": "running.setup",
    "runner": "running.runner",
    "backends": "running.backends",
    "checkpoint": "running.checkpoint",
    "records": "running.records",
    "results": "running.results",
    "progress": "running.progress",
    "tracing": "running.tracing",
    "warm": "running.warm",
    "compare": "analysis.compare",
    "compare_report": "analysis.compare_report",
    "sweep": "analysis.sweep",
    "advise": "analysis.advise",
    "profiling": "analysis.profiling",
    "tuning": "analysis.tuning",
    "report": "reporting.pages",
    "plots": "reporting.plots",
    "formatting": "engine.formatting",
    "cli_output": "cli.output",
    "completion": "cli.completion",
}
#: old modules that are also public functions of the same name
CALLABLE = ("compare", "advise")


class _CallableModule(types.ModuleType):
    """A module that can be called: ``simulator.compare(...)`` is ``simulator.analysis.compare.compare(...)``.

    The name must stay the module, so that ``import simulator.compare as m`` and ``from
    simulator.compare import X`` keep working, and must also be the public function.  Calling
    the module forwards to the function, and ``inspect.signature`` reports the function's.
    """

    _function: str

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return getattr(self, self._function)(*args, **kwargs)

    @property
    def __signature__(self) -> inspect.Signature:  # read by inspect.signature
        import inspect

        return inspect.signature(getattr(self, self._function))


def callable_module(module: types.ModuleType, function: str) -> types.ModuleType:
    """``module``, made callable as its function ``function`` (in place; returned for chaining)."""
    if not isinstance(module, _CallableModule):
        module.__class__ = _CallableModule
    module._function = function  # type: ignore[attr-defined]
    return module


class _Alias:
    """Finds ``simulator.<old>`` (and what lies below an old package) at its new place.

    A meta path finder and its loader (the protocols of ``importlib.abc.MetaPathFinder`` and
    ``Loader``, written without their base classes: ``importlib.abc`` costs ~20 ms at start-up)."""

    def __init__(self) -> None:
        self._specs: dict[int, Any] = {}

    def find_spec(self, fullname: str, path: Any = None, target: Any = None) -> Any:
        head = fullname.removeprefix("simulator.").partition(".")[0]
        if not fullname.startswith("simulator.") or head not in MOVED:
            return None
        return importlib.machinery.ModuleSpec(fullname, self)

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> types.ModuleType:
        head, _, rest = spec.name.removeprefix("simulator.").partition(".")
        module = importlib.import_module("simulator." + MOVED[head] + (f".{rest}" if rest else ""))
        if not rest and head in CALLABLE:
            callable_module(module, head)
        self._specs[id(module)] = module.__spec__
        return module

    def exec_module(self, module: types.ModuleType) -> None:
        """The module is the one at the new place, already run: give it back its own spec
        (the import system has just set the alias's on it)."""
        module.__spec__ = self._specs.pop(id(module), module.__spec__)


def install() -> None:
    """Put the finder of old names on ``sys.meta_path`` (once)."""
    if not any(isinstance(f, _Alias) for f in sys.meta_path):
        sys.meta_path.append(_Alias())


__all__ = ["CALLABLE", "MOVED", "callable_module", "install"]
