"""The compiled Gris-nese kernel plays exactly the reference's games, move by move.

Both sides draw from the same random streams (docs/random-streams.md) and call
the same compiled strategy functions, so for every seeded deal the kernel's
log of cards laid down must equal the reference's events, and the passes, the
stalled and replayed flags, the signallers, the loser and the touch times must
match.  A strategy reacts only to the fields it reads, so a last test plays a
*digest* strategy whose every choice depends on all OBS_SIZE fields of its
observation (and which writes its MEMORY): any field the kernel fills
differently from the reference changes the game from there on.  Players that forget
and slip (docs/human-players.md) are compared the same way, the digest among them: it
reads every count of the history, so a card forgotten on one side only shows.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Sequence

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from numba import njit

from simulator.engine.reaction import DEFAULT_MEDIAN, DEFAULT_SIGMA, profile_arrays
from simulator.engine.rng import mix64_nb
from simulator.games.gris_nese import kernel
from simulator.games.gris_nese.observation import GROUP_COUNT, HAND, HAND_SIZE, MEMORY, N_PLAYERS, OBS_SIZE
from simulator.games.gris_nese.reference import RoundRecord, play_match, play_round
from simulator.games.gris_nese.rules import CARD_GROUP, ERR_SIZE, LOG_FIELDS, MAX_SEATS, workspace_nb
from simulator.games.gris_nese.variants import STALL_CAP, Rules
from simulator.kernels.specialise import specialised_kernel
from strategies import FORGET_AT, PARAM_ROW, SLIP_AT, Player, families, parse_spec

GAME = "gris-nese"
FAMILIES = families(GAME)
# Every shipped strategy; commit at the brief's three lock points; follow at its defaults,
# following hard, only sticking, and neither (greedy's target by another route).
SPECS = {
    "random": {},
    "greedy": {},
    "commit:after=0": {"after": 0},
    "commit:after=1": {"after": 1},
    "commit:after=3": {"after": 3},
    "follow": {},
    "follow:follow=2,stick=0": {"follow": 2, "stick": 0},
    "follow:follow=0,stick=1.5": {"follow": 0, "stick": 1.5},
    "follow:follow=0.25,stick=0.25": {"follow": 0.25, "stick": 0.25},
    # Human-like players (docs/human-players.md): every strategy forgetting and slipping,
    # each alone and both, up to forget=1 (every card of the history, every turn) and slip=1.
    "random:forget=0.5": {"forget": 0.5},
    "random:slip=0.4": {"slip": 0.4},
    "greedy:forget=0.3,slip=0.1": {"forget": 0.3, "slip": 0.1},
    "greedy:slip=1": {"slip": 1},
    "commit:after=1,forget=0.5,slip=0.2": {"after": 1, "forget": 0.5, "slip": 0.2},
    "commit:after=3,forget=1": {"after": 3, "forget": 1},
    "follow:forget=0.2": {"forget": 0.2},
    "follow:forget=1,slip=0.05": {"forget": 1, "slip": 0.05},
    "follow:follow=2,stick=0,forget=0.6,slip=0.3": {"follow": 2, "stick": 0, "forget": 0.6, "slip": 0.3},
}
PLAYERS = {spec: FAMILIES[spec.partition(":")[0]].player(**values) for spec, values in SPECS.items()}
MARGINS = (0.0, 0.05, 0.3)
DEFAULT = (DEFAULT_MEDIAN, DEFAULT_SIGMA)


def sid_of(player: Player) -> int:
    sid = player.family.builtin_id
    assert sid is not None
    return sid


def test_every_shipped_strategy_is_compared() -> None:
    # Other test modules register user strategies in the same process: only shipped ones count.
    shipped = {name: f for name, f in families(GAME).items() if f.builtin_id is not None}
    assert {p.family.name for p in PLAYERS.values()} == set(shipped)
    assert {p.family.name for p in PLAYERS.values() if p.forget > 0} == set(shipped)
    assert {p.family.name for p in PLAYERS.values() if p.slip > 0} == set(shipped)
    assert all(parse_spec(spec, GAME) == p for spec, p in PLAYERS.items())  # each is what its name says
    assert sorted(f.builtin_id for f in shipped.values()) == list(range(len(shipped)))


def rules_arrays(
    n: int, rules: Rules, profiles: Sequence[tuple[float, float]], stall_cap: int
) -> tuple[np.ndarray, np.ndarray]:
    rules_i = np.array([n, stall_cap], np.int64)
    rules_f = np.concatenate([[rules.unclear_margin], profile_arrays(profiles)]).astype(np.float64)
    return rules_i, rules_f


def assert_same_round(
    players: Sequence,
    sids: Sequence[int],
    rules: Rules,
    *,
    seed: int,
    game: int,
    deal: int,
    seats: Sequence[int] | None = None,
    profiles: Sequence[tuple[float, float]] | None = None,
    stall_cap: int = STALL_CAP,
    trace: Callable = kernel.trace_round_nb,
) -> RoundRecord:
    n = len(players)
    ring = list(range(n)) if seats is None else list(seats)
    m = len(ring)
    profs = [DEFAULT] * n if profiles is None else list(profiles)
    rec = play_round(
        rules, players, seed=seed, game=game, deal=deal, seats=ring, profiles=profs, stall_cap=stall_cap
    )
    rules_i, rules_f = rules_arrays(n, rules, profs, stall_cap)
    log = np.full((len(rec.events) + 2 * m, LOG_FIELDS), -7, np.int64)
    times = np.full(m, -7.0)
    signallers = np.full(m, -7, np.int64)
    n_events, passes, stalled, replayed, loser = trace(
        np.array(sids, np.int64),
        np.stack([p.params for p in players]).astype(np.float64),
        rules_i,
        rules_f,
        seed,
        game,
        deal,
        np.array(ring, np.int64),
        log,
        times,
        signallers,
    )
    where = (
        f"seed={seed} game={game} deal={deal} seats={ring} players={[p.name for p in players]} "
        f"margin={rules.unclear_margin} stall_cap={stall_cap} profiles={profs}"
    )
    rows = [tuple(int(x) for x in row) for row in log[: min(n_events, log.shape[0])]]
    for k, (mine, ref) in enumerate(zip(rows, rec.events, strict=False)):  # lengths compared next
        assert mine == ref, f"{where}: event {k} differs: kernel {mine}, reference {ref}"
    assert n_events == len(rec.events), f"{where}: kernel {n_events} events, reference {len(rec.events)}"
    assert (log[n_events:] == -7).all(), where  # nothing logged past the last event
    assert passes == rec.passes, where
    assert bool(stalled) == rec.stalled, where
    assert bool(replayed) == rec.replayed, where
    assert loser == rec.loser, where
    if not rec.stalled:
        assert tuple(s for s, flag in zip(ring, signallers, strict=True) if flag) == rec.signallers, where
        assert set(signallers.tolist()) <= {0, 1}, where
        for i, (mine, ref) in enumerate(zip(times, rec.times, strict=True)):
            assert math.isclose(mine, ref, rel_tol=1e-12, abs_tol=0.0), f"{where}: time {i}: {mine} vs {ref}"
    return rec


def cases(n_cases: int, salt: int) -> list[tuple[int, int, int]]:
    """(seed, game, deal): small and huge seeds, game indices far apart, deals of a match."""
    seeds = [0, 1, 2, 7, 42, 2024, 65535, 2**31 - 1, 2**40 + 3, 2**63 - 1, 31337, 271828]
    return [
        (seeds[(i + salt) % len(seeds)], (salt * 7919 + 104729 * i) % 1_000_003, (i + salt) % 5)
        for i in range(n_cases)
    ]


# --- whole tables of one strategy ------------------------------------------------------------


@pytest.mark.parametrize("spec", list(SPECS))
@pytest.mark.parametrize("n", range(3, 9))
def test_kernel_plays_the_reference_game(spec: str, n: int) -> None:
    players = [PLAYERS[spec]] * n
    sids = [sid_of(p) for p in players]
    outcomes = set()
    for k, (seed, game, deal) in enumerate(cases(12, n)):
        rules = Rules(MARGINS[k % 3])
        rec = assert_same_round(players, sids, rules, seed=seed, game=game, deal=deal)
        outcomes.add("replayed" if rec.replayed else "passes" if rec.passes else "dealt")
    assert "passes" in outcomes  # the comparison is not vacuous


# --- mixed tables, remaining seats, margins, reaction profiles ---------------------------------


def test_the_briefs_table_seats_0_2_3_5_of_six() -> None:
    specs = ["greedy", "random", "commit:after=1", "follow", "commit:after=0", "follow:follow=2,stick=0"]
    players = [PLAYERS[s] for s in specs]
    sids = [sid_of(p) for p in players]
    replays = 0
    for margin, (seed, game, deal) in itertools.product(MARGINS, cases(12, 3)):
        rec = assert_same_round(
            players, sids, Rules(margin), seed=seed, game=game, deal=deal, seats=[0, 2, 3, 5]
        )
        assert rec.seats == (0, 2, 3, 5) and len(rec.groups) == 4
        replays += rec.replayed
    assert replays > 0


@settings(max_examples=300, deadline=None, derandomize=True)
@given(
    n=st.integers(3, 8),
    data=st.data(),
    seed=st.integers(0, 2**63 - 1),
    game=st.integers(0, 2**40),
    deal=st.integers(0, 255),
    margin=st.sampled_from(MARGINS),
    profiled=st.booleans(),
)
def test_kernel_plays_the_reference_game_at_mixed_tables(
    n: int, data: st.DataObject, seed: int, game: int, deal: int, margin: float, profiled: bool
) -> None:
    specs = data.draw(st.lists(st.sampled_from(list(SPECS)), min_size=n, max_size=n), label="specs")
    seats = sorted(data.draw(st.sets(st.integers(0, n - 1), min_size=3, max_size=n), label="seats"))
    profiles = None
    if profiled:
        medians = data.draw(st.lists(st.floats(0.05, 3.0), min_size=n, max_size=n), label="medians")
        sigmas = data.draw(st.lists(st.floats(0.0, 1.0), min_size=n, max_size=n), label="sigmas")
        profiles = list(zip(medians, sigmas, strict=True))
    players = [PLAYERS[s] for s in specs]
    assert_same_round(
        players,
        [sid_of(p) for p in players],
        Rules(margin),
        seed=seed,
        game=game,
        deal=deal,
        seats=seats,
        profiles=profiles,
    )


def test_exact_ties_and_everybody_at_once() -> None:
    """Sigma 0 makes every reaction exactly its median: ties go to the lowest position on both sides."""
    players = [PLAYERS["greedy"]] * 5
    sids = [sid_of(p) for p in players]
    flat = [(1.0, 0.0)] * 5
    alls = 0
    for seed, game, deal in cases(40, 9):
        rec = assert_same_round(
            players, sids, Rules(), seed=seed, game=game, deal=deal, seats=[1, 2, 4], profiles=flat
        )
        alls += len(rec.signallers) == 3
        if len(rec.signallers) == 3:
            assert rec.loser == 1  # three equal touches: the lowest position loses
    assert alls > 0


def test_stalls_agree_with_a_low_stall_cap() -> None:
    players = [PLAYERS[s] for s in ("random", "greedy", "commit:after=0", "follow", "random", "greedy")]
    sids = [sid_of(p) for p in players]
    stalled = 0
    for cap, (seed, game, deal) in itertools.product((0, 1, 3), cases(12, 5)):
        rec = assert_same_round(players, sids, Rules(0.05), seed=seed, game=game, deal=deal, stall_cap=cap)
        stalled += rec.stalled
        if rec.stalled:
            assert rec.passes == cap
    assert stalled > 0


# --- whole matches --------------------------------------------------------------------------------


def kernel_match(
    players: Sequence[Player],
    rules: Rules,
    profiles: Sequence[tuple[float, float]],
    seed: int,
    game: int,
    cap: int,
) -> tuple[int, int, int, int, int, tuple[int, ...]]:
    n = len(players)
    _, rules_f = rules_arrays(n, rules, profiles, cap)
    places = np.zeros(MAX_SEATS, np.int64)
    err = np.zeros(ERR_SIZE, np.int64)
    out = kernel.play_match_nb(
        np.array([sid_of(p) for p in players], np.int64),
        np.stack([p.params for p in players]).astype(np.float64),
        n,
        cap,
        rules.unclear_margin,
        rules_f[1 : 1 + n],
        rules_f[1 + n :],
        seed,
        game,
        workspace_nb(),
        err,
        places,
    )
    assert err[0] == 0
    return (*(int(x) for x in out), tuple(int(p) for p in places[:n]))


@pytest.mark.parametrize("n", range(3, 9))
def test_kernel_matches_end_like_the_reference(n: int) -> None:
    specs = list(SPECS)
    players = [PLAYERS[specs[(s * 5 + n) % len(specs)]] for s in range(n)]
    profiles = [(0.5 + 0.1 * s, 0.2 + 0.05 * s) for s in range(n)]
    for game, margin, cap in itertools.product(range(4), MARGINS, (STALL_CAP, 2)):
        rec = play_match(Rules(margin), players, seed=n, game=game, profiles=profiles, stall_cap=cap)
        abandoned, rounds, stalled, replayed, deals, places = kernel_match(
            players, Rules(margin), profiles, n, game, cap
        )
        where = f"n={n} game={game} margin={margin} cap={cap}"
        assert bool(abandoned) == rec.abandoned, where
        assert rounds == rec.counted_rounds, where
        assert stalled == sum(r.stalled for r in rec.rounds), where
        assert replayed == sum(r.replayed for r in rec.rounds), where
        assert deals == len(rec.rounds), where
        if not rec.abandoned:
            assert places == rec.places, where


# --- every observation field --------------------------------------------------------------------


@njit
def digest_nb(obs, params, rng):
    """A legal card that depends on every field of ``obs``; it also writes its MEMORY.

    params[0]: how often it lays the lowest card of the group it holds least (else a hashed
    card), so that rounds end; params[1]: a salt, so that seats choose differently.
    """
    h = np.uint64(params[1] * 1000.0)
    for f in range(OBS_SIZE):
        h = mix64_nb(h ^ np.uint64(obs[f] + 7))
    obs[MEMORY + np.int64(h & np.uint64(3))] = np.int64((h >> np.uint64(8)) & np.uint64(255))
    if (h >> np.uint64(11)) * (1.0 / 9007199254740992.0) < params[0]:
        least = HAND_SIZE + 1
        for g in range(obs[N_PLAYERS]):
            k = obs[GROUP_COUNT + g]
            if 0 < k < least:
                least = k
        for i in range(HAND_SIZE):
            c = obs[HAND + i]
            if obs[GROUP_COUNT + CARD_GROUP[c]] == least:
                return c
    return obs[HAND + np.int64((h >> np.uint64(32)) & np.uint64(3))]


class Digest:
    def __init__(self, lean: float, salt: int, forget: float = 0.0, slip: float = 0.0) -> None:
        self.name = f"digest({lean}, {salt}, forget={forget}, slip={slip})"
        self.params = np.zeros(PARAM_ROW)
        self.params[:2] = lean, salt
        self.params[FORGET_AT], self.params[SLIP_AT] = forget, slip
        self.decide = digest_nb


@pytest.fixture(scope="module")
def digest_trace() -> Callable:
    return specialised_kernel(kernel, [digest_nb]).trace_round_nb


# (lean, forget, slip): plain, then forgetting (every field of the history it keeps counts),
# slipping, both, and forgetting everything at every turn.
DIGESTS = [
    (0.5, 0.0, 0.0),
    (0.9, 0.0, 0.0),
    (0.9, 0.4, 0.0),
    (0.5, 0.0, 0.3),
    (0.9, 0.25, 0.2),
    (0.9, 1.0, 0.0),
]


@pytest.mark.parametrize(("lean", "forget", "slip"), DIGESTS)
def test_kernel_fills_every_observation_field_like_the_reference(
    digest_trace: Callable, lean: float, forget: float, slip: float
) -> None:
    passes = 0
    for n in range(3, 9):
        # Seat 1 stays plain: at a table of forgetful players a plain one draws nothing extra.
        players = [Digest(lean, s + 1, *((0.0, 0.0) if s == 1 else (forget, slip))) for s in range(n)]
        seats = [s for s in range(n) if n < 6 or s % 3 != 1]
        for k, (seed, game, deal) in enumerate(cases(4, n)):
            rec = assert_same_round(
                players,
                [0] * n,
                Rules(MARGINS[k % 3]),
                seed=seed,
                game=game,
                deal=deal,
                seats=seats,
                trace=digest_trace,
            )
            passes += rec.passes
    assert passes > 50


# --- a later copy of a strategy in a comparison (its copy salt, docs/random-streams.md) --------


@pytest.mark.parametrize("n", range(3, 9))
def test_kernel_plays_the_reference_game_with_salted_seats(n: int) -> None:
    """Copies of one strategy with salts 0, 1, 2... (plain, slipping and forgetting) at the
    full table and at remaining seats, and in whole matches; the salts change the games."""
    changed = 0
    for k, spec in enumerate(("random", "greedy:slip=0.3", "commit:after=1,forget=0.4,slip=0.1")):
        players = [parse_spec(spec, GAME).copy_number(s % 3) for s in range(n)]
        sids = [sid_of(p) for p in players]
        unsalted = [p.copy_number(0) for p in players]
        for j, (seed, game, deal) in enumerate(cases(6, n + k)):
            seats = list(range(n)) if j % 2 or n == 3 else [s for s in range(n) if s != j % n]
            where = dict(seed=seed, game=game, deal=deal, seats=seats)
            rec = assert_same_round(players, sids, Rules(MARGINS[j % 3]), **where)
            before = play_round(Rules(MARGINS[j % 3]), unsalted, **where, profiles=[DEFAULT] * n)
            changed += rec.events != before.events
        profiles = [DEFAULT] * n
        for game in range(2):
            rec = play_match(Rules(), players, seed=n, game=game, profiles=profiles)
            abandoned, rounds, _, _, deals, places = kernel_match(
                players, Rules(), profiles, n, game, STALL_CAP
            )
            assert (bool(abandoned), rounds, deals) == (rec.abandoned, rec.counted_rounds, len(rec.rounds))
            if not rec.abandoned:
                assert places == rec.places
    assert changed > 0
