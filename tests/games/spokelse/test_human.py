"""Human-like Spøkelse players (docs/human-players.md, section Spøkelse): what forgetting and
slips do, what they leave alone, and that every loop that plays Spøkelse turns plays them.

The move-by-move agreement of kernel and reference, for every shipped strategy and every
observation field, is in ``test_kernel_agreement.py``.
"""

from __future__ import annotations

import json
from collections.abc import Callable

import numpy as np
import pytest
from numba import njit
from scipy.stats import chi2
from typer.testing import CliRunner

import simulator
from simulator.cli import app
from simulator.engine.cards import rank_of
from simulator.errors import InputError
from simulator.games.spokelse import kernel, search_worlds
from simulator.games.spokelse import reference as R
from simulator.games.spokelse.calibration import ACC_FIELDS, calibrate_chunk_nb
from simulator.games.spokelse.duel import BUILTIN, SEARCH, duel_chunk_nb
from simulator.games.spokelse.observation import (
    DISCARD_TOP,
    FROM_DISCARD,
    HAND,
    HIGH,
    HIGH_SLOT,
    OPP_SLOT,
    PHASE,
    SEAT,
    SLOT,
    SLOT_VALUE,
    SOURCE,
    UNKNOWN_SLOT,
    UNSEEN,
    Place,
    Source,
)
from simulator.games.spokelse.rules import LOG_FIELDS
from simulator.games.spokelse.strategies import threshold_nb
from simulator.games.spokelse.variants import TURN_CAP, Rules
from simulator.kernels.specialise import specialised_kernel
from simulator.running.setup import Setup
from simulator.tabletop import Scripted, play
from strategies import FORGET_AT, MAX_PARAMS, PARAM_ROW, Player, parse_spec
from strategies.registry import shipped_decides

RULES = Rules()
VALUES = RULES.values_half()
SHIPPED = ("passive", "random", "threshold:k=4", "expect", "search:samples=8")


def spec_with(spec: str, human: str) -> str:
    return f"{spec}{',' if ':' in spec else ':'}{human}"


def player(spec: str) -> Player:
    return parse_spec(spec, "spokelse")


def trace(run: Callable, sids, players, *, seed: int, game: int) -> tuple[list[tuple[int, ...]], int, int]:
    """A kernel round (seat 1 deals): its turn log and both scores."""
    log = np.full((TURN_CAP, LOG_FIELDS), -1, np.int64)
    params = np.stack([p if isinstance(p, np.ndarray) else p.params for p in players]).astype(np.float64)
    s0, s1, turns, _, err = run(
        np.array(sids, np.int64), params, VALUES, 0, np.zeros(2, np.int64), seed, game, 0, 1, log
    )
    assert err == 0
    return [tuple(int(x) for x in row) for row in log[:turns]], int(s0), int(s1)


# --- forget=0, slip=0 is the plain strategy, and 0 draws nothing ----------------------


@pytest.mark.parametrize("spec", SHIPPED)
def test_forget_0_and_slip_0_play_the_plain_strategy(spec: str) -> None:
    zero = spec_with(spec, "forget=0,slip=0")
    assert player(zero) == player(spec) and player(zero).spec == player(spec).spec
    a = simulator.simulate("spokelse", [spec, "random"], rounds=200, seed=5, records=True)
    b = simulator.simulate("spokelse", [zero, "random"], rounds=200, seed=5, records=True)
    assert a.summary["seats"] == b.summary["seats"]
    assert a.records().equals(b.records())


def test_only_a_value_above_0_draws_from_the_stream() -> None:
    """forget=1e-300 forgets nothing in practice (a draw below 1e-300 has probability 2^-53)
    but draws: random, which plays from its stream, then plays other games; expect, which
    draws nothing itself, plays the very same ones.  A row without the two fields (a
    strategy's own parameters only) plays as zeros."""
    opp = player("threshold:k=4")
    for spec, same in (("random", False), ("expect", True)):
        for human in ("forget=1e-300", "slip=1e-300"):
            sid = player(spec).family.builtin_id
            plain = trace(kernel.trace_round_nb, (sid, 2), (player(spec), opp), seed=3, game=4)
            rows = (player(spec).params[:MAX_PARAMS], opp.params[:MAX_PARAMS])
            short = trace(kernel.trace_round_nb, (sid, 2), rows, seed=3, game=4)
            drawn = trace(
                kernel.trace_round_nb, (sid, 2), (player(spec_with(spec, human)), opp), seed=3, game=4
            )
            assert short == plain
            assert (drawn == plain) is same, (spec, human)


# --- forget=1: nothing remembered at a turn's decisions but what is in view -----------


@njit
def amnesia_check_nb(obs, params, rng):
    """Answers 9 (illegal, the run stops) when the observation shows a card the player could
    only remember: with forget=1 its own row and the opponent's are unknown at both of its
    decisions, and the only cards it knows are the discard top and the card in hand (the
    unseen counts are 4 a rank less those).  Otherwise a legal choice from its stream."""
    for i in range(4):
        if obs[SLOT + i] != -1 or obs[SLOT_VALUE + i] != -1 or obs[OPP_SLOT + i] != -1:
            return np.int64(9)
    if obs[HIGH] != -1 or obs[HIGH_SLOT] != -1 or obs[UNKNOWN_SLOT] != 0:
        return np.int64(9)
    for r in range(13):
        n = 4
        for c in (obs[DISCARD_TOP], obs[HAND]):
            if c >= 0 and c % 13 == r:
                n -= 1
        if obs[UNSEEN + r] != n:
            return np.int64(9)
    u = rng[0] % np.uint64(97)  # a legal answer that needs no draw
    if obs[PHASE] == SOURCE:
        return np.int64(u % np.uint64(2)) if obs[DISCARD_TOP] >= 0 else np.int64(0)
    return np.int64(u % np.uint64(4 if obs[FROM_DISCARD] == 1 else 5))


class Amnesiac:
    def __init__(self, forget: float) -> None:
        self.name = f"amnesia check (forget={forget})"
        self.params = np.zeros(PARAM_ROW)
        self.params[FORGET_AT] = forget
        self.decide = amnesia_check_nb


@pytest.fixture(scope="module")
def amnesia_trace() -> Callable:
    return specialised_kernel(kernel, [amnesia_check_nb, threshold_nb]).trace_round_nb


def test_forget_1_remembers_nothing_out_of_view(amnesia_trace: Callable) -> None:
    """Kernel and reference, both seats: the check never fires with forget=1; with forget=0.5
    (and plain play) it does, so it is a check that can fail."""
    th = player("threshold:k=4")
    for seat in (0, 1):
        for g in range(40):
            me = Amnesiac(1.0)
            players = (me, th) if seat == 0 else (th, me)
            sids = (0, 1) if seat == 0 else (1, 0)
            rows, *_ = trace(amnesia_trace, sids, players, seed=11, game=g)
            rec = R.play_round(RULES, players, seed=11, game=g)
            assert rows == [(t.turn, t.seat, t.source, t.taken, t.place, t.discarded) for t in rec.turns]
            assert any(t.seat == seat and t.place < Place.DISCARD for t in rec.turns)  # it did fill slots
    for forget in (0.0, 0.5):
        with pytest.raises(R.IllegalAction):
            R.play_round(RULES, (Amnesiac(forget), th), seed=11, game=0)


# --- what a forgetting player knows stays consistent -----------------------------------


class Watched:
    """A reference player that checks, at each of its decisions, that search finds its
    observation possible (the unseen cards fill at least the places it cannot see; the rest
    lie under the discard top) and that it counts as unseen exactly the cards whose place it
    does not know."""

    def __init__(self, spec: str, table_of: Callable[[], R.Table]) -> None:
        self.inner = player(spec)
        self.name, self.params = self.inner.spec, self.inner.params
        self.table_of = table_of
        self.decisions = 0

    def decide(self, obs: np.ndarray, params: np.ndarray, rng: np.ndarray) -> int:
        table = self.table_of()
        seat = int(obs[SEAT])
        pool, under = np.empty(52, np.int64), np.empty(52, np.int64)
        assert search_worlds.split_cards_nb(obs, pool, under)[0] >= 0
        for r in range(13):
            assert obs[UNSEEN + r] == 4 - sum(rank_of(c) == r for c in table.seen[seat])
        self.decisions += 1
        return self.inner.decide(obs, params, rng)


@pytest.mark.parametrize("forget", [0.1, 0.5, 1.0])
def test_forgetting_keeps_what_the_player_knows_consistent(forget: float) -> None:
    """After every turn, for both seats: the discard top is seen (a card under it that a
    player forgot is seen again as soon as it is the top), the ghosts never are, every seen
    card lies in its own known slots, the opponent's public slots or the discard pile, and
    every slot it knows is seen; at every decision search finds the observation possible."""
    state: dict[str, R.Table] = {}
    spec = f"expect:forget={forget}"
    players = (
        Watched(spec, lambda: state["t"]),
        Watched(f"threshold:k=4,forget={forget / 2}", lambda: state["t"]),
    )
    forgotten = 0
    for g in range(30):
        table = R.deal_cards(RULES, R.shuffle_deck(9, g), dealer=1)
        state["t"] = table
        rngs = R.decide_streams(9, g)
        while not R.round_over(table):
            before = [set(s) for s in table.seen]
            R.play_turn(table, players, rngs)
            forgotten += sum(len(before[s] - table.seen[s]) for s in range(2))
            for s in range(2):
                seen = table.seen[s]
                assert table.discard[-1] in seen
                assert not seen & set(table.ghosts)
                places = set(table.discard)
                places |= {c for c, k in zip(table.slots[s], table.knows_slot[s]) if k}
                places |= {c for c, k in zip(table.slots[1 - s], table.public_slot[1 - s]) if k}
                assert seen <= places
                assert all(c in seen for c, k in zip(table.slots[s], table.knows_slot[s]) if k)
    assert forgotten > 0 and all(p.decisions > 0 for p in players)


# --- slip=1 is uniformly random; slip=E slips at rate E ---------------------------------


def kernel_logs(specs: tuple[str, str], n: int, seed: int = 21) -> list[list[tuple[int, ...]]]:
    ps = [player(s) for s in specs]
    sids = tuple(p.family.builtin_id for p in ps)
    return [trace(kernel.trace_round_nb, sids, ps, seed=seed, game=g)[0] for g in range(n)]


def test_slip_1_plays_the_same_random_game_whatever_the_strategy() -> None:
    """With slip=1 the strategy is never asked: passive, threshold and expect play the same
    games (the slips' draws come from the seat's stream alone)."""
    logs = [
        kernel_logs((s, "expect"), 50) for s in ("passive:slip=1", "threshold:k=0,slip=1", "expect:slip=1")
    ]
    assert logs[0] == logs[1] == logs[2]


def test_slip_1_is_a_uniformly_random_legal_choice() -> None:
    """Seat 0 with slip=1 over 3,000 rounds: the source (two options at every turn: the pile
    is never empty when a turn starts), the placement of a stock card (five) and of a pile
    card (four) are each uniform by a chi-square test at the 1e-4 level (seeded, so the
    verdict is fixed; a rule that drew one option too few or too many fails it by far)."""
    source = np.zeros(2, np.int64)
    stock_place = np.zeros(5, np.int64)
    pile_place = np.zeros(4, np.int64)
    for log in kernel_logs(("threshold:k=4,slip=1", "expect"), 3000):
        for _, seat, a, _, b, _ in log:
            if seat == 0:
                source[a] += 1
                (pile_place if a == Source.DISCARD_PILE else stock_place)[b] += 1
    for counts in (source, stock_place, pile_place):
        expected = counts.sum() / len(counts)
        stat = float(((counts - expected) ** 2 / expected).sum())
        assert stat < chi2.ppf(1 - 1e-4, len(counts) - 1), counts
        assert counts.sum() > 10_000


def test_slip_happens_at_its_rate() -> None:
    """passive with slip=0.2 takes the pile only by a slip (half of the slips: 10% of
    sources) and puts a stock card into a slot only by a slip (4 slots of 5: 16%)."""
    pile, sources, slotted, stock = 0, 0, 0, 0
    for log in kernel_logs(("passive:slip=0.2", "threshold:k=4"), 1500):
        for _, seat, a, _, b, _ in log:
            if seat == 0:
                sources += 1
                pile += a == Source.DISCARD_PILE
                if a == Source.STOCK:
                    stock += 1
                    slotted += b < Place.DISCARD
    for k, n, p in ((pile, sources, 0.1), (slotted, stock, 0.16)):
        assert abs(k / n - p) < 5 * np.sqrt(p * (1 - p) / n), (k, n, p)


# --- runs: threads and blocks, the public API, the cost of forgetting ----------------


@pytest.mark.parametrize("unit", ["rounds", "matches"])
def test_human_results_do_not_depend_on_threads_or_blocks(unit: str) -> None:
    specs = ["expect:forget=0.3,slip=0.1", "random:forget=0.5,slip=0.2"]
    kw = {unit: 600, "seed": 8, "records": True}
    a = simulator.simulate("spokelse", specs, threads=1, block_size=600, **kw)
    b = simulator.simulate("spokelse", specs, threads=2, block_size=77, **kw)
    assert a.summary["seats"] == b.summary["seats"]
    assert a.records().equals(b.records())


def test_forgetful_search_and_expect_run_through_the_api() -> None:
    r = simulator.simulate(
        "spokelse", ["search:samples=8,forget=0.1", "expect:forget=0.1"], rounds=200, seed=3
    )
    plain = simulator.simulate("spokelse", ["search:samples=8", "expect"], rounds=200, seed=3)
    names = [s["player"] for s in r.summary["seats"]]
    assert names[0].endswith(",forget=0.1") and names[1].endswith(",forget=0.1")
    assert r.summary["seats"] != plain.summary["seats"]


def test_the_cli_plays_a_forgetful_player() -> None:
    args = [
        "simulate",
        "spokelse",
        "-s",
        "expect:forget=0.1",
        "-s",
        "threshold",
        "--rounds",
        "2000",
        "--seed",
        "1",
    ]
    out = CliRunner().invoke(app, [*args, "--json"])
    assert out.exit_code == 0, out.output
    seats = json.loads(out.stdout)["seats"]
    assert seats[0]["player"] == "expect:k=1,patience=3,pile=0.5,open=25,forget=0.1"
    bad = CliRunner().invoke(app, ["simulate", "spokelse", "-s", "expect:forget=2", "--rounds", "10"])
    assert bad.exit_code != 0 and "forget=2 is outside 0..1" in bad.output
    assert "Traceback" not in bad.output


def test_forgetting_costs_points() -> None:
    """Lower is better: expect that forgets half of what it knows scores more than expect
    on the same deals, by more than both intervals."""
    r = simulator.simulate("spokelse", ["expect:forget=0.5", "expect"], rounds=20_000, seed=2)
    forgetful, plain = r.summary["seats"]
    assert forgetful["mean_score_ci"][0] > plain["mean_score_ci"][1]


# --- every other loop that plays Spøkelse turns ---------------------------------------


HUMANS = ("expect:forget=0.3,slip=0.1", "threshold:k=4,forget=1,slip=0.2")


@pytest.mark.parametrize("spec", HUMANS)
def test_the_calibration_rounds_of_human_players_are_the_kernels(spec: str) -> None:
    me, opp = player(spec), player("random:slip=0.5,forget=0.2")
    sids = np.array([me.family.builtin_id, opp.family.builtin_id])
    params = np.vstack([me.params, opp.params])
    model = player("expect").params
    scores = np.zeros((6, 2), np.int64)
    calibrate_chunk_nb(
        sids, params, VALUES, 3, model, 0.02, 1, 4, 7, 0, 6, np.zeros((42, 4, ACC_FIELDS)), scores
    )
    for g in range(6):
        seats = (me, opp) if g % 2 == 0 else (opp, me)
        _, s0, s1 = trace(kernel.trace_round_nb, [p.family.builtin_id for p in seats], seats, seed=7, game=g)
        assert (s0, s1) == (tuple(scores[g]) if g % 2 == 0 else tuple(scores[g][::-1]))


def test_the_duel_rounds_of_human_players_are_the_kernels() -> None:
    """The ladder's loop: a human shipped strategy and a forgetting search, in both seats."""
    opp = player("expect:forget=0.2,slip=0.05")
    shipped = shipped_decides("spokelse")  # the copy a run with search plays through
    search_trace = specialised_kernel(kernel, shipped).trace_round_nb
    for spec, kind in (
        ("threshold:k=4,forget=0.4,slip=0.1", BUILTIN),
        ("search:samples=4,forget=0.3,slip=0.1", SEARCH),
    ):
        me = player(spec)
        psid = me.family.builtin_id or 0
        scores = np.zeros((4, 2, 2), np.int64)
        duel_chunk_nb(
            kind, psid, me.params, np.zeros(3), np.zeros(PARAM_ROW), 3, opp.params, VALUES, 5, 0, 4, scores
        )
        for g in range(4):
            for seat in (0, 1):
                seats = (me, opp) if seat == 0 else (opp, me)
                if kind == BUILTIN:
                    run, sids = kernel.trace_round_nb, [p.family.builtin_id for p in seats]
                else:
                    run, sids = search_trace, [shipped.index(p.family.decide) for p in seats]
                _, s0, s1 = trace(run, sids, seats, seed=5, game=g)
                mine, theirs = (s0, s1) if seat == 0 else (s1, s0)
                assert (mine, theirs) == tuple(scores[g, seat]), (spec, g, seat)


def test_a_bot_at_the_table_forgets_and_slips_as_in_the_reference() -> None:
    """A scripted person answering as threshold plays the reference's match against a bot
    that forgets and slips: the table plays the bot's forgetting and slips the same way."""
    bot = "expect:forget=0.3,slip=0.1"
    setup = Setup.build("spokelse", ["threshold:k=4", bot], rounds=1, seed=1, rules={"target": "30"})
    expected = R.play_match(setup.table.rules, list(setup.players), seed=7, game=0)
    answers = []
    for rnd in expected.rounds:
        for t in rnd.turns:
            if t.seat == 0:
                answers += [
                    "s" if t.source == Source.STOCK else "d",
                    "x" if t.place == Place.DISCARD else str(t.place),
                ]
    outcome = play(
        "spokelse", [bot], seed=7, rules={"target": "30"}, seat=Scripted(answers), advice_samples=0
    )
    assert outcome.match == expected
    plain = R.play_match(setup.table.rules, [setup.players[0], player("expect")], seed=7, game=0)
    assert plain != expected  # the bot's forgetting and slips changed the match


def test_what_cannot_forget_or_slip_says_so_in_one_line() -> None:
    with pytest.raises(InputError, match="forget and slip"):
        simulator.calibrate(rounds=4, model="expect:forget=0.1")
    pos = {"row": "♠8 ♦K ? ?", "hand": "♥3", "discard": "♣Q", "stock": 20, "samples": 20}
    with pytest.raises(InputError, match="forget and slip"):
        simulator.advise("spokelse", strategy="search:forget=0.1", **pos)
    with pytest.raises(InputError, match="forget or slip"):
        simulator.advise("spokelse", opponent="expect:slip=0.1", **pos)


def test_a_trace_says_what_was_forgotten_and_what_slipped() -> None:
    """With forget=1 a player never swaps into a slot it knew: each such swap reveals a card
    forgotten or never seen, and each of its turns but the first forgets something."""
    players = [player("expect:forget=1"), player("threshold:k=4,slip=0.3")]
    rec = R.play_round(RULES, players, seed=4, game=2)
    text = R.format_round(rec, names=[p.spec for p in players]).splitlines()
    mine = [line for line in text if line.lstrip().startswith("turn") and "(expect" in line]
    theirs = [line for line in text if line.lstrip().startswith("turn") and "(threshold" in line]
    assert all("it knew was there" not in line for line in mine)
    assert any("(forgotten)" in line for line in mine)
    assert all(" forgets " in line for line in mine[1:])
    assert all(" forgets " not in line for line in theirs)
    assert (
        sum(line.count("(a slip)") for line in theirs)
        == sum(sum(t.slips) for t in rec.turns if t.seat == 1)
        > 0
    )
