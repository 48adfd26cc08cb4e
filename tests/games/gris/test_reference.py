"""The plain-Python Gris reference (RULES.md §1, §4, §6) against the rulebook and the stream contract.

Hand-made positions are dealt from hand-made decks (:func:`deck_for`); the small
strategies below are plain Python so that each test says exactly what every
seat does.
"""

from __future__ import annotations

import math
from abc import ABC, abstractmethod
from collections import Counter
from collections.abc import Sequence

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from simulator.engine.cards import N_CARDS, N_SUITS, parse_card, suit_of
from simulator.engine.rng import DEALER, DECIDE, REACT, Stream, below_nb
from simulator.games.gris.observation import (
    HAND,
    HAND_SIZE,
    INCOMING,
    INCOMING_DRAWN,
    MAX_HAND,
    MEMORY,
    MY_PASSES,
    N_PLAYERS,
    OBS_SIZE,
    PASSED_SUIT,
    PASSES,
    RECEIVED_SUIT,
    SEAT,
    SUIT_COUNT,
)
from simulator.games.gris.reference import (
    EXCHANGE,
    PASS,
    IllegalAction,
    MatchRecord,
    RoundRecord,
    arrive,
    cards_in_play,
    choose_card,
    deal_cards,
    dealt_signallers,
    format_match,
    format_round,
    pass_card,
    play_match,
    play_round,
    play_round_from_deck,
    play_turn,
    shuffle_deck,
    signals,
)
from simulator.games.gris.reference_table import decide_streams
from simulator.games.gris.variants import ABANDON_AFTER, STALL_CAP, Rules
from strategies.registry import PARAM_ROW

STRAIGHT, ALWAYS, OFF = Rules("straight"), Rules("always"), Rules("off")
VARIANTS = (STRAIGHT, ALWAYS, OFF)


def cards(text: str) -> list[int]:
    """``"♠A ♥10"`` -> card codes."""
    return [parse_card(t) for t in text.split()]


def deck_for(hands: Sequence[Sequence[int]], dealer: int, stock_top: Sequence[int] = ()) -> list[int]:
    """A 52-card deck that deals ``hands`` (the six-card seat's six, everybody else's five)
    with ``stock_top`` on top of the stock, the rest of the stock below in ascending code."""
    n = len(hands)
    six = (dealer + 1) % n
    assert all(len(h) == (6 if s == six else 5) for s, h in enumerate(hands))
    deck = [hands[(six + k) % n][k // n] for k in range(5 * n)] + [hands[six][5]]
    used = set(deck) | set(stock_top)
    assert len(used) == len(deck) + len(stock_top), "a card twice"
    return deck + list(stock_top) + [c for c in range(N_CARDS) if c not in used]


# --- tiny strategies ------------------------------------------------------------


class Strategy(ABC):
    """A plain-Python player: ``choose(obs, rng)`` answers the card to pass."""

    def __init__(self, name: str | None = None) -> None:
        self.name = name or type(self).__name__
        self.params = np.zeros(PARAM_ROW)

    def decide(self, obs: np.ndarray, params: np.ndarray, rng: np.ndarray) -> int:
        return self.choose(obs, rng)

    @abstractmethod
    def choose(self, obs: np.ndarray, rng: np.ndarray) -> int:
        """The card to pass."""


def hand_of(obs: np.ndarray) -> list[int]:
    return [int(c) for c in obs[HAND : HAND + MAX_HAND] if c >= 0]


class PassLowest(Strategy):
    """Pass the lowest card (by code)."""

    def choose(self, obs, rng):
        return int(obs[HAND])


class PassIncoming(Strategy):
    """Always pass the card just received (or drawn); with none (the first pass), the lowest card."""

    def choose(self, obs, rng):
        return int(obs[INCOMING]) if obs[INCOMING] >= 0 else int(obs[HAND])


class Fewest(Strategy):
    """Pass the lowest card of the suit held least (among the suits held; ties: the first suit)."""

    def choose(self, obs, rng):
        held = [s for s in range(N_SUITS) if obs[SUIT_COUNT + s] > 0]
        if len(held) == 1:
            return int(obs[HAND])
        suit = min(held, key=lambda s: (obs[SUIT_COUNT + s], s))
        return min(c for c in hand_of(obs) if suit_of(c) == suit)


class RandomCard(Strategy):
    """RULES.md §5 `random`: below(6) over the six cards in ascending code."""

    def choose(self, obs, rng):
        return int(obs[HAND + below_nb(rng, 6)])


class StallMaker(Strategy):
    """Built to stall: passes the card just received; on the first pass, the lowest card of the
    suit held most (so the six-card seat stays incomplete unless it holds six of one suit)."""

    def choose(self, obs, rng):
        if obs[INCOMING] >= 0:
            return int(obs[INCOMING])
        suit = max(range(N_SUITS), key=lambda s: (obs[SUIT_COUNT + s], -s))
        return min(c for c in hand_of(obs) if suit_of(c) == suit)


class Moody(Strategy):
    """At its first decision of a round draws below(3): 0 -> plays StallMaker for the round,
    else Fewest.  Remembers the choice in MEMORY (so rounds of a match sometimes stall)."""

    def choose(self, obs, rng):
        if obs[MEMORY] < 0:
            obs[MEMORY] = below_nb(rng, 3)
        if obs[MEMORY] == 0:
            return StallMaker().choose(obs, rng)
        return Fewest().choose(obs, rng)


class Script(Strategy):
    """Per seat, the cards to pass on its 1st, 2nd, ... pass; after that, PassIncoming."""

    def __init__(self, script: dict[int, list[int]]) -> None:
        super().__init__("script")
        self.script = script

    def choose(self, obs, rng):
        mine = self.script.get(int(obs[SEAT]), [])
        k = int(obs[MY_PASSES])
        return mine[k] if k < len(mine) else PassIncoming().choose(obs, rng)


class Liar(Strategy):
    def __init__(self, answer: object) -> None:
        super().__init__("liar")
        self.answer = answer

    def choose(self, obs, rng):
        return self.answer  # type: ignore[return-value]


def events_of(rec: RoundRecord) -> list[tuple[int, int, int, int]]:
    return [tuple(e) for e in rec.events]


# --- the deal (RULES.md §1, docs/random-streams.md) ---------------------------------------


@pytest.mark.parametrize("n", [2, 3, 4, 7, 10])
@pytest.mark.parametrize("dealer", [0, 1])
def test_deal_follows_the_stream_contract(n: int, dealer: int) -> None:
    seed, game, deal = 77, 5, 3
    deck = Stream(seed, game, 1, deal).shuffled(N_CARDS)  # DEAL = 1
    assert shuffle_deck(seed, game, deal) == deck
    table = deal_cards(STRAIGHT, deck, n, dealer)
    six = (dealer + 1) % n
    assert table.to_play == six
    for seat in range(n):
        offset = (seat - six) % n
        expected = [deck[offset + n * r] for r in range(5)] + ([deck[5 * n]] if seat == six else [])
        assert table.hands[seat] == sorted(expected)
    assert list(table.stock) == deck[5 * n + 1 :]  # top first
    assert len(table.stock) == 52 - 5 * n - 1
    rec = play_round(STRAIGHT, [Fewest()] * n, seed=seed, game=game, deal=deal, dealer=dealer)
    assert rec.hands_dealt == tuple(tuple(h) for h in table.hands)
    assert rec.six_seat == six and rec.dealer == dealer
    default = play_round(STRAIGHT, [Fewest()] * n, seed=seed, game=game, deal=deal)
    assert (default.dealer, default.six_seat) == (n - 1, 0)  # RULES.md §1: seat n-1 deals, seat 0 holds six


def test_bad_tables_are_refused() -> None:
    deck = list(range(N_CARDS))
    with pytest.raises(ValueError, match="2 to 10 players"):
        deal_cards(STRAIGHT, deck, 1, 0)
    with pytest.raises(ValueError, match="2 to 10 players"):
        play_round(STRAIGHT, [Fewest()] * 11, seed=1, game=0)
    with pytest.raises(ValueError, match="dealer"):
        deal_cards(STRAIGHT, deck, 4, 4)
    with pytest.raises(ValueError, match="52 cards"):
        deal_cards(STRAIGHT, [*deck[:-1], 0], 4, 3)
    with pytest.raises(ValueError, match="profiles"):
        play_round(STRAIGHT, [Fewest()] * 3, seed=1, game=0, profiles=[(0.8, 0.35)] * 2)


# --- the circulation rule (RULES.md §1) ---------------------------------------------------

ROUND4 = [
    cards("♠A ♥2 ♥3 ♦4 ♦5 ♣6"),  # seat 0 holds six; its lowest card is ♠A
    cards("♠2 ♥4 ♦6 ♣7 ♣8"),
    cards("♠3 ♥5 ♦7 ♣9 ♣10"),
    cards("♠4 ♥6 ♦8 ♣J ♣Q"),  # seat 3 deals
]
TOP = cards("♠K ♥K")  # the stock's top two cards


@pytest.mark.parametrize("rules", VARIANTS, ids=lambda r: r.circulation)
def test_a_card_passed_straight_round_the_table_is_exchanged(rules: Rules) -> None:
    """♠A goes 0 -> 1 -> 2 -> 3 -> 0, every receiver passing it straight on."""
    ace, king = parse_card("♠A"), parse_card("♠K")
    table = deal_cards(rules, deck_for(ROUND4, 3, TOP), 4, 3)
    players, rngs = [PassIncoming()] * 4, decide_streams(1, 0, 0, 4)
    stock_before = list(table.stock)
    for _ in range(4):
        assert not play_turn(table, players, rngs)
    passes = [(PASS, s, ace, (s + 1) % 4) for s in range(4)]
    if rules.circulation == "off":
        assert table.events == passes  # no exchange: the owner takes it as an ordinary card
        assert ace in table.hands[0] and list(table.stock) == stock_before
        assert table.incoming[0] == ace and not table.incoming_drawn[0]
        return
    # Back at its owner after a straight trip: to the bottom of the stock, the top card drawn.
    assert table.events == [*passes, (EXCHANGE, 0, ace, king)]
    assert list(table.stock) == [*stock_before[1:], ace]
    assert ace not in table.hands[0] and king in table.hands[0]
    assert table.incoming[0] == king and table.incoming_drawn[0]
    assert table.passes == 4  # the exchange is not a pass
    # The drawn card has no owner until it is passed; seat 0 passes it, so it is seat 0's now,
    # and it comes back straight and is exchanged in its turn.
    for _ in range(4):
        play_turn(table, players, rngs)
    assert table.events[5:] == [(PASS, s, king, (s + 1) % 4) for s in range(4)] + [
        (EXCHANGE, 0, king, parse_card("♥K"))
    ]
    assert list(table.stock)[-2:] == [ace, king]


ROUND3 = [
    cards("♠A ♥2 ♥3 ♦4 ♦5 ♣6"),  # seat 0 holds six
    cards("♠2 ♥4 ♦6 ♣7 ♣8"),
    cards("♠3 ♥5 ♦7 ♣9 ♣10"),  # seat 2 deals
]
# Seat 0 passes ♠A, seat 1 keeps it for a turn (passes ♠2), seat 0 keeps ♠2 (passes ♥2),
# seat 1 then passes ♠A on: ♠A reaches its owner seat 0 at pass 6 after a trip that was not
# straight.  Seat 0 passes it on again (a new straight trip), and it is home at pass 9.
KEPT = Script({0: cards("♠A ♥2"), 1: cards("♠2 ♠A")})


@pytest.mark.parametrize("rules", VARIANTS, ids=lambda r: r.circulation)
def test_a_card_kept_for_a_turn_is_not_exchanged(rules: Rules) -> None:
    ace, two, h2 = cards("♠A ♠2 ♥2")
    top = parse_card("♠K")
    rec = play_round_from_deck(
        rules, [KEPT] * 3, deck_for(ROUND3, 2, TOP), seed=3, game=0, dealer=2, stall_cap=9
    )
    assert rec.stalled and rec.passes == 9 and rec.loser == -1
    first_six = [
        (PASS, 0, ace, 1),
        (PASS, 1, two, 2),  # seat 1 keeps ♠A: its trip is no longer straight
        (PASS, 2, two, 0),
        (PASS, 0, h2, 1),
        (PASS, 1, ace, 2),
        (PASS, 2, ace, 0),  # ♠A is back at its owner
    ]
    assert events_of(rec)[:6] == first_six
    again = [(PASS, 0, ace, 1), (PASS, 1, ace, 2), (PASS, 2, ace, 0)]
    if rules.circulation == "straight":
        # "Den har jeg hatt hele tiden": no exchange at pass 6; seat 0 passing it starts a new,
        # straight trip, so at pass 9 it is exchanged.
        assert events_of(rec)[6:] == [*again, (EXCHANGE, 0, ace, top)]
    elif rules.circulation == "always":
        assert events_of(rec)[6] == (EXCHANGE, 0, ace, top)
        assert events_of(rec)[7:] == [
            (PASS, 0, top, 1),
            (PASS, 1, top, 2),
            (PASS, 2, top, 0),
            (EXCHANGE, 0, top, TOP[1]),  # the stock's next card
        ]
    else:
        assert events_of(rec)[6:] == again
    assert not any(e[0] == EXCHANGE for e in events_of(rec)[:6])


def test_always_exchanges_a_card_after_a_trip_that_was_not_straight_and_straight_does_not() -> None:
    """The same position under the three variants, stopped at pass 6."""
    ace, top = parse_card("♠A"), parse_card("♠K")
    got = {}
    for rules in VARIANTS:
        rec = play_round_from_deck(
            rules, [KEPT] * 3, deck_for(ROUND3, 2, TOP), seed=3, game=0, dealer=2, stall_cap=6
        )
        got[rules.circulation] = [e for e in events_of(rec) if e[0] == EXCHANGE]
    assert got == {"straight": [], "always": [(EXCHANGE, 0, ace, top)], "off": []}


def test_two_players_a_card_passed_straight_back_is_exchanged() -> None:
    """n = 2: the trip 0 -> 1 -> 0 is straight when seat 1 passes the card straight back."""
    hands = [cards("♠A ♥2 ♥3 ♦4 ♦5 ♣6"), cards("♠2 ♥4 ♦6 ♣7 ♣8")]
    rec = play_round_from_deck(
        STRAIGHT, [PassIncoming()] * 2, deck_for(hands, 1, TOP), seed=1, game=0, stall_cap=2
    )
    ace, king = cards("♠A ♠K")
    assert events_of(rec) == [(PASS, 0, ace, 1), (PASS, 1, ace, 0), (EXCHANGE, 0, ace, king)]


def test_a_card_brought_home_by_the_signalling_pass_arrives_before_the_round_ends() -> None:
    """The pass is complete before the thumb goes down, so a card it brings home is exchanged
    (variant `always`).  (With `straight` this cannot happen: a passer that passes on the card
    it just received keeps the five cards it already had, which were not one suit.)

    n = 2: seat 0 passes ♣2; seat 1 keeps it and passes ♠9; seat 0 passes ♥3; seat 1 passes
    ♣2 home and keeps ♥3 ♥4 ♥6 ♥7 ♥8."""
    hands = [cards("♣2 ♥3 ♦4 ♦5 ♦6 ♦7"), cards("♥4 ♥6 ♥7 ♥8 ♠9")]
    script = Script({0: cards("♣2 ♥3"), 1: cards("♠9 ♣2")})
    c2, h3, s9, king = cards("♣2 ♥3 ♠9 ♠K")
    passes = [(PASS, 0, c2, 1), (PASS, 1, s9, 0), (PASS, 0, h3, 1), (PASS, 1, c2, 0)]
    for rules in VARIANTS:
        rec = play_round_from_deck(rules, [script] * 2, deck_for(hands, 1, TOP), seed=1, game=0)
        assert rec.signallers == (1,) and rec.passes == 4 and not rec.stalled
        assert rec.final_hands[1] == tuple(cards("♥3 ♥4 ♥6 ♥7 ♥8"))
        if rules.circulation == "always":
            assert events_of(rec) == [*passes, (EXCHANGE, 0, c2, king)]
            assert king in rec.final_hands[0] and c2 not in rec.final_hands[0]
        else:
            assert events_of(rec) == passes
            assert c2 in rec.final_hands[0]


# --- signals (RULES.md §1) ---------------------------------------------------------------


def react(seed: int, game: int, deal: int, seat: int, m: float = 0.8, sigma: float = 0.35) -> float:
    """docs/random-streams.md by hand: Box-Muller on the seat's REACT stream, m * exp(sigma * z)."""
    s = Stream(seed, game, REACT, deal, seat)
    u1 = 1.0 - (s.next_u64() >> 11) * 2.0**-53
    u2 = (s.next_u64() >> 11) * 2.0**-53
    z = math.sqrt(-2.0 * math.log(u1)) * math.cos(2.0 * math.pi * u2)
    return m * math.exp(sigma * z)


def test_the_six_card_seat_dealt_five_of_a_suit_signals_after_its_first_pass() -> None:
    hands = [
        cards("♠A ♥2 ♥3 ♥4 ♥5 ♥6"),  # five hearts and a spade, in the six-card hand
        cards("♠2 ♥7 ♦6 ♣7 ♣8"),
        cards("♠3 ♥8 ♦7 ♣9 ♣10"),
        cards("♠4 ♥9 ♦8 ♣J ♣Q"),
    ]
    table = deal_cards(STRAIGHT, deck_for(hands, 3), 4, 3)
    assert dealt_signallers(table) == ()  # the six-card seat is never complete before it passes
    seed, game = 11, 4
    rec = play_round_from_deck(STRAIGHT, [PassLowest()] * 4, deck_for(hands, 3), seed=seed, game=game)
    assert (rec.passes, rec.signallers, rec.stalled) == (1, (0,), False)
    assert events_of(rec) == [(PASS, 0, parse_card("♠A"), 1)]
    assert rec.final_hands[0] == tuple(cards("♥2 ♥3 ♥4 ♥5 ♥6"))
    # RULES.md §4: the signaller at S_0, everybody else at S_0 + R_i; the latest loses.
    s0 = react(seed, game, 0, 0)
    expected = [s0] + [s0 + react(seed, game, 0, i) for i in (1, 2, 3)]
    assert rec.times == pytest.approx(expected, rel=1e-15)
    assert rec.loser == max(range(4), key=lambda i: expected[i]) != 0


def test_six_of_a_suit_in_the_six_card_hand_is_not_a_signal_at_the_deal() -> None:
    hands = [cards("♠A ♠2 ♠3 ♠4 ♠5 ♠6"), cards("♠7 ♥7 ♦6 ♣7 ♣8"), cards("♠8 ♥8 ♦7 ♣9 ♣10")]
    rec = play_round_from_deck(STRAIGHT, [PassLowest()] * 3, deck_for(hands, 2), seed=1, game=0)
    assert (rec.passes, rec.signallers) == (1, (0,))


def test_two_five_card_hands_dealt_complete_both_signal_before_any_pass() -> None:
    hands = [
        cards("♠A ♥2 ♥3 ♦4 ♦5 ♣6"),
        cards("♥7 ♥8 ♥9 ♥10 ♥J"),  # dealt complete
        cards("♣2 ♣3 ♣4 ♣5 ♣9"),  # dealt complete
        cards("♠4 ♥6 ♦8 ♣J ♣Q"),
    ]
    seed, game = 5, 9
    rec = play_round_from_deck(STRAIGHT, [PassLowest()] * 4, deck_for(hands, 3), seed=seed, game=game)
    assert (rec.passes, rec.signallers, rec.events, rec.stalled) == (0, (1, 2), [], False)
    assert rec.final_hands == rec.hands_dealt
    s1, s2 = react(seed, game, 0, 1), react(seed, game, 0, 2)
    first = min(s1, s2)
    expected = [first + react(seed, game, 0, 0), s1, s2, first + react(seed, game, 0, 3)]
    assert rec.times == pytest.approx(expected, rel=1e-15)
    assert rec.loser == max(range(4), key=lambda i: expected[i])


# --- the reaction model (RULES.md §4) ----------------------------------------------------

SIX_SIGNALS = [  # n = 4, seat 3 deals; seat 0 passes ♠A and is complete
    cards("♠A ♥2 ♥3 ♥4 ♥5 ♥6"),
    cards("♠2 ♥7 ♦6 ♣7 ♣8"),
    cards("♠3 ♥8 ♦7 ♣9 ♣10"),
    cards("♠4 ♥9 ♦8 ♣J ♣Q"),
]
TWO_DEALT = [  # n = 4, seat 3 deals; seats 1 and 2 dealt complete
    cards("♠A ♥2 ♥3 ♦4 ♦5 ♣6"),
    cards("♥7 ♥8 ♥9 ♥10 ♥J"),
    cards("♣2 ♣3 ♣4 ♣5 ♣9"),
    cards("♠4 ♥6 ♦8 ♣J ♣Q"),
]

profile = st.tuples(st.floats(0.01, 20.0), st.floats(0.0, 2.0))


@settings(max_examples=150, deadline=None, derandomize=True)
@given(
    seed=st.integers(0, 2**63 - 1),
    game=st.integers(0, 2**32),
    profiles=st.lists(profile, min_size=4, max_size=4),
)
def test_a_lone_signaller_never_gets_the_letter(seed: int, game: int, profiles: list) -> None:
    rec = play_round_from_deck(
        STRAIGHT, [PassLowest()] * 4, deck_for(SIX_SIGNALS, 3), seed=seed, game=game, profiles=profiles
    )
    assert rec.signallers == (0,)
    assert rec.loser != 0 and rec.times[0] == min(rec.times)
    for i in (1, 2, 3):  # everybody else reacts to the first (only) thumb
        assert rec.times[i] == pytest.approx(rec.times[0] + react(seed, game, 0, i, *profiles[i]), rel=1e-15)


def test_with_several_signallers_the_min_s_plus_r_rule_decides() -> None:
    """sigma = 0 makes every reaction time its median, so the times are known by hand."""
    deck = deck_for(TWO_DEALT, 3)

    def times(profiles: list[tuple[float, float]]) -> RoundRecord:
        return play_round_from_deck(STRAIGHT, [PassLowest()] * 4, deck, seed=8, game=1, profiles=profiles)

    # Fast signallers (0.1 s, 0.2 s), a slow non-signaller (seat 0, R = 1.0): seat 0 loses at 1.1 s.
    rec = times([(1.0, 0.0), (0.1, 0.0), (0.2, 0.0), (0.05, 0.0)])
    assert rec.times == pytest.approx((1.1, 0.1, 0.2, 0.15), rel=1e-15) and rec.loser == 0
    # A slow signaller (seat 2 notices its own hand after 2 s) loses to fast non-signallers, who
    # react to seat 1's thumb at 0.1 s.
    rec = times([(0.3, 0.0), (0.1, 0.0), (2.0, 0.0), (0.3, 0.0)])
    assert rec.times == pytest.approx((0.4, 0.1, 2.0, 0.4), rel=1e-15) and rec.loser == 2
    # An exact tie between the latest touches goes to the lowest seat (simulator/engine/reaction.py).
    assert rec.times[0] == rec.times[3]
    rec = times([(0.3, 0.0), (0.1, 0.0), (0.2, 0.0), (0.3, 0.0)])
    assert rec.loser == 0
    # Default profiles: the times from the streams by hand.
    rec = play_round_from_deck(STRAIGHT, [PassLowest()] * 4, deck, seed=8, game=1)
    s = [react(8, 1, 0, i) for i in range(4)]
    expected = [min(s[1], s[2]) + s[0], s[1], s[2], min(s[1], s[2]) + s[3]]
    assert rec.times == pytest.approx(expected, rel=1e-15)


# --- card conservation (every pass and every exchange) -------------------------------------

MIXES = {
    "incoming": PassIncoming(),
    "lowest": PassLowest(),
    "fewest": Fewest(),
    "random": RandomCard(),
    "moody": Moody(),
}


def assert_every_card_in_one_place(table) -> None:
    assert cards_in_play(table) == [1] * N_CARDS
    assert len(table.stock) == N_CARDS - 5 * table.n - 1
    sizes = sorted(len(h) for h in table.hands)
    assert sizes == [5] * (table.n - 1) + [6]
    assert len(table.hands[table.to_play]) == 6


@settings(max_examples=120, deadline=None, derandomize=True)
@given(
    seed=st.integers(0, 2**63 - 1),
    game=st.integers(0, 2**40),
    deal=st.integers(0, 300),
    n=st.integers(2, 10),
    rules=st.sampled_from(VARIANTS),
    mix=st.lists(st.sampled_from(sorted(MIXES)), min_size=10, max_size=10),
    data=st.data(),
)
def test_cards_are_conserved_after_every_pass_and_exchange(
    seed: int, game: int, deal: int, n: int, rules: Rules, mix: list[str], data: st.DataObject
) -> None:
    dealer = data.draw(st.integers(0, n - 1))
    players = [MIXES[m] for m in mix[:n]]
    cap = 400
    table = deal_cards(rules, shuffle_deck(seed, game, deal), n, dealer)
    assert_every_card_in_one_place(table)
    rngs = decide_streams(seed, game, deal, n)
    signalled = bool(dealt_signallers(table))
    while not signalled and table.passes < cap:
        seat = table.to_play
        card = choose_card(table, players[seat], seat, rngs[seat])
        left = pass_card(table, seat, card)
        assert cards_in_play(table) == [1] * N_CARDS  # after the pass
        exchanges = sum(e[0] == EXCHANGE for e in table.events)
        arrive(table, left, card)
        assert_every_card_in_one_place(table)  # after the arrival (and its exchange, if any)
        if sum(e[0] == EXCHANGE for e in table.events) > exchanges:
            assert table.stock[-1] == card and table.incoming_drawn[left]
        signalled = signals(table, seat)
    # The step functions are play_round's: the same game, event for event.
    rec = play_round(rules, players, seed=seed, game=game, deal=deal, dealer=dealer, stall_cap=cap)
    assert rec.events == table.events and rec.passes == table.passes
    assert rec.final_hands == tuple(tuple(h) for h in table.hands)
    assert rec.stalled == (not signalled)
    assert sum(e[0] == PASS for e in rec.events) == rec.passes


# --- stalled rounds and abandoned matches (RULES.md §1, §6) ------------------------------


def test_a_round_built_to_stall_is_stalled_at_the_cap() -> None:
    players = [StallMaker()] * 4
    stalled = [play_round(OFF, players, seed=2, game=g, stall_cap=300) for g in range(40)]
    assert sum(r.stalled for r in stalled) >= 35
    for rec in stalled:
        if rec.stalled:
            assert rec.passes == 300 and rec.loser == -1 and rec.times == () and rec.signallers == ()
            assert len(rec.events) == 300  # `off`: no exchanges, only passes
        else:
            assert rec.passes <= 1  # only a dealt-complete hand or six of a suit can end it
    # The real cap: 10,000 passes, no signal, no letter.
    g = next(i for i, r in enumerate(stalled) if r.stalled)
    rec = play_round(OFF, players, seed=2, game=g)
    assert rec.stalled and rec.passes == STALL_CAP == 10_000 and rec.loser == -1
    assert "Stalled: no signal after 10000 passes" in format_round(rec)


@pytest.mark.parametrize("n", [2, 4])
def test_a_match_of_stalled_rounds_is_abandoned_and_never_hangs(n: int) -> None:
    found = 0
    for game in range(3):
        match = play_match(OFF, [StallMaker()] * n, seed=4, game=game, stall_cap=20)
        tail = match.rounds[-ABANDON_AFTER:]
        if match.abandoned:
            found += 1
            assert match.loser == -1 and max(match.letters) < 4
            assert len(tail) == ABANDON_AFTER and all(r.stalled for r in tail)
            assert len({r.dealer for r in tail}) == 1  # re-dealt by the same dealer
            assert "abandoned" in format_match(match)
        check_match(match, OFF, [StallMaker()] * n, seed=4, game=game, stall_cap=20)
    assert found >= 1


def check_match(
    match: MatchRecord, rules: Rules, players: list, *, seed: int, game: int, stall_cap: int = STALL_CAP
) -> None:
    """Every invariant of RULES.md §1 and §6 a match record must satisfy, round by round."""
    n = len(players)
    assert match.first_dealer == Stream(seed, game, DEALER).below(n)
    dealer, letters, counted, in_a_row = match.first_dealer, [0] * n, 0, 0
    for deal, rnd in enumerate(match.rounds):
        assert rnd.dealer == dealer
        # Round `deal` of the match is exactly play_round with that deal index and dealer.
        again = play_round(
            rules, players, seed=seed, game=game, deal=deal, dealer=dealer, stall_cap=stall_cap
        )
        assert again == rnd
        assert not (match.abandoned and match.loser >= 0)
        if rnd.stalled:
            in_a_row += 1
            assert in_a_row <= ABANDON_AFTER
            continue  # not counted, same dealer
        in_a_row = 0
        counted += 1
        letters[rnd.loser] += 1
        assert max(letters) <= 4
        dealer = (dealer + 1) % n  # the dealer moves one seat left each counted round
    assert tuple(letters) == match.letters and counted == match.counted_rounds
    if match.abandoned:
        assert in_a_row == ABANDON_AFTER and match.loser == -1
    else:
        last = match.rounds[-1]
        assert not last.stalled and letters[last.loser] == 4 and match.loser == last.loser
        assert sorted(letters)[-2] < 4  # nobody else holds all four


@pytest.mark.parametrize("n", [2, 3, 5])
def test_letters_and_the_end_of_a_match(n: int) -> None:
    players = [Fewest()] * n
    for game in range(3):
        match = play_match(STRAIGHT, players, seed=21, game=game)
        assert not match.abandoned and match.counted_rounds >= 4
        check_match(match, STRAIGHT, players, seed=21, game=game)
        text = format_match(match)
        assert "holds G-R-I-S and loses" in text and f"Round {match.counted_rounds} " in text


def test_a_stalled_round_in_a_match_is_re_dealt_by_the_same_dealer_and_not_counted() -> None:
    players = [Moody()] * 2
    mixed = []  # finished matches with stalled rounds among the counted ones
    for game in range(6):
        match = play_match(OFF, players, seed=13, game=game, stall_cap=60)
        check_match(match, OFF, players, seed=13, game=game, stall_cap=60)
        n_stalled = sum(r.stalled for r in match.rounds)
        assert len(match.rounds) == match.counted_rounds + n_stalled
        if not match.abandoned and n_stalled:
            mixed.append(match)
    assert mixed
    match = mixed[0]
    k = next(i for i, r in enumerate(match.rounds) if r.stalled)
    assert match.rounds[k + 1].dealer == match.rounds[k].dealer
    text = format_match(match)
    assert f"=== Deal {k}: stalled, re-dealt by the same dealer (not counted) ===" in text
    assert text.count("=== Round ") == match.counted_rounds


# --- what a player sees, and its stream ---------------------------------------------------


class Recorder(Strategy):
    """Draws below(6): 0-2 pass the incoming card (if any), else the card HAND[k]; keeps a copy
    of every observation, and counts its decisions in MEMORY."""

    def __init__(self) -> None:
        super().__init__("recorder")
        self.seen: list[np.ndarray] = []
        self.draws: dict[int, list[int]] = {}
        self.rngs: dict[int, set[int]] = {}

    def choose(self, obs, rng):
        self.seen.append(obs.copy())
        seat = int(obs[SEAT])
        self.rngs.setdefault(seat, set()).add(id(rng))
        obs[MEMORY] = obs[MEMORY] + 1 if obs[MEMORY] >= 0 else 0  # the strategy's own field
        obs[MEMORY + 1] = 4242
        k = int(below_nb(rng, 6))
        self.draws.setdefault(seat, []).append(k)
        if k < 3 and obs[INCOMING] >= 0:
            return int(obs[INCOMING])
        return int(obs[HAND + k])


@pytest.mark.parametrize("rules", VARIANTS, ids=lambda r: r.circulation)
@pytest.mark.parametrize("n", [2, 4, 10])
def test_the_observation_and_the_decide_stream(rules: Rules, n: int) -> None:
    seed, game, deal, dealer = 99, 7, 2, n // 2
    rec_player = Recorder()
    rec = play_round(rules, [rec_player] * n, seed=seed, game=game, deal=deal, dealer=dealer, stall_cap=250)
    assert len(rec_player.seen) == rec.passes
    # Each seat draws from its own DECIDE stream of the deal, the same array all round.
    for seat, draws in rec_player.draws.items():
        s = Stream(seed, game, DECIDE, deal, seat)
        assert draws == [s.below(6) for _ in draws]
        assert len(rec_player.rngs[seat]) == 1
    # Replay the events to know what each observation must say.
    hands = [list(h) for h in rec.hands_dealt]
    received = [[0] * 4 for _ in range(n)]
    passed = [[0] * 4 for _ in range(n)]
    mine = [0] * n
    incoming, drawn = [-1] * n, [0] * n
    passes = 0
    decisions = iter(rec_player.seen)
    for ev in rec.events:
        if ev.kind == PASS:
            obs = next(decisions)
            seat = ev.seat
            assert obs.shape == (OBS_SIZE,) and obs.dtype == np.int64
            assert (obs[SEAT], obs[N_PLAYERS], obs[PASSES], obs[MY_PASSES]) == (seat, n, passes, mine[seat])
            assert obs[HAND_SIZE] == 6 and list(obs[HAND : HAND + 6]) == sorted(hands[seat])
            assert list(obs[SUIT_COUNT : SUIT_COUNT + 4]) == [
                sum(suit_of(c) == s for c in hands[seat]) for s in range(4)
            ]
            assert (obs[INCOMING], obs[INCOMING_DRAWN]) == (incoming[seat], drawn[seat])
            assert list(obs[RECEIVED_SUIT : RECEIVED_SUIT + 4]) == received[seat]
            assert list(obs[PASSED_SUIT : PASSED_SUIT + 4]) == passed[seat]
            # MEMORY: -1 at the deal, then whatever the strategy left there.
            assert obs[MEMORY] == mine[seat] - 1
            assert obs[MEMORY + 1] == (4242 if mine[seat] else -1)
            assert obs[MEMORY + 2] == obs[MEMORY + 3] == -1
            hands[seat].remove(ev.card)
            hands[ev.other].append(ev.card)
            passed[seat][suit_of(ev.card)] += 1
            received[ev.other][suit_of(ev.card)] += 1  # counted even if then exchanged
            incoming[ev.other], drawn[ev.other] = ev.card, 0
            mine[seat] += 1
            passes += 1
        else:
            hands[ev.seat].remove(ev.card)
            hands[ev.seat].append(ev.other)
            incoming[ev.seat], drawn[ev.seat] = ev.other, 1
    assert rec.final_hands == tuple(tuple(sorted(h)) for h in hands)
    # The six-card seat's first decision had no incoming card.
    first = rec_player.seen[0]
    assert first[SEAT] == rec.six_seat and first[INCOMING] == -1 and first[INCOMING_DRAWN] == 0
    if rules.circulation != "off":
        assert any(e.kind == EXCHANGE for e in rec.events)


# --- a strategy that cheats -----------------------------------------------------------------


@pytest.mark.parametrize("answer", [parse_card("♥K"), 60, -1, 2.5, "♠A"])
def test_a_card_not_in_hand_is_refused_naming_player_seat_card_and_pass(answer: object) -> None:
    hands = [cards("♠A ♥2 ♥3 ♦4 ♦5 ♣6"), cards("♠2 ♥4 ♦6 ♣7 ♣8"), cards("♠3 ♥5 ♦7 ♣9 ♣10")]
    players = [PassLowest(), PassLowest(), Liar(answer)]
    with pytest.raises(IllegalAction) as err:
        play_round_from_deck(STRAIGHT, players, deck_for(hands, 2), seed=1, game=0)
    text = str(err.value)
    assert "'liar'" in text and "seat 2" in text and "pass 3" in text and "PASSES=2" in text
    assert repr(answer) in text
    if answer == parse_card("♥K"):
        assert "♥K" in text
    assert isinstance(err.value, ValueError)


# --- traces ------------------------------------------------------------------------------------


def test_format_round_shows_every_pass_exchange_signal_and_touch() -> None:
    rec = play_round_from_deck(STRAIGHT, [PassLowest()] * 4, deck_for(SIX_SIGNALS, 3), seed=1, game=0)
    text = format_round(rec, ["a", "b", "c", "d"])
    assert "seat 3 (d) deals" in text and "seat 0 (a) holds six" in text
    assert "pass     1  seat 0 (a) passes ♠A to seat 1 (b)" in text
    assert "Signal after pass 1: seat 0 (a) holds ♥2 ♥3 ♥4 ♥5 ♥6" in text
    for seat in range(4):
        assert f"{rec.times[seat]:8.4f}" in text
    assert "gets a letter" in text
    rec = play_round_from_deck(
        STRAIGHT, [PassIncoming()] * 4, deck_for(ROUND4, 3, TOP), seed=1, game=0, stall_cap=4
    )
    text = format_round(rec)
    assert "seat 0 gets ♠A back" in text and "seat 0 draws ♠K" in text and "Stalled" in text
    rec = play_round_from_deck(STRAIGHT, [PassLowest()] * 4, deck_for(TWO_DEALT, 3), seed=1, game=0)
    assert "Signal at the deal (0 passes): seat 1, seat 2" in format_round(rec)


def test_format_match_spells_the_letters() -> None:
    match = play_match(STRAIGHT, [Fewest()] * 3, seed=2, game=0)
    text = format_match(match, ["x", "y", "z"])
    assert text.count("=== Round ") == match.counted_rounds
    assert f"seat {match.loser} ({'xyz'[match.loser]}) now holds G-R-I-S." in text
    counts = Counter(r.loser for r in match.rounds if not r.stalled)
    assert tuple(counts.get(s, 0) for s in range(3)) == match.letters
    for letters in match.letters:
        assert "-".join("GRIS"[:letters]) in text or letters == 0
