"""The games kortsim plays, by id."""

from __future__ import annotations

from simulator.games.base import Game, InputError, Table


def all_games() -> dict[str, Game]:
    from simulator.games.spokelse.game import SPOKELSE

    games: dict[str, Game] = {"spokelse": SPOKELSE}
    return games


def get_game(name: str) -> Game:
    games = all_games()
    key = name.strip().lower().replace("ø", "o").replace("_", "-")
    if key not in games:
        raise InputError(f"unknown game {name!r} (games: {', '.join(games)})")
    return games[key]


__all__ = ["Game", "InputError", "Table", "all_games", "get_game"]
