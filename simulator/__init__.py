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

    simulator.calibrate(rounds=2000, seed=1)                  # the belief's predictions against the cards
    simulator.check_game("spokelse")                         # kernel against reference, move by move

Randomness is a pure function of ``seed`` (docs/random-streams.md).

The package is layered (docs/architecture.md): ``errors`` and ``engine`` at the bottom, then
``games``, ``kernels``, ``running``, ``reporting``, ``analysis`` and ``cli`` on top.  Every name
below is loaded on first use, so ``import simulator`` loads neither numba nor pandas.
"""

from __future__ import annotations

import importlib
from typing import Any

from simulator import moved
from simulator.errors import IllegalMove, InputError, SpecError, StrategyError

moved.install()

#: public name -> the module that defines it (imported when the name is first read)
_LAZY = {
    "simulate": "simulator.api",
    "run": "simulator.api",
    "trace": "simulator.api",
    "check_game": "simulator.analysis.conformance",
    "Setup": "simulator.running.setup",
    "Execution": "simulator.running.setup",
    "Result": "simulator.running.results",
    "read_records": "simulator.running.records",
    "CompareResult": "simulator.analysis.compare",
    "all_games": "simulator.games",
    "get_game": "simulator.games",
    "tune": "simulator.analysis.tuning",
    "TuneResult": "simulator.analysis.tuning",
    "profile": "simulator.analysis.profiling",
    "Profile": "simulator.analysis.profiling",
}
#: public functions that are also the modules of the same name (``simulator.compare(...)`` calls
#: ``simulator.analysis.compare.compare``; ``from simulator.compare import X`` still works)
_CALLABLE = {
    "compare": "simulator.analysis.compare",
    "advise": "simulator.analysis.advise",
    "calibrate": "simulator.analysis.calibrate",
}


def __getattr__(name: str) -> Any:
    if name in _CALLABLE:
        value: Any = moved.callable_module(importlib.import_module(_CALLABLE[name]), name)
    elif name in _LAZY:
        value = getattr(importlib.import_module(_LAZY[name]), name)
    else:
        raise AttributeError(f"module 'simulator' has no attribute {name!r}")
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *_LAZY, *_CALLABLE})


__all__ = [
    "CompareResult",
    "Execution",
    "IllegalMove",
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
    "check_game",
    "compare",
    "get_game",
    "profile",
    "read_records",
    "run",
    "simulate",
    "trace",
    "tune",
]
