"""Actions of a Spøkelse position that are the same action: cards into unknown slots.

The cards in a player's unknown slots were dealt, never chosen, and nobody has seen
them; the playouts (``expect``) tell slots apart only by their number.  Putting a card
into one unknown slot or another therefore has the same expected result, and ``advise``
reports them once.
"""

from __future__ import annotations

from typing import Any

from simulator.games.spokelse.observation import PLACE


def equivalent_slots(pos: Any) -> list[int]:
    """Own slots a card may go into with the same expected result: the unknown ones (their
    cards are exchangeable, and nobody can tell them apart), when there are two or more."""
    if pos.phase != PLACE:
        return []
    unknown = [i for i in range(4) if pos.row[i] < 0]
    return unknown if len(unknown) > 1 else []


def slots_words(slots: list[int]) -> str:
    names = [f"slot {i}" for i in slots]
    return " or ".join(names) if len(names) == 2 else ", ".join(names[:-1]) + " or " + names[-1]
