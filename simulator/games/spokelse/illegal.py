"""Spøkelse's words for an illegal answer (the shared frame is :mod:`simulator.games.illegal`)."""

from __future__ import annotations

import operator

from simulator.games.illegal import line


def source_line(strategy: str, seat: int, value: object, turn: int, pile_empty: bool) -> str:
    """Spøkelse, step 1 of a turn (``turn`` counts from 0, as the observation's TURN)."""
    try:
        empty_pile_asked = pile_empty and operator.index(value) == 1  # type: ignore[arg-type]
    except TypeError:
        empty_pile_asked = False
    why = (
        "the discard pile is empty (legal: 0, the stock)"
        if empty_pile_asked
        else "legal are 0 (the stock) and 1 (the discard pile, when it is not empty)"
    )
    return line(
        strategy, seat, value, "choosing where to take a card from", f"turn {turn + 1} (TURN={turn})", why
    )


def place_line(strategy: str, seat: int, value: object, turn: int, from_discard: bool) -> str:
    """Spøkelse, step 2 of a turn: a slot 0-3, or 4 to throw away a card drawn from the stock."""
    try:
        threw = operator.index(value) == 4  # type: ignore[arg-type]
    except TypeError:
        threw = False
    if threw and from_discard:
        why = "a card taken from the discard pile must be placed (legal: 0-3, the slot to put it in)"
    elif from_discard:
        why = "legal are 0-3 (the slot to put it in; a card taken from the discard pile must be placed)"
    else:
        why = "legal are 0-3 (the slot to put it in) and 4 (throw the card drawn from the stock away)"
    return line(strategy, seat, value, "placing its card", f"turn {turn + 1} (TURN={turn})", why)


__all__ = ["place_line", "source_line"]
