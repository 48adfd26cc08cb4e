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

Card codes are ``suit * 13 + rank`` (``simulator.cards``); -1 means none or
unknown.  Points are in half points (the jack is 1 or 22) so sums are exact.
"""

from __future__ import annotations

from simulator.games.actions import ActionEnum


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

# Field offsets in ``obs``.
PHASE = 0  # SOURCE or PLACE
HAND = 1  # the card in hand (PLACE), else -1
FROM_DISCARD = 2  # 1 when the card in hand came from the discard pile, else 0
DISCARD_TOP = 3  # the discard pile's top card, -1 when the pile is empty
STOCK_LEFT = 4  # cards in the stock now (a stock card in hand is already drawn)
TURN = 5  # turns finished in this round
SEAT = 6  # 0 or 1
MY_TOTAL = 7  # match play: own total in half points before this round (0 in round play)
OPP_TOTAL = 8  # match play: opponent's total in half points before this round
TARGET = 9  # match play: the target in half points (0 in round play)
HAND_VALUE = 10  # points of the card in hand, -1 if none
DISCARD_VALUE = 11  # points of the discard top, -1 if the pile is empty
HIGH = 12  # the highest value among own known slots, -1 if no slot is known
HIGH_SLOT = 13  # the lowest-numbered slot holding HIGH, -1 if none
UNKNOWN_SLOT = 14  # the lowest-numbered unknown own slot, -1 if all are known
SLOT = 15  # SLOT + i: own slot i's card if known, else -1
SLOT_VALUE = 19  # SLOT_VALUE + i: its points, -1 if unknown
OPP_SLOT = 23  # OPP_SLOT + i: opponent's slot i if public (taken from the discard pile), else -1
VALUE = 27  # VALUE + r: points of rank r in half points
UNSEEN = 40  # UNSEEN + r: cards of rank r whose place this player does not know
OBS_SIZE = 53

# Parameters reach a strategy as a float64 array of this length.
MAX_PARAMS = 8
