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
SEAT, N_PLAYERS, PASSES, MY_PASSES, HAND_SIZE, INCOMING, INCOMING_DRAWN, HAND, SUIT_COUNT = OBS.offsets(
    "seat n_players passes my_passes hand_size incoming incoming_drawn hand suit_count"
)
RECEIVED_SUIT, PASSED_SUIT, MEMORY = OBS.offsets("received_suit passed_suit memory")
OBS_SIZE = OBS.size()

MAX_HAND = OBS.piece("hand").copies()
N_MEMORY = OBS.piece("memory").copies()
