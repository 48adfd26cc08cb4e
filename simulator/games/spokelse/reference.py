"""Spøkelse (Ghost), the readable reference: RULES.md §3 played in plain Python.

This module is written from the rulebook (``docs/RULES.md`` §3) and the
random-stream contract (``docs/random-streams.md``), independently of the fast
numba kernel.  Tests replay the kernel against it move by move, so it follows
the contract to the letter and favours plainness over speed.

A round reads in the order a person plays it::

    shuffle_deck -> deal_cards -> play_turn ... until round_over -> score_half

Numbering: seats are 0 and 1; ``Turn.turn`` counts from 0 and equals the
``obs[TURN]`` the player saw (the number of turns finished before it).

The reference is four modules of one responsibility each, and every name of
them is importable from here:

- :mod:`~simulator.games.spokelse.reference_table`: the table, the deal and the
  record of a turn (``Table``, ``shuffle_deck``, ``deal_cards``, ``Turn``);
- :mod:`~simulator.games.spokelse.reference_view`: what a player sees and how
  its answers are read and checked (``Player``, ``observe``, ``choose_source``,
  ``choose_place``);
- this module: the moves, the end, the score, a round and a match;
- :mod:`~simulator.games.spokelse.reference_records`: the records of a round and
  a match, and how they read as a trace (``RoundRecord``, ``format_round``);
- :mod:`~simulator.games.spokelse.reference_human`: how a human-like player forgets
  and slips (docs/human-players.md).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from simulator.engine.cards import rank_of
from simulator.engine.param_row import player_salts
from simulator.engine.rng import DEALER, Stream
from simulator.games.spokelse.observation import Place, Source
from simulator.games.spokelse.reference_human import (
    forget_cards,
    human_values,
    random_place,
    random_source,
    slips,
)
from simulator.games.spokelse.reference_records import (
    MatchRecord,
    RoundRecord,
    format_match,
    format_round,
    points,
)
from simulator.games.spokelse.reference_table import (
    CARDS_PER_PLAYER,
    LOOKED_AT,
    N_SEATS,
    Table,
    Turn,
    deal_cards,
    decide_streams,
    look_at_slot,
    other,
    shuffle_deck,
)
from simulator.games.spokelse.reference_view import (
    IllegalAction,
    Player,
    as_action,
    ask,
    card_points_half,
    choose_place,
    choose_source,
    illegal,
    known_slot_values,
    observe,
)
from simulator.games.spokelse.variants import TURN_CAP, Rules

__all__ = [
    "CARDS_PER_PLAYER",
    "LOOKED_AT",
    "N_SEATS",
    "IllegalAction",
    "MatchRecord",
    "Player",
    "RoundRecord",
    "Table",
    "Turn",
    "as_action",
    "ask",
    "capped",
    "card_points_half",
    "check_players",
    "choose_place",
    "choose_source",
    "deal_cards",
    "decide_streams",
    "first_dealer",
    "format_match",
    "format_round",
    "illegal",
    "known_slot_values",
    "look_at_slot",
    "match_loser",
    "match_over",
    "observe",
    "other",
    "play_match",
    "play_round",
    "play_turn",
    "player_salts",
    "points",
    "round_over",
    "score_half",
    "seat_to_play",
    "shuffle_deck",
    "swap_into_slot",
    "take_from_discard",
    "take_from_stock",
    "throw_on_discard",
]


# --- the moves ------------------------------------------------------------------


def take_from_stock(table: Table, seat: int) -> int:
    """Draw the top card of the stock; only the drawer sees it."""
    card = table.stock.popleft()  # RULES.md §3: take the top card of the stock
    table.seen[seat].add(card)
    return card


def take_from_discard(table: Table) -> int:
    """Take the face-up top of the discard pile (both players have seen it)."""
    card = table.discard.pop()  # RULES.md §3: ... or the top card of the discard pile
    if table.discard:
        # The card under it is face up again, seen by both (it was, unless one forgot it).
        for seat in range(N_SEATS):
            table.seen[seat].add(table.discard[-1])
    return card


def throw_on_discard(table: Table, card: int) -> None:
    """Put a card face up on the discard pile, where both players see it."""
    table.discard.append(card)
    for seat in range(N_SEATS):
        table.seen[seat].add(card)  # RULES.md §3: every discarded card is seen by both players


def swap_into_slot(table: Table, seat: int, i: int, card: int, from_discard: bool) -> int:
    """Put ``card`` face down into slot ``i``; the card that lay there goes face up on the pile."""
    old = table.slots[seat][i]  # RULES.md §3: the player chooses the slot, not the card
    table.slots[seat][i] = card
    table.knows_slot[seat][i] = True  # RULES.md §3: its owner now knows it
    table.public_slot[seat][i] = from_discard  # RULES.md §3: a card from the discard pile is known to both
    throw_on_discard(table, old)  # RULES.md §3: the card that lay there goes face up onto the pile
    return old


def seat_to_play(table: Table) -> int:
    """RULES.md §3: the non-dealer starts; turns alternate."""
    return other(table.dealer) if table.turn % 2 == 0 else table.dealer


def play_turn(table: Table, players: Sequence[Player], rngs: Sequence[np.ndarray]) -> Turn:
    """One turn: take a card, then swap it into a slot or discard it.

    A human-like player (docs/human-players.md) first forgets, then may slip at either
    decision (:mod:`~simulator.games.spokelse.reference_human`)."""
    seat = seat_to_play(table)
    player, rng = players[seat], rngs[seat]
    forget, slip = human_values(player.params)
    forgotten = forget_cards(table, seat, forget, rng) if forget > 0 else []
    slipped = slips(slip, rng)
    if slipped:
        source = random_source(table, rng)
    else:
        source = choose_source(table, player, seat, rng)
    card = take_from_stock(table, seat) if source == Source.STOCK else take_from_discard(table)
    # A card a slip took from the pile is placed at random as well, with no draw for a slip:
    # the strategy may have no legal place for a card it would never take (passive, threshold).
    slipped_place = (slipped and source == Source.DISCARD_PILE) or slips(slip, rng)
    if slipped_place:
        place = random_place(source == Source.DISCARD_PILE, rng)
    else:
        place = choose_place(table, player, seat, card, source, rng)
    if place == Place.DISCARD:
        throw_on_discard(table, card)  # RULES.md §3: discard it face up (only a card from the stock)
        discarded = card
    else:
        discarded = swap_into_slot(table, seat, int(place), card, source == Source.DISCARD_PILE)
    record = Turn(
        turn=table.turn,
        seat=seat,
        source=int(source),
        taken=card,
        place=int(place),
        discarded=discarded,
        forgotten=tuple(forgotten),
        slips=(slipped, slipped_place),
    )
    table.turns.append(record)
    table.turn += 1
    return record


def round_over(table: Table) -> bool:
    """RULES.md §3: the round ends after the turn that drew the last stock card, or at the 400-turn cap."""
    return not table.stock or table.turn >= TURN_CAP


def capped(table: Table) -> bool:
    """RULES.md §3: a round that ended at the cap rather than by emptying the stock is `capped`."""
    return table.turn >= TURN_CAP and bool(table.stock)


# --- the score ------------------------------------------------------------------


def score_half(slots: Sequence[int], ghost: int, rules: Rules) -> int:
    """RULES.md §3: the four slots plus the ghost, in half points (lower is better)."""
    values = rules.values_half()
    return int(sum(int(values[rank_of(c)]) for c in slots) + int(values[rank_of(ghost)]))


# --- a round and a match --------------------------------------------------------


def check_players(players: Sequence[Player]) -> None:
    if len(players) != N_SEATS:
        raise ValueError(f"Spøkelse is for two players, got {len(players)}")


def play_round(
    rules: Rules,
    players: Sequence[Player],
    *,
    seed: int,
    game: int,
    deal: int = 0,
    dealer: int = 1,
    totals_half: tuple[int, int] = (0, 0),
    match_play: bool = False,
) -> RoundRecord:
    """Play one round: deal -> turns -> end -> score.

    ``totals_half`` are the seats' match totals before this round, shown in the
    observation only.  ``match_play`` puts ``rules.target_half()`` in the
    observation's TARGET (0 in round play); :func:`play_match` sets it.
    """
    check_players(players)
    # Deal: the DEAL stream's shuffle (docs/random-streams.md)
    table = deal_cards(
        rules,
        shuffle_deck(seed, game, deal),
        dealer=dealer,
        totals_half=totals_half,
        target_half=rules.target_half() if match_play else 0,
    )
    initial_slots = (tuple(table.slots[0]), tuple(table.slots[1]))
    initial_discard = table.discard[-1]
    rngs = decide_streams(seed, game, deal, player_salts(players))  # a copy's own streams
    # Turns: the non-dealer first, alternating, until the stock is empty (or the cap)
    while not round_over(table):
        play_turn(table, players, rngs)
    # End and score: rows turned over, the ghosts last (RULES.md §3)
    scores = tuple(score_half(table.slots[s], table.ghosts[s], rules) for s in range(N_SEATS))
    return RoundRecord(
        dealer=dealer,
        ghosts=(table.ghosts[0], table.ghosts[1]),
        initial_slots=initial_slots,
        final_slots=(tuple(table.slots[0]), tuple(table.slots[1])),
        initial_discard=initial_discard,
        scores_half=(scores[0], scores[1]),
        capped=capped(table),
        turns=list(table.turns),
    )


def first_dealer(seed: int, game: int) -> int:
    """RULES.md §3: round 1's dealer is drawn at random (docs/random-streams.md: DEALER.below(2))."""
    return Stream(seed, game, DEALER).below(N_SEATS)


def match_over(totals_half: Sequence[int], rules: Rules) -> bool:
    """RULES.md §3: after a round, the match ends if a total has reached the target."""
    return max(totals_half) >= rules.target_half()


def match_loser(totals_half: Sequence[int]) -> int:
    """RULES.md §3: the higher total loses; equal totals are a draw (-1)."""
    if totals_half[0] == totals_half[1]:
        return -1
    return 0 if totals_half[0] > totals_half[1] else 1


def play_match(rules: Rules, players: Sequence[Player], *, seed: int, game: int) -> MatchRecord:
    """Play rounds until a total reaches the target; round r uses deal r, the deal alternates.

    Every round adds at least ½ point to each total (five cards, at most four
    eights), so a match always ends.
    """
    check_players(players)
    first = first_dealer(seed, game)
    dealer = first
    totals = [0, 0]
    rounds: list[RoundRecord] = []
    while True:
        record = play_round(
            rules,
            players,
            seed=seed,
            game=game,
            deal=len(rounds),
            dealer=dealer,
            totals_half=(totals[0], totals[1]),
            match_play=True,
        )
        rounds.append(record)
        for seat in range(N_SEATS):
            totals[seat] += record.scores_half[seat]  # RULES.md §3: round scores add up per player
        if match_over(totals, rules):
            break
        dealer = other(dealer)  # RULES.md §3: the deal alternates
    return MatchRecord(
        first_dealer=first, rounds=rounds, totals_half=(totals[0], totals[1]), loser=match_loser(totals)
    )
