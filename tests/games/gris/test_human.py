"""Gris players who forget and slip (docs/human-players.md, Gris): what the two values do.

The kernel and the reference play such players move by move alike
(test_kernel_agreement.py).  Here: plain play is bit for bit what it was before the
values existed, for every shipped strategy; a player with forget=1 never claims a card
back; the history counts a forgetting player is shown; slips pass uniformly random cards;
a run's records are the reference's games; results do not depend on threads or blocks;
the command line and the table at which you play take such players.
"""

from __future__ import annotations

import hashlib
import itertools
import json
import math
from collections.abc import Sequence
from pathlib import Path

import numba
import numpy as np
import pytest
from typer.testing import CliRunner

import simulator
from simulator.cli import app
from simulator.engine.cards import N_SUITS, name
from simulator.engine.reaction import DEFAULT_MEDIAN, DEFAULT_SIGMA, profile_arrays
from simulator.engine.rng import REACT, Stream
from simulator.games.gris import kernel
from simulator.games.gris import reference as ref
from simulator.games.gris.game import GRIS
from simulator.games.gris.observation import HAND, PASSED_SUIT, PASSES, RECEIVED_SUIT, SEAT
from simulator.games.gris.variants import STALL_CAP, Rules
from simulator.running.runner import BlockRunner
from simulator.running.setup import Setup
from simulator.tabletop import Scripted, play
from strategies import PARAM_ROW, SLIP_AT, Player, SpecError, families, parse_spec

GOLDEN = Path(__file__).resolve().parents[2] / "golden" / "gris_shipped_plain_records.json"
STRAIGHT, ALWAYS, OFF = Rules("straight"), Rules("always"), Rules("off")


def shipped_specs() -> list[str]:
    """Every shipped Gris strategy: commit with after in {0, 1, 3, 50}, the others at their
    defaults and, when they have parameters, at both ends of their ranges."""
    parse_spec("greedy", "gris")  # registers the shipped strategies
    specs: list[str] = []
    for name_, fam in sorted(families("gris").items(), key=lambda kv: kv[1].builtin_id or 0):
        if fam.builtin_id is None:
            continue  # a user's strategy registered by another test
        if name_ == "commit":
            specs += [fam.player(after=a).spec for a in (0, 1, 3, 50)]
            continue
        specs.append(fam.player().spec)
        for end in ("low", "high"):
            try:
                p = fam.player(**{q.name: getattr(q, end) for q in fam.params})
            except SpecError:
                continue
            if p.spec not in specs:
                specs.append(p.spec)
    return specs


def with_values(spec: str, forget: float, slip: float) -> Player:
    """``spec``'s player with ``forget`` and ``slip`` written out, as a user types them."""
    sep = "," if ":" in spec else ":"
    return parse_spec(f"{spec}{sep}forget={forget!r},slip={slip!r}", "gris")


def records_digest(player: Player, key: str, seed: int) -> str:
    """The digest of the records the golden file keys by ``key`` (``spec|n|circulation|unit|count``):
    ``player`` in the first and the last seat, greedy between."""
    _, n, circulation, unit, count = key.split("|")
    n, count = int(n), int(count)
    table = GRIS.table(rules={"circulation": circulation}, n_seats=n)
    greedy = parse_spec("greedy", "gris")
    lineup = [player] + [greedy] * (n - 2) + [player]
    rec = BlockRunner(table, lineup, unit, seed).records(0, count, n_chunks=3)
    return hashlib.sha256(np.ascontiguousarray(rec).tobytes()).hexdigest()[:16]


# --- plain play is what it was ---------------------------------------------------------------


def test_forget_0_and_slip_0_play_every_shipped_strategy_as_before() -> None:
    """The golden digests were recorded before players could forget or slip: every shipped
    strategy, written with forget=0,slip=0, plays the same games bit for bit."""
    golden = json.loads(GOLDEN.read_text())
    records, seed = golden["records"], golden["seed"]
    assert {k.split("|")[0] for k in records} == set(shipped_specs())
    for key, expected in records.items():
        spec = key.split("|")[0]
        player = with_values(spec, 0.0, 0.0)
        assert player.spec == spec and not player.human
        assert records_digest(player, key, seed) == expected, key


@pytest.mark.parametrize(("forget", "slip"), [(1e-9, 0.0), (0.0, 1e-9)])
def test_a_value_above_0_draws_even_when_it_never_forgets_or_slips(forget: float, slip: float) -> None:
    """A value of 1e-9 almost never forgets or slips, but it draws from the seat's stream, so
    the strategy's own random choices move: the golden comparison above would see a draw."""
    golden = json.loads(GOLDEN.read_text())
    records, seed = golden["records"], golden["seed"]
    for spec in ("random", "greedy"):
        key = f"{spec}|4|always|round|600"
        assert records_digest(with_values(spec, forget, slip), key, seed) != records[key]


# --- forgetting ----------------------------------------------------------------------------


def kernel_events(
    players: Sequence[Player], rules: Rules, *, seed: int, game: int, dealer: int
) -> list[tuple[int, int, int, int]]:
    """A kernel round's events ``(kind, seat, card, other)``."""
    n = len(players)
    log = np.full((2 * STALL_CAP + 2, 4), -1, np.int64)
    n_events, _, stalled, _ = kernel.trace_round_nb(
        np.array([p.family.builtin_id for p in players], np.int64),
        np.stack([p.params for p in players]),
        np.array([n, rules.circulation_code, STALL_CAP], np.int64),
        profile_arrays(((DEFAULT_MEDIAN, DEFAULT_SIGMA),) * n),
        seed,
        game,
        0,
        dealer,
        log,
        np.zeros(n),
        np.zeros(n, np.int64),
    )
    assert stalled in (0, 1)
    return [tuple(int(x) for x in row) for row in log[:n_events]]


def exchanges_by_seat(events: Sequence[tuple[int, ...]], n: int) -> list[int]:
    out = [0] * n
    for kind, seat, _, _ in events:
        out[seat] += kind == ref.EXCHANGE
    return out


@pytest.mark.parametrize("rules", [STRAIGHT, ALWAYS], ids=lambda r: r.circulation)
@pytest.mark.parametrize("spec", ["greedy", "commit:after=1", "reader", "random"])
def test_a_player_with_forget_1_never_claims_a_card(rules: Rules, spec: str) -> None:
    """forget=1 forgets every card right after passing it, so no card it passed is ever
    claimed when it comes back; the same deals played plain have exchanges, and a plain
    player beside one that forgets still claims its own."""
    plain = parse_spec(spec, "gris")
    forgetful = with_values(plain.spec, 1.0, 0.0)
    plain_exchanges = mixed_others = 0
    for n, game in itertools.product((2, 3, 4, 6), range(12 if spec != "random" else 3)):
        where = dict(seed=4040 + n, game=game, dealer=game % n)
        everyone = kernel_events([forgetful] * n, rules, **where)
        assert exchanges_by_seat(everyone, n) == [0] * n, where
        mixed = exchanges_by_seat(kernel_events([forgetful] + [plain] * (n - 1), rules, **where), n)
        assert mixed[0] == 0, where
        mixed_others += sum(mixed[1:])
        plain_exchanges += sum(exchanges_by_seat(kernel_events([plain] * n, rules, **where), n))
    assert plain_exchanges > 0 and mixed_others > 0


class Watching:
    """A shipped player whose every observation is kept (it never slips here)."""

    def __init__(self, player: Player) -> None:
        self.player, self.name, self.params = player, player.spec, player.params
        self.seen: list[np.ndarray] = []

    def decide(self, obs: np.ndarray, params: np.ndarray, rng: np.ndarray) -> int:
        self.seen.append(obs.copy())
        return self.player.decide(obs, params, rng)


def history(events: Sequence[ref.Event], seat: int, passes: int) -> tuple[list[int], list[int], list[int]]:
    """Before pass ``passes + 1``: the suits ``seat`` received and passed (counts), and the
    suit of the card it received last (one-hot, all 0 before any pass)."""
    received, passed, last = [0] * N_SUITS, [0] * N_SUITS, [0] * N_SUITS
    done = 0
    for e in events:
        if e.kind != ref.PASS:
            continue
        if done == passes:
            break
        done += 1
        if e.other == seat:
            received[e.card // 13] += 1
        if e.seat == seat:
            passed[e.card // 13] += 1
    if passes > 0:
        last_pass = [e for e in events if e.kind == ref.PASS][passes - 1]
        assert last_pass.other == seat  # a seat is asked right after it received
        last[last_pass.card // 13] = 1
    return received, passed, last


@pytest.mark.parametrize("forget", [0.0, 0.5, 1.0])
def test_the_history_counts_a_forgetting_player_is_shown(forget: float) -> None:
    """RECEIVED_SUIT and PASSED_SUIT: everything with forget=0; with forget=1 only the card
    that just arrived (nothing is remembered from one turn to the next); in between, at least
    that card and at most everything, and some decisions see less than everything."""
    shown_less = shown_more_than_last = decisions = 0
    for n, game in itertools.product((3, 4, 5), range(25)):
        watch = [Watching(with_values(s, forget, 0.0)) for s in ("reader", "greedy", "commit")[:n]]
        players = (watch * 2)[:n]
        # A short cap: with forget=1 nobody claims, and a table of these often stalls.
        rec = ref.play_round(ALWAYS, players, seed=99, game=game, dealer=game % n, stall_cap=200)
        for obs in itertools.chain.from_iterable(w.seen for w in watch):
            received, passed, last = history(rec.events, int(obs[SEAT]), int(obs[PASSES]))
            got_r = [int(x) for x in obs[RECEIVED_SUIT : RECEIVED_SUIT + N_SUITS]]
            got_p = [int(x) for x in obs[PASSED_SUIT : PASSED_SUIT + N_SUITS]]
            decisions += 1
            if forget == 0:
                assert (got_r, got_p) == (received, passed)
            elif forget == 1:
                assert (got_r, got_p) == (last, [0] * N_SUITS)
            else:
                assert all(a <= b <= c for a, b, c in zip(last, got_r, received, strict=True))
                assert all(0 <= b <= c for b, c in zip(got_p, passed, strict=True))
                shown_less += (got_r, got_p) != (received, passed)
                shown_more_than_last += got_r != last or any(got_p)
    assert decisions > 500
    if 0 < forget < 1:
        assert shown_less > 0 and shown_more_than_last > 0


# --- slips ------------------------------------------------------------------------------------


def passed_positions(
    hands_dealt: Sequence[Sequence[int]], events: Sequence[tuple[int, ...]], seat: int
) -> list[int]:
    """Where in its hand (ascending code, 0..5) each card ``seat`` passed lay."""
    hands = [sorted(h) for h in hands_dealt]
    out = []
    for kind, who, card, other in events:
        if kind == ref.PASS:
            if who == seat:
                out.append(hands[who].index(card))
            hands[who].remove(card)
            hands[other] = sorted([*hands[other], card])
        else:
            hands[who].remove(card)
            hands[who] = sorted([*hands[who], other])
    return out


def chi_square_uniform(positions: Sequence[int], k: int = 6) -> float:
    counts = np.bincount(positions, minlength=k)
    expected = len(positions) / k
    return float(((counts - expected) ** 2 / expected).sum())


CHI2_5_AT_0_001 = 20.515  # the chi-square quantile with 5 degrees of freedom that is exceeded 1 time in 1000


class PassLowest:
    """Passes the lowest card it holds; ``slip`` set in its parameter row."""

    def __init__(self, slip: float) -> None:
        self.name = f"lowest(slip={slip})"
        self.params = np.zeros(PARAM_ROW)
        self.params[SLIP_AT] = slip

    def decide(self, obs: np.ndarray, params: np.ndarray, rng: np.ndarray) -> int:
        return int(obs[HAND])


def lowest_rounds(slip: float, rounds: int) -> list[int]:
    """Seat 0's positions over ``rounds`` reference rounds of four PassLowest players."""
    positions: list[int] = []
    for game in range(rounds):
        rec = ref.play_round(STRAIGHT, [PassLowest(slip)] * 4, seed=5, game=game, stall_cap=60)
        positions += passed_positions(rec.hands_dealt, [tuple(e) for e in rec.events], 0)
    return positions


def test_slip_1_passes_a_uniformly_random_card() -> None:
    """With slip=1 a player that would always pass its lowest card passes each of its six
    places about equally often (chi-square below the 0.1% quantile); with slip=0 it fails
    that check by far."""
    slipping = lowest_rounds(1.0, 200)
    assert len(slipping) > 2000
    assert chi_square_uniform(slipping) < CHI2_5_AT_0_001
    plain = lowest_rounds(0.0, 60)
    assert set(plain) == {0} and chi_square_uniform(plain) > 100 * CHI2_5_AT_0_001


def test_slip_passes_a_random_card_at_its_rate() -> None:
    """slip=0.3: a random card in 30% of decisions, so not the lowest in 30% x 5/6 = 25% of
    them, within four standard errors."""
    positions = lowest_rounds(0.3, 200)
    share = float(np.mean(np.array(positions) != 0))
    se = math.sqrt(0.25 * 0.75 / len(positions))
    assert abs(share - 0.25) < 4 * se, (share, len(positions))


def test_slip_1_passes_uniformly_random_cards_in_the_kernel() -> None:
    """The kernel's greedy:slip=1 in seat 0: its passes spread evenly over the six places;
    plain greedy's do not (it passes from the suit held least)."""
    spread = {}
    for spec in ("greedy:slip=1", "greedy"):
        player, greedy = parse_spec(spec, "gris"), parse_spec("greedy", "gris")
        positions: list[int] = []
        for game in range(600):
            events = kernel_events([player, greedy, greedy, greedy], STRAIGHT, seed=8, game=game, dealer=3)
            dealt = ref.deal_cards(STRAIGHT, ref.shuffle_deck(8, game), 4, 3).hands
            positions += passed_positions(dealt, events, 0)
        assert len(positions) > 2000
        spread[spec] = chi_square_uniform(positions)
    assert spread["greedy:slip=1"] < CHI2_5_AT_0_001 < spread["greedy"]


# --- runs ----------------------------------------------------------------------------------------

LINEUPS = {
    3: ["reader:forget=0.3,slip=0.1", "commit:after=1,forget=1", "greedy:slip=0.5"],
    4: ["greedy:forget=0.2", "reader", "commit:forget=0.5,slip=0.05", "random:slip=1"],
}


@pytest.mark.parametrize("circulation", ["straight", "always", "off"])
@pytest.mark.parametrize("unit", ["round", "match"])
@pytest.mark.parametrize("n", sorted(LINEUPS))
def test_the_records_of_a_run_are_the_reference_games(n: int, unit: str, circulation: str) -> None:
    """The compiled round and match loops (records) play the reference's games."""
    table = GRIS.table(rules={"circulation": circulation}, n_seats=n)
    players = [parse_spec(s, "gris") for s in LINEUPS[n]]
    count = 12 if unit == "round" else 2
    rec = BlockRunner(table, players, unit, seed=13).records(40, count, n_chunks=2)
    for i in range(count):
        assert tuple(int(x) for x in rec[i]) == GRIS.reference_record(table, players, 13, 40 + i, unit)


@pytest.mark.parametrize(("unit", "count"), [("rounds", 3000), ("matches", 60)])
def test_results_do_not_depend_on_threads_or_blocks(unit: str, count: int) -> None:
    """The same seed: the same figures with 1 or 2 threads and any block size; the human
    values change them."""
    specs = LINEUPS[4]
    two = min(2, numba.config.NUMBA_NUM_THREADS)
    before = numba.get_num_threads()
    runs = []
    try:
        for threads, block in ((1, 1 << 16), (two, 1 << 16), (two, 7), (1, 5)):
            r = simulator.simulate(
                "gris", specs, players=4, seed=31, threads=threads, block_size=block, **{unit: count}
            )
            runs.append((r.aggregates.tolist(), json.dumps(r.without_timing(), sort_keys=True)))
    finally:
        numba.set_num_threads(before)
    assert all(run == runs[0] for run in runs[1:])
    plain = simulator.simulate(
        "gris", [parse_spec(s, "gris").plain for s in specs], players=4, seed=31, **{unit: count}
    )
    assert plain.aggregates.tolist() != runs[0][0]


# --- the command line and the table -----------------------------------------------------------------


def test_the_command_line_runs_players_who_forget_and_slip() -> None:
    runner = CliRunner()
    out = {}
    for spec in ("commit:forget=0.2", "commit:slip=0.1", "commit"):
        result = runner.invoke(
            app, ["simulate", "gris", "-s", spec, "--rounds", "4000", "--seed", "3", "--json"]
        )
        assert result.exit_code == 0, result.output
        out[spec] = json.loads(result.stdout)
    assert [s["player"] for s in out["commit:forget=0.2"]["seats"]] == ["commit:after=0,forget=0.2"] * 4
    assert [s["player"] for s in out["commit:slip=0.1"]["seats"]] == ["commit:after=0,slip=0.1"] * 4
    plain = [s["letter_rate"] for s in out["commit"]["seats"]]
    assert [s["letter_rate"] for s in out["commit:forget=0.2"]["seats"]] != plain
    assert out["commit:slip=0.1"]["mean_passes"] != out["commit"]["mean_passes"]
    trace = runner.invoke(
        app, ["trace", "gris", "-s", "reader:forget=0.5,slip=0.3", "--seed", "9", "--game", "3"]
    )
    assert trace.exit_code == 0, trace.output
    bad = runner.invoke(app, ["simulate", "gris", "-s", "commit:forget=1.5", "--rounds", "10"])
    assert bad.exit_code != 0
    assert "Traceback" not in bad.output and len(bad.output.strip().splitlines()) == 1
    assert "forget" in bad.output


def seat0_draws(rounds: Sequence[ref.RoundRecord]) -> list[float]:
    return [
        Stream(7, 0, REACT, deal, 0).lognormal(DEFAULT_MEDIAN, DEFAULT_SIGMA)
        for deal, rnd in enumerate(rounds)
        if not rnd.stalled
    ]


@pytest.mark.parametrize("bot", ["reader:forget=0.4,slip=0.2", "commit:after=1,forget=1,slip=0.05"])
def test_bots_forget_and_slip_at_the_table_as_in_the_reference(bot: str) -> None:
    """`kortsim play gris --vs BOT`: a person who answers as greedy would plays the reference's
    match of greedy against bots that forget and slip, move for move."""
    setup = Setup.build("gris", ["greedy", bot, bot, bot], rounds=1, seed=1, players=4)
    expected = ref.play_match(setup.table.rules, list(setup.players), seed=7, game=0)
    answers = [name(e.card) for r in expected.rounds for e in r.events if e.kind == ref.PASS and e.seat == 0]
    seat = Scripted(answers, reaction=seat0_draws(expected.rounds))
    outcome = play("gris", [bot], players=4, seed=7, seat=seat, signal_wait=(0, 0))
    assert outcome.match == expected
    assert expected.counted_rounds >= 4
    plain_bots = Setup.build(
        "gris", ["greedy", *[parse_spec(bot, "gris").plain.spec] * 3], rounds=1, seed=1, players=4
    )
    assert ref.play_match(plain_bots.table.rules, list(plain_bots.players), seed=7, game=0) != expected
