"""The compiled Gris engine: its rule functions on hand-made positions, known values, symmetry,
card conservation, determinism, and what it does with strategies that break or stall the game.

Hand-made positions are laid out with ``rules.deal_nb`` on a deck built by hand
(:func:`deck_for`) and played move by move with the same jitted functions the
kernel's loop calls; whole rounds on hand-made decks go through
``kernel.play_traced_nb``.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from fractions import Fraction
from itertools import product

import numba
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import simulator
from simulator.engine.cards import N_CARDS, parse_card, suit_of
from simulator.engine.reaction import last_to_touch, profile_arrays, touch_times
from simulator.errors import InputError, StrategyError
from simulator.games.gris import kernel
from simulator.games.gris import rules as R
from simulator.games.gris.game import GRIS
from simulator.games.gris.observation import (
    HAND,
    HAND_SIZE,
    INCOMING,
    INCOMING_DRAWN,
    MY_PASSES,
    PASSED_SUIT,
    RECEIVED_SUIT,
    SUIT_COUNT,
)
from simulator.games.gris.variants import CIRCULATION_CODES, STALL_CAP, Rules
from strategies import SpecError, families, parse_spec, strategy

SEED = 20260101
GREEDY = families("gris")["greedy"].builtin_id
SHIPPED = tuple(f.player() for f in families("gris").values() if f.builtin_id is not None)


def cards(text: str) -> list[int]:
    return [parse_card(t) for t in text.split()]


def deck_for(hands: Sequence[Sequence[int]], dealer: int, stock: Sequence[int] = ()) -> np.ndarray:
    """A deck that deals ``hands[seat]`` (the six-card seat's sixth card last) to each seat
    when ``dealer`` deals (docs/random-streams.md); the stock holds ``stock`` on top (drawn
    first), then the remaining cards in ascending code."""
    n = len(hands)
    six = (dealer + 1) % n
    deck = [-1] * (5 * n + 1)
    for seat, hand in enumerate(hands):
        assert len(hand) == (6 if seat == six else 5)
        offset = (seat - six) % n
        for j in range(5):
            deck[offset + j * n] = hand[j]
    deck[5 * n] = hands[six][5]
    used = set(deck) | set(stock)
    assert len(used) == len(deck) + len(stock), "a card is dealt twice"
    deck += list(stock) + [c for c in range(N_CARDS) if c not in used]
    return np.array(deck, np.int64)


class Position:
    """A dealt table for playing moves by hand with the rule functions."""

    def __init__(self, hands: Sequence[Sequence[int]], dealer: int, circulation: str, stock=()) -> None:
        self.n = len(hands)
        self.ws = R.workspace_nb()
        self.deck, self.obs, self.owner, self.straight = self.ws[0], self.ws[1], self.ws[2], self.ws[3]
        self.hands = self.ws[8]
        self.deck[:] = deck_for(hands, dealer, stock)
        self.six = R.deal_nb(self.deck, self.n, dealer, self.obs, self.hands, self.owner, self.straight)
        self.stock0 = R.stock_start_nb(self.n)
        self.n_stock = N_CARDS - self.stock0
        self.head = 0
        self.circulation = CIRCULATION_CODES[circulation]

    def hand(self, seat: int) -> list[int]:
        return [c for c in range(N_CARDS) if int(self.hands[seat]) >> c & 1]

    def stock(self) -> list[int]:
        """The stock as a queue, top first."""
        ring = self.deck[self.stock0 :].tolist()
        return ring[self.head :] + ring[: self.head]

    def pass_card(self, seat: int, card: int) -> int:
        """``seat`` passes ``card``; returns the card drawn in an exchange on arrival, or -1."""
        assert R.pass_card_nb(self.obs[seat], self.hands, self.owner, self.straight, seat, card)
        drawn, self.head = R.receive_nb(
            self.obs[(seat + 1) % self.n],
            self.hands,
            self.owner,
            self.straight,
            self.circulation,
            self.deck,
            self.stock0,
            self.n_stock,
            self.head,
            (seat + 1) % self.n,
            card,
            True,  # the owner claims its card (a player who never forgets)
        )
        return int(drawn)


# Three seats, seat 2 deals, seat 0 holds six.  No hand is one suit.
THREE = (
    cards("♠A ♠2 ♥3 ♦4 ♣5 ♣6"),
    cards("♠3 ♥4 ♦5 ♣7 ♣8"),
    cards("♠4 ♥5 ♦6 ♣9 ♣10"),
)


# --- the circulation rule, by hand -------------------------------------------------------


@pytest.mark.parametrize("circulation", ["straight", "always", "off"])
def test_a_card_passed_straight_round_the_table_is_exchanged(circulation: str) -> None:
    """RULES.md §1: ♣6 goes 0 -> 1 -> 2 -> 0, each passing it on in the same turn."""
    pos = Position(THREE, dealer=2, circulation=circulation)
    c = parse_card("♣6")
    top = pos.stock()[0]
    assert pos.pass_card(0, c) == -1
    assert pos.obs[1, INCOMING] == c and pos.obs[1, INCOMING_DRAWN] == 0
    assert pos.pass_card(1, c) == -1
    drawn = pos.pass_card(2, c)
    if circulation == "off":
        assert drawn == -1 and pos.obs[0, INCOMING] == c and pos.obs[0, INCOMING_DRAWN] == 0
        assert c in pos.hand(0)
        return
    # Back at its owner after a straight trip: to the bottom of the stock, the top is drawn.
    assert drawn == top and pos.obs[0, INCOMING] == top and pos.obs[0, INCOMING_DRAWN] == 1
    assert c not in pos.hand(0) and top in pos.hand(0)
    assert pos.stock()[-1] == c and len(pos.stock()) == 52 - 16
    assert pos.obs[0, RECEIVED_SUIT + suit_of(c)] == 1  # counted when received, even if exchanged
    assert pos.owner[top] == -1  # the drawn card has no owner until it is passed
    # The drawn card passed straight round comes back to its new owner and is exchanged too.
    nxt = pos.stock()[0]
    pos.pass_card(0, top)
    pos.pass_card(1, top)
    assert pos.pass_card(2, top) == nxt
    assert pos.stock()[-2:] == [c, top]


@pytest.mark.parametrize("circulation", ["straight", "always", "off"])
def test_a_card_kept_for_a_turn_is_not_exchanged_after_straight(circulation: str) -> None:
    """RULES.md §1: seat 1 keeps ♣6 for a turn; when it comes home, only `always` exchanges it."""
    pos = Position(THREE, dealer=2, circulation=circulation)
    c, d, e = parse_card("♣6"), parse_card("♣8"), parse_card("♣5")
    stock = pos.stock()
    pos.pass_card(0, c)
    pos.pass_card(1, d)  # seat 1 keeps ♣6 for a turn: its trip is no longer straight
    assert pos.straight[c] == 0 and pos.owner[c] == 0
    pos.pass_card(2, d)  # ♣8 reaches seat 0 (its owner is seat 1): no exchange
    assert pos.obs[0, INCOMING] == d and pos.obs[0, INCOMING_DRAWN] == 0
    pos.pass_card(0, e)
    pos.pass_card(1, c)  # now seat 1 passes ♣6 on: the same trip, still not straight
    assert pos.owner[c] == 0 and pos.straight[c] == 0
    drawn = pos.pass_card(2, c)
    if circulation == "always":
        assert drawn == stock[0] and c not in pos.hand(0) and pos.stock()[-1] == c
    else:
        assert drawn == -1 and c in pos.hand(0) and pos.stock() == stock
        assert pos.obs[0, INCOMING] == c and pos.obs[0, INCOMING_DRAWN] == 0


def test_two_players_a_card_passed_straight_back_is_exchanged() -> None:
    pos = Position((cards("♠A ♠2 ♥3 ♦4 ♣5 ♣6"), cards("♠3 ♥4 ♦5 ♣7 ♣8")), dealer=1, circulation="straight")
    c = parse_card("♥3")
    top = pos.stock()[0]
    pos.pass_card(0, c)
    assert pos.pass_card(1, c) == top


def test_a_card_not_in_hand_is_refused_and_nothing_changes() -> None:
    pos = Position(THREE, dealer=2, circulation="straight")
    before = (pos.obs.copy(), pos.hands.copy(), pos.owner.copy(), pos.straight.copy())
    for bad in (parse_card("♠3"), -1, 52, 10**6):
        assert not R.pass_card_nb(pos.obs[0], pos.hands, pos.owner, pos.straight, 0, bad)
    after = (pos.obs, pos.hands, pos.owner, pos.straight)
    assert all(np.array_equal(a, b) for a, b in zip(before, after, strict=True))


def test_pass_bookkeeping_and_the_observed_hand() -> None:
    pos = Position(THREE, dealer=2, circulation="straight")
    R.show_hand_nb(pos.obs[0], pos.hands[0])
    assert pos.obs[0, HAND : HAND + 6].tolist() == sorted(THREE[0]) and pos.obs[0, HAND_SIZE] == 6
    assert pos.obs[0, SUIT_COUNT : SUIT_COUNT + 4].tolist() == [2, 1, 1, 2]
    pos.pass_card(0, parse_card("♦4"))
    R.show_hand_nb(pos.obs[0], pos.hands[0])
    assert pos.obs[0, HAND : HAND + 6].tolist() == [*sorted(cards("♠A ♠2 ♥3 ♣5 ♣6")), -1]
    assert pos.obs[0, MY_PASSES] == 1 and pos.obs[0, PASSED_SUIT + 2] == 1
    assert pos.obs[0, INCOMING] == -1
    R.show_hand_nb(pos.obs[1], pos.hands[1])
    assert pos.obs[1, HAND_SIZE] == 6 and parse_card("♦4") in pos.obs[1, HAND : HAND + 6]


# --- signals, whole rounds on hand-made decks ------------------------------------------------


def traced(hands, dealer: int, sids=None, circulation: str = "straight", seed: int = SEED, game: int = 3):
    n = len(hands)
    sids = np.full(n, GREEDY, np.int64) if sids is None else np.array(sids, np.int64)
    log = np.full((2 * STALL_CAP + 2, 4), -7, np.int64)
    times = np.zeros(n)
    signallers = np.zeros(n, np.int64)
    events, passes, stalled, loser = kernel.play_traced_nb(
        sids,
        np.zeros((n, 8)),
        np.array([n, CIRCULATION_CODES[circulation], STALL_CAP], np.int64),
        profile_arrays([(0.8, 0.35)] * n),
        seed,
        game,
        0,
        dealer,
        deck_for(hands, dealer),
        log,
        times,
        signallers,
        np.empty((0, N_CARDS), np.int64),
    )
    return [tuple(r) for r in log[:events].tolist()], passes, stalled, loser, times, signallers.tolist()


MIXED = (
    cards("♠6 ♥6 ♦7 ♣J ♣Q"),
    cards("♠7 ♥7 ♦8 ♦9 ♣K"),
    cards("♠8 ♥8 ♦10 ♦J ♣2"),
)


def test_the_six_card_seat_dealt_five_of_a_suit_signals_after_its_first_pass() -> None:
    six = cards("♠A ♠2 ♠3 ♠4 ♠5 ♥K")
    hands = (six, *MIXED)
    pos = Position(hands, dealer=3, circulation="straight")
    assert R.dealt_signallers_nb(pos.obs, 4, pos.six, np.zeros(4, np.int64)) == 0  # six cards: no signal
    assert not R.one_suit_nb(pos.obs[0])
    pos.pass_card(0, parse_card("♥K"))
    assert R.one_suit_nb(pos.obs[0]) and not R.one_suit_nb(pos.obs[1])
    log, passes, stalled, loser, times, signallers = traced(hands, dealer=3)
    # greedy keeps the spades and passes the king of hearts: one pass, then the signal
    assert log == [(R.PASS_EVENT, 0, parse_card("♥K"), 1)] and passes == 1 and stalled == 0
    assert signallers == [1, 0, 0, 0]
    expected = touch_times(SEED, 3, 0, [True, False, False, False], [(0.8, 0.35)] * 4)
    assert times.tolist() == expected and loser == last_to_touch(expected) != 0


def test_six_of_a_suit_in_the_six_card_hand_is_no_signal_at_the_deal() -> None:
    hands = (cards("♠A ♠2 ♠3 ♠4 ♠5 ♠9"), *MIXED)
    log, passes, _, _, _, signallers = traced(hands, dealer=3)
    assert passes == 1 and len(log) == 1 and signallers == [1, 0, 0, 0]


def test_two_five_card_hands_dealt_complete_both_signal_before_any_pass() -> None:
    hands = (cards("♠A ♠2 ♥3 ♦4 ♣5 ♣6"), cards("♥A ♥2 ♥4 ♥5 ♥6"), cards("♦A ♦2 ♦3 ♦5 ♦6"), MIXED[2])
    pos = Position(hands, dealer=3, circulation="straight")
    marks = np.zeros(4, np.int64)
    assert R.dealt_signallers_nb(pos.obs, 4, pos.six, marks) == 2 and marks.tolist() == [0, 1, 1, 0]
    for game in range(40):  # the reaction draws decide which of the rest is last
        log, passes, stalled, loser, times, signallers = traced(hands, dealer=3, game=game)
        assert log == [] and passes == 0 and stalled == 0 and signallers == [0, 1, 1, 0]
        expected = touch_times(SEED, game, 0, [False, True, True, False], [(0.8, 0.35)] * 4)
        assert times.tolist() == expected and loser == last_to_touch(expected)


def test_a_strategy_that_passes_a_card_it_does_not_hold_is_stopped_in_the_kernel() -> None:
    log, passes, stalled, loser, _, _ = traced((*THREE,), dealer=2, sids=[99, GREEDY, GREEDY])
    assert (passes, stalled, loser) == (0, -1, -1) and log == []


# --- known values ------------------------------------------------------------------------------


def dealt_signal_probability(n: int) -> Fraction:
    """P(some five-card hand is dealt one suit), exactly, by inclusion-exclusion over the n-1
    five-card seats.  For k given seats all to be complete, each takes five cards of one suit;
    two seats can share a suit (13 >= 10), three cannot; the k hands are dealt from 52 cards."""
    m = n - 1
    # Ways for j given seats to take five cards each of one given suit.
    per_suit = {0: 1, 1: math.comb(13, 5), 2: math.comb(13, 5) * math.comb(8, 5)}
    total = Fraction(0)
    for k in range(1, m + 1):
        ways = 0
        for suits in product(range(4), repeat=k):  # the suit of each of the k seats
            w = 1
            for s in range(4):
                w *= per_suit.get(suits.count(s), 0)
            ways += w
        deals = 1
        for i in range(k):
            deals *= math.comb(52 - 5 * i, 5)
        total += (-1) ** (k + 1) * math.comb(m, k) * Fraction(ways, deals)
    return total


def test_the_dealt_signal_formula_on_small_cases() -> None:
    one = Fraction(4 * math.comb(13, 5), math.comb(52, 5))
    assert dealt_signal_probability(2) == one
    both = Fraction(4 * math.comb(13, 5) * 3 * math.comb(13, 5) + 4 * math.comb(13, 5) * math.comb(8, 5))
    both /= math.comb(52, 5) * math.comb(47, 5)
    assert dealt_signal_probability(3) == 2 * one - both
    assert 0 < dealt_signal_probability(10) < 9 * one


@pytest.mark.parametrize("n", [4, 10])
def test_the_dealt_signal_rate_matches_the_exact_value(n: int) -> None:
    rounds = 400_000
    r = simulator.simulate("gris", "greedy", rounds=rounds, seed=SEED + n, players=n)
    dealt = int(r.aggregates[R.R_DEALT])  # a round signalled at the deal never stalls
    p = float(dealt_signal_probability(n))
    se = math.sqrt(p * (1 - p) / rounds)
    assert abs(dealt / rounds - p) < 4 * se, (dealt / rounds, p, se)
    # Each five-card seat alike, the six-card seat never (RULES.md §1).
    one = 4 * math.comb(13, 5) / math.comb(52, 5)
    seats = r.summary["seats"]
    assert seats[0]["dealt_complete_rate"] == 0
    for s in seats[1:]:
        k = s["dealt_complete_rate"] * r.summary["finished"]
        assert abs(k / rounds - one) < 4 * math.sqrt(one * (1 - one) / rounds)


def test_five_card_seats_are_symmetric_with_random_play() -> None:
    """With `random` everywhere the five-card seats differ only in when they pass (rounds last
    about a thousand passes), so their signal rates agree within sampling error."""
    r = simulator.simulate("gris", "random", rounds=20_000, seed=SEED, players=5)
    done = r.summary["finished"]
    assert r.summary["mean_passes"] > 300
    rates = [s["signal_first_rate"] for s in r.summary["seats"][1:]]
    mean = sum(rates) / len(rates)
    se = math.sqrt(mean * (1 - mean) / done)
    assert max(rates) - min(rates) < 4 * math.sqrt(2) * se, rates


def test_match_seats_are_symmetric_with_a_random_first_dealer() -> None:
    matches = 20_000
    r = simulator.simulate("gris", "greedy", matches=matches, seed=SEED, players=4)
    s = r.summary
    assert s["abandoned"] == 0 and s["finished"] == matches
    se = math.sqrt(0.25 * 0.75 / matches)
    for seat in s["seats"]:
        assert abs(seat["loss_rate"] - 0.25) < 4 * se
        assert abs(seat["first_dealer_rate"] - 0.25) < 4 * se
        assert 1.5 < seat["mean_letters"] < 4
    # A match lasts 4 to 3n + 1 counted rounds; letters add up to the counted rounds.
    hist = r.histograms["match_rounds"]
    assert hist[:4].sum() == 0 and hist[14:].sum() == 0 and hist.sum() == matches
    letters = sum(seat["mean_letters"] for seat in s["seats"])
    assert letters == pytest.approx(s["mean_rounds"], rel=1e-12)
    for seat in range(4):
        h = r.histograms[f"letters_seat{seat}"]
        assert h.sum() == matches and h[4] == round(s["seats"][seat]["loss_rate"] * matches)


# --- card conservation ------------------------------------------------------------------------


@settings(max_examples=40, deadline=None, derandomize=True)
@given(
    n=st.integers(2, 10),
    circulation=st.sampled_from(sorted(CIRCULATION_CODES)),
    seed=st.integers(0, 2**63 - 1),
    game=st.integers(0, 2**40),
    deal=st.integers(0, 50),
    strategies=st.lists(st.integers(0, len(SHIPPED) - 1), min_size=10, max_size=10),
)
def test_every_card_is_in_exactly_one_place_after_every_pass_and_exchange(
    n: int, circulation: str, seed: int, game: int, deal: int, strategies: list[int]
) -> None:
    players = [SHIPPED[i] for i in strategies[:n]]
    max_events = 3000
    log = np.full((max_events, 4), -7, np.int64)
    snap = np.full((max_events, N_CARDS), -7, np.int64)
    events, passes, stalled, _ = kernel.play_traced_nb(
        np.array([p.family.builtin_id for p in players], np.int64),
        np.stack([p.params for p in players]),
        np.array([n, CIRCULATION_CODES[circulation], STALL_CAP], np.int64),
        profile_arrays([(0.8, 0.35)] * n),
        seed,
        game,
        deal,
        deal % n,
        np.empty(0, np.int64),
        log,
        np.zeros(n),
        np.zeros(n, np.int64),
        snap,
    )
    assert stalled in (0, 1) and events >= passes
    stalled_at_cap = passes == STALL_CAP
    assert bool(stalled) == stalled_at_cap or (stalled_at_cap and not stalled)
    stock_size = 52 - 5 * n - 1
    for k in range(min(events, max_events)):
        where = snap[k]
        kind, seat, card, other = log[k]
        assert ((where >= 0) & (where <= R.TRANSIT_AT)).all(), f"event {k}: a card is lost or doubled"
        counts = np.bincount(where, minlength=R.TRANSIT_AT + 1)
        assert counts[R.STOCK_AT] == stock_size
        if kind == R.PASS_EVENT:  # the card is on its way; every hand holds five
            assert where[card] == R.TRANSIT_AT and counts[R.TRANSIT_AT] == 1
            assert (counts[:n] == 5).all()
        else:  # the card went to the stock, its owner holds six with the drawn card
            assert where[card] == R.STOCK_AT and where[other] == seat and counts[R.TRANSIT_AT] == 0
            assert counts[seat] == 6 and counts[:n].sum() == 5 * n + 1
    assert (snap[events:] == -7).all()


# --- determinism -------------------------------------------------------------------------------


@pytest.mark.parametrize("unit", ["rounds", "matches"])
def test_same_seed_same_aggregates_for_any_threads_and_block_size(unit: str) -> None:
    count = 30_000 if unit == "rounds" else 3_000
    specs = ["greedy", "reader", "commit:after=1", "random"]
    results = []
    for threads, block in ((1, 1 << 16), (2, 1 << 16), (2, 777), (1, 4096)):
        r = simulator.simulate("gris", specs, seed=SEED, threads=threads, block_size=block, **{unit: count})
        results.append(r)
    numba.set_num_threads(numba.config.NUMBA_NUM_THREADS)
    for r in results[1:]:
        assert np.array_equal(r.aggregates, results[0].aggregates)
        assert r.without_timing() == results[0].without_timing()


# --- output -------------------------------------------------------------------------------------


def test_round_figures_and_their_intervals() -> None:
    r = simulator.simulate("gris", "greedy", rounds=20_000, seed=SEED, players=4)
    s = r.summary
    for key in ("mean_passes", "dealt_signal_rate", "stalled_rate"):
        assert key in s and len(s[key + "_ci"]) == 2
    assert s["stalled"] == 0 and s["finished"] == 20_000
    for seat in s["seats"]:
        for key in ("signal_first_rate", "letter_rate", "dealt_complete_rate"):
            lo, hi = seat[key + "_ci"]
            assert lo <= seat[key] <= hi
        assert seat["reaction"] == {"median_s": 0.8, "sigma": 0.35}
    assert sum(seat["letter_rate"] for seat in s["seats"]) == pytest.approx(1.0)
    assert sum(seat["signal_first_rate"] for seat in s["seats"]) >= 1.0
    hist = r.histograms["passes"]
    assert hist.sum() == 20_000 and hist[0] == round(s["dealt_signal_rate"] * 20_000)
    mean = (hist * np.arange(hist.size)).sum() / hist.sum()
    assert mean == pytest.approx(s["mean_passes"])  # no round reaches the last, open bin


def test_records_agree_with_the_aggregates() -> None:
    from simulator.api import make_table, resolve_players
    from simulator.running.runner import BlockRunner

    table = make_table(GRIS, None, 5)
    players = resolve_players(GRIS, ["reader", "greedy", "commit", "greedy", "random"], 5)
    for unit in ("round", "match"):
        runner = BlockRunner(table, players, unit, SEED)
        n = 3000 if unit == "round" else 300
        rec = runner.records(0, n)
        agg = runner.play(0, n)
        outs, valid = GRIS.outcomes(rec, unit, 5)
        if unit == "round":
            assert valid.sum() == agg[R.R_FINISHED]
            assert (outs["letter"][valid].sum(axis=0) == agg[R.R_LETTER : R.R_LETTER + 5]).all()
            assert (outs["signal_first"][valid].sum(axis=0) == agg[R.R_SIGNAL : R.R_SIGNAL + 5]).all()
            assert rec[valid, 0].sum() == agg[R.R_PASSES]
        else:
            assert valid.sum() == agg[R.M_FINISHED]
            assert (outs["loss"][valid].sum(axis=0) == agg[R.M_LOSSES : R.M_LOSSES + 5]).all()
            assert (outs["letters"][valid].sum(axis=0) == agg[R.M_LETTERS : R.M_LETTERS + 5]).all()


# --- bad input, broken and stalling strategies -------------------------------------------------


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"rules": {"circulation": "sometimes"}}, "circulation"),
        ({"players": 1}, "2 to 10 players"),
        ({"players": 11}, "2 to 10 players"),
        ({"reaction": ["0,0.3"]}, "median"),
        ({"reaction": ["-1"]}, "median"),
        ({"reaction": ["0.8,-0.1"]}, "sigma"),
        ({"reaction": ["9=0.8"]}, "seat"),
        ({"strategies": ["greedy", "greedy", "greedy"]}, "3 strategies for 4 seats"),
    ],
)
def test_bad_input_is_one_clear_error(kwargs: dict, message: str) -> None:
    args = {"strategies": "greedy", "rounds": 10, "seed": 1, **kwargs}
    with pytest.raises(InputError, match=message) as exc:
        simulator.simulate("gris", args.pop("strategies"), **args)
    assert "\n" not in str(exc.value)


def test_bad_specs_are_one_clear_error() -> None:
    with pytest.raises(ValueError, match="circulation"):
        Rules("sometimes")
    with pytest.raises(SpecError, match="after=-1"):
        parse_spec("commit:after=-1", "gris")
    with pytest.raises(SpecError, match="spokelse"):
        parse_spec("threshold", "gris")


def test_the_cli_runs_gris_and_refuses_bad_input() -> None:
    from typer.testing import CliRunner

    from simulator.cli import app

    run = CliRunner()
    args = ["simulate", "gris", "--players", "4", "-s", "greedy", "--rounds", "1000", "--seed", "1"]
    ok = run.invoke(app, [*args, "--json"])
    assert ok.exit_code == 0, ok.output
    assert '"mean_passes"' in ok.stdout
    for args in (
        "--players 1 -s greedy",
        "--players 11 -s greedy",
        "-s commit:after=-1",
        "-s threshold",
        "-s greedy -s greedy",
        "-s greedy --rule circulation=sometimes",
        "-s greedy --reaction 0,0.3",
        "-s greedy --reaction 0.8,-1",
    ):
        r = run.invoke(app, ["simulate", "gris", *args.split(), "--rounds", "10", "--seed", "1"])
        assert r.exit_code == 2, (args, r.output)
        assert r.stderr.startswith("error: ") and r.stderr.count("\n") == 1, (args, r.stderr)


@strategy(game="gris", name="test_stall_or_cheat", params={"cheat": (0, 0, 1, 1)})
def stall_or_cheat(obs, params, rng):
    """Pass on the card just received (so nothing ever changes); with cheat=1, from its third
    pass on, pass the lowest card it does not hold."""
    if params[0] > 0 and obs[MY_PASSES] >= 2:
        for c in range(52):
            held = False
            for i in range(6):
                if obs[HAND + i] == c:
                    held = True
            if not held:
                return c
    return obs[INCOMING] if obs[INCOMING] >= 0 else obs[HAND]


def test_stalling_and_cheating_user_strategies() -> None:
    """One user strategy (one compiled kernel): stalls every round it plays (counted in
    `stalled`, never hangs, matches end `abandoned`), and is stopped when it cheats."""
    from simulator.games.gris import reference

    off = {"circulation": "off"}
    # Rounds: only a deal signal or the six-card seat completing on its first pass can end one.
    r = simulator.simulate("gris", "test_stall_or_cheat", rounds=40, seed=SEED, players=4, rules=off)
    s = r.summary
    assert s["stalled"] + s["finished"] == 40 and s["stalled"] >= 35
    assert s["finished"] == 0 or s["mean_passes"] <= 1
    # Matches: 100 stalled rounds in a row abandon the match; it enters no other figure.
    m = simulator.simulate("gris", "test_stall_or_cheat", matches=3, seed=SEED, players=4, rules=off)
    assert m.summary["abandoned"] == 3 and m.summary["finished"] == 0 and m.summary["stalled"] == 0
    assert math.isnan(m.summary["mean_rounds"])
    # Cheating in seat 2 is stopped with a message naming it, the seat, the card and the game.
    specs = ["test_stall_or_cheat", "test_stall_or_cheat", "test_stall_or_cheat:cheat=1", "greedy"]
    players = [parse_spec(x, "gris") for x in specs]
    game = 0
    while True:  # the first game in which the reference sees the cheat
        try:
            reference.play_round(Rules("off"), players, seed=SEED, game=game)
        except reference.IllegalAction:
            break
        game += 1
    with pytest.raises(StrategyError) as exc:
        simulator.simulate("gris", specs, rounds=500, seed=SEED, rules=off, block_size=100)
    text = str(exc.value)
    assert (
        "'test_stall_or_cheat:cheat=1' (seat 2)" in text
        and f"in round {game} of the run with seed {SEED}" in text
    )
    assert "does not hold" in text and "\n" not in text


def test_trace_shows_a_round_and_a_match_from_the_reference() -> None:
    text = simulator.trace("gris", "greedy", seed=9, game_index=3, players=4, reaction=["2=1.5,0.2"])
    assert "holds six" in text and "passes" in text and "gets a letter" in text
    r = simulator.simulate("gris", "greedy", rounds=4, seed=9, players=4, reaction=["2=1.5,0.2"])
    assert r.summary["seats"][2]["reaction"] == {"median_s": 1.5, "sigma": 0.2}
    match = simulator.trace("gris", "greedy", seed=9, game_index=0, unit="match", players=3)
    assert "G-R-I-S" in match
