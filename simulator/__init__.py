"""kortsim: Monte Carlo strategy simulator for Gris, Gris-nese and Spøkelse.

The public API::

    import simulator
    result = simulator.simulate("spokelse", ["threshold:k=4", "passive"], rounds=100_000, seed=7)
    result.seats          # pandas DataFrame, one row per seat, with 95% intervals
    result.summary        # the JSON document

Randomness is a pure function of ``seed`` (docs/random-streams.md).
"""

import simulator.cache  # noqa: F401  (first: kernels below are cached with the package digest)
from simulator.api import InputError, SpecError, simulate, trace
from simulator.games import all_games, get_game
from simulator.results import Result
from simulator.runner import StrategyError

__all__ = [
    "InputError",
    "Result",
    "SpecError",
    "StrategyError",
    "all_games",
    "get_game",
    "simulate",
    "trace",
]
