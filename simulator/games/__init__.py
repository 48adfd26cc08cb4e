"""The games kortsim plays, by id (a game's modules are imported when it is first asked for).

This is the one list of games: everything else (the CLI's game argument, ``kortsim warm``,
the strategies package, the conformance test in ``tests/games/test_conformance.py``) finds
the games here.  Adding a game is a folder ``simulator/games/<name>/`` whose ``game`` module
holds a :class:`Game` object, and one line below (docs/adding-a-game.md).

Imports: ``simulator.errors``, ``simulator.engine``, the strategy decorator
(``strategies.registry``) and the table's console (``simulator.tabletop.console``, ``outcome``,
``passing``); nothing of the layers that run games.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

from simulator.engine.fields import COMMON, Field
from simulator.errors import InputError

if TYPE_CHECKING:
    from simulator.games.base import Game, Table

# game id -> (module, object): one line per game
GAMES: dict[str, tuple[str, str]] = {
    "spokelse": ("simulator.games.spokelse.game", "SPOKELSE"),
    "gris": ("simulator.games.gris.game", "GRIS"),
    "gris-nese": ("simulator.games.gris_nese.game", "GRIS_NESE"),
}


def get_game(name: str) -> Game:
    key = name.strip().lower().replace("ø", "o").replace("_", "-")
    if key not in GAMES:
        raise InputError(f"unknown game {name!r} (games: {', '.join(GAMES)})")
    module, attr = GAMES[key]
    return getattr(import_module(module), attr)


def fields_for(game: str | Game, unit: str) -> dict[str, Field]:
    """Every declared field of ``game`` (a :class:`Game` or its id) for ``unit`` play, with
    the common run fields (:data:`simulator.engine.fields.COMMON`)."""
    g = get_game(game) if isinstance(game, str) else game
    return {**COMMON, **g.fields(unit)}


def all_games() -> dict[str, Game]:
    return {name: get_game(name) for name in GAMES}


def __getattr__(name: str) -> Any:
    # The contract's classes, loaded on first use: the game ids above are read by shell
    # completion, which must not wait for numpy.
    if name in ("Game", "Table"):
        from simulator.games import base

        return getattr(base, name)
    raise AttributeError(f"module 'simulator.games' has no attribute {name!r}")


__all__ = ["GAMES", "Game", "InputError", "Table", "all_games", "fields_for", "get_game"]
