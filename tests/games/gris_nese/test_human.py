"""Gris-nese's human-like players: ``forget`` and ``slip`` (docs/human-players.md).

The kernel and the reference are held against each other move by move in
``test_kernel_agreement.py`` (every shipped strategy forgetting and slipping).  Here:
what the two values mean, each checked against something that fails without it; that a
plain player (both 0) draws nothing and plays as the strategy alone; that results do not
depend on threads or block size; the command line and the table.
"""

from __future__ import annotations

import json

import numba
import numpy as np
import pytest
from scipy import stats
from typer.testing import CliRunner

from simulator import simulate
from simulator.cli import app
from simulator.engine.cards import name
from simulator.engine.reaction import DEFAULT_MEDIAN, DEFAULT_SIGMA, profile_arrays
from simulator.engine.rng import DEAL, DECIDE, GOLDEN, MASK64, REACT, Stream, below_nb
from simulator.errors import StrategyError
from simulator.games.gris_nese import kernel
from simulator.games.gris_nese import reference as ref
from simulator.games.gris_nese.human import forget_history_nb, human_turn_nb
from simulator.games.gris_nese.observation import (
    HAND,
    HAND_SIZE,
    MAX_GROUPS,
    MEMORY,
    N_PLAYERS,
    OBS_SIZE,
    PASSED_GROUP,
    RECEIVED_GROUP,
    STEPS,
)
from simulator.games.gris_nese.rules import CARDS, LOG_FIELDS
from simulator.games.gris_nese.variants import STALL_CAP, Rules
from simulator.running.setup import Setup
from simulator.tabletop import Scripted, play
from strategies import MAX_PARAMS, PARAM_ROW, SLIP_AT, Player, families, parse_spec, strategy

GAME = "gris-nese"
SHIPPED = sorted(n for n, f in families(GAME).items() if f.builtin_id is not None)
RULES = Rules()


def history(obs: np.ndarray) -> list[int]:
    """The round's history a player is shown: received, then passed, per group."""
    return [int(x) for x in obs[RECEIVED_GROUP : RECEIVED_GROUP + MAX_GROUPS]] + [
        int(x) for x in obs[PASSED_GROUP : PASSED_GROUP + MAX_GROUPS]
    ]


class Watched:
    """A registry player whose every decision is recorded: the observation it was shown and
    its stream's state before and after its strategy drew."""

    def __init__(self, player: Player) -> None:
        self.player = player
        self.name = player.spec
        self.params = player.params
        self.shown: list[np.ndarray] = []
        self.states: list[tuple[int, int]] = []

    def decide(self, obs: np.ndarray, params: np.ndarray, rng: np.ndarray) -> int:
        self.shown.append(obs.copy())
        before = int(rng[0])
        card = self.player.decide(obs, params, rng)
        self.states.append((before, int(rng[0])))
        return card


# --- forget = 0 and slip = 0: the plain strategy ---------------------------------------


def a_remembered_turn() -> tuple[np.ndarray, np.ndarray]:
    """An observation with a history of 20 cards, and a stream."""
    obs = np.zeros(OBS_SIZE, np.int64)
    obs[N_PLAYERS] = 5
    obs[HAND : HAND + HAND_SIZE] = sorted(CARDS[[0, 5, 9, 14]])
    obs[RECEIVED_GROUP : RECEIVED_GROUP + 5] = [4, 0, 3, 2, 1]
    obs[PASSED_GROUP : PASSED_GROUP + 5] = [0, 5, 1, 1, 3]
    return obs, Stream(11, 3, DECIDE, 0, 2).as_array()


def test_a_plain_turn_draws_nothing_and_forgets_nothing() -> None:
    obs, rng = a_remembered_turn()
    row = np.zeros(PARAM_ROW)
    row[:3] = 0.5, -1.0, 1.0  # the strategy's own values are not the engine's business
    state = int(rng[0])
    assert human_turn_nb(obs.copy(), row, rng) == -1  # its strategy is asked ...
    assert int(rng[0]) == state  # ... and nothing was drawn
    kept = obs.copy()
    human_turn_nb(kept, row, rng)
    assert (kept == obs).all()
    row[SLIP_AT] = 0.5  # slipping alone forgets nothing and draws once (or twice on a slip)
    human_turn_nb(kept, row, rng)
    assert (kept == obs).all() and int(rng[0]) in {(state + k * GOLDEN) & MASK64 for k in (1, 2)}


@pytest.mark.parametrize("strategy_name", SHIPPED)
def test_forget_0_slip_0_is_the_plain_strategy(strategy_name: str) -> None:
    """The spec is the plain player; at a table where every other seat forgets and slips, its
    strategy is asked at every turn and nothing is drawn from its stream between the
    strategy's own draws; and the kernel plays it as a row with no human part at all."""
    plain = families(GAME)[strategy_name].player()
    zero = parse_spec(f"{strategy_name}:forget=0,slip=0", GAME)
    assert zero == plain and zero.spec == plain.spec and not zero.human
    others = parse_spec("follow:forget=0.4,slip=0.3", GAME)
    watched = 0
    for game in range(30):
        me = Watched(zero)
        rec = ref.play_round(RULES, [others, me, others, others], seed=4, game=game, seats=[0, 1, 3])
        turns = [e for e in rec.events if e[1] == 1]
        assert len(me.states) == len(turns)  # asked at every turn
        state = Stream(4, game, DECIDE, 0, 1).state
        for before, after in me.states:
            assert before == state  # nothing drawn for it between its strategy's decisions
            state = after
        watched += len(turns)
    assert watched > 30
    # The kernel: a zero human part and a row of the strategy's own values only play alike.
    sid = families(GAME)[strategy_name].builtin_id
    logs = [
        kernel_log(np.full(5, sid), np.tile(row, (5, 1)), seed=9, game=g, n=5)
        for g in range(40)
        for row in (plain.params, plain.params[:MAX_PARAMS])
    ]
    assert logs[0::2] == logs[1::2] and sum(len(x) for x in logs) > 100


def kernel_log(
    sids: np.ndarray, params: np.ndarray, *, seed: int, game: int, n: int
) -> list[tuple[int, ...]]:
    """Every card the kernel laid down in one round of ``n`` players, as (step, seat, card)."""
    rules_i = np.array([n, STALL_CAP], np.int64)
    rules_f = np.concatenate([[0.0], profile_arrays([(DEFAULT_MEDIAN, DEFAULT_SIGMA)] * n)])
    log = np.full((2000 * n, LOG_FIELDS), -1, np.int64)
    events, *_ = kernel.trace_round_nb(
        np.asarray(sids, np.int64),
        np.ascontiguousarray(params, np.float64),
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
    return [tuple(int(x) for x in row) for row in log[:events]]


# --- forget ------------------------------------------------------------------------------


def test_forgetting_draws_once_per_remembered_card_and_keeps_each_with_1_minus_p() -> None:
    obs, rng = a_remembered_turn()
    total = sum(history(obs))
    kept_total, trials = 0, 4000
    for _ in range(trials):
        mine, state = obs.copy(), int(rng[0])
        theirs = ref.new_table(RULES, list(range(5)), ref.deal_hands(list(range(20)), 5))
        theirs.received[0][:5] = obs[RECEIVED_GROUP : RECEIVED_GROUP + 5].tolist()
        theirs.passed[0][:5] = obs[PASSED_GROUP : PASSED_GROUP + 5].tolist()
        ref_rng = rng.copy()
        forget_history_nb(mine, 0.3, rng)
        ref.forget_history(theirs, 0, 0.3, ref_rng)
        assert int(rng[0]) == (state + total * GOLDEN) & MASK64  # one uniform() per card
        assert int(ref_rng[0]) == int(rng[0])
        assert history(mine)[:5] == theirs.received[0][:5] and history(mine)[8:13] == theirs.passed[0][:5]
        assert all(k <= h for k, h in zip(history(mine), history(obs), strict=True))
        kept_total += sum(history(mine))
    mean = kept_total / trials
    sd = (total * 0.3 * 0.7 / trials) ** 0.5
    assert abs(mean - 0.7 * total) < 5 * sd, (mean, 0.7 * total, sd)


@pytest.mark.parametrize("strategy_name", SHIPPED)
def test_forget_1_empties_the_history_at_every_turn(strategy_name: str) -> None:
    """Every observation shown to a forget=1 player has an empty history; the same player
    with forget=0 remembers one card received and one passed per step."""
    remembered = 0
    for forget in (1, 0):
        for game in range(25):
            me = Watched(parse_spec(f"{strategy_name}:forget={forget}", GAME))
            ref.play_round(RULES, [me, *[parse_spec("greedy", GAME)] * 4], seed=2, game=game)
            for obs in me.shown:
                seen = history(obs)
                if forget == 1:
                    assert seen == [0] * 16
                else:
                    assert sum(seen[:8]) == sum(seen[8:]) == obs[STEPS]
                    remembered += sum(seen)
    assert remembered > 50


@pytest.mark.parametrize("strategy_name", SHIPPED)
def test_only_follow_chooses_by_the_history(strategy_name: str) -> None:
    """Forgetting changes what a strategy is shown; of the shipped ones only follow's choices
    depend on it.  Each observation of real rounds is answered twice from the same stream
    state, once with its history and once with it forgotten (the memory fields copied)."""
    player = parse_spec("commit:after=2" if strategy_name == "commit" else strategy_name, GAME)
    me = Watched(player)
    for game in range(40):
        ref.play_round(RULES, [me, *[parse_spec("greedy", GAME)] * 4], seed=12, game=game)
    differ = 0
    for obs, (before, _) in zip(me.shown, me.states, strict=True):
        bare = obs.copy()
        bare[RECEIVED_GROUP : RECEIVED_GROUP + MAX_GROUPS] = 0
        bare[PASSED_GROUP : PASSED_GROUP + MAX_GROUPS] = 0
        answers = []
        for shown in (obs.copy(), bare):
            rng = np.array([before], np.uint64)
            answers.append((player.decide(shown, player.params, rng), int(rng[0]), shown[MEMORY].item()))
        differ += answers[0] != answers[1]
    assert len(me.shown) > 100
    if strategy_name == "follow":
        assert differ > 0.05 * len(me.shown)  # follow weighs what came and went
    else:
        assert differ == 0  # random, greedy and commit choose from the hand alone


@strategy(game=GAME, name="test-amnesiac")
def amnesiac(obs, params, rng):
    """A uniformly random card while its history is empty; a card it does not hold once it
    remembers any (so a run stops)."""
    for g in range(obs[N_PLAYERS]):
        if obs[RECEIVED_GROUP + g] != 0 or obs[PASSED_GROUP + g] != 0:
            return -1
    return obs[HAND + below_nb(rng, 4)]


def test_forget_1_empties_the_history_in_the_compiled_kernel() -> None:
    table = ["greedy"] * 4
    r = simulate(GAME, ["test-amnesiac:forget=1", *table], rounds=3000, seed=6)
    assert r.summary["mean_passes"] > 2  # it passed often, never remembering
    for forget in ("0", "0.9"):
        with pytest.raises(StrategyError, match="test-amnesiac"):
            simulate(GAME, [f"test-amnesiac:forget={forget}", *table], rounds=3000, seed=6)


# --- slip --------------------------------------------------------------------------------


def laid_slots(log: list[tuple[int, ...]], seed: int, game: int, n: int) -> list[int]:
    """Replay a kernel round from its deal: the slot (in the hand, ascending code) of every
    card laid down."""
    perm = Stream(seed, game, DEAL, 0).shuffled(4 * n)
    hands = [sorted(int(CARDS[perm[k]]) for k in range(i, 4 * n, n)) for i in range(n)]
    slots = []
    for t in range(len(log) // n):
        laid = [row[2] for row in log[t * n : (t + 1) * n]]
        slots += [hands[i].index(laid[i]) for i in range(n)]
        hands = [sorted([c for c in hands[i] if c != laid[i]] + [laid[(i - 1) % n]]) for i in range(n)]
    return slots


def slot_counts(spec: str, n: int = 5, rounds: int = 800) -> np.ndarray:
    player = parse_spec(spec, GAME)
    sids, params = np.full(n, player.family.builtin_id), np.tile(player.params, (n, 1))
    counts = np.zeros(HAND_SIZE, np.int64)
    for game in range(rounds):
        log = kernel_log(sids, params, seed=13, game=game, n=n)
        counts += np.bincount(laid_slots(log, 13, game, n), minlength=HAND_SIZE)
    return counts


def test_slip_1_lays_uniformly_random_cards() -> None:
    """A chi-square test over the four slots of the hand: slip=1 passes at the 0.1% level,
    while greedy's own choices (the same test) are far from uniform."""
    slipped = slot_counts("greedy:slip=1")
    assert slipped.sum() > 10_000
    assert stats.chisquare(slipped).pvalue > 1e-3, slipped
    greedy = slot_counts("greedy", rounds=200)
    assert stats.chisquare(greedy).pvalue < 1e-6, greedy


@pytest.mark.parametrize(("slip", "strategy_name"), [(1.0, s) for s in SHIPPED] + [(0.3, "follow")])
def test_a_slip_does_not_ask_the_strategy(slip: float, strategy_name: str) -> None:
    """With slip=E the strategy is asked at a share 1 - E of the turns (never at E = 1)."""
    asked, turns = 0, 0
    for game in range(60):
        me = Watched(parse_spec(f"{strategy_name}:slip={slip}", GAME))
        rec = ref.play_round(RULES, [me, *[parse_spec("greedy", GAME)] * 4], seed=8, game=game)
        asked += len(me.shown)
        turns += sum(e[1] == 0 for e in rec.events)
    assert turns > 150
    share = asked / turns
    assert abs(share - (1 - slip)) <= 4 * ((slip * (1 - slip) / turns) ** 0.5), (share, turns)


# --- runs: threads, blocks, the command line -------------------------------------------


def test_human_players_give_the_same_numbers_for_any_threads_and_block_size() -> None:
    specs = ["follow:forget=0.2,slip=0.1", "greedy:slip=0.3", "commit:after=1,forget=1", "random", "greedy"]
    runs: dict[str, list] = {"round": [], "match": []}
    for threads, block in ((1, 1 << 16), (2, 1 << 16), (2, 777), (1, 5_000)):
        numba.set_num_threads(threads)
        for unit, kw in (("round", {"rounds": 12_000}), ("match", {"matches": 2_000})):
            r = simulate(GAME, specs, seed=5, block_size=block, rules={"unclear_margin": "0.05"}, **kw)
            runs[unit].append((json.dumps(r.without_timing(), sort_keys=True), r.aggregates.tolist()))
    numba.set_num_threads(numba.config.NUMBA_NUM_THREADS)
    for unit in runs:
        assert all(x == runs[unit][0] for x in runs[unit])


def cli_json(command: str) -> tuple[int, str]:
    result = CliRunner().invoke(app, command.split())
    return result.exit_code, result.output


def test_the_command_line_plays_forgetful_players() -> None:
    line = "simulate gris-nese --players 5 -s {} -s greedy -s greedy -s greedy -s greedy --rounds 4000 --seed 3 --json"
    code, out = cli_json(line.format("follow:forget=0.2"))
    assert code == 0, out
    human = json.loads(out)
    assert human["seats"][0]["player"] == "follow:follow=0.5,spent=-1,stick=1,forget=0.2"
    code, out = cli_json(line.format("follow"))
    plain = json.loads(out)
    assert human["seats"][0]["eliminated_rate"] != plain["seats"][0]["eliminated_rate"]  # played otherwise
    for bad in ("follow:forget=1.5", "greedy:slip=-0.1", "greedy:forget=x"):
        code, out = cli_json(line.format(bad))
        assert code != 0 and len(out.strip().splitlines()) == 1 and "Traceback" not in out, out


# --- the table ---------------------------------------------------------------------------


def test_bots_forget_and_slip_at_the_table_as_in_the_reference() -> None:
    """A scripted person answering what greedy would plays the reference's match against bots
    that forget and slip; their match differs from the plain bots' one."""
    n, bot = 4, "follow:forget=0.3,slip=0.2"
    setup = Setup.build(GAME, ["greedy"] + [bot] * (n - 1), rounds=1, seed=1, players=n)
    expected = ref.play_match(setup.table.rules, list(setup.players), seed=7, game=0)
    answers = [name(c) for r in expected.rounds for _, s, c in r.events if s == 0]
    draws = [
        Stream(7, 0, REACT, deal, 0).lognormal(DEFAULT_MEDIAN, DEFAULT_SIGMA)
        for deal, r in enumerate(expected.rounds)
        if not r.stalled and 0 in r.seats
    ]
    seat = Scripted(answers, reaction=draws)
    outcome = play(GAME, [bot], players=n, seed=7, seat=seat, signal_wait="0,0")
    assert outcome.match == expected
    plain = Setup.build(GAME, ["greedy"] + ["follow"] * (n - 1), rounds=1, seed=1, players=n)
    assert ref.play_match(plain.table.rules, list(plain.players), seed=7, game=0) != expected
