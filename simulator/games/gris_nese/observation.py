"""What a Gris-nese strategy sees, and what it answers.

At every pass step each player is asked which of its four cards to lay down
to the left.  ``obs`` is an ``int64`` array laid out as below; the answer is
the *card code* to pass, which must be in ``HAND``.

Rank groups are numbered in the order they join the game: 0 = A, 1 = K,
2 = Q, 3 = J, 4 = 10, 5 = 9, 6 = 8, 7 = 7 (``GROUP_RANKS``); with ``m``
players in the round groups ``0 .. m-1`` are in play.  ``MEMORY`` fields
belong to the strategy (set to -1 at each deal, then left alone).
"""

from __future__ import annotations

SEAT = 0  # own original seat
N_PLAYERS = 1  # players still in the game (= rank groups in play)
STEPS = 2  # pass steps completed in this round
HAND = 3  # HAND + i, i < 4: the hand in ascending card code
GROUP_COUNT = 7  # GROUP_COUNT + g, g < 8: cards of group g in hand
INCOMING = 15  # the card received at the last step, -1 before the first
RECEIVED_GROUP = 16  # RECEIVED_GROUP + g: cards of group g received from the right this round
PASSED_GROUP = 24  # PASSED_GROUP + g: cards of group g this player passed this round
MEMORY = 32  # MEMORY + j, j < 4
OBS_SIZE = 36

HAND_SIZE = 4
N_MEMORY = 4
MAX_GROUPS = 8
# Ranks (0 = A … 12 = K) of the groups in joining order: A K Q J 10 9 8 7.
GROUP_RANKS = (0, 12, 11, 10, 9, 8, 7, 6)
