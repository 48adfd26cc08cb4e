"""Spøkelse, human-like players in the readable reference: forgetting and slips.

Plain Python from docs/human-players.md (section Spøkelse) and docs/random-streams.md,
written apart from the compiled pieces (``human.py``); the kernel must play the same
draws in the same order, and ``tests/games/spokelse/test_human.py`` replays them move by
move.

* ``forget=P``: at the start of each of its turns, before its first decision, the player
  goes through every card it knows but cannot see now (every card of ``seen[seat]`` but
  the discard top), in ascending card code, and forgets each with probability ``P``: one
  ``uniform()`` draw from its decision stream per card, forgotten when it is below ``P``.
* ``slip=E``: before each decision, one ``uniform()`` draw; below ``E`` the decision is a
  uniformly random legal one (drawn as the ``random`` strategy draws) and the strategy is
  not asked.

Nothing is drawn for a value of 0.  A player's row holds ``forget`` at ``FORGET_AT`` and
``slip`` at ``SLIP_AT`` (strategies.registry); a shorter row is a plain player.
"""

from __future__ import annotations

import numpy as np

from simulator.engine.rng import below_in, uniform_in
from simulator.games.reference_player import human_values
from simulator.games.spokelse.observation import Place, Source
from simulator.games.spokelse.reference_table import Table
from simulator.games.spokelse.variants import N_SLOTS

# --- forgetting ------------------------------------------------------------------------


def forgettable(table: Table, seat: int) -> list[int]:
    """The cards ``seat`` knows but cannot see now, in ascending card code: its own known
    slots, the opponent's public slots and the cards under the discard top (every card
    whose place it knows, less the discard top; the ghosts are never known)."""
    top = table.discard[-1] if table.discard else None
    return sorted(c for c in table.seen[seat] if c != top)


def forget_card(table: Table, seat: int, card: int) -> None:
    """``seat`` no longer knows where ``card`` is: it is unseen again, and a slot of its own
    row holding it is unknown again (a public slot of the opponent's row is shown only while
    its card is remembered, reference_view.observe)."""
    table.seen[seat].discard(card)
    for i in range(N_SLOTS):
        if table.slots[seat][i] == card:
            table.knows_slot[seat][i] = False


def forget_cards(table: Table, seat: int, forget: float, rng: np.ndarray) -> list[int]:
    """The start of ``seat``'s turn with ``forget`` above 0: each card it knows but cannot
    see now is forgotten when its draw is below ``forget``.  Returns the forgotten cards."""
    gone = [card for card in forgettable(table, seat) if uniform_in(rng) < forget]
    for card in gone:
        forget_card(table, seat, card)
    return gone


# --- slips -------------------------------------------------------------------------------


def slips(slip: float, rng: np.ndarray) -> bool:
    """Before a decision: with ``slip`` above 0, one draw, True when it is below ``slip``."""
    return slip > 0 and uniform_in(rng) < slip


def random_source(table: Table, rng: np.ndarray) -> Source:
    """A uniformly random legal source: the stock when the pile is empty (no draw), else
    ``below(2)`` (0 the stock, 1 the discard pile)."""
    if not table.discard:
        return Source.STOCK
    return Source(below_in(rng, 2))


def random_place(from_discard: bool, rng: np.ndarray) -> Place:
    """A uniformly random legal placement: a slot, ``below(4)``, for a card from the discard
    pile; a slot or throwing it away (4), ``below(5)``, for a stock card."""
    return Place(below_in(rng, 4 if from_discard else 5))


__all__ = [
    "forget_card",
    "forget_cards",
    "forgettable",
    "human_values",
    "random_place",
    "random_source",
    "slips",
]
