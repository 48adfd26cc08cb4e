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

from simulator.engine.rng import GOLDEN, MASK64, mix64
from simulator.games.spokelse.observation import Place, Source
from simulator.games.spokelse.reference_table import Table
from simulator.games.spokelse.variants import N_SLOTS
from strategies.registry import FORGET_AT, SLIP_AT


def human_values(params: np.ndarray) -> tuple[float, float]:
    """``(forget, slip)`` of a parameter row; ``(0, 0)`` when the row is too short to hold them."""
    forget = float(params[FORGET_AT]) if len(params) > FORGET_AT else 0.0
    slip = float(params[SLIP_AT]) if len(params) > SLIP_AT else 0.0
    return forget, slip


# --- draws from a seat's stream (its state in a one-element uint64 array) --------------


def next_u64(rng: np.ndarray) -> int:
    """docs/random-streams.md: ``state += GOLDEN; return mix64(state)``, on the array's state."""
    state = (int(rng[0]) + GOLDEN) & MASK64
    rng[0] = state
    return mix64(state)


def uniform(rng: np.ndarray) -> float:
    """``(u64 >> 11) * 2^-53``: a uniform float in ``[0, 1)``."""
    return (next_u64(rng) >> 11) * 2.0**-53


def below(rng: np.ndarray, n: int) -> int:
    """``((u64 >> 32) * n) >> 32``: a uniform integer in ``[0, n)``."""
    return ((next_u64(rng) >> 32) * n) >> 32


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
    gone = [card for card in forgettable(table, seat) if uniform(rng) < forget]
    for card in gone:
        forget_card(table, seat, card)
    return gone


# --- slips -------------------------------------------------------------------------------


def slips(slip: float, rng: np.ndarray) -> bool:
    """Before a decision: with ``slip`` above 0, one draw, True when it is below ``slip``."""
    return slip > 0 and uniform(rng) < slip


def random_source(table: Table, rng: np.ndarray) -> Source:
    """A uniformly random legal source: the stock when the pile is empty (no draw), else
    ``below(2)`` (0 the stock, 1 the discard pile)."""
    if not table.discard:
        return Source.STOCK
    return Source(below(rng, 2))


def random_place(from_discard: bool, rng: np.ndarray) -> Place:
    """A uniformly random legal placement: a slot, ``below(4)``, for a card from the discard
    pile; a slot or throwing it away (4), ``below(5)``, for a stock card."""
    return Place(below(rng, 4 if from_discard else 5))


__all__ = [
    "below",
    "forget_card",
    "forget_cards",
    "forgettable",
    "human_values",
    "random_place",
    "random_source",
    "slips",
    "uniform",
]
