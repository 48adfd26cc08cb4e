"""Advice for one position at the table: every legal action's expected result.

``simulator.advise(game, ...)`` hands the position to the game's ``advise`` module (a
game folder's ``advise.py``; games without one offer no advice), which builds the
observation a player would have, refuses a position that cannot happen, and plays every
legal action out on sampled deals of the unseen cards with the ``search`` player's
code (docs/search.md)::

    import simulator
    advice = simulator.advise("spokelse", row="♠8 ♦K ? ?", hand="♥3", discard="♣Q", stock=20,
                              seen="♠2 ♣8 ♥J", samples=2000, seed=1)
    advice.options[0]        # the best action: its words, mean score and 95% interval
"""

from __future__ import annotations

import inspect
from importlib import import_module
from types import ModuleType
from typing import Any

from simulator.engine.arguments import check_hinted, text
from simulator.errors import InputError
from simulator.games import GAMES, get_game
from simulator.running.seed import resolve_seed


def advice_module(game: str) -> ModuleType:
    """The game's advice module.

    Raises
    ------
    InputError
        For an unknown game, or a game that offers no advice (one line naming those that do)."""
    g = get_game(game)
    try:
        return import_module(f"{type(g).__module__.rpartition('.')[0]}.advise")
    except ModuleNotFoundError:
        offering = [name for name in GAMES if _offers(name)]
        raise InputError(
            f"{g.name} offers no position advice (games that do: {', '.join(offering)})"
        ) from None


def _offers(name: str) -> bool:
    try:
        import_module(f"{type(get_game(name)).__module__.rpartition('.')[0]}.advise")
    except ModuleNotFoundError:
        return False
    return True


def advise(game: str, **position: Any) -> Any:
    """Rank the legal actions of one position of ``game`` (keywords as the game's
    ``advise_position``; Spøkelse: ``row``, ``stock``, ``hand``, ``discard``,
    ``from_discard``, ``seen``, ``opp``, ``totals``, ``samples``, ``seed``, ``strategy``,
    ``rules``, ``opponent``, ``history`` and ``turn`` (the moves so far in trace notation,
    or a trace file), ``belief`` (``"model"`` or ``"uniform"``)).

    Returns
    -------
    Advice
        ``options`` best first (mean final score and margin with 95% intervals, in
        points, lower is better), ``search_choice`` and ``as_dict()`` for JSON.

    Raises
    ------
    InputError
        For a position that cannot happen, card text that is not a card, a keyword the
        game's ``advise_position`` does not take or of another type than it declares
        (``row=7``), a bad seed, or a game without advice (one line naming the argument)."""
    module = advice_module(text(game, "game"))
    try:
        inspect.signature(module.advise_position).bind(**position)
    except TypeError as exc:
        raise InputError(f"advise: {exc}") from None
    if "seed" in position:  # the one seed check (-1 and 2**64 are refused; None draws one)
        position["seed"] = resolve_seed(position["seed"])
    check_hinted(module.advise_position, position)  # each keyword against its declared type
    return module.advise_position(**position)


def advice_lines(game: str, advice: Any) -> list[str]:
    """The advice in plain words (the game's wording)."""
    return advice_module(game).advice_lines(advice)


__all__ = ["advice_lines", "advice_module", "advise"]
