"""The compiled Spøkelse kernel plays exactly the reference's games, move by move.

Both sides draw from the same random streams (docs/random-streams.md) and call
the same compiled strategy functions, so for every seeded round the kernel's
turn log must equal the reference's list of :class:`Turn`, and the scores,
the number of turns and the capped flag must match.  A strategy reacts only to
the fields it reads, so a last test plays a *digest* strategy whose every
choice depends on all OBS_SIZE fields of its observation: any field the kernel
fills differently from the reference changes the game from there on.  The same holds
for players that forget and slip (docs/human-players.md), every shipped strategy and the
digest among them.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from numba import njit

from simulator.engine.rng import mix64_nb
from simulator.games.spokelse import kernel
from simulator.games.spokelse.observation import (
    FROM_DISCARD,
    OBS_SIZE,
    PHASE,
    SOURCE,
    Place,
    Source,
)
from simulator.games.spokelse.reference import RoundRecord, play_round
from simulator.games.spokelse.rules import LOG_FIELDS
from simulator.games.spokelse.strategies import expect_nb, search_nb
from simulator.games.spokelse.variants import TURN_CAP, Rules
from simulator.kernels.specialise import specialised_kernel
from strategies import FORGET_AT, PARAM_ROW, SLIP_AT, Player, parse_spec

# Every shipped strategy, threshold at both ends of its range, the default and between
# grid points' halves, expect with its defaults, eager (a high floor, little patience, aces
# from the pile, unknown slots opened from the start) and patient (never opening them).
SPECS = (
    "passive",
    "random",
    "threshold:k=0",
    "threshold:k=4",
    "threshold:k=4.5",
    "threshold:k=13",
    "expect",
    "expect:k=2,patience=0.5,pile=1,open=41",
    "expect:patience=10,pile=0,open=0",
)
PLAYERS = {spec: parse_spec(spec, "spokelse") for spec in SPECS}
JACKS = (Rules(jack=0.5), Rules(jack=11))
MATCH_TOTALS = (10, 30)  # match play: seat 0 leads by 10 points before the round

# (seed, game, deal): small and large seeds, game indices far apart, several deals of a match.
CASES = [
    (seed, (seed * 7919 + 13 * i) % 1_000_003, i % 4)
    for i, seed in enumerate(
        [0, 1, 2, 3, 7, 42, 99, 2024, 12345, 65535, 2**31 - 1, 2**32 + 5, 2**40 + 3, 2**62 + 11, 2**63 - 1]
    )
]
CASES += [(271828, game, deal) for game, deal in ((0, 0), (1, 1), (5, 2), (17, 3), (999_999, 0))]
CASES += [(31337, game, game % 5) for game in range(100, 1000, 90)]  # 10 more: 30 cases in all


def sid_of(player: Player) -> int:
    sid = player.family.builtin_id
    assert sid is not None
    return sid


def kernel_round(
    trace: Callable,
    sids: tuple[int, int],
    params: tuple[np.ndarray, np.ndarray],
    rules: Rules,
    *,
    seed: int,
    game: int,
    deal: int,
    dealer: int,
    totals: tuple[int, int],
    target_half: int,
) -> tuple[list[tuple[int, ...]], tuple[int, int], int, bool]:
    """The kernel's round: its turn log rows, scores, turns and capped flag."""
    log = np.full((TURN_CAP, LOG_FIELDS), -7, np.int64)
    s0, s1, turns, capped, err = trace(
        np.array(sids, np.int64),
        np.stack(params).astype(np.float64),
        rules.values_half(),
        target_half,
        np.array(totals, np.int64),
        seed,
        game,
        deal,
        dealer,
        log,
    )
    assert err == 0, "the kernel refused an action the reference accepted"
    assert (log[turns:] == -7).all()  # nothing logged past the last turn
    return [tuple(int(x) for x in row) for row in log[:turns]], (int(s0), int(s1)), int(turns), bool(capped)


def reference_rows(rec: RoundRecord) -> list[tuple[int, ...]]:
    return [(t.turn, t.seat, t.source, t.taken, t.place, t.discarded) for t in rec.turns]


def assert_same_round(
    players: tuple,
    sids: tuple[int, int],
    rules: Rules,
    *,
    seed: int,
    game: int,
    deal: int,
    dealer: int,
    match_play: bool,
    trace: Callable = kernel.trace_round_nb,
) -> RoundRecord:
    totals = MATCH_TOTALS if match_play else (0, 0)
    rec = play_round(
        rules,
        players,
        seed=seed,
        game=game,
        deal=deal,
        dealer=dealer,
        totals_half=totals,
        match_play=match_play,
    )
    rows, scores, turns, capped = kernel_round(
        trace,
        sids,
        (players[0].params, players[1].params),
        rules,
        seed=seed,
        game=game,
        deal=deal,
        dealer=dealer,
        totals=totals,
        target_half=rules.target_half() if match_play else 0,
    )
    expected = reference_rows(rec)
    where = f"seed={seed} game={game} deal={deal} dealer={dealer} jack={rules.jack} match_play={match_play}"
    for k, (mine, ref) in enumerate(zip(rows, expected, strict=False)):  # the lengths are compared next
        # (turn, seat, source, taken, place, discarded)
        assert mine == ref, f"{where}: turn {k} differs: kernel {mine}, reference {ref}"
    assert turns == len(expected), f"{where}: kernel {turns} turns, reference {len(expected)}"
    assert scores == rec.scores_half, where
    assert capped == rec.capped, where
    return rec


@pytest.mark.parametrize("spec1", SPECS)
@pytest.mark.parametrize("spec0", SPECS)
def test_kernel_plays_the_reference_game(spec0: str, spec1: str) -> None:
    players = (PLAYERS[spec0], PLAYERS[spec1])
    sids = (sid_of(players[0]), sid_of(players[1]))
    used: list[set[tuple[int, int]]] = [set(), set()]  # (source, place kind) each seat played
    for rules, dealer, match_play in itertools.product(JACKS, (0, 1), (False, True)):
        for seed, game, deal in CASES:
            rec = assert_same_round(
                players, sids, rules, seed=seed, game=game, deal=deal, dealer=dealer, match_play=match_play
            )
            for t in rec.turns:
                used[t.seat].add((t.source, min(t.place, Place.DISCARD)))
    # The comparison is not vacuous: every seat that can take the pile or swap did so.
    for seat, spec in enumerate((spec0, spec1)):
        if spec == "passive":
            assert used[seat] == {(Source.STOCK, Place.DISCARD)}
        else:
            assert {s for s, _ in used[seat]} == {Source.STOCK, Source.DISCARD_PILE}, (spec, used[seat])
            assert Place.DISCARD in {p for _, p in used[seat]}, (spec, used[seat])
            assert any(p != Place.DISCARD for _, p in used[seat]), (spec, used[seat])


@settings(max_examples=60, deadline=None, derandomize=True)
@given(
    spec0=st.sampled_from(SPECS),
    spec1=st.sampled_from(SPECS),
    k=st.integers(0, 26),
    jack=st.sampled_from([0.5, 11]),
    target=st.integers(1, 60),
    totals=st.tuples(st.integers(0, 200), st.integers(0, 200)),
    seed=st.integers(0, 2**63 - 1),
    game=st.integers(0, 2**40),
    deal=st.integers(0, 300),
    dealer=st.integers(0, 1),
)
def test_kernel_plays_the_reference_game_anywhere(
    spec0: str,
    spec1: str,
    k: int,
    jack: float,
    target: int,
    totals: tuple[int, int],
    seed: int,
    game: int,
    deal: int,
    dealer: int,
) -> None:
    """Random seeds, games, deals, match targets and totals, and every threshold grid point."""
    players = tuple(
        parse_spec(f"threshold:k={k / 2}", "spokelse") if spec.startswith("threshold") else PLAYERS[spec]
        for spec in (spec0, spec1)
    )
    rules = Rules(jack=jack, target=target)
    sids = (sid_of(players[0]), sid_of(players[1]))
    rec = play_round(
        rules, players, seed=seed, game=game, deal=deal, dealer=dealer, totals_half=totals, match_play=True
    )
    rows, scores, turns, capped = kernel_round(
        kernel.trace_round_nb,
        sids,
        (players[0].params, players[1].params),
        rules,
        seed=seed,
        game=game,
        deal=deal,
        dealer=dealer,
        totals=totals,
        target_half=rules.target_half(),
    )
    assert rows == reference_rows(rec)
    assert (scores, turns, capped) == (rec.scores_half, len(rec.turns), rec.capped)


# --- every observation field --------------------------------------------------------


@njit
def digest_nb(obs, params, rng):
    """A legal choice that depends on every field of ``obs``.

    params[0]: how often it takes the discard top (near 1 keeps the stock full until
    the turn cap); params[1]: a salt, so that the two seats choose differently.
    """
    h = np.uint64(params[1] * 1000.0)
    for f in range(OBS_SIZE):
        h = mix64_nb(h ^ np.uint64(obs[f] + 7))
    if obs[PHASE] == SOURCE:
        u = (h >> np.uint64(11)) * (1.0 / 9007199254740992.0)
        return np.int64(1) if u < params[0] else np.int64(0)
    n = np.uint64(4) if obs[FROM_DISCARD] == 1 else np.uint64(5)  # a pile card must go into a slot
    return np.int64(((h >> np.uint64(32)) * n) >> np.uint64(32))


class Digest:
    def __init__(self, discard_rate: float, salt: int, forget: float = 0.0, slip: float = 0.0) -> None:
        self.name = f"digest({discard_rate}, {salt}, forget={forget}, slip={slip})"
        self.params = np.zeros(PARAM_ROW)
        self.params[:2] = discard_rate, salt
        self.params[FORGET_AT], self.params[SLIP_AT] = forget, slip
        self.decide = digest_nb


@pytest.fixture(scope="module")
def digest_trace() -> Callable:
    return specialised_kernel(kernel, [digest_nb]).trace_round_nb


@pytest.mark.parametrize("rates", [(0.5, 0.5), (0.1, 0.8), (0.99, 0.97)], ids=["even", "uneven", "capped"])
def test_kernel_fills_every_observation_field_like_the_reference(
    digest_trace: Callable, rates: tuple[float, float]
) -> None:
    players = (Digest(rates[0], 1), Digest(rates[1], 2))
    n_capped = 0
    for i, (rules, dealer, match_play) in enumerate(itertools.product(JACKS, (0, 1), (False, True))):
        for seed, game, deal in CASES[i::4]:
            rec = assert_same_round(
                players,
                (0, 0),
                rules,
                seed=seed,
                game=game,
                deal=deal,
                dealer=dealer,
                match_play=match_play,
                trace=digest_trace,
            )
            n_capped += rec.capped
            assert any(t.source == Source.DISCARD_PILE for t in rec.turns)
    if rates[0] > 0.9:
        assert n_capped > 0  # the cap is compared too


@pytest.mark.parametrize(
    ("rates", "human"),
    [
        ((0.5, 0.5), ((0.3, 0.0), (0.0, 0.2))),
        ((0.3, 0.6), ((1.0, 0.1), (0.5, 0.5))),
        ((0.5, 0.4), ((1.0, 1.0), (0.1, 0.0))),
    ],
    ids=["forget-slip", "forget-all", "slip-all"],
)
def test_a_player_that_forgets_and_slips_sees_every_field_as_in_the_reference(
    digest_trace: Callable, rates: tuple[float, float], human: tuple[tuple[float, float], ...]
) -> None:
    """Forgetting changes the observation (own slots, the opponent's public slots, the unseen
    counts, HIGH...): the digest would part ways at the first field the kernel forgets
    differently."""
    players = (Digest(rates[0], 1, *human[0]), Digest(rates[1], 2, *human[1]))
    plain = (Digest(rates[0], 1), Digest(rates[1], 2))
    differs = 0
    for i, (rules, dealer, match_play) in enumerate(itertools.product(JACKS, (0, 1), (False, True))):
        for seed, game, deal in CASES[i::4]:
            kw = {"seed": seed, "game": game, "deal": deal, "dealer": dealer, "match_play": match_play}
            rec = assert_same_round(players, (0, 0), rules, trace=digest_trace, **kw)
            base = play_round(
                rules, plain, seed=seed, game=game, deal=deal, dealer=dealer, match_play=match_play
            )
            differs += reference_rows(rec) != reference_rows(base)
    assert differs > 0  # forgetting and slips changed the games: the comparison is not of plain play


# --- every shipped strategy, forgetting and slipping --------------------------------

HUMAN = ("forget=0.2", "slip=0.15", "forget=0.5,slip=0.3", "forget=1", "slip=1", "forget=1,slip=1")
KERNEL_SPECS = (
    "passive",
    "random",
    "threshold:k=4",
    "threshold:k=0",
    "expect",
    "expect:k=2,patience=0.5,pile=1,open=41",
)
OPPONENTS = ("threshold:k=4", "expect:forget=0.1,slip=0.05")


def with_human(spec: str, human: str) -> Player:
    return parse_spec(f"{spec}{',' if ':' in spec else ':'}{human}", "spokelse")


@pytest.mark.parametrize("human", HUMAN)
@pytest.mark.parametrize("spec", KERNEL_SPECS)
def test_a_human_player_plays_the_reference_game(spec: str, human: str) -> None:
    """Move by move, in both seats, against a plain and a human opponent."""
    me = with_human(spec, human)
    differs = 0
    for opp_spec in OPPONENTS:
        opp = parse_spec(opp_spec, "spokelse")
        for players in ((me, opp), (opp, me)):
            sids = (sid_of(players[0]), sid_of(players[1]))
            for i, (rules, dealer, match_play) in enumerate(itertools.product(JACKS, (0, 1), (False, True))):
                for seed, game, deal in CASES[i % 3 :: 3]:
                    kw = {
                        "seed": seed,
                        "game": game,
                        "deal": deal,
                        "dealer": dealer,
                        "match_play": match_play,
                    }
                    rec = assert_same_round(players, sids, rules, **kw)
                    plain = tuple(p.plain if p is me else p for p in players)
                    base = play_round(rules, plain, seed=seed, game=game, deal=deal, dealer=dealer,
                                      match_play=match_play)  # fmt: skip
                    differs += reference_rows(rec) != reference_rows(base)
    # passive reads nothing and draws nothing, so forgetting alone leaves its games as they were
    if spec == "passive" and "slip" not in human:
        assert differs == 0
    else:
        assert differs > 0


@pytest.fixture(scope="module")
def search_trace() -> Callable:
    return specialised_kernel(kernel, [search_nb, expect_nb]).trace_round_nb


@pytest.mark.parametrize("human", ["forget=0.3", "slip=0.2", "forget=1,slip=0.1"])
def test_search_forgetting_and_slipping_plays_the_reference_game(search_trace: Callable, human: str) -> None:
    """search samples its worlds from the observation, forgotten discards under the pile."""
    me = with_human("search:samples=4", human)
    opp = parse_spec("expect:forget=0.2", "spokelse")
    for players, sids in (((me, opp), (0, 1)), ((opp, me), (1, 0))):
        for seed, game, deal in CASES[::6]:
            for match_play in (False, True):
                assert_same_round(players, sids, Rules(), seed=seed, game=game, deal=deal, dealer=1,
                                  match_play=match_play, trace=search_trace)  # fmt: skip


# A later copy of a strategy in a comparison draws from a DECIDE stream of its own (its copy
# salt, docs/random-streams.md): (spec, salt) of each seat.
SALTED = (
    (("random", 1), ("random", 0)),
    (("random", 2), ("random", 1)),
    (("expect:slip=0.1,forget=0.1", 3), ("threshold:k=4,slip=0.2", 0)),
    (("search:samples=4,slip=0.1", 1), ("expect", 0)),
)


@pytest.mark.parametrize("seats", SALTED, ids=lambda s: f"{s[0][0]}#{s[0][1]}-{s[1][0]}#{s[1][1]}")
def test_a_salted_copy_plays_the_reference_game(search_trace: Callable, seats) -> None:
    """Move by move, in both seats; and a salt changes the games (the same seats unsalted
    play otherwise), so the salt is applied, by both, rather than ignored by both."""
    me, opp = (parse_spec(spec, "spokelse").copy_number(salt) for spec, salt in seats)
    search = me.family.builtin_id is None
    differs = 0
    for players in ((me, opp), (opp, me)):
        sids = tuple(int(p is opp) if search else sid_of(p) for p in players)
        for i, (rules, dealer, match_play) in enumerate(itertools.product(JACKS, (0, 1), (False, True))):
            for seed, game, deal in CASES[i % 3 :: 6 if search else 3]:
                kw = {"seed": seed, "game": game, "deal": deal, "dealer": dealer, "match_play": match_play}
                trace = search_trace if search else kernel.trace_round_nb
                rec = assert_same_round(players, sids, rules, trace=trace, **kw)
                unsalted = tuple(p.copy_number(0) for p in players)
                base = play_round(rules, unsalted, seed=seed, game=game, deal=deal, dealer=dealer,
                                  match_play=match_play)  # fmt: skip
                differs += reference_rows(rec) != reference_rows(base)
    assert differs > 0
