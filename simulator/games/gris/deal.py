"""The round kernel's deal: the shuffle and the deal of ``rules.deal_nb`` in one inlined pass.

The same deck, hands, rows and books as :func:`simulator.engine.rng.shuffle_nb` followed by
:func:`simulator.games.gris.rules.deal_nb` and ``dealt_signallers_nb`` (docs/random-streams.md;
``tests/games/gris/test_deal.py`` checks it deal by deal), in less time: the shuffle's 51
draws do not depend on the deck, so they are made first, several at a time
(:func:`simulator.engine.rng.shuffled_from_key_nb`), and only the swaps stay in order; each hand is built as a
word and its suit counts are four population counts, not an increment per card.
"""

from __future__ import annotations

import numpy as np
from numba import njit, types
from numba.extending import intrinsic

from simulator.engine.cards import N_CARDS, N_RANKS, N_SUITS
from simulator.games.gris.observation import (
    INCOMING,
    INCOMING_DRAWN,
    MEMORY,
    MY_PASSES,
    N_MEMORY,
    N_PLAYERS,
    PASSED_SUIT,
    PASSES,
    RECEIVED_SUIT,
    SEAT,
    SUIT_COUNT,
)
from simulator.games.gris.rules import CARDS_PER_PLAYER, GOAL, bit_nb

SUIT_BITS = np.uint64((1 << N_RANKS) - 1)  # the bits of suit 0's cards; suit k's are << 13k


@intrinsic
def popcount_nb(typingctx, src):
    """The number of set bits of an integer (one instruction)."""
    if not isinstance(src, types.Integer):
        return None

    def codegen(context, builder, sig, args):
        return builder.ctpop(args[0])

    return src(src), codegen


@njit(cache=True, inline="always")
def deal_rows_nb(deck, n, six, obs, hands, owner, straight, signallers):
    """``rules.deal_nb`` (the six-card seat ``six`` given) and ``rules.dealt_signallers_nb`` in
    one pass; returns how many seats were dealt five of a suit."""
    for s in range(n):
        hands[s] = 0
    s = six
    for k in range(CARDS_PER_PLAYER * n):
        hands[s] |= bit_nb(deck[k])
        s = s + 1 if s + 1 < n else 0
    hands[six] |= bit_nb(deck[CARDS_PER_PLAYER * n])  # the sixth card
    dealt = 0
    for s in range(n):
        row = obs[s]
        h = hands[s]
        row[SEAT] = s
        row[N_PLAYERS] = n
        row[PASSES] = 0
        row[MY_PASSES] = 0
        row[INCOMING] = -1  # the six-card seat's first pass has nothing incoming
        row[INCOMING_DRAWN] = 0
        complete = False
        for k in range(N_SUITS):
            c = np.int64(popcount_nb(h & (SUIT_BITS << np.uint64(N_RANKS * k))))
            row[SUIT_COUNT + k] = c
            row[RECEIVED_SUIT + k] = 0
            row[PASSED_SUIT + k] = 0
            complete |= c == GOAL
        for j in range(N_MEMORY):
            row[MEMORY + j] = -1  # the strategy's own from here on
        # RULES.md §1: five of one suit in a five-card hand signals (the six-card seat never does).
        signals = complete & (s != six)
        signallers[s] = np.int64(signals)
        dealt += np.int64(signals)
    # RULES.md §1: a card has no owner until it is passed.  (Two loops, each a few vector
    # stores of bytes; one loop over both arrays is 106 stores.)
    for c in range(N_CARDS + 1):
        owner[c] = -1
    for c in range(N_CARDS + 1):
        straight[c] = 0
    return dealt
