"""What a Gris strategy sees, and what it answers.

A Gris strategy is asked one thing: which card to pass left.  It holds six
cards when asked.  ``obs`` is an ``int64`` array laid out as below; the answer
is the *card code* to pass (``suit * 13 + rank``), which must be in ``HAND``.

``MEMORY`` fields belong to the strategy: the engine sets them to -1 at the
deal and never touches them again in the round, so a strategy can remember
something (``commit`` keeps its locked suit there).
"""

from __future__ import annotations

SEAT = 0  # own seat
N_PLAYERS = 1  # players at the table
PASSES = 2  # passes made in this round so far, by anyone
MY_PASSES = 3  # passes this player has made in this round
HAND_SIZE = 4  # cards in hand (6 when asked)
INCOMING = 5  # the card that arrived this turn (received or drawn), -1 for the six-card seat's first pass
INCOMING_DRAWN = 6  # 1 if INCOMING was drawn from the stock in a circulation exchange
HAND = 7  # HAND + i, i < 6: the hand in ascending card code, -1 padded
SUIT_COUNT = 13  # SUIT_COUNT + s: cards of suit s in hand
RECEIVED_SUIT = 17  # RECEIVED_SUIT + s: cards of suit s received from the right this round
PASSED_SUIT = 21  # PASSED_SUIT + s: cards of suit s this player passed this round
MEMORY = 25  # MEMORY + j, j < 4: the strategy's own memory for this round
OBS_SIZE = 29

MAX_HAND = 6
N_MEMORY = 4
