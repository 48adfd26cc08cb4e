"""Strategies for every game, and the registry that names them.

``parse_spec("threshold:k=4", "spokelse")`` gives a :class:`Player`;
``families("gris")`` lists a game's strategies; ``@strategy(game=...)``
registers a user's own (see ``examples/my_strategy.py``).  The shipped strategies
register when the registry is first asked for one (:func:`strategies.registry.shipped`).
"""

from simulator.errors import SpecError
from strategies.checks import StrategyCompileError
from strategies.plugins import load_plugin
from strategies.registry import (
    FORGET_AT,
    HUMAN_PARAMS,
    MAX_PARAMS,
    PARAM_ROW,
    SALT_AT,
    SLIP_AT,
    Family,
    Param,
    Player,
    families,
    parse_spec,
    presets,
    register,
    register_preset,
    shipped,
    strategy,
)

__all__ = [
    "FORGET_AT",
    "HUMAN_PARAMS",
    "MAX_PARAMS",
    "PARAM_ROW",
    "SALT_AT",
    "SLIP_AT",
    "Family",
    "Param",
    "Player",
    "SpecError",
    "StrategyCompileError",
    "families",
    "load_plugin",
    "parse_spec",
    "presets",
    "register",
    "register_preset",
    "shipped",
    "strategy",
]
