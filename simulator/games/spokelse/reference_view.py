"""Spøkelse, what a player sees in the readable reference, and how its answer is read and checked.

A *player* is any object with ``name: str``, ``params`` (a float64 array) and
``decide(obs, params, rng) -> int``: it is asked twice per turn, first for a
:class:`Source` (SOURCE phase), then for a :class:`Place` (PLACE phase), with an
observation laid out as in :mod:`simulator.games.spokelse.observation`, built
afresh for each question.  Its ``rng`` is its seat's DECIDE stream for the deal,
a one-element uint64 array it draws from itself (``simulator.engine.rng.below_nb``).
"""

from __future__ import annotations

from collections import Counter

import numpy as np

from simulator.engine.cards import N_RANKS, N_SUITS, rank_of
from simulator.games.reference_player import IllegalAction, Player
from simulator.games.reference_player import as_answer as as_action
from simulator.games.spokelse import illegal as wording
from simulator.games.spokelse import observation as ob
from simulator.games.spokelse.observation import Place, Source
from simulator.games.spokelse.reference_table import Table, other
from simulator.games.spokelse.variants import N_SLOTS

__all__ = [
    "IllegalAction",
    "Player",
    "as_action",
    "ask",
    "card_points_half",
    "choose_place",
    "choose_source",
    "illegal",
    "known_slot_values",
    "observe",
]


# --- what a player sees ---------------------------------------------------------


def card_points_half(values: np.ndarray, card: int) -> int:
    """The card's points in half points (``values``: ``Rules.values_half()``); -1 for no card."""
    return int(values[rank_of(card)]) if card >= 0 else -1


def known_slot_values(table: Table, seat: int, values: np.ndarray) -> list[int | None]:
    """The points of each of ``seat``'s own slots it knows, ``None`` for a slot it does not know."""
    return [
        card_points_half(values, table.slots[seat][i]) if table.knows_slot[seat][i] else None
        for i in range(N_SLOTS)
    ]


def observe(table: Table, seat: int, phase: int, hand: int = -1, from_discard: bool = False) -> np.ndarray:
    """The observation ``seat`` decides on (layout: ``observation.py``), built afresh."""
    obs = np.full(ob.OBS_SIZE, -1, dtype=np.int64)
    values = table.rules.values_half()  # RULES.md §3 points (jack variant), in half points
    top = table.discard[-1] if table.discard else -1
    obs[ob.PHASE] = phase
    obs[ob.HAND] = hand  # -1 in the SOURCE phase
    obs[ob.HAND_VALUE] = card_points_half(values, hand)  # -1 in the SOURCE phase
    obs[ob.FROM_DISCARD] = 1 if from_discard else 0  # 0 in the SOURCE phase
    obs[ob.DISCARD_TOP] = top  # -1 when the pile is empty
    obs[ob.DISCARD_VALUE] = card_points_half(values, top)  # -1 when the pile is empty
    obs[ob.STOCK_LEFT] = len(table.stock)  # a stock card in hand is already drawn
    obs[ob.TURN] = table.turn
    obs[ob.SEAT] = seat
    obs[ob.MY_TOTAL] = table.totals_half[seat]
    obs[ob.OPP_TOTAL] = table.totals_half[other(seat)]
    obs[ob.TARGET] = table.target_half
    # Own row: the cards the player knows and their points; -1 where it does not know.
    mine = known_slot_values(table, seat, values)
    for i in range(N_SLOTS):
        if mine[i] is not None:
            obs[ob.SLOT + i] = table.slots[seat][i]
            obs[ob.SLOT_VALUE + i] = mine[i]
        # RULES.md §3: a card taken from the discard pile into a slot is known to both players
        # (shown while the player remembers it: docs/human-players.md)
        theirs = table.slots[other(seat)][i]
        if table.public_slot[other(seat)][i] and theirs in table.seen[seat]:
            obs[ob.OPP_SLOT + i] = theirs
    # Summaries of the own row (RULES.md §5's H and U): the highest known value and the
    # lowest-numbered slot holding it, and the lowest-numbered unknown slot.
    known = {i: v for i, v in enumerate(mine) if v is not None}
    unknown = [i for i, v in enumerate(mine) if v is None]
    if known:
        high = max(known.values())
        obs[ob.HIGH] = high
        obs[ob.HIGH_SLOT] = min(i for i, v in known.items() if v == high)
    if unknown:
        obs[ob.UNKNOWN_SLOT] = min(unknown)
    obs[ob.VALUE : ob.VALUE + N_RANKS] = values
    seen_ranks = Counter(rank_of(c) for c in table.seen[seat])
    for r in range(N_RANKS):
        obs[ob.UNSEEN + r] = N_SUITS - seen_ranks[r]
    return obs


def ask(player: Player, obs: np.ndarray, rng: np.ndarray) -> object:
    return player.decide(obs, player.params, rng)


def illegal(player: Player, seat: int, message: str) -> IllegalAction:
    # The wording is shared with runs (simulator/games/illegal.py); ``message`` comes from there.
    return IllegalAction(message)


def choose_source(table: Table, player: Player, seat: int, rng: np.ndarray) -> Source:
    """Step 1 of a turn: the player picks the stock or the discard pile."""
    value = ask(player, observe(table, seat, ob.SOURCE), rng)
    action = as_action(value)
    if action not in (Source.STOCK, Source.DISCARD_PILE) or (
        action == Source.DISCARD_PILE and not table.discard
    ):
        words = wording.source_line(player.name, seat, value, table.turn, not table.discard)
        raise illegal(player, seat, words)
    return Source(action)


def choose_place(
    table: Table, player: Player, seat: int, card: int, source: Source, rng: np.ndarray
) -> Place:
    """Step 2 of a turn: the player swaps the card into a slot or throws it away."""
    from_discard = source == Source.DISCARD_PILE
    value = ask(player, observe(table, seat, ob.PLACE, card, from_discard), rng)
    action = as_action(value)
    # RULES.md §3: taking the discard top and putting it straight back is not a legal action
    if action is None or not 0 <= action <= Place.DISCARD or (action == Place.DISCARD and from_discard):
        words = wording.place_line(player.name, seat, value, table.turn, from_discard)
        raise illegal(player, seat, words)
    return Place(action)
