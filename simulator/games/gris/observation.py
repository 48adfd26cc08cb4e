"""What a Gris strategy sees, and what it answers.

A Gris strategy is asked one thing: which card to pass left.  It holds six
cards when asked.  ``obs`` is an ``int64`` array laid out as below; the answer
is the *card code* to pass (``suit * 13 + rank``), which must be in ``HAND``.

``MEMORY`` fields belong to the strategy: the engine sets them to -1 at the
deal and never touches them again in the round, so a strategy can remember
something (``commit`` keeps its locked suit there).
"""

from __future__ import annotations

from simulator.games.gris.layout import OBS

# Field offsets in ``obs``: declared, with what each field holds, as OBS in layout.py
# (``print(OBS.markdown())`` lists them: offset, width, kind, meaning).
SEAT = OBS.offset("seat")
N_PLAYERS = OBS.offset("n_players")
PASSES = OBS.offset("passes")
MY_PASSES = OBS.offset("my_passes")
HAND_SIZE = OBS.offset("hand_size")
INCOMING = OBS.offset("incoming")
INCOMING_DRAWN = OBS.offset("incoming_drawn")
HAND = OBS.offset("hand")
SUIT_COUNT = OBS.offset("suit_count")
RECEIVED_SUIT = OBS.offset("received_suit")
PASSED_SUIT = OBS.offset("passed_suit")
MEMORY = OBS.offset("memory")
OBS_SIZE = OBS.size()

MAX_HAND = OBS.piece("hand").copies()
N_MEMORY = OBS.piece("memory").copies()
