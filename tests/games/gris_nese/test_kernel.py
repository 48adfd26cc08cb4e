"""The compiled Gris-nese engine: hand-made positions, known values, bookkeeping, guards.

Positions are built by giving the deal explicitly (``deal_nb`` with a chosen
permutation) and stepping the jitted rule functions; reaction profiles with
shape sigma = 0 make every reaction time exactly its median, so who touches
last is known in advance.
"""

from __future__ import annotations

import itertools
import json
import math
from fractions import Fraction

import numba
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from simulator import simulate
from simulator.api import make_table, resolve_players
from simulator.engine.cards import card
from simulator.engine.reaction import profile_arrays, touch_times_nb
from simulator.engine.rng import DEAL, Stream
from simulator.errors import InputError, StrategyError
from simulator.games import get_game
from simulator.games.gris_nese import kernel
from simulator.games.gris_nese.observation import (
    GROUP_COUNT,
    HAND,
    INCOMING,
    MEMORY,
    N_PLAYERS,
    PASSED_GROUP,
    RECEIVED_GROUP,
    SEAT,
    STEPS,
)
from simulator.games.gris_nese.rules import (
    CARD_GROUP,
    CARDS,
    LOG_FIELDS,
    deal_nb,
    find_card_nb,
    leave_nb,
    loser_nb,
    pass_step_nb,
    signallers_nb,
    unclear_nb,
    workspace_nb,
)
from simulator.games.gris_nese.variants import STALL_CAP, Rules
from simulator.running.runner import BlockRunner
from strategies.registry import FORGET_AT, PARAM_ROW, SLIP_AT, strategy

GAME = get_game("gris-nese")


# --- helpers ---------------------------------------------------------------------


def cards(text: str) -> list[int]:
    """``"♠A ♥A ♦K"`` as card codes."""
    return [card(t[1:], t[0]) for t in text.split()]


def perm_for(hands: list[list[int]]) -> np.ndarray:
    """The permutation that makes ``deal_nb`` give ``hands`` (per ring position)."""
    m = len(hands)
    index = {int(c): k for k, c in enumerate(CARDS[: 4 * m])}
    perm = np.empty(4 * m, np.int64)
    for i, hand in enumerate(hands):
        for r, c in enumerate(hand):
            perm[r * m + i] = index[c]
    assert sorted(perm.tolist()) == list(range(4 * m)), "the hands must hold exactly the cards in play"
    return perm


def dealt(hands: list[list[int]], seats: list[int] | None = None) -> np.ndarray:
    """Observation rows after dealing ``hands`` explicitly."""
    m = len(hands)
    obs = workspace_nb()[0]
    deal_nb(obs, perm_for(hands), m, np.array(seats or list(range(m)), np.int64))
    return obs


def step(obs: np.ndarray, m: int, laid: list[int]) -> tuple[int, np.ndarray]:
    """One pass step in which position i lays ``laid[i]``; returns (signallers, sig)."""
    slot = np.array([find_card_nb(obs, i, c) for i, c in enumerate(laid)], np.int64)
    assert (slot >= 0).all()
    sig = np.zeros(8, np.int64)
    k = pass_step_nb(obs, m, slot, np.array(laid, np.int64), sig)
    return k, sig[:m]


def touches(sig: np.ndarray, medians: list[float]) -> np.ndarray:
    """Touch times (RULES.md §4) with sigma = 0: every reaction time is its median."""
    m = len(medians)
    times = np.zeros(m)
    touch_times_nb(0, 0, 0, sig, np.array(medians), np.zeros(m), np.arange(m), times, np.zeros(1, np.uint64))
    return times


def hands_of(obs: np.ndarray, m: int) -> list[list[int]]:
    return [obs[i, HAND : HAND + 4].tolist() for i in range(m)]


# --- hand-made positions ------------------------------------------------------------


def test_a_dealt_four_of_a_kind_signals_before_any_pass():
    aces = cards("♠A ♥A ♦A ♣A")
    hands = [cards("♠K ♥K ♦Q ♣Q"), aces, cards("♦K ♣K ♠Q ♥Q")]
    obs = dealt(hands, seats=[2, 5, 7])
    sig = np.zeros(8, np.int64)
    assert signallers_nb(obs, 3, sig) == 1
    assert sig[:3].tolist() == [0, 1, 0]
    # What the players see at the deal (observation.py).
    for i, hand in enumerate(hands):
        assert obs[i, HAND : HAND + 4].tolist() == sorted(hand)
        assert obs[i, SEAT] == [2, 5, 7][i]
        assert obs[i, N_PLAYERS] == 3
        assert obs[i, STEPS] == 0
        assert obs[i, INCOMING] == -1
        assert obs[i, MEMORY : MEMORY + 4].tolist() == [-1] * 4
        assert obs[i, RECEIVED_GROUP : RECEIVED_GROUP + 8].tolist() == [0] * 8
        assert obs[i, PASSED_GROUP : PASSED_GROUP + 8].tolist() == [0] * 8
    assert obs[1, GROUP_COUNT : GROUP_COUNT + 8].tolist() == [4, 0, 0, 0, 0, 0, 0, 0]
    assert obs[0, GROUP_COUNT : GROUP_COUNT + 8].tolist() == [0, 2, 2, 0, 0, 0, 0, 0]


def test_two_complete_in_one_step_and_a_slow_signaller_loses_to_fast_non_signallers():
    # Four players (A K Q J).  Position 0 waits for the last ace from position 3 (its right),
    # position 2 for the last queen from position 1; both arrive in the same step.
    hands = [
        cards("♠A ♥A ♦A ♠K"),
        cards("♥K ♦K ♣Q ♠J"),
        cards("♠Q ♥Q ♦Q ♥J"),
        cards("♣A ♣K ♦J ♣J"),
    ]
    obs = dealt(hands)
    assert signallers_nb(obs, 4, np.zeros(8, np.int64)) == 0
    k, sig = step(obs, 4, cards("♠K ♣Q ♥J ♣A"))
    assert k == 2
    assert sig.tolist() == [1, 0, 1, 0]
    assert hands_of(obs, 4)[0] == sorted(cards("♠A ♥A ♦A ♣A"))
    assert hands_of(obs, 4)[2] == sorted(cards("♠Q ♥Q ♦Q ♣Q"))
    # Position 0 touches at 0.3 s, position 2 (also a signaller) is slow: 1.5 s.  The others
    # react to the first touch: 0.3 + 0.4 and 0.3 + 0.5.  The slow signaller is last.
    times = touches(sig, [0.3, 0.4, 1.5, 0.5])
    assert times.tolist() == pytest.approx([0.3, 0.7, 1.5, 0.8])
    assert loser_nb(times, 4) == 2
    # With a fast second signaller a non-signaller is last instead (the slowest reactor).
    times = touches(sig, [0.3, 0.4, 0.35, 0.5])
    assert loser_nb(times, 4) == 3
    # House rule: 1.5 s and 0.8 s are 0.7 s apart.
    times = touches(sig, [0.3, 0.4, 1.5, 0.5])
    assert not unclear_nb(times, 4, 0.0)
    assert not unclear_nb(times, 4, 0.7 - 1e-9)
    assert unclear_nb(times, 4, 0.7 + 1e-9)


def test_everybody_signals_at_once_with_three_players_and_the_slowest_loses():
    # Position j holds three of its own rank and one of the rank its left neighbour
    # collects; everyone passes that card and all three complete together.
    hands = [
        cards("♠A ♥A ♦A ♠K"),
        cards("♥K ♦K ♣K ♠Q"),
        cards("♥Q ♦Q ♣Q ♣A"),
    ]
    obs = dealt(hands)
    k, sig = step(obs, 3, cards("♠K ♠Q ♣A"))
    assert k == 3 and sig.tolist() == [1, 1, 1]
    for i in range(3):
        assert obs[i, GROUP_COUNT + i] == 4
    times = touches(sig, [0.9, 0.7, 0.8])
    assert times.tolist() == pytest.approx([0.9, 0.7, 0.8])  # every touch is the player's own
    assert loser_nb(times, 3) == 0


def test_n_minus_one_complete_hands_force_the_last():
    """RULES.md §2: with n groups in play, n-1 complete hands leave the last one complete."""
    for m in range(3, 9):
        hands = [[int(c) for c in CARDS[4 * g : 4 * g + 4]] for g in range(m)]
        obs = dealt(hands)
        assert signallers_nb(obs, m, np.zeros(8, np.int64)) == m


def test_pass_step_moves_every_card_one_place_left_at_once():
    hands = [cards("♠A ♥K ♦Q ♣J"), cards("♥A ♠K ♣Q ♦J"), cards("♦A ♣K ♠Q ♥J"), cards("♣A ♦K ♥Q ♠J")]
    obs = dealt(hands, seats=[0, 2, 3, 6])
    laid = cards("♠A ♥A ♦A ♣A")
    k, _ = step(obs, 4, laid)
    assert k == 0
    for i in range(4):
        right = (i - 1) % 4
        assert obs[i, INCOMING] == laid[right]
        assert sorted(hands[i]) != obs[i, HAND : HAND + 4].tolist()
        assert obs[i, HAND : HAND + 4].tolist() == sorted(
            [c for c in hands[i] if c != laid[i]] + [laid[right]]
        )
        assert obs[i, RECEIVED_GROUP + 0] == 1 and obs[i, PASSED_GROUP + 0] == 1
        assert obs[i, STEPS] == 1
    assert find_card_nb(obs, 0, card("A", "♠")) == -1  # it left position 0


def test_the_loser_leaves_and_the_others_keep_their_order():
    seats = np.array([0, 1, 2, 3, 4, 5, 6, 7], np.int64)
    m = leave_nb(seats, 6, 2)
    assert m == 5 and seats[:5].tolist() == [0, 1, 3, 4, 5]
    m = leave_nb(seats, m, 4)
    assert m == 4 and seats[:4].tolist() == [0, 1, 3, 4]


def test_trace_round_reports_events_signallers_times_and_the_loser():
    rules_i = np.array([5, STALL_CAP], np.int64)
    rules_f = np.concatenate([[0.0], profile_arrays([(0.8, 0.35)] * 5)])
    sids = np.full(5, 1, np.int64)  # greedy
    params = np.zeros((5, PARAM_ROW))
    seats = np.array([0, 2, 4], np.int64)
    seen_pass = False
    for game in range(40):
        log = np.full((1000, LOG_FIELDS), -7, np.int64)
        times, sig = np.zeros(3), np.zeros(3, np.int64)
        events, passes, stalled, replayed, loser = kernel.trace_round_nb(
            sids, params, rules_i, rules_f, 7, game, 3, seats, log, times, sig
        )
        assert not stalled and not replayed
        assert events == 3 * passes
        seen_pass |= passes > 0
        assert [tuple(r) for r in log[:3, :2]] == ([(0, 0), (0, 2), (0, 4)] if passes else [(-7, -7)] * 3)
        assert sig.sum() >= 1
        assert loser == seats[int(np.argmax(times))]
        assert all(times[i] >= times[sig.astype(bool)].min() for i in range(3))
    assert seen_pass


# --- known values ---------------------------------------------------------------------


def dealt_four_of_a_kind(n: int) -> Fraction:
    """P(somebody is dealt four of a kind), n players and n rank groups, exactly.

    Inclusion-exclusion over sets of k (player, group) pairs, all players distinct and all
    groups distinct (one player cannot hold two groups, nor two players one group): there are
    C(n, k) * n!/(n-k)! such sets, and k given players hold k given groups with probability
    (4n-4k)! (4!)^k / (4n)! (the other cards are dealt at random among the rest)."""
    total = Fraction(0)
    for k in range(1, n + 1):
        sets = math.comb(n, k) * math.perm(n, k)
        p = Fraction(math.factorial(4 * n - 4 * k) * math.factorial(4) ** k, math.factorial(4 * n))
        total += (-1) ** (k + 1) * sets * p
    return total


def test_the_formula_matches_an_exact_enumeration_of_every_three_player_deal():
    """All 12!/(4!)^3 = 34,650 ways to deal A K Q into three hands, through ``deal_nb``."""
    m = 3
    obs = workspace_nb()[0]
    sig = np.zeros(8, np.int64)
    seats = np.arange(m)
    deals = complete = 0
    rest = set(range(12))
    for a in itertools.combinations(sorted(rest), 4):
        for b in itertools.combinations(sorted(rest - set(a)), 4):
            c = sorted(rest - set(a) - set(b))
            perm = np.array([x for triple in zip(a, b, c) for x in triple], np.int64)
            deal_nb(obs, perm, m, seats)
            deals += 1
            complete += signallers_nb(obs, m, sig) > 0
    assert deals == 34_650
    assert Fraction(complete, deals) == dealt_four_of_a_kind(3)
    assert abs(float(dealt_four_of_a_kind(3)) - 0.01783) < 1e-5  # 103/5775


@pytest.mark.parametrize("n", range(3, 9))
def test_dealt_signal_rate_matches_the_exact_probability(n):
    p = float(dealt_four_of_a_kind(n))
    rounds = 120_000
    r = simulate("gris-nese", "greedy", rounds=rounds, seed=100 + n, players=n)
    s = r.summary
    assert s["stalled"] == 0 and s["replayed"] == 0
    se = math.sqrt(p * (1 - p) / rounds)
    assert abs(s["dealt_signal_rate"] - p) < 4 * se
    lo, hi = s["dealt_signal_rate_ci"]
    assert lo <= s["dealt_signal_rate"] <= hi
    # Rounds with four of a kind dealt are the pass-step histogram's bin 0.
    assert r.histograms["passes"][0] == round(s["dealt_signal_rate"] * rounds)
    # Every round has at least one signaller; all at once is included.
    total_signal = sum(seat["signal_first_rate"] for seat in s["seats"])
    assert 1.0 <= total_signal <= n
    assert sum(seat["eliminated_rate"] for seat in s["seats"]) == pytest.approx(1.0)


def test_identical_players_are_seat_symmetric():
    r = simulate("gris-nese", "greedy", rounds=150_000, seed=31, players=5)
    seats = r.summary["seats"]
    out = np.array([s["eliminated_rate"] for s in seats]) * 150_000
    # Exactly one loser per round: a multinomial with equal cells under symmetry.
    chi2 = float(((out - out.mean()) ** 2 / out.mean()).sum())
    assert chi2 < 18.47  # chi-square, 4 degrees of freedom, p = 0.001
    assert abs(out.mean() / 150_000 - 0.2) < 1e-12
    sig = np.array([s["signal_first_rate"] for s in seats])
    se = math.sqrt(sig.mean() * (1 - sig.mean()) / 150_000)
    assert np.abs(sig - sig.mean()).max() < 4 * se


@pytest.mark.parametrize("n", [3, 4, 6, 8])
def test_every_finished_match_has_two_winners_and_n_minus_two_distinct_places(n):
    specs = ["greedy", "commit:after=1", "follow", "random", "greedy", "greedy", "commit", "follow"][:n]
    r = simulate("gris-nese", specs, matches=4_000, seed=40 + n, players=n, rules={"unclear_margin": "0.1"})
    s = r.summary
    assert s["abandoned"] == 0
    assert s["replayed"] > 0  # the house rule replays some rounds; they are not counted
    assert sum(seat["win_rate"] for seat in s["seats"]) == pytest.approx(2.0)
    places = sum(seat["mean_place"] for seat in s["seats"])
    assert places == pytest.approx(2 + sum(range(3, n + 1)))
    assert s["mean_rounds"] == n - 2 and s["mean_rounds_ci"] == [n - 2, n - 2]
    assert int(r.histograms["match_deals"].sum()) == 4_000
    # The same, match by match, from the per-game records.
    table = make_table(GAME, {"unclear_margin": "0.1"}, n)
    rec = BlockRunner(table, resolve_players(GAME, specs, n), "match", 40 + n).records(0, 1_000)
    places = rec[:, 5 : 5 + n]
    for row in places:
        assert sorted(row.tolist()) == [1, 1, *range(3, n + 1)]
    assert (rec[:, 1] == n - 2).all()
    assert (rec[:, 4] == rec[:, 1] + rec[:, 2] + rec[:, 3]).all()  # deals = counted + re-dealt


def test_json_fields_are_the_public_contract():
    base = {"schema_version", "game", "unit", "n", "seed", "players", "rules"}
    base |= {"elapsed_s", "games_per_s", "compile_s", "seats", "partial", "n_planned"}
    r = simulate("gris-nese", "greedy", rounds=2_000, seed=1, players=4).summary
    rates = {"mean_passes", "dealt_signal_rate", "all_signal_rate", "stalled_rate", "replayed_rate"}
    assert set(r) - base == rates | {f"{k}_ci" for k in rates} | {"stalled", "replayed"}
    seat = {"signal_first_rate", "eliminated_rate"}
    for s in r["seats"]:
        assert set(s) == {"seat", "player", "reaction"} | seat | {f"{k}_ci" for k in seat}
    m = simulate("gris-nese", "greedy", matches=500, seed=1, players=4).summary
    rates = {"mean_rounds", "replayed_rate", "stalled_rate", "abandoned_rate"}
    counts = {"rounds_played", "replayed", "stalled", "abandoned"}
    assert set(m) - base == rates | {f"{k}_ci" for k in rates} | counts
    seat = {"win_rate", "mean_place"}
    for s in m["seats"]:
        assert set(s) == {"seat", "player", "reaction"} | seat | {f"{k}_ci" for k in seat}
    assert r["rules"] == m["rules"] == {"unclear_margin": 0.0}


def test_replayed_rounds_enter_no_other_statistic():
    plain = simulate("gris-nese", "greedy", rounds=30_000, seed=5)
    margin = simulate("gris-nese", "greedy", rounds=30_000, seed=5, rules={"unclear_margin": "0.2"})
    s = margin.summary
    assert s["replayed"] > 1_000
    counted = 30_000 - s["replayed"]
    assert sum(seat["eliminated_rate"] for seat in s["seats"]) * counted == pytest.approx(counted)
    assert int(margin.histograms["passes"].sum()) == counted
    # The deals and the passing are the same; the margin only drops the unclear rounds.
    assert (margin.histograms["passes"] <= plain.histograms["passes"]).all()
    assert plain.summary["replayed"] == 0


# --- stalls, abandoned matches, illegal cards ------------------------------------------


@strategy(game="gris-nese", name="test-misbehave", params={"cheat": (0, 0, 1, 1)})
def misbehave(obs, params, rng):
    """cheat=0: lay down a card of the rank held most, so after the deal nobody completes.
    cheat=1: lay down the ace of spades, held or not.  (One user strategy, one compile.)"""
    if params[0] == 1:
        return 0
    best, group = 0, 0
    for g in range(obs[N_PLAYERS]):
        if obs[GROUP_COUNT + g] > best:
            best, group = obs[GROUP_COUNT + g], g
    for i in range(4):
        if CARD_GROUP[obs[HAND + i]] == group:
            return obs[HAND + i]
    return -1


def test_a_stalling_strategy_is_counted_and_matches_end_abandoned():
    r = simulate("gris-nese", "test-misbehave", rounds=300, seed=3, players=3)
    s = r.summary
    # Only a dealt four of a kind ends a round; the rest stall at 10,000 pass steps.
    assert s["stalled"] > 270
    counted = 300 - s["stalled"]
    assert counted > 0 and s["dealt_signal_rate"] == 1.0 and s["mean_passes"] == 0.0
    assert int(r.histograms["passes"].sum()) == counted
    m = simulate("gris-nese", "test-misbehave", matches=12, seed=4, players=3)
    ms = m.summary
    assert ms["abandoned"] >= 1  # 100 stalled deals in a row: abandoned, never a hang
    finished = 12 - ms["abandoned"]
    assert finished >= 1  # some match was dealt four of a kind before that
    assert sum(seat["win_rate"] for seat in ms["seats"]) == pytest.approx(2.0)
    # RULES.md §6: only finished matches enter the figures: their deals are one counted
    # round (three players, two winners) plus the stalled ones before it.
    deals = m.histograms["match_deals"]
    assert int(deals.sum()) == finished
    assert ms["stalled"] == int((deals * np.arange(deals.size)).sum()) - finished
    assert ms["mean_rounds"] == 1


def test_a_card_not_held_stops_the_run_with_one_line():
    with pytest.raises(StrategyError) as e:
        simulate(
            "gris-nese",
            ["test-misbehave", "test-misbehave", "test-misbehave:cheat=1", "test-misbehave"],
            rounds=50,
            seed=1,
            players=4,
        )
    msg = str(e.value)
    assert "\n" not in msg
    assert (
        "'test-misbehave:cheat=1' (seat 2)" in msg
        and "♠A" in msg
        and "in round 0 of the run with seed 1" in msg
    )


def test_bad_input_is_one_clear_line():
    for n in (2, 9):
        with pytest.raises(InputError, match="3 to 8 players"):
            simulate("gris-nese", "greedy", rounds=10, players=n)
    for text in ("-0.1", "abc", "nan", "inf", ""):
        with pytest.raises(InputError) as e:
            simulate("gris-nese", "greedy", rounds=10, rules={"unclear_margin": text})
        assert "unclear_margin" in str(e.value) and "\n" not in str(e.value)
    with pytest.raises(InputError, match="2 strategies for 5 seats"):
        simulate("gris-nese", ["greedy", "random"], rounds=10)
    with pytest.raises(ValueError):
        Rules(unclear_margin=-1)
    with pytest.raises(ValueError):
        Rules(unclear_margin=True)
    assert Rules(unclear_margin=0).unclear_margin == 0.0
    assert GAME.parse_rules({"unclear_margin": "0,05"}).unclear_margin == 0.05


# --- determinism and card conservation ------------------------------------------------


def test_same_seed_same_numbers_for_any_threads_and_block_size():
    specs = ["greedy", "random", "commit:after=1", "follow", "greedy"]
    runs = {"round": [], "match": []}
    for threads, block in ((1, 1 << 16), (2, 1 << 16), (2, 777), (1, 5_000)):
        numba.set_num_threads(threads)
        for unit, kw in (("round", {"rounds": 12_000}), ("match", {"matches": 2_000})):
            r = simulate("gris-nese", specs, seed=5, block_size=block, rules={"unclear_margin": "0.05"}, **kw)
            runs[unit].append((json.dumps(r.without_timing(), sort_keys=True), r.aggregates.tolist()))
    numba.set_num_threads(numba.config.NUMBA_NUM_THREADS)
    for unit in runs:
        assert all(x == runs[unit][0] for x in runs[unit])


@settings(max_examples=60, deadline=None)
@given(
    st.integers(3, 8).flatmap(
        lambda m: st.tuples(
            st.just(m),
            st.permutations(range(4 * m)),
            st.lists(st.lists(st.integers(0, 3), min_size=m, max_size=m), max_size=30),
        )
    )
)
def test_cards_are_conserved_through_any_pass_steps(case):
    m, perm, steps = case
    obs = workspace_nb()[0]
    deal_nb(obs, np.array(perm, np.int64), m, np.arange(m))
    in_play = sorted(CARDS[: 4 * m].tolist())
    sig = np.zeros(8, np.int64)
    for t, slots in enumerate(steps):
        laid = [int(obs[i, HAND + slots[i]]) for i in range(m)]
        k = pass_step_nb(obs, m, np.array(slots, np.int64), np.array(laid, np.int64), sig)
        hands = hands_of(obs, m)
        assert sorted(c for h in hands for c in h) == in_play
        for i, h in enumerate(hands):
            assert h == sorted(h) and len(set(h)) == 4
            counts = np.bincount([CARD_GROUP[c] for c in h], minlength=8)
            assert obs[i, GROUP_COUNT : GROUP_COUNT + 8].tolist() == counts.tolist()
            assert obs[i, RECEIVED_GROUP : RECEIVED_GROUP + 8].sum() == t + 1
            assert obs[i, PASSED_GROUP : PASSED_GROUP + 8].sum() == t + 1
            assert obs[i, INCOMING] == laid[(i - 1) % m]
            assert sig[i] == (counts.max() == 4)
        assert k == sig[:m].sum()


@settings(max_examples=60, deadline=None)
@given(
    st.integers(3, 8),
    st.integers(0, 2**63 - 1),
    st.integers(0, 10**6),
    st.sampled_from([0, 1, 2, 3]),
    st.sampled_from([0.0, 0.3, 1.0]),
    st.sampled_from([0.0, 0.25, 1.0]),
)
def test_a_kernel_round_only_ever_moves_cards_that_are_held(n, seed, game, sid, forget, slip):
    """Replay the kernel's log from its deal: every card laid is in the player's hand then,
    whether the strategy chose it or the player slipped (docs/human-players.md)."""
    rules_i = np.array([n, 200], np.int64)
    rules_f = np.concatenate([[0.0], profile_arrays([(0.8, 0.35)] * n)])
    log = np.full((200 * n, LOG_FIELDS), -1, np.int64)
    params = np.zeros((n, PARAM_ROW))
    params[:, FORGET_AT], params[:, SLIP_AT] = forget, slip
    events, passes, stalled, _, loser = kernel.trace_round_nb(
        np.full(n, sid, np.int64),
        params,
        rules_i,
        rules_f,
        seed,
        game,
        0,
        np.arange(n, dtype=np.int64),
        log,
        np.zeros(n),
        np.zeros(n, np.int64),
    )
    perm = Stream(seed, game, DEAL, 0).shuffled(4 * n)
    hands = [sorted(int(CARDS[perm[k]]) for k in range(i, 4 * n, n)) for i in range(n)]
    assert events == n * passes
    for t in range(passes):
        rows = log[t * n : (t + 1) * n]
        assert rows[:, 0].tolist() == [t] * n and rows[:, 1].tolist() == list(range(n))
        laid = rows[:, 2].tolist()
        for i in range(n):
            assert laid[i] in hands[i]
        hands = [sorted([c for c in hands[i] if c != laid[i]] + [laid[(i - 1) % n]]) for i in range(n)]
        assert sorted(c for h in hands for c in h) == sorted(CARDS[: 4 * n].tolist())
    complete = [len({CARD_GROUP[c] for c in h}) == 1 for h in hands]
    assert any(complete) != bool(stalled)
    assert (loser >= 0) != bool(stalled)
