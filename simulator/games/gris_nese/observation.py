"""What a Gris-nese strategy sees, and what it answers.

At every pass step each player is asked which of its four cards to lay down
to the left.  ``obs`` is an ``int64`` array laid out as below; the answer is
the *card code* to pass, which must be in ``HAND``.

Rank groups are numbered in the order they join the game: 0 = A, 1 = K,
2 = Q, 3 = J, 4 = 10, 5 = 9, 6 = 8, 7 = 7 (``GROUP_RANKS``); with ``m``
players in the round groups ``0 .. m-1`` are in play.  ``MEMORY`` fields
belong to the strategy (set to -1 at each deal, then left alone).
``RECEIVED_GROUP`` and ``PASSED_GROUP`` count what the player remembers: a player that
forgets (``forget`` > 0, docs/human-players.md) is shown fewer.
"""

from __future__ import annotations

from simulator.games.gris_nese.layout import OBS

# Field offsets in ``obs``: declared, with what each field holds, as OBS in layout.py
# (``print(OBS.markdown())`` lists them: offset, width, kind, meaning).
SEAT, N_PLAYERS, STEPS, HAND, GROUP_COUNT, INCOMING, RECEIVED_GROUP, PASSED_GROUP, MEMORY = OBS.offsets(
    "seat n_players steps hand group_count incoming received_group passed_group memory"
)
OBS_SIZE = OBS.size()

HAND_SIZE = OBS.piece("hand").copies()
N_MEMORY = OBS.piece("memory").copies()
MAX_GROUPS = OBS.piece("group_count").copies()

# Ranks (0 = A … 12 = K) of the groups in joining order: A K Q J 10 9 8 7.
GROUP_RANKS = (0, 12, 11, 10, 9, 8, 7, 6)
