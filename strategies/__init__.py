"""Strategies for every game, and the registry that names them.

``parse_spec("threshold:k=4", "spokelse")`` gives a :class:`Player`;
``families("gris")`` lists a game's strategies; ``@strategy(game=...)``
registers a user's own (see ``examples/my_strategy.py``).
"""

from importlib import import_module
from importlib.util import find_spec

from simulator.errors import SpecError
from simulator.games import all_games
from strategies.checks import StrategyCompileError
from strategies.registry import (
    MAX_PARAMS,
    Family,
    Param,
    Player,
    families,
    load_plugin,
    parse_spec,
    presets,
    register,
    register_preset,
    strategy,
)

# Every game of the registry (simulator/games/__init__.py) names the module that registers
# its shipped strategies; importing it registers them.
# A game's folder may also name parameter sets of its strategies (``presets.py``: ``follow@6``).
for _game in all_games().values():
    import_module(_game.strategies_module)
    _presets = _game.strategies_module.rpartition(".")[0] + ".presets"
    if find_spec(_presets) is not None:
        import_module(_presets)
del _game, _presets

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
    "presets",
    "register",
    "register_preset",
    "strategy",
]
