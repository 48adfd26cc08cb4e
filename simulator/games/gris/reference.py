"""Gris, the readable reference: RULES.md §1 played in plain Python, with §4 reaction and §6 stalls.

This module is written from the rulebook (``docs/RULES.md`` §1, §4, §6) and the
random-stream contract (``docs/random-streams.md``), independently of the fast
numba kernel.  Tests replay the kernel against it move by move, so it follows
the contract to the letter and favours plainness over speed.

A round reads in the order a person plays it::

    shuffle_deck -> deal_cards -> dealt_signallers
      -> play_turn (choose_card -> pass_card -> arrive [-> exchange] -> signals) ...
         until somebody signals or the stall cap
      -> touch_times -> last_to_touch (the letter)

A *player* is any object with ``name: str``, ``params`` (a float64 array) and
``decide(obs, params, rng) -> int``, the card code to pass.  It is asked with
six cards in hand and an observation laid out as in
:mod:`simulator.games.gris.observation`; each seat keeps one observation array
for the whole round, so the strategy's MEMORY fields survive between its turns.
Its ``rng`` is its seat's DECIDE stream for the deal, a one-element uint64
array it draws from itself (``simulator.engine.rng.below_nb``).

The move-by-move record is a list of :class:`Event` (4-tuples
``(kind, seat, card, other)``): ``(PASS, seat, card, to_seat)`` and
``(EXCHANGE, seat, card, drawn)``.  A pass includes the card's arrival at the
left neighbour, so an exchange is logged right after the pass that brought the
card home, before its owner's own pass (also when that pass was the signalling
pass that ended the round).
"""

from __future__ import annotations

import operator
from bisect import insort
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import NamedTuple, Protocol

import numpy as np

from simulator.engine.cards import N_CARDS, N_SUITS, name, suit_of
from simulator.engine.reaction import DEFAULT_MEDIAN, DEFAULT_SIGMA, last_to_touch, touch_times
from simulator.engine.rng import DEAL, DEALER, DECIDE, Stream
from simulator.errors import IllegalMove
from simulator.games import illegal as wording
from simulator.games.gris.observation import (
    HAND,
    HAND_SIZE,
    INCOMING,
    INCOMING_DRAWN,
    MAX_HAND,
    MY_PASSES,
    N_PLAYERS,
    OBS_SIZE,
    PASSED_SUIT,
    PASSES,
    RECEIVED_SUIT,
    SEAT,
    SUIT_COUNT,
)
from simulator.games.gris.variants import ABANDON_AFTER, MAX_SEATS, MIN_SEATS, STALL_CAP, Rules

CARDS_PER_PLAYER = 5  # RULES.md §1: five cards to each player ...
GOAL = 5  # RULES.md §1: five cards of one suit in hand
LETTERS = "GRIS"  # RULES.md §1: the first player to hold all four letters loses
NO_OWNER = -1
NO_CARD = -1

# Event kinds (the shared interface with the kernel's log).
PASS = 0
EXCHANGE = 1

__all__ = [
    "ABANDON_AFTER",
    "EXCHANGE",
    "PASS",
    "Event",
    "IllegalAction",
    "MatchRecord",
    "Player",
    "RoundRecord",
    "Table",
    "arrive",
    "cards_in_play",
    "choose_card",
    "deal_cards",
    "dealt_signallers",
    "decide_streams",
    "exchange",
    "first_dealer",
    "format_match",
    "format_round",
    "is_one_suit",
    "observe",
    "pass_card",
    "play_deal",
    "play_match",
    "play_round",
    "play_round_from_deck",
    "play_turn",
    "returns_to_stock",
    "shuffle_deck",
    "signals",
    "six_card_seat",
]


class IllegalAction(IllegalMove):
    """A strategy answered with a card it does not hold."""


class Player(Protocol):
    """Anything that can sit at the table: a name, parameters and a decision function."""

    name: str
    params: np.ndarray
    decide: Callable[[np.ndarray, np.ndarray, np.ndarray], int]


class Event(NamedTuple):
    """One move: ``(PASS, seat, card, to_seat)`` or ``(EXCHANGE, seat, card, drawn)``."""

    kind: int
    seat: int
    card: int
    other: int


# --- records ------------------------------------------------------------------


@dataclass
class RoundRecord:
    """Everything that happened in one round; tuples are indexed by seat.

    ``passes`` counts every pass including the signaller's last (RULES.md §1);
    ``signallers`` are the seats dealt a complete five-card hand, or the one
    seat that signalled after passing; ``times`` are the touch times (RULES.md
    §4), empty for a stalled round, whose ``loser`` is -1.
    """

    dealer: int
    six_seat: int
    hands_dealt: tuple[tuple[int, ...], ...]
    events: list[Event]
    passes: int
    stalled: bool
    signallers: tuple[int, ...]
    times: tuple[float, ...]
    loser: int
    final_hands: tuple[tuple[int, ...], ...]


@dataclass
class MatchRecord:
    """A match: every deal in order (stalled ones included), the letters, and the loser.

    ``loser`` is the seat that got all four letters, -1 if the match was abandoned
    after ``ABANDON_AFTER`` stalled rounds in a row; ``counted_rounds`` leaves
    the stalled rounds out (RULES.md §6).
    """

    first_dealer: int
    rounds: list[RoundRecord]
    letters: tuple[int, ...]
    loser: int
    abandoned: bool
    counted_rounds: int


# --- the table ----------------------------------------------------------------


@dataclass
class Table:
    """The state of one round: where every card lies and where each card's trip stands.

    Every one of the 52 cards is in exactly one place at all times: a hand or
    the stock.  A card being passed goes straight from one hand to the next.
    """

    rules: Rules
    n: int
    dealer: int
    hands: list[list[int]]  # hands[seat], kept in ascending card code
    stock: deque[int]  # face down, a queue: stock[0] is the top (drawn next), stock[-1] the bottom
    owner: list[int]  # owner[card]: the seat that started the card's current trip, NO_OWNER if none
    straight: list[bool]  # straight[card]: nobody has kept the card for a turn on its current trip
    to_play: int  # the seat holding six cards, about to pass
    incoming: list[int]  # incoming[seat]: the card that arrived this turn (received or drawn), or NO_CARD
    incoming_drawn: list[bool]  # incoming[seat] was drawn from the stock in an exchange
    received_suit: list[list[int]]  # received_suit[seat][s]: cards of suit s received from the right
    passed_suit: list[list[int]]  # passed_suit[seat][s]: cards of suit s this seat passed
    my_passes: list[int]  # my_passes[seat]: passes this seat has made
    obs: list[np.ndarray]  # one observation array per seat for the round (MEMORY survives in it)
    events: list[Event]
    passes: int = 0  # passes made in the round, by anyone


def left_of(seat: int, n: int) -> int:
    """RULES.md §1: "left" is the next seat, (i + 1) % n."""
    return (seat + 1) % n


def six_card_seat(dealer: int, n: int) -> int:
    """RULES.md §1: the player left of the dealer gets a sixth card (and passes first)."""
    return left_of(dealer, n)


def shuffle_deck(seed: int, game: int, deal: int = 0) -> list[int]:
    """The deal's deck: the DEAL stream's Fisher-Yates shuffle of the 52 cards."""
    # docs/random-streams.md: deck = shuffled(52) from the DEAL stream (seed, game, 1, deal, 0)
    return Stream(seed, game, DEAL, deal).shuffled(N_CARDS)


def decide_streams(seed: int, game: int, deal: int, n: int) -> list[np.ndarray]:
    """Each seat's DECIDE stream for the deal, as the one-element array its strategy draws from."""
    # docs/random-streams.md: DECIDE is keyed by (seed, game, 2, deal, seat); only strategies draw
    return [Stream(seed, game, DECIDE, deal, seat).as_array() for seat in range(n)]


def first_dealer(seed: int, game: int, n: int) -> int:
    """RULES.md §1: round 1's dealer is drawn at random (docs/random-streams.md: DEALER.below(n))."""
    return Stream(seed, game, DEALER).below(n)


def check_table(n: int, dealer: int) -> None:
    if not MIN_SEATS <= n <= MAX_SEATS:
        raise ValueError(f"Gris is for {MIN_SEATS} to {MAX_SEATS} players, got {n}")
    if not 0 <= dealer < n:
        raise ValueError(f"dealer must be a seat 0..{n - 1}, not {dealer!r}")


def deal_cards(rules: Rules, deck: Sequence[int], n: int, dealer: int) -> Table:
    """Deal a round from ``deck`` (dealt from ``deck[0]`` onwards) and lay out the table."""
    check_table(n, dealer)
    if sorted(deck) != list(range(N_CARDS)):
        raise ValueError("the deck must hold each of the 52 cards exactly once")
    six = six_card_seat(dealer, n)
    hands: list[list[int]] = [[] for _ in range(n)]
    # RULES.md §1: five cards to each, one at a time, starting left of the dealer and going left
    for k in range(CARDS_PER_PLAYER * n):
        hands[(six + k) % n].append(deck[k])
    # RULES.md §1: the player left of the dealer gets a sixth
    hands[six].append(deck[CARDS_PER_PLAYER * n])
    # RULES.md §1: the remaining 52 - 5n - 1 cards form the stock, a queue (top = drawn first)
    stock = deque(deck[CARDS_PER_PLAYER * n + 1 :])
    return Table(
        rules=rules,
        n=n,
        dealer=dealer,
        hands=[sorted(h) for h in hands],
        stock=stock,
        owner=[NO_OWNER] * N_CARDS,  # RULES.md §1: a card dealt has no owner until it is passed
        straight=[False] * N_CARDS,
        to_play=six,
        incoming=[NO_CARD] * n,
        incoming_drawn=[False] * n,
        received_suit=[[0] * N_SUITS for _ in range(n)],
        passed_suit=[[0] * N_SUITS for _ in range(n)],
        my_passes=[0] * n,
        obs=[np.full(OBS_SIZE, -1, dtype=np.int64) for _ in range(n)],  # MEMORY is -1 at the deal
        events=[],
    )


def cards_in_play(table: Table) -> list[int]:
    """How many times each card lies on the table (hands and stock); all ones when nothing is lost."""
    count = [0] * N_CARDS
    for hand in table.hands:
        for c in hand:
            count[c] += 1
    for c in table.stock:
        count[c] += 1
    return count


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


# --- what a player sees ---------------------------------------------------------


def observe(table: Table, seat: int) -> np.ndarray:
    """Refresh ``seat``'s observation array (layout: ``observation.py``); MEMORY is left alone."""
    obs = table.obs[seat]
    hand = table.hands[seat]
    obs[SEAT] = seat
    obs[N_PLAYERS] = table.n
    obs[PASSES] = table.passes
    obs[MY_PASSES] = table.my_passes[seat]
    obs[HAND_SIZE] = len(hand)
    obs[INCOMING] = table.incoming[seat]  # -1 for the six-card seat's first pass
    obs[INCOMING_DRAWN] = 1 if table.incoming_drawn[seat] else 0
    obs[HAND : HAND + MAX_HAND] = list(hand) + [NO_CARD] * (MAX_HAND - len(hand))  # ascending
    for s in range(N_SUITS):
        obs[SUIT_COUNT + s] = sum(1 for c in hand if suit_of(c) == s)
        obs[RECEIVED_SUIT + s] = table.received_suit[seat][s]
        obs[PASSED_SUIT + s] = table.passed_suit[seat][s]
    return obs


def as_card(value: object) -> int | None:
    """The answer as an int, or None when it is not an integer at all."""
    try:
        return operator.index(value)  # type: ignore[arg-type]
    except TypeError:
        return None


def choose_card(table: Table, player: Player, seat: int, rng: np.ndarray) -> int:
    """RULES.md §1: the holder of six cards chooses one card to pass; it must be in the hand."""
    hand = table.hands[seat]
    value = player.decide(observe(table, seat), player.params, rng)
    card = as_card(value)
    if card is None or card not in hand:
        card_name = name(card) if card is not None and 0 <= card < N_CARDS else None
        when = f"pass {table.passes + 1} (PASSES={table.passes})"
        raise IllegalAction(  # the wording is shared with runs (simulator/games/illegal.py)
            wording.not_held(
                player.name, seat, value, card_name, "choosing a card to pass", when, [name(c) for c in hand]
            )
        )
    return card


# --- the moves ------------------------------------------------------------------


def start_trip(table: Table, seat: int, card: int) -> None:
    """RULES.md §1: ``seat`` becomes the card's owner and a new, straight trip begins."""
    table.owner[card] = seat
    table.straight[card] = True


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
    """The passed card reaches ``seat``; back at its owner it may be exchanged (RULES.md §1)."""
    table.received_suit[seat][suit_of(card)] += 1  # counted when received, even if exchanged
    if table.owner[card] == seat and returns_to_stock(table.rules, table.straight[card]):
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


def play_turn(table: Table, players: Sequence[Player], rngs: Sequence[np.ndarray]) -> bool:
    """One turn: the six-card holder passes a card left, it arrives; True if the passer signals.

    The card arrives (and is exchanged if due) also when the pass was the signalling one:
    the pass is complete before the thumb goes down.
    """
    seat = table.to_play
    card = choose_card(table, players[seat], seat, rngs[seat])
    left = pass_card(table, seat, card)
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
    signallers, stalled = play_deal(table, players, decide_streams(seed, game, deal, n), stall_cap)
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


# --- traces ----------------------------------------------------------------------


def _names(n: int, names: Sequence[str] | None) -> list[str]:
    if names is None:
        return [f"seat {s}" for s in range(n)]
    return [f"seat {s} ({names[s]})" for s in range(n)]


def _cards(cards: Sequence[int]) -> str:
    return " ".join(name(c) for c in cards)


def spelled(letters: int) -> str:
    """The letters held so far: 0 -> '-', 2 -> 'G-R'."""
    return "-".join(LETTERS[:letters]) if letters else "-"


def format_round(record: RoundRecord, names: Sequence[str] | None = None) -> str:
    """A pass-by-pass trace of a round, for people (``names`` are the players' names, optional)."""
    n = len(record.hands_dealt)
    who = _names(n, names)
    stock = N_CARDS - CARDS_PER_PLAYER * n - 1
    lines = [f"Deal: {who[record.dealer]} deals; {who[record.six_seat]} holds six; stock {stock} cards."]
    for seat in range(n):
        lines.append(f"  {who[seat]}: {_cards(record.hands_dealt[seat])}")
    if record.events:
        lines.append("Passes:")
    passes = 0
    for ev in record.events:
        if ev.kind == PASS:
            passes += 1
            lines.append(f"  pass {passes:5d}  {who[ev.seat]} passes {name(ev.card)} to {who[ev.other]}")
        else:
            lines.append(
                f"              {who[ev.seat]} gets {name(ev.card)} back after a trip round the table: "
                f"it goes to the bottom of the stock, {who[ev.seat]} draws {name(ev.other)}"
            )
    if record.stalled:
        lines.append(f"Stalled: no signal after {record.passes} passes; no letter.")
        return "\n".join(lines)
    if record.passes == 0:
        sig = ", ".join(who[s] for s in record.signallers)
        lines.append(f"Signal at the deal (0 passes): {sig} dealt five of one suit.")
    else:
        seat = record.signallers[0]
        lines.append(
            f"Signal after pass {record.passes}: {who[seat]} holds "
            f"{_cards(record.final_hands[seat])}, five of one suit."
        )
    lines.append("Thumbs on the table edge (seconds after the hands became complete):")
    order = sorted(range(n), key=lambda s: (record.times[s], s))
    for seat in order:
        how = "signaller" if seat in record.signallers else "reacts to the first thumb"
        lines.append(f"  {record.times[seat]:8.4f}  {who[seat]} ({how})")
    lines.append(f"  {who[record.loser]} is the last to touch and gets a letter.")
    return "\n".join(lines)


def format_match(record: MatchRecord, names: Sequence[str] | None = None) -> str:
    """A round-by-round trace of a match, each round pass by pass, with the letters so far."""
    n = len(record.letters)
    who = _names(n, names)
    lines = [f"Match: {who[record.first_dealer]} deals first (drawn); the dealer moves left each round."]
    letters = [0] * n
    counted = 0
    for deal, rnd in enumerate(record.rounds):
        lines.append("")
        if rnd.stalled:
            lines.append(f"=== Deal {deal}: stalled, re-dealt by the same dealer (not counted) ===")
        else:
            counted += 1
            lines.append(f"=== Round {counted} (deal {deal}) ===")
        lines.append(format_round(rnd, names))
        if not rnd.stalled:
            letters[rnd.loser] += 1
            lines.append(f"  {who[rnd.loser]} now holds {spelled(letters[rnd.loser])}.")
            lines.append("  Letters: " + ", ".join(f"{who[s]} {spelled(letters[s])}" for s in range(n)))
    lines.append("")
    if record.abandoned:
        lines.append(
            f"Match abandoned after {ABANDON_AFTER} stalled rounds in a row "
            f"({record.counted_rounds} counted rounds)."
        )
    else:
        lines.append(
            f"Match over after {record.counted_rounds} round{'s' if record.counted_rounds != 1 else ''}: "
            f"{who[record.loser]} holds G-R-I-S and loses."
        )
    return "\n".join(lines)
