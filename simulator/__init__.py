"""kortsim: Monte Carlo strategy simulator for Gris, Gris-nese and Spøkelse.

The public API::

    import simulator
    result = simulator.simulate("spokelse", ["threshold:k=4", "passive"], rounds=100_000, seed=7)
    result                # a few lines: each seat's headline figure, 95% interval (HTML in Jupyter)
    result.seats          # pandas DataFrame, one row per seat, with 95% intervals
    result.summary        # the JSON document
    result.plot()         # matplotlib Axes: the headline figure per seat with intervals

    comparison = simulator.compare("spokelse", ["threshold:k=4", "threshold:k=2"], field="expect",
                                   rounds=100_000, seed=7)      # paired on the same deals
    comparison.frames["score"]                                  # figures and paired differences

    simulator.advise("spokelse", row="♠8 ♦K ? ?", hand="♥3", discard="♣Q", stock=20)  # one position

    setup = simulator.Setup.build("spokelse", ["threshold:k=4", "passive"], rounds=100_000, seed=7)
    simulator.run(setup, simulator.Execution.build(threads=2))  # what simulate does, in two steps

    simulator.profile("spokelse", compare_rule="jack=0.5,11", seed=7)  # a designer's page

    records = simulator.simulate(..., records=True).records(long=True)  # one row per game and seat
    simulator.read_records("runs/rec", long=True)               # the same from a run folder

    tuned = simulator.tune("spokelse", "expect:k=0..4,open=10..41", vs="threshold:k=4",
                           rounds=1_000_000, seed=5)        # search, then confirm on fresh deals

Randomness is a pure function of ``seed`` (docs/random-streams.md).
"""

import importlib
import inspect
import sys
import types
from typing import Any

import simulator.cache  # noqa: F401  (first: kernels below are cached with the package digest)
from simulator.api import InputError, SpecError, run, simulate, trace
from simulator.compare import CompareResult
from simulator.games import all_games, get_game
from simulator.records import read_records
from simulator.results import Result
from simulator.runner import StrategyError
from simulator.setup import Execution, Setup


class _CallableModule(types.ModuleType):
    """A module that can be called: ``simulator.compare(...)`` is ``simulator.compare.compare(...)``.

    ``simulator.compare`` must stay the module, so that ``import simulator.compare as m`` and
    ``from simulator.compare import X`` keep working (a package attribute named like a
    submodule shadows it), and must also be the public ``compare`` function.  Calling the
    module forwards to the function, and ``inspect.signature`` reports the function's.
    """

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return self.compare(*args, **kwargs)

    @property
    def __signature__(self) -> inspect.Signature:  # read by inspect.signature
        return inspect.signature(self.compare)


sys.modules["simulator.compare"].__class__ = _CallableModule
compare = sys.modules["simulator.compare"]


class _CallableAdvise(types.ModuleType):
    """``simulator.advise(...)`` is ``simulator.advise.advise(...)``, as for ``compare``."""

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return self.advise(*args, **kwargs)

    @property
    def __signature__(self) -> inspect.Signature:
        return inspect.signature(self.advise)


advise = importlib.import_module("simulator.advise")
advise.__class__ = _CallableAdvise


class _CallableCalibrate(types.ModuleType):
    """``simulator.calibrate(...)`` is ``simulator.calibrate.calibrate(...)``."""

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return self.calibrate(*args, **kwargs)

    @property
    def __signature__(self) -> inspect.Signature:
        return inspect.signature(self.calibrate)


calibrate = importlib.import_module("simulator.calibrate")
calibrate.__class__ = _CallableCalibrate

#: Loaded on first use (Optuna, the profile's statistics): ``import simulator`` and every
#: command stay as quick to start as before these existed.
_LAZY = {"tune": "simulator.tuning", "TuneResult": "simulator.tuning", "profile": "simulator.profiling",
         "Profile": "simulator.profiling"}  # fmt: skip


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        value = getattr(importlib.import_module(_LAZY[name]), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module 'simulator' has no attribute {name!r}")


__all__ = [
    "CompareResult",
    "Execution",
    "InputError",
    "Profile",
    "Result",
    "Setup",
    "SpecError",
    "StrategyError",
    "TuneResult",
    "advise",
    "all_games",
    "calibrate",
    "compare",
    "get_game",
    "profile",
    "read_records",
    "run",
    "simulate",
    "trace",
    "tune",
]
