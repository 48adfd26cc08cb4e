"""The shipped Gris strategies on hand-made observations (RULES.md §5, docs/random-streams.md).

Each observation is built field by field with the constants of
``simulator.games.gris.observation``.  Random choices are checked draw by draw
against a plain-Python :class:`Stream` with the same key: a strategy must draw
``below(m)`` exactly when it chooses among ``m >= 2`` options, and nothing else.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from simulator.engine.cards import N_RANKS, parse_card, suit_of
from simulator.engine.rng import DECIDE, Stream
from simulator.games.gris.observation import (
    HAND,
    HAND_SIZE,
    INCOMING,
    INCOMING_DRAWN,
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
from simulator.games.gris.strategies import (
    commit_nb,
    decide_builtin_nb,
    greedy_nb,
    pass_avoiding_nb,
    random_nb,
    reader_nb,
)
from strategies import PARAM_ROW, families, parse_spec

SPADES, HEARTS, DIAMONDS, CLUBS = 0, 1, 2, 3


def cards(text: str) -> list[int]:
    return [parse_card(t) for t in text.split()]


def make_obs(
    hand: str | Sequence[int],
    *,
    incoming: str | None = None,
    drawn: bool = False,
    my_passes: int = 0,
    passes: int = 0,
    received: Sequence[int] = (0, 0, 0, 0),
    passed: Sequence[int] = (0, 0, 0, 0),
    memory: int = -1,
) -> np.ndarray:
    """A decision with six cards in hand; ``incoming`` must be one of them."""
    h = sorted(cards(hand) if isinstance(hand, str) else hand)
    assert len(h) == 6 and len(set(h)) == 6
    obs = np.full(OBS_SIZE, -1, np.int64)
    obs[SEAT], obs[N_PLAYERS], obs[PASSES], obs[MY_PASSES], obs[HAND_SIZE] = 1, 4, passes, my_passes, 6
    obs[INCOMING] = -1 if incoming is None else parse_card(incoming)
    assert incoming is None or obs[INCOMING] in h
    obs[INCOMING_DRAWN] = int(drawn)
    obs[HAND : HAND + 6] = h
    for s in range(4):
        obs[SUIT_COUNT + s] = sum(1 for c in h if suit_of(c) == s)
        obs[RECEIVED_SUIT + s] = received[s]
        obs[PASSED_SUIT + s] = passed[s]
    obs[MEMORY] = memory
    return obs


def stream(game: int = 7, seat: int = 1) -> tuple[np.ndarray, Stream]:
    """A seat's DECIDE stream as the strategy gets it, and a twin to predict its draws."""
    return Stream(99, game, DECIDE, 0, seat).as_array(), Stream(99, game, DECIDE, 0, seat)


def params(*values: float) -> np.ndarray:
    p = np.zeros(PARAM_ROW)
    p[: len(values)] = values
    return p


def of_suit(obs: np.ndarray, suit: int) -> list[int]:
    return [int(c) for c in obs[HAND : HAND + 6] if c // N_RANKS == suit]


# --- the registry ---------------------------------------------------------------------------


def test_shipped_strategies_in_builtin_order_with_docstrings() -> None:
    fams = families("gris")
    ids = {name: f.builtin_id for name, f in fams.items() if f.builtin_id is not None}
    assert ids == {"random": 0, "greedy": 1, "commit": 2, "reader": 3}
    for f in fams.values():
        if f.builtin_id is not None:
            assert len(f.doc.split()) > 20
    (after,) = fams["commit"].params
    assert (after.name, after.default, after.low, after.high, after.step) == ("after", 0, 0, 10000, 1)
    assert parse_spec("commit", "gris").spec == "commit:after=0"


@settings(max_examples=200, deadline=None, derandomize=True)
@given(hand=st.lists(st.integers(0, 51), min_size=6, max_size=6, unique=True), sid=st.integers(0, 3))
def test_the_dispatcher_reaches_each_strategy_and_answers_a_card_in_hand(hand: list[int], sid: int) -> None:
    direct = (random_nb, greedy_nb, commit_nb, reader_nb)[sid]
    p = parse_spec(("random", "greedy", "commit:after=1", "reader")[sid], "gris").params
    obs_a, obs_b = make_obs(hand), make_obs(hand)
    (ra, _), (rb, _) = stream(), stream()
    a = decide_builtin_nb(sid, obs_a, p, ra)
    assert a == direct(obs_b, p, rb) and a in hand
    assert ra[0] == rb[0] and np.array_equal(obs_a, obs_b)


# --- random and greedy -------------------------------------------------------------------------


def test_random_draws_below_six_over_the_cards_in_order() -> None:
    obs = make_obs("♠A ♥2 ♦3 ♣4 ♣5 ♠9")
    rng, twin = stream()
    for _ in range(20):
        assert random_nb(obs, params(), rng) == obs[HAND + twin.below(6)]
    assert rng[0] == twin.state


def test_greedy_without_ties_draws_nothing() -> None:
    obs = make_obs("♠A ♠2 ♠3 ♥4 ♥5 ♦6")
    rng, twin = stream()
    assert greedy_nb(obs, params(), rng) == parse_card("♦6")
    assert rng[0] == twin.state


def test_greedy_ties_draw_in_suit_order() -> None:
    """Target tie ♠/♥ -> below(2); then ♦/♣ tie for least held -> below(2); one card each."""
    obs = make_obs("♠A ♠2 ♥3 ♥4 ♦5 ♣6")
    for game in range(30):
        rng, twin = stream(game)
        target = (SPADES, HEARTS)[twin.below(2)]
        dump = (DIAMONDS, CLUBS)[twin.below(2)]
        assert target in (SPADES, HEARTS)
        assert greedy_nb(obs, params(), rng) == of_suit(obs, dump)[0]
        assert rng[0] == twin.state


def test_greedy_card_within_the_least_held_suit() -> None:
    """♠ is the target; ♥ (two cards) is the only other suit: below(2) picks the card."""
    obs = make_obs("♠A ♠2 ♠3 ♠4 ♥5 ♥9")
    for game in range(20):
        rng, twin = stream(game)
        assert greedy_nb(obs, params(), rng) == of_suit(obs, HEARTS)[twin.below(2)]
        assert rng[0] == twin.state


def test_greedy_with_every_card_of_the_target_passes_any_card() -> None:
    obs = make_obs("♣A ♣2 ♣3 ♣4 ♣5 ♣6")
    for game in range(20):
        rng, twin = stream(game)
        assert greedy_nb(obs, params(), rng) == obs[HAND + twin.below(6)]


def test_greedy_breaks_target_ties_afresh_each_decision() -> None:
    """3-3 between ♠ and ♥: each call draws again; over many calls both targets occur."""
    obs = make_obs("♠A ♠2 ♠3 ♥4 ♥5 ♥6")
    rng, twin = stream()
    passed_suits = set()
    for _ in range(40):
        target = (SPADES, HEARTS)[twin.below(2)]
        other = HEARTS if target == SPADES else SPADES
        card = greedy_nb(obs, params(), rng)
        assert card == of_suit(obs, other)[twin.below(3)]
        passed_suits.add(suit_of(card))
    assert passed_suits == {SPADES, HEARTS}


def plain_avoiding(obs: np.ndarray, target: int, twin: Stream) -> int:
    """RULES.md §5's card away from ``target``, written plainly, drawing from ``twin``."""
    counts = [int(obs[SUIT_COUNT + s]) for s in range(4)]
    others = [s for s in range(4) if counts[s] > 0 and s != target]
    if not others:
        return int(obs[HAND + twin.below(6)])
    least = min(counts[s] for s in others)
    low = [s for s in others if counts[s] == least]
    dump = low[twin.below(len(low))] if len(low) > 1 else low[0]
    held = of_suit(obs, dump)
    return held[twin.below(len(held))] if len(held) > 1 else held[0]


def plain_greedy(obs: np.ndarray, twin: Stream) -> int:
    counts = [int(obs[SUIT_COUNT + s]) for s in range(4)]
    tied = [s for s in range(4) if counts[s] == max(counts)]
    target = tied[twin.below(len(tied))] if len(tied) > 1 else tied[0]
    return plain_avoiding(obs, target, twin)


def test_greedy_and_passing_away_from_a_target_draw_as_written_plainly() -> None:
    """Over hands of every shape (6, 5 + 1, ..., 3 + 3, 2 + 2 + 2, 2 + 2 + 1 + 1): the card and
    the draws of greedy, and of passing away from each target, as a plain reading of §5."""
    gen = np.random.default_rng(5)
    shapes = set()
    for k in range(3000):
        suits = gen.integers(0, 4, 6) if k % 3 else np.sort(gen.integers(0, 1 + k % 4, 6))
        ranks = gen.permutation(N_RANKS)[:6]
        obs = make_obs([int(s) * N_RANKS + int(r) for s, r in zip(suits, ranks, strict=True)])
        shapes.add(tuple(sorted(obs[SUIT_COUNT : SUIT_COUNT + 4])))
        rng, twin = stream(k)
        for _ in range(3):
            assert greedy_nb(obs, params(), rng) == plain_greedy(obs, twin)
            assert rng[0] == twin.state
        for target in range(4):
            assert pass_avoiding_nb(obs, target, rng) == plain_avoiding(obs, target, twin)
            assert rng[0] == twin.state
    assert len(shapes) == 9  # every way to split six cards over four suits


# --- commit:after=t ----------------------------------------------------------------------------


def test_commit_after_zero_locks_the_six_card_hand_as_dealt() -> None:
    """The six-card seat's first decision (INCOMING -1): all six cards count."""
    obs = make_obs("♠A ♠2 ♠3 ♥4 ♥5 ♦6")
    rng, twin = stream()
    assert commit_nb(obs, params(0), rng) == parse_card("♦6")
    assert obs[MEMORY] == SPADES and rng[0] == twin.state


def test_commit_after_zero_locks_without_the_card_that_just_arrived() -> None:
    """Dealt ♠A ♠2 ♥3 ♥4 ♦5 (a ♠/♥ tie), ♥5 arrives.  Greedy would target ♥ (three);
    commit draws below(2) between ♠ and ♥ on the hand as dealt."""
    hand = "♠A ♠2 ♥3 ♥4 ♦5 ♥5"
    seen = set()
    for game in range(40):
        obs = make_obs(hand, incoming="♥5")
        rng, twin = stream(game)
        locked = (SPADES, HEARTS)[twin.below(2)]
        card = commit_nb(obs, params(0), rng)
        assert obs[MEMORY] == locked and card == parse_card("♦5")  # ♦ is least held either way
        assert rng[0] == twin.state
        seen.add(locked)
        # Locked on ♠, it keeps ♠ against four hearts; locked on ♥ it passes a spade.
        later = make_obs("♠A ♠2 ♥3 ♥4 ♥5 ♥6", incoming="♥6", my_passes=1, memory=locked)
        rng2, twin2 = stream(game + 1000)
        card2 = commit_nb(later, params(0), rng2)
        if locked == SPADES:
            assert card2 == of_suit(later, HEARTS)[twin2.below(4)]
        else:
            assert card2 == of_suit(later, SPADES)[twin2.below(2)]
        assert later[MEMORY] == locked
    assert seen == {SPADES, HEARTS}


@pytest.mark.parametrize("t", [1, 2, 5])
def test_commit_plays_greedy_until_its_t_th_pass_then_locks(t: int) -> None:
    hand = "♠A ♠2 ♥3 ♥4 ♦5 ♥5"
    for my_passes in range(t):  # before the lock: greedy, draw for draw, MEMORY untouched
        for game in range(10):
            a, b = make_obs(hand, incoming="♥5", my_passes=my_passes), make_obs(hand, incoming="♥5")
            (ra, _), (rb, _) = stream(game), stream(game)
            assert commit_nb(a, params(t), ra) == greedy_nb(b, params(), rb)
            assert ra[0] == rb[0] and a[MEMORY] == -1
    # Right after its t-th pass it held ♠A ♠2 ♥3 ♥4 ♦5; the card that arrived (♥5) is not counted.
    for drawn in (False, True):
        obs = make_obs(hand, incoming="♥5", drawn=drawn, my_passes=t)
        rng, twin = stream(3)
        locked = (SPADES, HEARTS)[twin.below(2)]
        commit_nb(obs, params(t), rng)
        assert obs[MEMORY] == locked
    # Once locked the target never moves, whatever the hand.
    obs = make_obs("♠A ♥2 ♥3 ♥4 ♥5 ♣6", incoming="♣6", my_passes=t + 3, memory=CLUBS)
    rng, twin = stream(4)
    assert commit_nb(obs, params(t), rng) == parse_card("♠A")  # least held non-target: ♠ (one)
    assert obs[MEMORY] == CLUBS and rng[0] == twin.state


def test_commit_with_a_large_t_is_greedy_for_the_whole_round() -> None:
    for my_passes in (0, 3, 40, 9999):
        for game in range(10):
            a = make_obs("♠A ♠2 ♥3 ♥4 ♦5 ♣6", incoming="♣6", my_passes=my_passes)
            b = a.copy()
            (ra, _), (rb, _) = stream(game), stream(game)
            assert commit_nb(a, params(10000), ra) == greedy_nb(b, params(), rb)
            assert a[MEMORY] == -1 and ra[0] == rb[0]


def test_commit_locked_with_every_card_of_the_target_passes_any_card() -> None:
    obs = make_obs("♦A ♦2 ♦3 ♦4 ♦5 ♦6", my_passes=4, memory=DIAMONDS)
    rng, twin = stream()
    assert commit_nb(obs, params(0), rng) == obs[HAND + twin.below(6)]


# --- reader ---------------------------------------------------------------------------------------


READER = parse_spec("reader", "gris").params


def test_reader_sticks_to_its_target_until_another_suit_is_two_ahead() -> None:
    """stick = 1: a suit one card ahead of the last target ties with it (below(2) in suit
    order), a suit two ahead takes over."""
    for game in range(20):
        obs = make_obs("♠A ♠2 ♠3 ♥4 ♥5 ♦6", memory=HEARTS)
        rng, twin = stream(game)
        target = (SPADES, HEARTS)[twin.below(2)]
        card = reader_nb(obs, READER, rng)
        assert obs[MEMORY] == target and suit_of(card) != target
    obs = make_obs("♠A ♠2 ♠3 ♠4 ♥5 ♥6", memory=HEARTS)
    rng, _ = stream()
    assert suit_of(reader_nb(obs, READER, rng)) == HEARTS and obs[MEMORY] == SPADES


def test_reader_prefers_the_suit_it_was_dealt_on_a_tie() -> None:
    """Two spades and two hearts; the hearts came from the right: it targets ♠, passes ♥."""
    obs = make_obs("♠A ♠2 ♥3 ♥4 ♦5 ♦6", received=(0, 2, 0, 0))
    rng, _ = stream()
    card = reader_nb(obs, READER, rng)
    assert obs[MEMORY] in (SPADES, DIAMONDS) and obs[MEMORY] != HEARTS
    assert suit_of(card) == HEARTS


def test_reader_holds_the_card_that_just_arrived() -> None:
    """It passes a heart; with two hearts it passes the one it already had, not ♥9 that came."""
    for game in range(20):
        obs = make_obs("♠A ♠2 ♠3 ♠4 ♥5 ♥9", incoming="♥9")
        rng, twin = stream(game)
        assert reader_nb(obs, READER, rng) == parse_card("♥5") and rng[0] == twin.state
        # Without hold, or once the round is past its patience, either heart may go.
        for p in (params(*READER[:3], 0, 40), params(*READER[:3], 1, 40)):
            late = 50 if p[3] == 1 else 0
            obs = make_obs("♠A ♠2 ♠3 ♠4 ♥5 ♥9", incoming="♥9", passes=late)
            rng, twin = stream(game)
            assert reader_nb(obs, p, rng) == of_suit(obs, HEARTS)[twin.below(2)]


def test_reader_holding_chooses_uniformly_among_the_other_cards() -> None:
    for game in range(40):
        obs = make_obs("♠A ♠2 ♠3 ♥5 ♥9 ♥K", incoming="♥9", memory=SPADES)
        rng, twin = stream(game)
        assert reader_nb(obs, READER, rng) == cards("♥5 ♥K")[twin.below(2)]
        assert obs[MEMORY] == SPADES and rng[0] == twin.state
