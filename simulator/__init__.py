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

    records = simulator.simulate(..., records=True).records(long=True)  # one row per game and seat
    simulator.read_records("runs/rec", long=True)               # the same from a run folder

Randomness is a pure function of ``seed`` (docs/random-streams.md).
"""

import simulator.cache  # noqa: F401  (first: kernels below are cached with the package digest)
from simulator.api import InputError, SpecError, simulate, trace
from simulator.compare import CompareResult, compare
from simulator.games import all_games, get_game
from simulator.records import read_records
from simulator.results import Result
from simulator.runner import StrategyError

__all__ = [
    "CompareResult",
    "InputError",
    "Result",
    "SpecError",
    "StrategyError",
    "all_games",
    "compare",
    "get_game",
    "read_records",
    "simulate",
    "trace",
]
