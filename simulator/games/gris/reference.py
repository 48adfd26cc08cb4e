"""Gris, the readable reference: RULES.md §1 played in plain Python, with §4 reaction and §6 stalls.

This module is written from the rulebook (``docs/RULES.md`` §1, §4, §6) and the
random-stream contract (``docs/random-streams.md``), independently of the fast
numba kernel.  Tests replay the kernel against it move by move, so it follows
the contract to the letter and favours plainness over speed.

A round reads in the order a person plays it::

    shuffle_deck -> deal_cards -> dealt_signallers
      -> play_turn ([slipped_card or] choose_card -> pass_card [-> forget_after_pass]
                    -> arrive [-> exchange] -> signals) ...
         until somebody signals or the stall cap
      -> touch_times -> last_to_touch (the letter)

The reference is four modules of one responsibility each, and the names a round
is played with are importable from here:

- :mod:`~simulator.games.gris.reference_table`: the table, the deal and the
  move log (``Table``, ``shuffle_deck``, ``deal_cards``, ``Event``);
- :mod:`~simulator.games.gris.reference_view`: what a player sees and how its
  answer is read and checked (``Player``, ``observe``, ``choose_card``), and what a
  player who forgets or slips does (docs/human-players.md: ``slipped_card``,
  ``forget_after_pass``);
- this module: the signals, the moves, a round and a match;
- :mod:`~simulator.games.gris.reference_records`: the records of a round and a
  match, and how they read as a trace (``RoundRecord``, ``format_round``).
"""

from __future__ import annotations

from bisect import insort
from collections.abc import Sequence

import numpy as np

from simulator.engine.cards import suit_of
from simulator.engine.reaction import DEFAULT_MEDIAN, DEFAULT_SIGMA, last_to_touch, touch_times
from simulator.games.gris.reference_records import (
    MatchRecord,
    RoundRecord,
    format_match,
    format_round,
    spelled,
)
from simulator.games.gris.reference_table import (
    CARDS_PER_PLAYER,
    EXCHANGE,
    GOAL,
    LETTERS,
    NO_CARD,
    NO_OWNER,
    PASS,
    Event,
    Table,
    cards_in_play,
    check_table,
    deal_cards,
    first_dealer,
    left_of,
    seat_streams,
    shuffle_deck,
    six_card_seat,
)
from simulator.games.gris.reference_view import (
    IllegalAction,
    Player,
    as_card,
    choose_card,
    forget_after_pass,
    human_values,
    observe,
    slipped_card,
)
from simulator.games.gris.variants import ABANDON_AFTER, STALL_CAP, Rules

__all__ = [
    "ABANDON_AFTER",
    "CARDS_PER_PLAYER",
    "EXCHANGE",
    "GOAL",
    "LETTERS",
    "NO_CARD",
    "NO_OWNER",
    "PASS",
    "Event",
    "IllegalAction",
    "MatchRecord",
    "Player",
    "RoundRecord",
    "Table",
    "arrive",
    "as_card",
    "cards_in_play",
    "check_table",
    "choose_card",
    "deal_cards",
    "dealt_signallers",
    "default_profiles",
    "exchange",
    "first_dealer",
    "format_match",
    "format_round",
    "is_one_suit",
    "left_of",
    "observe",
    "pass_card",
    "pass_turn",
    "play_deal",
    "play_match",
    "play_round",
    "play_round_from_deck",
    "play_turn",
    "returns_to_stock",
    "shuffle_deck",
    "signals",
    "six_card_seat",
    "spelled",
    "start_trip",
]


# --- signals --------------------------------------------------------------------


def is_one_suit(hand: Sequence[int]) -> bool:
    """RULES.md §1, the goal: five cards of one suit in hand (ranks do not matter)."""
    return len(hand) == GOAL and len({suit_of(c) for c in hand}) == 1


def dealt_signallers(table: Table) -> tuple[int, ...]:
    """RULES.md §1: every player dealt five of one suit in a five-card hand signals before the first pass.

    The six-card seat is never complete before it passes.
    """
    return tuple(seat for seat in range(table.n) if is_one_suit(table.hands[seat]))


def signals(table: Table, seat: int) -> bool:
    """RULES.md §1: a player whose five-card hand, after passing, is all one suit signals.

    Only the passer's five-card hand changed, so only the passer can have become complete.
    """
    return is_one_suit(table.hands[seat])


# --- the moves ------------------------------------------------------------------


def start_trip(table: Table, seat: int, card: int) -> None:
    """RULES.md §1: ``seat`` becomes the card's owner and a new, straight trip begins; the
    owner will claim it when it comes back (unless it forgets it, docs/human-players.md)."""
    table.owner[card] = seat
    table.straight[card] = True
    table.claims[seat].add(card)


def pass_card(table: Table, seat: int, card: int) -> int:
    """RULES.md §1: ``seat`` passes ``card`` face down to the left; returns the receiver.

    The card goes from hand to hand; :func:`arrive` then settles what happens on arrival.
    """
    kept = table.incoming[seat]
    if kept != NO_CARD and kept != card and not table.incoming_drawn[seat]:
        # RULES.md §1: the trip stops being straight as soon as somebody keeps the card for a turn
        table.straight[kept] = False
    if table.owner[card] in (NO_OWNER, seat):
        # RULES.md §1: the owner is who passed it first after it was dealt or drawn, and again
        # each time its owner passes it on
        start_trip(table, seat, card)
    left = left_of(seat, table.n)
    table.hands[seat].remove(card)
    insort(table.hands[left], card)
    table.passed_suit[seat][suit_of(card)] += 1
    table.my_passes[seat] += 1
    table.passes += 1
    table.incoming[seat] = NO_CARD
    table.incoming_drawn[seat] = False
    table.events.append(Event(PASS, seat, card, left))
    table.to_play = left  # RULES.md §1: the receiver now holds six
    return left


def returns_to_stock(rules: Rules, straight_trip: bool) -> bool:
    """RULES.md §1 circulation rule and its variant: is a card back at its owner exchanged?"""
    if rules.circulation == "always":
        return True  # variant `always`: every card that arrives back at its owner
    if rules.circulation == "off":
        return False  # variant `off`: no exchanges
    return straight_trip  # `straight`: only after a straight trip ("Dette kortet har jeg hatt før")


def arrive(table: Table, seat: int, card: int) -> None:
    """The passed card reaches ``seat``; back at its owner it may be exchanged (RULES.md §1),
    if the owner claims it: it remembers passing it (docs/human-players.md)."""
    table.received_suit[seat][suit_of(card)] += 1  # counted when received, even if exchanged
    claimed = card in table.claims[seat]
    table.claims[seat].discard(card)  # back with its owner: in hand, or under the stock
    if claimed and table.owner[card] == seat and returns_to_stock(table.rules, table.straight[card]):
        table.incoming[seat] = exchange(table, seat, card)
        table.incoming_drawn[seat] = True
    else:
        # RULES.md §1: after a trip that was not straight, the owner takes it as an ordinary card
        table.incoming[seat] = card
        table.incoming_drawn[seat] = False


def exchange(table: Table, seat: int, card: int) -> int:
    """RULES.md §1: the card goes to the bottom of the stock and ``seat`` draws the top card instead.

    The exchange is not a pass.  Returns the drawn card, which has no owner until it is passed.
    """
    table.hands[seat].remove(card)
    table.stock.append(card)  # to the bottom of the stock ...
    table.owner[card] = NO_OWNER
    table.straight[card] = False
    drawn = table.stock.popleft()  # ... then the top card is drawn
    table.owner[drawn] = NO_OWNER  # RULES.md §1: the drawn card has no owner until it is passed
    table.straight[drawn] = False
    insort(table.hands[seat], drawn)
    table.events.append(Event(EXCHANGE, seat, card, drawn))
    return drawn


def pass_turn(table: Table, players: Sequence[Player], rngs: Sequence[np.ndarray]) -> tuple[int, int]:
    """The six-card holder chooses a card and passes it left: ``(receiver, card)``; it has
    not arrived yet (:func:`arrive`).

    docs/human-players.md: a player who slips may pass a random card instead of asking its
    strategy; a player who forgets forgets right after its pass.
    """
    seat = table.to_play
    player, rng = players[seat], rngs[seat]
    forget, slip = human_values(player.params)
    card = slipped_card(table, seat, slip, rng)
    if card is None:
        card = choose_card(table, player, seat, rng)
    left = pass_card(table, seat, card)
    forget_after_pass(table, seat, forget, rng)
    return left, card


def play_turn(table: Table, players: Sequence[Player], rngs: Sequence[np.ndarray]) -> bool:
    """One turn: the six-card holder passes a card left, it arrives; True if the passer signals.

    The card arrives (and is exchanged if due) also when the pass was the signalling one:
    the pass is complete before the thumb goes down.
    """
    seat = table.to_play
    left, card = pass_turn(table, players, rngs)
    arrive(table, left, card)  # an exchange, if due, comes before the owner's own pass
    return signals(table, seat)


def play_deal(
    table: Table, players: Sequence[Player], rngs: Sequence[np.ndarray], stall_cap: int = STALL_CAP
) -> tuple[tuple[int, ...], bool]:
    """Play a dealt table to its signal: ``(signallers, stalled)``.

    RULES.md §1: several players dealt a complete five-card hand all signal together, before
    any pass; otherwise passing goes round until a passer signals, or the round stalls with no
    signal after ``stall_cap`` passes.
    """
    dealt = dealt_signallers(table)
    if dealt:
        return dealt, False
    while table.passes < stall_cap:
        seat = table.to_play
        if play_turn(table, players, rngs):
            return (seat,), False
    return (), True  # RULES.md §1 stall guard: no signal after stall_cap passes


# --- a round and a match --------------------------------------------------------


def default_profiles(n: int) -> tuple[tuple[float, float], ...]:
    """RULES.md §4: m = 0.8 s, sigma = 0.35 for everyone unless set per seat."""
    return ((DEFAULT_MEDIAN, DEFAULT_SIGMA),) * n


def play_round_from_deck(
    rules: Rules,
    players: Sequence[Player],
    deck: Sequence[int],
    *,
    seed: int,
    game: int,
    deal: int = 0,
    dealer: int | None = None,
    profiles: Sequence[tuple[float, float]] | None = None,
    stall_cap: int = STALL_CAP,
) -> RoundRecord:
    """Play one round dealt from ``deck`` (hand-made positions); decisions and reactions
    still draw from the streams of ``(seed, game, deal)``."""
    n = len(players)
    dealer = n - 1 if dealer is None else dealer  # RULES.md §1: seat n-1 deals in round simulations
    table = deal_cards(rules, deck, n, dealer)
    prof = default_profiles(n) if profiles is None else tuple(profiles)
    if len(prof) != n:
        raise ValueError(f"{len(prof)} reaction profiles for {n} players")
    hands_dealt = tuple(tuple(h) for h in table.hands)
    signallers, stalled = play_deal(table, players, seat_streams(seed, game, deal, players), stall_cap)
    if stalled:
        times: tuple[float, ...] = ()
        loser = -1  # RULES.md §1: a stalled round gives no letter
    else:
        # RULES.md §4: signallers touch at S_i, the others at min S + R_i; the latest touch loses
        flags = [seat in signallers for seat in range(n)]
        times = tuple(touch_times(seed, game, deal, flags, prof))
        loser = last_to_touch(times)
    return RoundRecord(
        dealer=dealer,
        six_seat=six_card_seat(dealer, n),
        hands_dealt=hands_dealt,
        events=list(table.events),
        passes=table.passes,
        stalled=stalled,
        signallers=signallers,
        times=times,
        loser=loser,
        final_hands=tuple(tuple(h) for h in table.hands),
    )


def play_round(
    rules: Rules,
    players: Sequence[Player],
    *,
    seed: int,
    game: int,
    deal: int = 0,
    dealer: int | None = None,
    profiles: Sequence[tuple[float, float]] | None = None,
    stall_cap: int = STALL_CAP,
) -> RoundRecord:
    """Play one round: shuffle -> deal -> passes until a signal (or the stall cap) -> thumbs.

    ``dealer`` None is seat n-1 (round simulations); ``profiles`` None gives every seat the
    default reaction profile.
    """
    return play_round_from_deck(
        rules,
        players,
        shuffle_deck(seed, game, deal),
        seed=seed,
        game=game,
        deal=deal,
        dealer=dealer,
        profiles=profiles,
        stall_cap=stall_cap,
    )


def play_match(
    rules: Rules,
    players: Sequence[Player],
    *,
    seed: int,
    game: int,
    profiles: Sequence[tuple[float, float]] | None = None,
    stall_cap: int = STALL_CAP,
) -> MatchRecord:
    """Play rounds until somebody holds G-R-I-S (or the match is abandoned).

    RULES.md §1: round 1's dealer is drawn at random, the dealer moves one seat left each
    round; the last to touch gets the next letter.  RULES.md §6: a stalled round is re-dealt
    (next deal index) by the same dealer and not counted; 100 in a row abandon the match.
    """
    n = len(players)
    first = first_dealer(seed, game, n)
    dealer = first
    letters = [0] * n
    rounds: list[RoundRecord] = []
    stalled_in_a_row = 0
    counted = 0
    while True:
        record = play_round(
            rules,
            players,
            seed=seed,
            game=game,
            deal=len(rounds),  # docs/random-streams.md: deal counts every deal, re-deals included
            dealer=dealer,
            profiles=profiles,
            stall_cap=stall_cap,
        )
        rounds.append(record)
        if record.stalled:
            stalled_in_a_row += 1
            if stalled_in_a_row >= ABANDON_AFTER:
                return MatchRecord(first, rounds, tuple(letters), -1, True, counted)
            continue  # RULES.md §6: re-dealt by the same dealer, not counted
        stalled_in_a_row = 0
        counted += 1
        letters[record.loser] += 1  # RULES.md §1: the last to touch gets the next letter
        if letters[record.loser] == len(LETTERS):
            return MatchRecord(first, rounds, tuple(letters), record.loser, False, counted)
        dealer = left_of(dealer, n)  # RULES.md §1: the dealer moves one seat left each round
