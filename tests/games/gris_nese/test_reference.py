"""The plain-Python Gris-nese reference (RULES.md §2, §4, §6) against the rulebook and the stream contract."""

from __future__ import annotations

import itertools
import math
from collections import Counter
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats

from simulator.engine import reaction
from simulator.engine.cards import parse_card, rank_of
from simulator.engine.rng import DEAL, DECIDE, REACT, Stream, below_nb
from simulator.games.gris_nese.observation import (
    GROUP_COUNT,
    GROUP_RANKS,
    HAND,
    HAND_SIZE,
    INCOMING,
    MAX_GROUPS,
    MEMORY,
    N_PLAYERS,
    OBS_SIZE,
    PASSED_GROUP,
    RECEIVED_GROUP,
    SEAT,
    STEPS,
)
from simulator.games.gris_nese.reference import (
    IllegalAction,
    RoundRecord,
    cards_in_play,
    deal_hands,
    decide_streams,
    format_match,
    format_round,
    four_of_a_kind,
    group_of,
    is_unclear,
    new_table,
    play_from_hands,
    play_match,
    play_round,
    reaction_draws,
    shuffle_cards,
    signalling,
    touch_times,
)
from simulator.games.gris_nese.variants import ABANDON_AFTER, STALL_CAP, Rules
from strategies.registry import PARAM_ROW

RULES = Rules()
DEFAULT = (reaction.DEFAULT_MEDIAN, reaction.DEFAULT_SIGMA)


# --- plain-Python strategies (RULES.md §5 and docs/random-streams.md) ------------------


def pick(rng: np.ndarray, options: list[int]) -> int:
    """docs/random-streams.md: one below(m) draw among m ≥ 2 options in ascending order; none for one."""
    return options[int(below_nb(rng, len(options)))] if len(options) > 1 else options[0]


def hand_of(obs: np.ndarray) -> list[int]:
    return [int(c) for c in obs[HAND : HAND + HAND_SIZE]]


def counts_of(obs: np.ndarray) -> list[int]:
    return [int(obs[GROUP_COUNT + g]) for g in range(int(obs[N_PLAYERS]))]


def target_of(obs: np.ndarray, rng: np.ndarray) -> int:
    """RULES.md §5: the group held most, a tie uniformly at random."""
    counts = counts_of(obs)
    return pick(rng, [g for g, c in enumerate(counts) if c == max(counts)])


def pass_for(obs: np.ndarray, target: int, rng: np.ndarray) -> int:
    """RULES.md §5: a card of the non-target group held least (ties at random), else any card."""
    counts, hand = counts_of(obs), hand_of(obs)
    others = [g for g, c in enumerate(counts) if c > 0 and g != target]
    if not others:
        return int(hand[below_nb(rng, HAND_SIZE)])
    least = min(counts[g] for g in others)
    group = pick(rng, [g for g in others if counts[g] == least])
    return pick(rng, [c for c in hand if group_of(c) == group])


class Base:
    def __init__(self, name: str) -> None:
        self.name = name
        self.params = np.zeros(PARAM_ROW)


class RandomPlay(Base):
    """RULES.md §5 `random`: below(4) over the hand."""

    def __init__(self, name: str = "random") -> None:
        super().__init__(name)

    def decide(self, obs: np.ndarray, params: np.ndarray, rng: np.ndarray) -> int:
        return hand_of(obs)[int(below_nb(rng, HAND_SIZE))]


class Greedy(Base):
    """RULES.md §5 `greedy`."""

    def __init__(self, name: str = "greedy") -> None:
        super().__init__(name)

    def decide(self, obs: np.ndarray, params: np.ndarray, rng: np.ndarray) -> int:
        return pass_for(obs, target_of(obs, rng), rng)


class Commit(Base):
    """RULES.md §5 `commit:after=t`; the locked target lives in MEMORY."""

    def __init__(self, after: int, name: str | None = None) -> None:
        super().__init__(name or f"commit:after={after}")
        self.after = after

    def decide(self, obs: np.ndarray, params: np.ndarray, rng: np.ndarray) -> int:
        if obs[MEMORY] < 0:
            if obs[STEPS] < self.after:
                return pass_for(obs, target_of(obs, rng), rng)
            obs[MEMORY] = target_of(obs, rng)
        return pass_for(obs, int(obs[MEMORY]), rng)


class AntiGreedy(Base):
    """Always lays a card of the group it holds most (lowest group, lowest card): never completes.

    After laying one of its most-held group it keeps at most two of any group... plus the card
    from the right, so at most three: only a dealt four of a kind ever signals.
    """

    def __init__(self, name: str = "anti") -> None:
        super().__init__(name)

    def decide(self, obs: np.ndarray, params: np.ndarray, rng: np.ndarray) -> int:
        counts = counts_of(obs)
        group = counts.index(max(counts))
        return min(c for c in hand_of(obs) if group_of(c) == group)


class Script(Base):
    """Lays the listed card at each pass step."""

    def __init__(self, *cards: str, name: str = "script") -> None:
        super().__init__(name)
        self.cards = [parse_card(c) for c in cards]

    def decide(self, obs: np.ndarray, params: np.ndarray, rng: np.ndarray) -> int:
        return self.cards[int(obs[STEPS])]


class Rogue(Base):
    """Greedy-free: anti-greedy until step ``from_step``, then answers ``value``."""

    def __init__(self, value: object, from_step: int, name: str = "Rogue") -> None:
        super().__init__(name)
        self.value, self.from_step = value, from_step

    def decide(self, obs: np.ndarray, params: np.ndarray, rng: np.ndarray) -> object:
        if obs[STEPS] >= self.from_step:
            return self.value
        return AntiGreedy().decide(obs, params, rng)


class Recorder:
    """Wraps a player; keeps a copy of every observation and the rng array it was handed."""

    def __init__(self, inner: Base) -> None:
        self.inner = inner
        self.name = inner.name
        self.params = inner.params
        self.seen: list[np.ndarray] = []
        self.obs_ids: list[int] = []
        self.rngs: list[np.ndarray] = []
        self.rng_states: list[int] = []

    def decide(self, obs: np.ndarray, params: np.ndarray, rng: np.ndarray) -> int:
        assert obs.dtype == np.int64 and obs.shape == (OBS_SIZE,)
        assert rng.dtype == np.uint64 and rng.shape == (1,)
        self.seen.append(obs.copy())
        self.obs_ids.append(id(obs))
        self.rngs.append(rng)
        self.rng_states.append(int(rng[0]))
        return self.inner.decide(obs, params, rng)


def make(kind: str) -> Base:
    if kind.startswith("commit"):
        return Commit(int(kind.split("=")[1]))
    return {"random": RandomPlay, "greedy": Greedy, "anti": AntiGreedy}[kind]()


def cards(text: str) -> list[int]:
    return [parse_card(t) for t in text.split()]


def replay(rec: RoundRecord) -> list[list[list[int]]]:
    """The hands (per position) after the deal and after each pass step, rebuilt from the events."""
    m = len(rec.seats)
    hands = [sorted(h) for h in rec.hands_dealt]
    history = [[list(h) for h in hands]]
    assert len(rec.events) == m * rec.passes
    for step in range(rec.passes):
        laid = rec.events[step * m : (step + 1) * m]
        assert [(e[0], e[1]) for e in laid] == [(step, s) for s in rec.seats]  # ring order, step numbers
        for i, (_, _, card) in enumerate(laid):
            assert card in hands[i]  # only a card the player held before the step
            hands[i].remove(card)
        for i, (_, _, card) in enumerate(laid):
            hands[(i + 1) % m].append(card)  # to the left: the next position round the ring
        hands = [sorted(h) for h in hands]
        history.append([list(h) for h in hands])
    return history


def draws_of(seed: int, game: int, deal: int, seats, profiles) -> list[float]:
    return [Stream(seed, game, REACT, deal, s).lognormal(*profiles[s]) for s in seats]


def section_4(draws: list[float], signals: list[bool]) -> list[float]:
    first = min(d for d, s in zip(draws, signals, strict=True) if s)
    return [d if s else first + d for d, s in zip(draws, signals, strict=True)]


def first_seed_without_dealt_four(m: int, game: int = 0) -> int:
    seed = 0
    while any(four_of_a_kind(h) for h in deal_hands(shuffle_cards(seed, game, 0, m), m)):
        seed += 1
    return seed


# --- cards in play and the deal (RULES.md §2, docs/random-streams.md) --------------------


def test_cards_in_play_group_by_group() -> None:
    assert cards_in_play(3) == cards("♠A ♥A ♦A ♣A ♠K ♥K ♦K ♣K ♠Q ♥Q ♦Q ♣Q")
    eight = cards_in_play(8)
    assert len(eight) == 32 and len(set(eight)) == 32
    assert [rank_of(c) for c in eight[::4]] == list(GROUP_RANKS)  # A K Q J 10 9 8 7
    assert [rank_of(c) for c in eight[28:]] == [rank_of(parse_card("♠7"))] * 4
    for m in range(3, 9):
        assert cards_in_play(m) == eight[: 4 * m]
        assert sorted({group_of(c) for c in cards_in_play(m)}) == list(range(m))


@pytest.mark.parametrize("seats", [None, [0, 2, 3, 5], [1, 4, 5]])
def test_deal_follows_the_stream_contract(seats: list[int] | None) -> None:
    seed, game, deal, n = 2024, 17, 3, 6
    ring = list(range(n)) if seats is None else seats
    m = len(ring)
    perm = Stream(seed, game, DEAL, deal).shuffled(4 * m)
    assert shuffle_cards(seed, game, deal, m) == perm
    rec = play_round(RULES, [Greedy()] * n, seed=seed, game=game, deal=deal, seats=seats)
    assert rec.seats == tuple(ring) and rec.deal == deal
    assert rec.groups == tuple(GROUP_RANKS[:m])
    in_play = cards_in_play(m)
    for i in range(m):
        assert rec.hands_dealt[i] == tuple(sorted(in_play[perm[k]] for k in range(i, 4 * m, m)))


def test_decisions_draw_from_the_original_seats_stream() -> None:
    seed, game, deal, seats = 5, 8, 2, [0, 2, 3, 5]
    players = [Recorder(Greedy()) for _ in range(6)]
    rec = play_round(RULES, players, seed=seed, game=game, deal=deal, seats=seats)
    assert rec.passes > 0
    for s, p in enumerate(players):
        if s not in seats:
            assert p.seen == []  # seats that have left are never asked
            continue
        assert len(p.seen) == rec.passes  # one decision per pass step
        assert p.rng_states[0] == Stream(seed, game, DECIDE, deal, s).state
        assert all(r is p.rngs[0] for r in p.rngs)  # the same array for the whole deal
        assert len(set(p.obs_ids)) == 1  # one persistent observation per round
    assert [int(r[0]) for r in decide_streams(seed, game, deal, seats)] == [
        Stream(seed, game, DECIDE, deal, s).state for s in seats
    ]


def test_a_seat_that_left_changes_nothing_of_the_others_streams() -> None:
    """Common random numbers: the same seats with different absent players give the same deal."""
    seats = [1, 2, 4]
    a = play_round(RULES, [Greedy()] * 5, seed=3, game=4, deal=1, seats=seats)
    b = play_round(
        RULES, [AntiGreedy(), Greedy(), Greedy(), RandomPlay(), Greedy()], seed=3, game=4, deal=1, seats=seats
    )
    assert a == b


# --- observations --------------------------------------------------------------------------


def test_observations_follow_the_round() -> None:
    seed, game = 11, 2
    players = [Recorder(make(k)) for k in ("greedy", "random", "commit=1", "random")]
    rec = play_round(RULES, players, seed=seed, game=game)
    assert rec.passes >= 2
    history = replay(rec)
    m = 4
    for i, p in enumerate(players):
        assert len(p.seen) == rec.passes
        received, passed = [0] * MAX_GROUPS, [0] * MAX_GROUPS
        for step, obs in enumerate(p.seen):
            hand = history[step][i]
            assert obs[SEAT] == i and obs[N_PLAYERS] == m and obs[STEPS] == step
            assert list(obs[HAND : HAND + 4]) == sorted(hand)
            count = Counter(group_of(c) for c in hand)
            assert [int(obs[GROUP_COUNT + g]) for g in range(MAX_GROUPS)] == [count[g] for g in range(8)]
            if step == 0:
                assert obs[INCOMING] == -1
            else:
                incoming = rec.events[(step - 1) * m + (i - 1) % m][2]  # from the right
                assert obs[INCOMING] == incoming
                received[group_of(incoming)] += 1
                passed[group_of(rec.events[(step - 1) * m + i][2])] += 1
            assert list(obs[RECEIVED_GROUP : RECEIVED_GROUP + 8]) == received
            assert list(obs[PASSED_GROUP : PASSED_GROUP + 8]) == passed
            if not isinstance(p.inner, Commit):
                assert list(obs[MEMORY : MEMORY + 4]) == [-1] * 4


def test_memory_is_the_strategys_own_and_reset_at_each_deal() -> None:
    class Counting(Greedy):
        def decide(self, obs: np.ndarray, params: np.ndarray, rng: np.ndarray) -> int:
            obs[MEMORY + 3] = obs[MEMORY + 3] + 2 if obs[MEMORY + 3] >= 0 else 100
            return super().decide(obs, params, rng)

    rec0 = play_round(RULES, [Greedy()] * 3, seed=1, game=0)
    for _ in range(2):  # every deal starts from -1 again
        players = [Recorder(Counting()) for _ in range(3)]
        rec = play_round(RULES, players, seed=1, game=0)
        assert rec == rec0  # writing MEMORY does not change greedy play
        for p in players:
            assert [int(o[MEMORY + 3]) for o in p.seen] == [-1] + [100 + 2 * k for k in range(rec.passes - 1)]


# --- hand-made positions ----------------------------------------------------------------


def test_a_dealt_four_of_a_kind_signals_before_any_pass() -> None:
    hands = [cards("♠A ♥A ♦J ♣Q"), cards("♠K ♥K ♦K ♣K"), cards("♦A ♣A ♥Q ♦Q"), cards("♠Q ♠J ♥J ♣J")]
    players = [Recorder(Greedy()) for _ in range(4)]
    for seed in range(20):
        rec = play_from_hands(RULES, players, hands, seed=seed, game=3)
        assert rec.passes == 0 and rec.events == [] and not rec.stalled and not rec.replayed
        assert rec.signallers == (1,)
        assert rec.final_hands == rec.hands_dealt
        draws = draws_of(seed, 3, 0, range(4), [DEFAULT] * 4)
        assert rec.times == tuple(section_4(draws, [False, True, False, False]))
        assert rec.times[1] == min(rec.times)  # RULES.md §4: a lone signaller is never last
        assert rec.loser != 1 and rec.loser == int(np.argmax(rec.times))
    assert all(p.seen == [] for p in players)  # nobody is asked to pass
    assert "Four of a kind dealt" in format_round(rec)


# Position 4 players (A K Q J): seat 1 and seat 2 each need one card that arrives at step 1.
TWO_HANDS = [cards("♠A ♥A ♦J ♣K"), cards("♠K ♥K ♦K ♣Q"), cards("♠Q ♥Q ♦Q ♦A"), cards("♣A ♠J ♥J ♣J")]
TWO_SCRIPT = [Script("♣K"), Script("♣Q"), Script("♦A"), Script("♠J")]


def test_two_players_complete_in_the_same_step() -> None:
    for seed in range(30):
        rec = play_from_hands(RULES, TWO_SCRIPT, TWO_HANDS, seed=seed, game=0, deal=4)
        assert rec.passes == 1 and rec.signallers == (1, 2)
        assert rec.events == [(0, seat, card) for seat, card in enumerate(cards("♣K ♣Q ♦A ♠J"))]
        assert rec.final_hands[1] == tuple(sorted(cards("♠K ♥K ♦K ♣K")))
        assert rec.final_hands[2] == tuple(sorted(cards("♠Q ♥Q ♦Q ♣Q")))
        assert rec.final_hands[0] == tuple(sorted(cards("♠A ♥A ♦J ♠J")))
        draws = draws_of(seed, 0, 4, range(4), [DEFAULT] * 4)
        times = section_4(draws, [False, True, True, False])
        assert rec.times == tuple(times)
        assert rec.loser == int(np.argmax(times))


def test_a_slow_signaller_loses_to_fast_non_signallers() -> None:
    # RULES.md §4: seat 2 completes at the same step as seat 1 but reacts slowly; the others
    # follow seat 1's quick touch and are all done long before seat 2.
    profiles = [(0.1, 0.35), (0.1, 0.35), (5.0, 0.35), (0.1, 0.35)]
    for seed in range(40):
        rec = play_from_hands(RULES, TWO_SCRIPT, TWO_HANDS, seed=seed, game=1, profiles=profiles)
        assert rec.signallers == (1, 2)
        draws = draws_of(seed, 1, 0, range(4), profiles)
        assert draws == reaction_draws(seed, 1, 0, range(4), profiles)
        assert rec.times == tuple(section_4(draws, [False, True, True, False]))
        assert rec.times[0] == draws[1] + draws[0] and rec.times[3] == draws[1] + draws[3]
        assert rec.loser == 2
        assert rec.rank_out == GROUP_RANKS[3]  # the jacks, the last group added, go out


def test_a_slow_non_signaller_loses() -> None:
    profiles = [(0.8, 0.35), (0.8, 0.35), (0.8, 0.35), (5.0, 0.35)]
    for seed in range(20):
        rec = play_from_hands(RULES, TWO_SCRIPT, TWO_HANDS, seed=seed, game=2, profiles=profiles)
        assert rec.loser == 3


def test_everybody_signals_at_once_with_three_players() -> None:
    # RULES.md §2: with n players and n groups, n - 1 complete hands force the last one.
    hands = [cards("♠A ♥A ♦A ♠K"), cards("♥K ♦K ♣K ♠Q"), cards("♥Q ♦Q ♣Q ♣A")]
    losers = set()
    for seed in range(40):
        rec = play_from_hands(RULES, [Greedy()] * 3, hands, seed=seed, game=9)
        assert rec.passes == 1 and rec.signallers == (0, 1, 2)
        assert [e[2] for e in rec.events] == cards("♠K ♠Q ♣A")  # greedy lays its odd card
        assert all(four_of_a_kind(h) for h in rec.final_hands)
        draws = draws_of(seed, 9, 0, range(3), [DEFAULT] * 3)
        assert rec.times == tuple(draws)  # everybody touches at its own reaction time
        assert rec.loser == int(np.argmax(draws))  # the slowest of them loses
        losers.add(rec.loser)
    assert losers == {0, 1, 2}
    assert "everybody" in format_round(rec)


@settings(max_examples=60, deadline=None)
@given(n=st.integers(3, 8), seed=st.integers(0, 2**63), k=st.integers(0, 7))
def test_n_minus_one_complete_hands_force_the_last(n: int, seed: int, k: int) -> None:
    """Any deal in which n - 1 players hold four of a kind: the last one does too."""
    groups = cards_in_play(n)
    order = Stream(seed, 0, DEAL).shuffled(n)
    hands = [groups[4 * order[i] : 4 * order[i] + 4] for i in range(n)]
    table = new_table(RULES, list(range(n)), hands)
    assert signalling(table) == [True] * n
    # Swap one card between two hands: then exactly n - 2 are complete (never n - 1).
    a, b = k % n, (k + 1) % n
    hands[a][0], hands[b][0] = hands[b][0], hands[a][0]
    assert sum(signalling(new_table(RULES, list(range(n)), hands))) == n - 2


def test_exact_ties_go_to_the_lowest_position() -> None:
    hands = [cards("♠A ♥A ♦A ♠K"), cards("♥K ♦K ♣K ♠Q"), cards("♥Q ♦Q ♣Q ♣A")]
    flat = [(1.0, 0.0)] * 5  # sigma 0: every reaction time is exactly the median
    rec = play_from_hands(RULES, [Greedy()] * 5, hands, seed=1, game=1, seats=[1, 3, 4], profiles=flat)
    assert rec.times == (1.0, 1.0, 1.0) and rec.loser == 1 and not rec.replayed
    # Seat 1 alone completes (dealt); seats 0 and 2 follow at 1.0 + 0.5 exactly: seat 0 loses.
    dealt = [cards("♠A ♥A ♦J ♣Q"), cards("♠K ♥K ♦K ♣K"), cards("♦A ♣A ♥Q ♦Q"), cards("♠Q ♠J ♥J ♣J")]
    profiles = [(0.5, 0.0), (1.0, 0.0), (0.5, 0.0), (0.25, 0.0)]
    rec = play_from_hands(RULES, [Greedy()] * 4, dealt, seed=1, game=1, profiles=profiles)
    assert rec.times == (1.5, 1.0, 1.5, 1.25) and rec.loser == 0


def test_touch_times_are_the_reaction_modules_for_a_full_table() -> None:
    profiles = [(0.8, 0.35), (0.3, 0.2), (1.2, 0.5), (0.8, 0.35), (0.6, 0.1)]
    for seed, signals in itertools.product(
        range(5), [[True, False, False, True, False], [False] * 4 + [True]]
    ):
        draws = reaction_draws(seed, 7, 2, range(5), profiles)
        assert touch_times(draws, signals) == reaction.touch_times(seed, 7, 2, signals, profiles)


# --- the exact chance of a dealt four of a kind ----------------------------------------------


def dealt_four_inclusion_exclusion(n: int) -> Fraction:
    """P(somebody is dealt four of a kind), n players and n rank groups, by inclusion–exclusion.

    k given players all holding four of a kind: they take k distinct groups in order
    (n!/(n-k)! ways) and the other 4(n-k) cards are dealt freely; deals are counted as
    ordered splits of the 4n distinct cards into hands of four.
    """
    total = Fraction(math.factorial(4 * n), math.factorial(4) ** n)
    p = Fraction(0)
    for k in range(1, n + 1):
        ways = Fraction(math.perm(n, k) * math.factorial(4 * (n - k)), math.factorial(4) ** (n - k))
        p += (-1) ** (k + 1) * math.comb(n, k) * ways / total
    return p


def dealt_four_by_enumeration(n: int) -> Fraction:
    """The same by enumerating every table of hand shapes (cards of each rank in each hand).

    A table ``c[i][r]`` arises from prod_r 4! / prod_i c[i][r]! deals of the distinct cards.
    """
    shapes = [s for s in itertools.product(range(5), repeat=n) if sum(s) == HAND_SIZE]
    hit = total = 0

    def walk(i: int, left: tuple[int, ...], weight: int, complete: bool) -> None:
        nonlocal hit, total
        if i == n:
            total += weight
            hit += weight if complete else 0
            return
        for s in shapes:
            if all(a <= b for a, b in zip(s, left, strict=True)):
                w = weight
                for a in s:
                    w //= math.factorial(a)
                walk(i + 1, tuple(b - a for a, b in zip(s, left, strict=True)), w, complete or max(s) == 4)

    walk(0, (4,) * n, math.factorial(4) ** n, False)
    assert total == math.factorial(4 * n) // math.factorial(4) ** n
    return Fraction(hit, total)


def test_dealt_four_of_a_kind_exactly() -> None:
    p3 = dealt_four_inclusion_exclusion(3)
    assert p3 == Fraction(618, 34650) == dealt_four_by_enumeration(3)
    assert Fraction("0.01783") <= p3 < Fraction("0.01784")  # 0.01783… for n = 3, its first four digits
    assert dealt_four_by_enumeration(4) == dealt_four_inclusion_exclusion(4)
    # one player: 3 four-of-a-kind hands of C(12, 4); a union bound from above
    assert p3 < 3 * Fraction(3, math.comb(12, 4))
    ps = [dealt_four_inclusion_exclusion(n) for n in range(3, 9)]
    assert all(a > b for a, b in itertools.pairwise(ps))


@pytest.mark.parametrize(
    ("n", "games"), [(3, 40_000), (4, 12_000), (5, 12_000), (6, 12_000), (7, 12_000), (8, 12_000)]
)
def test_the_reference_deals_four_of_a_kind_as_often_as_it_should(n: int, games: int) -> None:
    # stall_cap 0 stops every round at the deal check: a round that is not stalled had a dealt signal
    hits = sum(
        not play_round(RULES, [AntiGreedy()] * n, seed=77, game=g, stall_cap=0).stalled for g in range(games)
    )
    p = float(dealt_four_inclusion_exclusion(n))
    se = math.sqrt(p * (1 - p) / games)
    assert abs(hits / games - p) < 4 * se, (hits / games, p, se)


# --- card conservation, and the round loop (hypothesis) ----------------------------------------

KINDS = ["random", "greedy", "commit=0", "commit=1", "commit=3", "anti"]


@settings(max_examples=60, deadline=None)
@given(
    n=st.integers(3, 8),
    data=st.data(),
    seed=st.integers(0, 2**63 - 1),
    game=st.integers(0, 2**40),
    deal=st.integers(0, 200),
    margin=st.sampled_from([0.0, 0.05, 0.3]),
)
def test_every_card_is_conserved_and_the_round_ends_at_the_first_signal(
    n: int, data: st.DataObject, seed: int, game: int, deal: int, margin: float
) -> None:
    kinds = data.draw(st.lists(st.sampled_from(KINDS[:5]), min_size=n, max_size=n))
    seats = sorted(data.draw(st.sets(st.integers(0, n - 1), min_size=3, max_size=n)))
    rec = play_round(Rules(margin), [make(k) for k in kinds], seed=seed, game=game, deal=deal, seats=seats)
    m = len(seats)
    in_play = sorted(cards_in_play(m))
    history = replay(rec)
    for hands in history:
        assert all(len(h) == HAND_SIZE for h in hands)
        assert sorted(c for h in hands for c in h) == in_play
    # RULES.md §2: checked after the deal and every step; the round stops at the first check with a signal
    for hands in history[:-1]:
        assert not any(four_of_a_kind(h) for h in hands)
    assert [tuple(h) for h in history[-1]] == list(rec.final_hands)
    if rec.stalled:  # RULES.md §6: a table that locks into a cycle (greedy and commit can) stalls
        assert not any(four_of_a_kind(h) for h in history[-1])
        assert rec.passes == STALL_CAP and rec.signallers == () and rec.times == () and rec.loser == -1
        return
    assert rec.signallers == tuple(
        s for s, h in zip(seats, rec.final_hands, strict=True) if four_of_a_kind(h)
    )
    assert rec.signallers
    if len(rec.signallers) >= m - 1:
        assert len(rec.signallers) == m
    profiles = [DEFAULT] * n
    draws = draws_of(seed, game, deal, seats, profiles)
    assert rec.times == tuple(section_4(draws, [s in rec.signallers for s in seats]))
    top, second = sorted(rec.times)[-1], sorted(rec.times)[-2]
    assert rec.replayed == (top - second < margin)
    if rec.replayed:
        assert rec.loser == -1
    else:
        assert rec.loser == seats[rec.times.index(top)]


# --- stalled and replayed rounds (RULES.md §2, §6) --------------------------------------------


def test_a_round_without_a_signal_stalls_at_10000_pass_steps() -> None:
    seed = first_seed_without_dealt_four(3)
    rec = play_round(RULES, [AntiGreedy()] * 3, seed=seed, game=0)
    assert STALL_CAP == 10_000
    assert rec.stalled and rec.passes == STALL_CAP and len(rec.events) == 3 * STALL_CAP
    assert rec.loser == -1 and rec.signallers == () and rec.times == () and not rec.replayed
    assert not rec.counted and rec.rank_out == -1
    assert "Stalled" in format_round(rec)


def test_a_lower_stall_cap_and_a_signal_on_the_last_allowed_step() -> None:
    hands = [cards("♠A ♥A ♦A ♠K"), cards("♥K ♦K ♣K ♠Q"), cards("♥Q ♦Q ♣Q ♣A")]
    rec = play_from_hands(RULES, [Greedy()] * 3, hands, seed=0, game=0, stall_cap=1)
    assert not rec.stalled and rec.passes == 1  # the check after the cap's last step still counts
    rec = play_from_hands(RULES, [Greedy()] * 3, hands, seed=0, game=0, stall_cap=0)
    assert rec.stalled and rec.passes == 0 and rec.events == []


def test_an_unclear_finish_is_replayed() -> None:
    rec = play_round(Rules(unclear_margin=10.0), [Greedy()] * 5, seed=4, game=4)  # the widest allowed
    assert rec.replayed and not rec.stalled and rec.loser == -1 and not rec.counted
    assert rec.signallers and len(rec.times) == 5
    assert "replayed" in format_round(rec)
    # the margin decides nothing else: the same play and the same touches
    clear = play_round(RULES, [Greedy()] * 5, seed=4, game=4)
    assert (clear.events, clear.times, clear.signallers) == (rec.events, rec.times, rec.signallers)


def test_the_margin_is_strict() -> None:
    for seed in range(10):
        rec = play_round(RULES, [Greedy()] * 4, seed=seed, game=1)
        top, second = sorted(rec.times)[-1], sorted(rec.times)[-2]
        gap = top - second
        at = play_round(Rules(unclear_margin=gap), [Greedy()] * 4, seed=seed, game=1)
        above = play_round(
            Rules(unclear_margin=math.nextafter(gap, math.inf)), [Greedy()] * 4, seed=seed, game=1
        )
        assert not at.replayed and at.loser == rec.loser >= 0
        assert above.replayed and above.loser == -1
        assert is_unclear(rec.times, math.nextafter(gap, math.inf)) and not is_unclear(rec.times, gap)


# --- matches: elimination to two joint winners -------------------------------------------------


@pytest.mark.parametrize("n", range(3, 9))
def test_elimination_bookkeeping(n: int) -> None:
    kinds = ["greedy", "random", "commit=0", "commit=3", "greedy", "commit=1", "random", "greedy"][:n]
    for game, margin in itertools.product(range(3), (0.0, 0.05)):
        match = play_match(Rules(margin), [make(k) for k in kinds], seed=n, game=game)
        assert not match.abandoned
        assert len(match.winners) == 2
        assert sorted(match.places) == [1, 1, *range(3, n + 1)]
        assert match.counted_rounds == n - 2 == len(match.out_order)
        assert set(match.out_order) | set(match.winners) == set(range(n))
        seats = list(range(n))
        for d, rnd in enumerate(match.rounds):
            assert rnd.deal == d  # every deal counts in the deal index
            assert rnd.seats == tuple(seats)  # the players still in, in ring order
            assert rnd.groups == tuple(GROUP_RANKS[: len(seats)])  # the last group added went out
            assert rnd.hands_dealt == tuple(
                tuple(h) for h in deal_hands(shuffle_cards(n, game, d, len(seats)), len(seats))
            )
            if rnd.counted:
                assert match.places[rnd.loser] == len(seats)  # the first out gets place n
                seats.remove(rnd.loser)
            else:
                assert rnd.replayed  # greedy, random and commit never stall in these games
        assert tuple(seats) == match.winners
        text = format_match(match)
        assert "joint winners" in text and text.count("leaves the game") == n - 2


def test_replayed_rounds_are_redealt_and_not_counted() -> None:
    found = False
    for game in range(30):
        match = play_match(Rules(0.3), [Greedy()] * 5, seed=1, game=game)
        assert not match.abandoned and match.counted_rounds == 3
        replays = [r for r in match.rounds if r.replayed]
        assert len(match.rounds) == 3 + len(replays)
        found |= bool(replays)
    assert found


def test_a_hundred_unclear_rounds_in_a_row_abandon_the_match() -> None:
    match = play_match(Rules(10.0), [Greedy()] * 4, seed=3, game=0)  # the widest margin allowed
    assert match.abandoned and len(match.rounds) == ABANDON_AFTER == 100
    assert all(r.replayed for r in match.rounds) and [r.deal for r in match.rounds] == list(range(100))
    assert match.winners == () and match.places == (0, 0, 0, 0) and match.counted_rounds == 0
    assert "Abandoned" in format_match(match)


SEED_RESET = (0, 20)


def test_stalled_rounds_abandon_a_match_and_a_counted_round_resets_the_count() -> None:
    # Anti-greedy players never complete: only a dealt four of a kind ends a round.
    # (seed 0, game 20) at n = 4, found by search: a dealt four of a kind at deal 56 after 56 stalls,
    # then 100 stalls in a row.
    match = play_match(RULES, [AntiGreedy()] * 4, seed=SEED_RESET[0], game=SEED_RESET[1], stall_cap=2)
    assert match.abandoned
    counted = [i for i, r in enumerate(match.rounds) if r.counted]
    assert counted and match.counted_rounds == len(counted)
    assert all(r.stalled and r.passes == 2 for r in match.rounds if not r.counted)
    assert counted == [56] and len(match.rounds) == counted[-1] + 1 + ABANDON_AFTER
    assert len(match.rounds) > ABANDON_AFTER
    run = 0
    for r in match.rounds:
        run = 0 if r.counted else run + 1
        assert run <= ABANDON_AFTER
    assert run == ABANDON_AFTER
    loser = match.rounds[counted[0]].loser
    assert match.places[loser] == 4 and match.winners == ()
    assert sorted(p for p in match.places if p) == list(range(5 - len(counted), 5))


# --- seat symmetry -----------------------------------------------------------------------------


def test_identical_greedy_players_are_alike_in_every_seat() -> None:
    """Simultaneous passing has no first seat: identical players lose equally often."""
    games = 2400
    losers = Counter(play_round(RULES, [Greedy()] * 4, seed=8, game=g).loser for g in range(games))
    assert set(losers) == {0, 1, 2, 3}
    assert stats.chisquare([losers[s] for s in range(4)]).pvalue > 1e-3


# --- illegal answers and bad tables ---------------------------------------------------------


@pytest.mark.parametrize("value", [parse_card("♣7"), -1, 52, 2.5, None, "♠A"])
def test_a_card_not_in_hand_is_illegal(value: object) -> None:
    seed = first_seed_without_dealt_four(3)
    players = [AntiGreedy(), AntiGreedy(), Rogue(value, from_step=3)]
    with pytest.raises(IllegalAction) as err:
        play_round(RULES, players, seed=seed, game=0)
    msg = str(err.value)
    assert isinstance(err.value, ValueError)
    assert "'Rogue'" in msg and "seat 2" in msg and repr(value) in msg and "STEPS=3" in msg
    assert "pass step 4" in msg


def test_a_card_held_by_somebody_else_is_illegal() -> None:
    hands = [cards("♠A ♥A ♦A ♠K"), cards("♥K ♦K ♣K ♠Q"), cards("♥Q ♦Q ♣Q ♣A")]
    with pytest.raises(IllegalAction, match=r"'thief' \(seat 1\).*STEPS=0.*♠A, a card it does not hold"):
        play_from_hands(RULES, [Greedy(), Script("♠A", name="thief"), Greedy()], hands, seed=0, game=0)


def test_numpy_integers_are_accepted() -> None:
    class NumpyGreedy(Greedy):
        def decide(self, obs: np.ndarray, params: np.ndarray, rng: np.ndarray) -> int:
            return np.int64(super().decide(obs, params, rng))  # type: ignore[return-value]

    a = play_round(RULES, [NumpyGreedy()] * 4, seed=2, game=0)
    assert a == play_round(RULES, [Greedy()] * 4, seed=2, game=0)


def test_bad_tables_are_refused() -> None:
    with pytest.raises(ValueError, match="3 to 8"):
        play_round(RULES, [Greedy()] * 2, seed=0, game=0)
    with pytest.raises(ValueError, match="3 to 8"):
        play_match(RULES, [Greedy()] * 9, seed=0, game=0)
    with pytest.raises(ValueError, match="ring order"):
        play_round(RULES, [Greedy()] * 5, seed=0, game=0, seats=[3, 1, 4])
    with pytest.raises(ValueError, match="ring order"):
        play_round(RULES, [Greedy()] * 5, seed=0, game=0, seats=[0, 1, 5])
    with pytest.raises(ValueError, match="at least 3"):
        play_round(RULES, [Greedy()] * 5, seed=0, game=0, seats=[0, 4])
    with pytest.raises(ValueError, match="profile"):
        play_round(RULES, [Greedy()] * 5, seed=0, game=0, profiles=[DEFAULT] * 4)
    bad = [cards("♠A ♥A ♦A ♣A"), cards("♠K ♥K ♦K ♣K"), cards("♠Q ♥Q ♦Q ♠J")]
    with pytest.raises(ValueError, match="exactly the 12 cards"):
        play_from_hands(RULES, [Greedy()] * 3, bad, seed=0, game=0)
    with pytest.raises(ValueError):
        Rules(unclear_margin=-0.1)


# --- traces --------------------------------------------------------------------------------------


def test_the_trace_shows_steps_signals_times_and_who_leaves() -> None:
    rec = play_from_hands(RULES, TWO_SCRIPT, TWO_HANDS, seed=3, game=0)
    names = ["ann", "bo", "cy", "di"]
    text = format_round(rec, names=names)
    assert "Pass step 1" in text and "seat 0 (ann) lays ♣K" in text  # named like every other line
    assert "seat 1 (bo) (four kings), seat 2 (cy) (four queens) touch the nose" in text
    for s, t in enumerate(rec.times):
        assert f"seat {s} ({names[s]}): {t:.3f} s" in text
    assert f"seat {rec.loser} ({names[rec.loser]}) touches last" in text
    assert "The jacks go out of play; 3 players go on." in text
    match = play_match(RULES, [Greedy()] * 4, seed=2, game=5)
    text = format_match(match)
    assert text.count("=== Round") == 2 and "place 4:" in text and "place 3:" in text
    assert "win together" in text
