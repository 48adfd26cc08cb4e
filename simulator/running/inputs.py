"""The checks of a run's inputs, one function per input, each refusing a bad value in one line
(:class:`~simulator.errors.InputError`) worded the same whichever command it came through."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import numba

from simulator.engine.arguments import as_whole, paths, refuse
from simulator.errors import InputError, SpecError
from simulator.games import Game, Table, get_game
from simulator.running.backends import (
    MAX_BLOCK,
)
from strategies.checks import check_compiles
from strategies.plugins import file_games, load_plugin
from strategies.registry import Player, parse_spec

# The most games (rounds or matches) one run may play: about three years of one fast core;
# far below the game indices the random-stream contract allows (docs/random-streams.md).
MAX_GAMES = 10**12
# A game's index in a run is a signed 64-bit integer in the kernels: 0 <= index < 2**63.
MAX_GAME_INDEX = (1 << 63) - 1
UNITS = ("round", "match")


def resolve_game(game: str | Game) -> Game:
    """The game object for a game id (as ``kortsim games`` lists them, in any case) or the
    game itself."""
    if not isinstance(game, Game | str):
        raise InputError(f"the game is a game id (see `kortsim games`), not {game!r}")
    return game if isinstance(game, Game) else get_game(game)


def load_plugins(plugins: Sequence[str | Path], game: str | Game | None = None) -> tuple[str, ...]:
    """Load every strategy file of ``plugins``; return their paths as strings.

    With ``game`` given, each file must register at least one strategy for that game: a
    file given for a run it has nothing for is a mistake (the wrong file, or a
    ``@strategy`` for another game), not something to pass over in silence.

    Raises
    ------
    strategies.registry.SpecError
        When a file does not exist, is not a file, fails to run, registers a name it may
        not, or registers no strategy for ``game``.
    """
    files = paths(plugins, "plugins")
    for file in files:
        load_plugin(file)
    if game is not None and files:
        played = resolve_game(game).name
        for file in files:
            games = file_games(file)
            if played not in games:
                has = (
                    f"only for {', '.join(sorted(games))}"
                    if games
                    else "none at all (decorate a function with @strategy)"
                )
                raise SpecError(f"strategy file {file!r} registers no strategy for {played}: {has}")
    return files


def resolve_unit(rounds: int | None, matches: int | None) -> tuple[str, int]:
    """The unit (``"round"`` or ``"match"``) and the number of games of a run.

    Exactly one of ``rounds`` and ``matches`` is given, a whole number from 1 to
    ``MAX_GAMES`` (10**12); anything else raises :class:`InputError` (one line).
    """
    if (rounds is None) == (matches is None):
        raise InputError("give exactly one of --rounds N or --matches N")
    unit, n = ("round", rounds) if rounds is not None else ("match", matches)
    units = "rounds" if unit == "round" else "matches"
    whole = as_whole(n)
    if whole is None or whole <= 0:
        raise InputError(f"the number of {units} must be a positive whole number, not {n!r}")
    if whole > MAX_GAMES:
        raise InputError(
            f"--{units} {whole}: at most {MAX_GAMES:,} (10**12) {units} in one run "
            "(split a longer study into runs with different seeds)"
        )
    return unit, whole


def check_game_index(game_index: int) -> int:
    """A game's index in a run (``kortsim trace --game``) as an ``int``: a whole number from
    0 to ``MAX_GAME_INDEX`` (2**63 - 1)."""
    whole = as_whole(game_index)
    if whole is None:
        raise InputError(f"--game (game_index) takes a whole number, not {game_index!r}")
    if not 0 <= whole <= MAX_GAME_INDEX:
        raise InputError(
            f"--game {whole}: a game's index (game_index) counts from 0 and is below 2**63 "
            f"(at most {MAX_GAME_INDEX})"
        )
    return whole


def make_table(
    game: Game,
    rules: Mapping[str, Any] | Any = None,
    players: int | None = None,
    reaction: Sequence[Any] | None = None,
) -> Table:
    """The table a run is played at: the rules (a mapping, a list of ``NAME=VALUE`` or the
    game's Rules object), the number of seats (default: the game's) and the reaction
    profiles (Gris games), each checked by the game."""
    if players is not None and as_whole(players) is None:
        raise InputError(f"--players takes a whole number of seats, not {players!r}")
    if isinstance(rules, str):  # one NAME=VALUE, as profile takes it
        rules = [rules]
    if not (rules is None or isinstance(rules, Mapping | list | tuple | game.rules_type)):
        raise refuse(
            "rules", "a mapping of rule names to values, a list of NAME=VALUE or the game's Rules", rules
        )
    if reaction is not None and (isinstance(reaction, Mapping) or not isinstance(reaction, Sequence)):
        raise refuse("reaction", "a profile 'MEDIAN[,SIGMA]' or a list of them", reaction)
    return game.table(rules, None if players is None else int(players), reaction)


def check_strategy(value: Any, name: str) -> str | Player | None:
    """None, a strategy spec (a ``str``) or a :class:`Player` (``field=``, ``baseline=``)."""
    if value is not None and not isinstance(value, str | Player):
        raise refuse(name, "a strategy spec (a str) or a Player", value)
    return value


def parse_players(game: Game, strategies: Sequence[str | Player] | str | Player) -> list[Player]:
    """The strategies given (specs or :class:`Player` objects) as players of ``game``: at
    least one, each for this game and each compiling (a user strategy is compiled alone
    here, so that a strategy numba cannot compile is one line before anything is played)."""
    if isinstance(strategies, str | Player):
        strategies = [strategies]
    if isinstance(strategies, Mapping) or not isinstance(strategies, Sequence):
        raise refuse("strategies", "a strategy spec (a str), a Player or a list of them", strategies)
    for s in strategies:
        if not isinstance(s, str | Player):
            raise refuse("strategies", "strategy specs (str) or Player objects", s)
    if not strategies:
        raise InputError("give at least one strategy (-s NAME)")
    players = [parse_spec(s, game.name) if isinstance(s, str) else s for s in strategies]
    for p in players:
        if p.family.game != game.name:
            raise InputError(f"strategy {p.spec!r} is for {p.family.game}, not {game.name}")
        check_compiles(p.family)
    return players


def resolve_players(game: Game, strategies: Sequence[str | Player] | str, n_seats: int) -> list[Player]:
    """One strategy fills every seat; otherwise one per seat, in seat order."""
    players = parse_players(game, strategies)
    if len(players) == 1:
        return players * n_seats
    if len(players) != n_seats:
        raise InputError(
            f"{len(players)} strategies for {n_seats} seats: give one for every seat, or one for all"
        )
    return players


def check_block_size(block_size: int | None) -> None:
    """``block_size`` is None (sized automatically) or a whole number from 1 to ``MAX_BLOCK``
    (2**22 games; runs with records play at most ``MAX_RECORDS_BLOCK`` games at a time)."""
    if block_size is None:
        return
    whole = as_whole(block_size)
    if whole is None:
        raise InputError(f"the block size must be a whole number, not {block_size!r}")
    if not 1 <= whole <= MAX_BLOCK:
        raise InputError(
            f"--block-size {whole}: give 1 to {MAX_BLOCK:,} (2**22) games per block "
            "(the figures do not depend on it)"
        )


def check_threads(threads: int | None) -> int | None:
    """``threads`` is None (every thread numba may use) or a whole number from 1 to
    ``numba.config.NUMBA_NUM_THREADS``."""
    if threads is None:
        return None
    whole = as_whole(threads)
    most = numba.config.NUMBA_NUM_THREADS
    if whole is None:
        raise InputError(f"--threads takes a whole number, not {threads!r}")
    if not 1 <= whole <= most:
        raise InputError(f"--threads {whole}: give 1 to {most} (the threads numba may use here)")
    return whole


def check_workers(workers: int | None) -> int | None:
    """``workers`` is None or a whole number (its range is checked with the backend)."""
    if workers is None:
        return None
    whole = as_whole(workers)
    if whole is None:
        raise InputError(f"--workers takes a whole number of processes, not {workers!r}")
    return whole
