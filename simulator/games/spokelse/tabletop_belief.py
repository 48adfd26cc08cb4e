"""Worlds for the table's advice drawn from the belief: what you had not seen, dealt as
your opponent's play so far makes it likely (docs/play.md, docs/search.md "Belief").

At one of your decisions the belief (:func:`~simulator.games.spokelse.belief.belief_nb`)
reads only your view of the round: your slots 0 and 1 as dealt, the first discard, and
every turn as you saw it (the card the opponent drew and swapped in stays hidden).  Its
particles are weighted by how likely the opponent's choices were under a model of it,
resampled by weight, and each becomes a table: the opponent's slots it knows hold the
particle's cards; the cards that steered nobody's choice (your unknown slots, the
opponent's slots it never looked at, both ghosts, the stock) are dealt afresh among
themselves, as the belief search deals them (so a particle drawn twice is not the same
world twice).
"""

from __future__ import annotations

import copy
from collections.abc import Sequence

import numpy as np

from simulator.engine.rng import Stream
from simulator.games.spokelse import reference as ref
from simulator.games.spokelse.belief import (
    HIST_FIELDS,
    P_GHOST,
    P_MINE,
    P_STOCK,
    P_THEIRS,
    PART_SIZE,
    belief_nb,
    view_of_log_nb,
)
from simulator.games.spokelse.belief_search import resample_nb
from simulator.games.spokelse.ladder import BELIEF_DEFAULTS, TUNED_EXPECT
from simulator.games.spokelse.observation import FROM_DISCARD, HAND, OBS_SIZE, PHASE, PLACE
from simulator.games.spokelse.variants import N_SLOTS
from strategies.registry import parse_spec

EPS = BELIEF_DEFAULTS["eps"]  # the belief search's: the best calibrated (docs/search.md, "Belief")


def belief_model(bot_spec: str) -> str:
    """The opponent model for a bot: the bot itself when the belief can model it (a shipped
    strategy that neither forgets nor slips), tuned ``expect`` otherwise."""
    bot = parse_spec(bot_spec, "spokelse")
    return bot.spec if bot.family.builtin_id is not None and not bot.human else TUNED_EXPECT


def view_of(turns: Sequence[ref.Turn], me: int, dealer: int, dealt: Sequence[int], first: int):
    """``me``'s view of a round so far (belief.py's ``deal`` and ``hist``) from the table's
    turns: ``dealt`` its slots 0 and 1 as dealt, ``first`` the first discard."""
    log = np.zeros((max(len(turns), 1), 6), np.int64)
    for t, x in enumerate(turns):
        log[t] = (x.turn, x.seat, x.source, x.taken, x.place, x.discarded)
    hist = np.zeros((max(len(turns), 1), HIST_FIELDS), np.int64)
    view_of_log_nb(me, log, len(turns), hist)
    return np.array([me, dealer, dealt[0], dealt[1], first], np.int64), hist


def belief_tables(
    table: ref.Table,
    obs: np.ndarray,
    view: tuple[np.ndarray, np.ndarray, int],
    model: str,
    samples: int,
    stream: Stream,
) -> list[ref.Table]:
    """``samples`` tables drawn from the belief at a decision of seat ``view[0][0]`` on
    ``table`` (the round as it stands, the card in hand included), under the opponent
    model ``model``; every draw comes from ``stream``.

    Only what the seat knew is read from ``table``: its known slots, the opponent's
    public slots, the discard pile and the stock's size.  Everything else is the
    particles'."""
    deal, hist, n_turns = view
    me, opp = int(deal[0]), 1 - int(deal[0])
    m = parse_spec(model, "spokelse")
    card_value = table.rules.values_half()[np.arange(52) % 13]
    parts = np.empty((samples, PART_SIZE), np.int64)
    logw, hidden = np.empty(samples), np.empty(8, np.int64)
    oobs, oseen = np.empty((1, OBS_SIZE), np.int64), np.empty(1, np.uint64)
    hand = int(obs[HAND]) if obs[PHASE] == PLACE else -1
    rng = stream.as_array()
    n_stock = belief_nb(deal, hist, n_turns, hand, int(obs[FROM_DISCARD]), np.int64(m.family.builtin_id),
                        m.params, EPS, np.int64(1), card_value, rng, parts, logw, hidden, oobs, oseen)  # fmt: skip
    if n_stock != len(table.stock):
        raise ValueError("the decision's view and its table do not agree on the stock")
    at = np.empty(samples, np.int64)
    resample_nb(logw, rng, at)
    gen = np.random.default_rng(int(rng[0]))  # the redeal of the free cards, keyed by the stream
    mine = [P_MINE + i for i in range(N_SLOTS) if hidden[i]]
    theirs = [P_THEIRS + i for i in range(N_SLOTS) if hidden[4 + i]]
    free = mine + [P_THEIRS + i for i in range(N_SLOTS) if hidden[4 + i] == 2]
    free += [P_GHOST, P_GHOST + 1, *range(P_STOCK, P_STOCK + n_stock)]
    tables = []
    for j in at.tolist():
        row = parts[j].copy()
        row[free] = gen.permutation(row[free])
        t = copy.deepcopy(table)
        for c in mine:
            t.slots[me][c - P_MINE] = int(row[c])
        for c in theirs:
            t.slots[opp][c - P_THEIRS] = int(row[c])
        t.ghosts[me], t.ghosts[opp] = int(row[P_GHOST]), int(row[P_GHOST + 1])
        t.stock.clear()
        t.stock.extend(int(c) for c in row[P_STOCK : P_STOCK + n_stock])
        tables.append(t)
    return tables


__all__ = ["EPS", "belief_model", "belief_tables", "view_of"]
