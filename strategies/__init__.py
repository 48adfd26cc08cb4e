"""Strategies for every game, and the registry that names them.

``parse_spec("threshold:k=4", "spokelse")`` gives a :class:`Player`;
``families("gris")`` lists a game's strategies; ``@strategy(game=...)``
registers a user's own (see ``examples/my_strategy.py``).
"""

import strategies.gris  # registers the shipped strategies
import strategies.gris_nese  # noqa: F401  (registers the shipped strategies)
from strategies import spokelse  # noqa: F401  (registers the shipped strategies)
from strategies.checks import StrategyCompileError
from strategies.registry import (
    MAX_PARAMS,
    Family,
    Param,
    Player,
    SpecError,
    families,
    load_plugin,
    parse_spec,
    register,
    strategy,
)

__all__ = [
    "MAX_PARAMS",
    "Family",
    "Param",
    "Player",
    "SpecError",
    "StrategyCompileError",
    "families",
    "load_plugin",
    "parse_spec",
    "register",
    "strategy",
]
