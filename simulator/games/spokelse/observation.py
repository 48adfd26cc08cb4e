"""What a Spøkelse strategy sees, and the actions it answers with.

A strategy is called twice per turn with ``obs`` (an ``int64`` array laid out
as below), its parameters and its seat's random stream:

* ``obs[PHASE] == SOURCE``: answer :class:`Source` (take the stock card or the
  discard top);
* ``obs[PHASE] == PLACE``: the card is in ``obs[HAND]``; answer :class:`Place`
  (swap it into a slot 0-3, or throw it on the discard pile).

Answer with a member (``return Source.STOCK``, ``return Place.DISCARD``) or
with its plain integer (``0`` and ``1`` for :class:`Source`, ``0``-``3`` and
``4`` for :class:`Place`); both compile and play alike, and one function may
mix them (``return obs[UNKNOWN_SLOT]`` on one path, ``Place.DISCARD`` on
another).

What the rules allow (RULES.md §3), checked on every answer:

* ``Source.DISCARD_PILE`` only when there is a discard top
  (``obs[DISCARD_TOP] >= 0``);
* **a card taken from the discard pile must be placed**: when
  ``obs[FROM_DISCARD] == 1`` the answer is a slot 0-3, never
  ``Place.DISCARD`` (only a stock card can be thrown away).

Any other answer stops the run with an error naming the strategy and the
decision.

Card codes are ``suit * 13 + rank`` (``simulator.engine.cards``); -1 means none or
unknown.  Points are in half points (the jack is 1 or 22) so sums are exact.
"""

from __future__ import annotations

from simulator.games.actions import ActionEnum
from simulator.games.spokelse.layout import OBS


class Source(ActionEnum):
    """The answer when ``obs[PHASE] == SOURCE``: a member or its integer (0 or 1)."""

    STOCK = 0
    DISCARD_PILE = 1


class Place(ActionEnum):
    """The answer when ``obs[PHASE] == PLACE``: a member or its integer (0-3 a slot, 4 throw).

    ``DISCARD`` (throw the card away) is allowed only for a stock card: a card
    taken from the discard pile (``obs[FROM_DISCARD] == 1``) must be placed.
    """

    SLOT0 = 0
    SLOT1 = 1
    SLOT2 = 2
    SLOT3 = 3
    DISCARD = 4


# Phases.
SOURCE = 0
PLACE = 1

# Field offsets in ``obs``: declared, with what each field holds, as OBS in layout.py
# (``print(OBS.markdown())`` lists them: offset, width, kind, meaning).
PHASE, HAND, FROM_DISCARD, DISCARD_TOP, STOCK_LEFT, TURN, SEAT, MY_TOTAL, OPP_TOTAL, TARGET = OBS.offsets(
    "phase hand from_discard discard_top stock_left turn seat my_total opp_total target"
)
HAND_VALUE, DISCARD_VALUE, HIGH, HIGH_SLOT, UNKNOWN_SLOT, SLOT, SLOT_VALUE, OPP_SLOT, VALUE = OBS.offsets(
    "hand_value discard_value high high_slot unknown_slot slot slot_value opp_slot value"
)
UNSEEN = OBS.offset("unseen")
OBS_SIZE = OBS.size()

# A strategy has at most this many parameters of its own; its parameter row is longer
# (strategies.registry.PARAM_ROW: forget and slip follow).
MAX_PARAMS = 8
