"""The compiled Gris kernel plays exactly the reference's rounds, move by move.

Both sides draw from the same random streams (docs/random-streams.md) and call
the same compiled strategy functions, so for every seeded round the kernel's
event log must equal the reference's list of events (every pass, every
circulation exchange, in order), and the passes, the stalled flag, the
signallers, the touch times and the loser must match.  Strategies react only to
the fields they read, so a last test plays a *digest* strategy whose every
choice depends on all OBS_SIZE fields of its observation: any field the kernel
fills differently from the reference changes the game from there on.

Players who forget and slip (docs/human-players.md) are compared the same way: their
slips, their forgetting and the claims they no longer make draw from the seat's stream in
both engines, so every event must still match; the digest strategy sees the forgotten
history counts.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from numba import njit

from simulator.engine.reaction import DEFAULT_MEDIAN, DEFAULT_SIGMA, profile_arrays
from simulator.engine.rng import mix64_nb
from simulator.games.gris import kernel
from simulator.games.gris.observation import HAND, INCOMING, MAX_HAND, MEMORY, N_MEMORY, OBS_SIZE
from simulator.games.gris.reference import EXCHANGE, PASS, RoundRecord, deal_cards, play_round, shuffle_deck
from simulator.games.gris.variants import STALL_CAP, Rules
from simulator.kernels.specialise import specialised_kernel
from strategies import FORGET_AT, PARAM_ROW, SLIP_AT, Player, SpecError, families

SEAT_COUNTS = (2, 3, 4, 5, 7, 10)
VARIANTS = (Rules("straight"), Rules("always"), Rules("off"))


def shipped_players() -> dict[str, Player]:
    """Every shipped Gris strategy: `commit` with after in {0, 1, 3} and a large after, every
    other family with its defaults and, if it has parameters, at both ends of their ranges."""
    out: dict[str, Player] = {}
    for name, fam in sorted(families("gris").items(), key=lambda kv: kv[1].builtin_id or 0):
        if fam.builtin_id is None:
            continue  # a user's strategy registered by another test: not in the kernel's dispatcher
        if name == "commit":
            for after in (0, 1, 3, 50):
                out[f"commit:after={after}"] = fam.player(after=after)
            continue
        out[fam.player().spec] = fam.player()
        for end in ("low", "high"):
            try:
                p = fam.player(**{q.name: getattr(q, end) for q in fam.params})
            except SpecError:
                continue
            out.setdefault(p.spec, p)
    return out


PLAYERS = shipped_players()
SPECS = tuple(PLAYERS)
STEADY = tuple(s for s in SPECS if s != "random")  # rounds of tens of passes, not hundreds


# (forget, slip) pairs for the human players: each alone, both, and each at its end.
HUMAN = ((0.15, 0.0), (0.0, 0.15), (0.4, 0.25), (1.0, 0.0), (0.0, 1.0), (0.05, 0.6))


def human(player: Player, forget: float, slip: float) -> Player:
    """``player``'s strategy with its parameters, forgetting and slipping."""
    return Player(player.family, player.values, forget, slip)


def test_every_required_strategy_is_compared() -> None:
    assert {"random", "greedy", "commit:after=0", "commit:after=1", "commit:after=3"} <= set(SPECS)
    ids = {p.family.builtin_id for p in PLAYERS.values()}
    assert ids == set(range(len(ids)))  # every builtin id of the dispatcher, none skipped


def kernel_round(
    trace: Callable,
    players: Sequence,
    sids: Sequence[int],
    rules: Rules,
    *,
    seed: int,
    game: int,
    deal: int,
    dealer: int,
    profiles: Sequence[tuple[float, float]],
    stall_cap: int,
) -> tuple[list[tuple[int, ...]], int, bool, int, np.ndarray, tuple[int, ...]]:
    """The kernel's round: its events, passes, stalled flag, loser, touch times and signallers."""
    n = len(players)
    log = np.full((2 * stall_cap + 2, 4), -7, np.int64)  # at most one exchange per pass
    times = np.full(n, -7.0)
    signallers = np.full(n, -7, np.int64)
    n_events, passes, stalled, loser = trace(
        np.array(sids, np.int64),
        np.stack([np.asarray(p.params, np.float64) for p in players]),
        np.array([n, rules.circulation_code, stall_cap], np.int64),
        profile_arrays(profiles),
        seed,
        game,
        deal,
        dealer,
        log,
        times,
        signallers,
    )
    assert stalled in (0, 1), "the kernel refused a card the reference accepted"
    assert (log[n_events:] == -7).all()  # nothing logged past the last event
    assert set(signallers.tolist()) <= {0, 1}
    events = [tuple(int(x) for x in row) for row in log[:n_events]]
    return (
        events,
        int(passes),
        bool(stalled),
        int(loser),
        times,
        tuple(int(s) for s in np.flatnonzero(signallers)),
    )


def assert_same_round(
    players: Sequence,
    rules: Rules,
    *,
    seed: int,
    game: int,
    deal: int,
    dealer: int,
    profiles: Sequence[tuple[float, float]] | None = None,
    stall_cap: int = STALL_CAP,
    trace: Callable = kernel.trace_round_nb,
    sids: Sequence[int] | None = None,
) -> RoundRecord:
    n = len(players)
    prof = tuple(profiles) if profiles is not None else ((DEFAULT_MEDIAN, DEFAULT_SIGMA),) * n
    sids = [p.family.builtin_id for p in players] if sids is None else sids
    rec = play_round(
        rules, players, seed=seed, game=game, deal=deal, dealer=dealer, profiles=profiles, stall_cap=stall_cap
    )
    events, passes, stalled, loser, times, signallers = kernel_round(
        trace,
        players,
        sids,
        rules,
        seed=seed,
        game=game,
        deal=deal,
        dealer=dealer,
        profiles=prof,
        stall_cap=stall_cap,
    )
    where = (
        f"n={n} {[p.name for p in players]} circulation={rules.circulation} seed={seed} game={game} "
        f"deal={deal} dealer={dealer} stall_cap={stall_cap}"
    )
    expected = [tuple(e) for e in rec.events]
    for k, (mine, ref) in enumerate(zip(events, expected, strict=False)):  # the lengths are compared next
        # (kind, seat, card, other): kind 0 = pass to `other`, kind 1 = exchange drawing `other`
        assert mine == ref, f"{where}: event {k} differs: kernel {mine}, reference {ref}"
    assert len(events) == len(expected), f"{where}: kernel {len(events)} events, reference {len(expected)}"
    assert passes == rec.passes, where
    assert stalled == rec.stalled, where
    assert loser == rec.loser, where
    assert signallers == rec.signallers, where
    if rec.stalled:
        assert np.isnan(times).all(), where
    else:
        np.testing.assert_allclose(times, rec.times, rtol=1e-12, atol=0, err_msg=where)
    return rec


def mixed_tables(n: int, count: int, salt: int) -> list[tuple[str, ...]]:
    """``count`` tables of ``n`` seats mixing the shipped strategies (every spec in some seat)."""
    tables = []
    for t in range(count):
        tables.append(tuple(SPECS[(salt + t * 5 + s * (t + 1)) % len(SPECS)] for s in range(n)))
    return tables


@pytest.mark.parametrize("rules", VARIANTS, ids=lambda r: r.circulation)
@pytest.mark.parametrize("n", SEAT_COUNTS)
def test_kernel_plays_the_reference_round(n: int, rules: Rules) -> None:
    dealers = sorted({0, n // 2, n - 1})
    # With `off` nothing ever leaves the hands, and greedy tables often lock into a cycle that
    # only the stall guard ends; a lower cap keeps those rounds short (the full cap is compared
    # in test_kernel_stalls_at_the_full_cap_where_the_reference_stalls).
    cap = 1_000 if rules.circulation == "off" else STALL_CAP
    exchanges = 0
    seen: set[str] = set()
    # Every strategy alone at the table, several dealers, seeds, games and deals.
    for spec in SPECS:
        rounds = 2 if spec == "random" else 5
        for dealer, i in itertools.product(dealers, range(rounds)):
            seed = (977 * i + 31 * n + dealer) * 2654435761 % 2**63
            rec = assert_same_round(
                [PLAYERS[spec]] * n,
                rules,
                seed=seed,
                game=13 * i + n,
                deal=(i + dealer) % 4,
                dealer=dealer,
                stall_cap=cap,
            )
            exchanges += sum(e.kind == EXCHANGE for e in rec.events)
        seen.add(spec)
    # Mixed tables, each seat with its own reaction profile.
    for t, table in enumerate(mixed_tables(n, 8, n)):
        profiles = [(0.3 + 0.2 * ((s + t) % 5), 0.1 * ((s * t) % 6)) for s in range(n)]
        rec = assert_same_round(
            [PLAYERS[s] for s in table],
            rules,
            seed=2**40 + 7 * t,
            game=1000 + t,
            deal=t % 3,
            dealer=t % n,
            profiles=profiles,
            stall_cap=cap,
        )
        exchanges += sum(e.kind == EXCHANGE for e in rec.events)
        seen.update(table)
    assert seen == set(SPECS)
    # The comparison is not vacuous: circulation exchanges happened unless they are off.
    assert (exchanges > 0) == (rules.circulation != "off")


@settings(max_examples=80, deadline=None, derandomize=True)
@given(
    n=st.sampled_from(SEAT_COUNTS),
    table=st.lists(st.sampled_from(STEADY), min_size=10, max_size=10),
    rules=st.sampled_from(VARIANTS),
    seed=st.integers(0, 2**63 - 1),
    game=st.integers(0, 2**40),
    deal=st.integers(0, 500),
    dealer_at=st.floats(0, 1, exclude_max=True),
    profiles=st.lists(st.tuples(st.floats(0.05, 5.0), st.floats(0.0, 1.5)), min_size=10, max_size=10),
)
def test_kernel_plays_the_reference_round_anywhere(
    n: int,
    table: list[str],
    rules: Rules,
    seed: int,
    game: int,
    deal: int,
    dealer_at: float,
    profiles: list[tuple[float, float]],
) -> None:
    """Random seeds, games, deals, dealers, tables and reaction profiles."""
    assert_same_round(
        [PLAYERS[s] for s in table[:n]],
        rules,
        seed=seed,
        game=game,
        deal=deal,
        dealer=int(dealer_at * n),
        profiles=profiles[:n],
    )


@pytest.mark.parametrize("rules", VARIANTS, ids=lambda r: r.circulation)
def test_kernel_stalls_where_the_reference_stalls(rules: Rules) -> None:
    """A small stall cap: stalled rounds (no letter, no times) and rounds that just finish."""
    stalled = finished = 0
    for n, cap in itertools.product((2, 4, 10), (1, 7, 40)):
        for i in range(6):
            table = [PLAYERS[s] for s in mixed_tables(n, 6, i)[i]]
            rec = assert_same_round(
                table, rules, seed=555 + i, game=i * n, deal=i, dealer=(i * 3) % n, stall_cap=cap
            )
            stalled += rec.stalled
            finished += not rec.stalled and rec.passes > 0
            assert rec.passes <= cap
    assert stalled > 0 and finished > 0


def test_kernel_stalls_at_the_full_cap_where_the_reference_stalls() -> None:
    """Greedy at two seats with `off` locks into a cycle: stalled after exactly STALL_CAP passes."""
    stalled = 0
    for game in range(4):
        rec = assert_same_round([PLAYERS["greedy"]] * 2, Rules("off"), seed=11, game=game, deal=0, dealer=1)
        stalled += rec.stalled
        assert rec.passes == STALL_CAP or not rec.stalled
    assert stalled > 0


def find_deals(
    n: int, want: Callable[[list[list[int]], int], bool], count: int
) -> list[tuple[int, int, int]]:
    """The first ``count`` (game, deal, dealer) with seed 7 whose deal satisfies ``want(hands, six)``."""
    found = []
    for game in itertools.count():
        dealer = game % n
        table = deal_cards(Rules(), shuffle_deck(7, game, 0), n, dealer)
        if want(table.hands, table.to_play):
            found.append((game, 0, dealer))
            if len(found) == count:
                return found
    return found  # not reached


def one_suit(hand: list[int]) -> bool:
    return len({c // 13 for c in hand}) == 1


@pytest.mark.parametrize("n", [4, 10])
def test_kernel_agrees_on_signals_at_the_deal_and_after_the_first_pass(n: int) -> None:
    dealt = find_deals(n, lambda hands, six: any(len(h) == 5 and one_suit(h) for h in hands), 4)
    six_five = find_deals(
        n, lambda hands, six: max(sum(c // 13 == s for c in hands[six]) for s in range(4)) >= 5, 4
    )
    for rules, (game, deal, dealer) in itertools.product(VARIANTS, dealt):
        rec = assert_same_round([PLAYERS["greedy"]] * n, rules, seed=7, game=game, deal=deal, dealer=dealer)
        assert rec.passes == 0 and rec.events == [] and rec.signallers
    for rules, (game, deal, dealer) in itertools.product(VARIANTS, six_five):
        rec = assert_same_round([PLAYERS["greedy"]] * n, rules, seed=7, game=game, deal=deal, dealer=dealer)
        if not any(len(h) == 5 and one_suit(list(h)) for h in rec.hands_dealt):
            assert rec.passes == 1 and rec.signallers == (rec.six_seat,)


# Known rounds in which the signalling pass brings a card home to its owner, who exchanges it
# (variant `always`): the pass is complete, and the card has arrived, before the thumb goes down.
def test_kernel_agrees_when_the_signalling_pass_brings_a_card_home() -> None:
    rules = Rules("always")
    found = 0
    for game in range(400):
        rec = assert_same_round([PLAYERS["greedy"]] * 2, rules, seed=99, game=game, deal=0, dealer=1)
        if rec.events and rec.events[-1].kind == EXCHANGE and not rec.stalled:
            found += 1
    assert found > 0


# --- every observation field --------------------------------------------------------


@njit
def digest_nb(obs, params, rng):
    """A legal card that depends on every field of ``obs``; keeps a running hash in MEMORY.

    params[0]: how often it passes the card that just arrived (straight trips, exchanges);
    params[1]: a salt, so that the seats choose differently.
    """
    h = np.uint64(params[1] * 1000.0) ^ np.uint64(obs[MEMORY] + 3)
    for f in range(OBS_SIZE):
        h = mix64_nb(h ^ np.uint64(obs[f] + 7))
    for j in range(N_MEMORY):
        obs[MEMORY + j] = np.int64(h >> np.uint64(40 + 4 * j))
    u = (h >> np.uint64(11)) * (1.0 / 9007199254740992.0)
    if obs[INCOMING] >= 0 and u < params[0]:
        return obs[INCOMING]
    return obs[HAND + np.int64(((h >> np.uint64(32)) * np.uint64(MAX_HAND)) >> np.uint64(32))]


class Digest:
    def __init__(self, incoming_rate: float, salt: int) -> None:
        self.name = f"digest({incoming_rate}, {salt})"
        self.params = np.zeros(PARAM_ROW)
        self.params[:2] = incoming_rate, salt
        self.decide = digest_nb


@pytest.fixture(scope="module")
def digest_trace() -> Callable:
    return specialised_kernel(kernel, [digest_nb]).trace_round_nb


@pytest.mark.parametrize("rules", VARIANTS, ids=lambda r: r.circulation)
def test_kernel_fills_every_observation_field_like_the_reference(
    digest_trace: Callable, rules: Rules
) -> None:
    exchanges = 0
    for n in SEAT_COUNTS:
        for i in range(4):
            players = [Digest((0.5, 0.8, 0.95, 0.3)[(s + i) % 4], 10 * i + s) for s in range(n)]
            rec = assert_same_round(
                players,
                rules,
                seed=4242 + i,
                game=n * 100 + i,
                deal=i,
                dealer=(n - 1 + i) % n,
                stall_cap=300,
                trace=digest_trace,
                sids=[0] * n,
            )
            exchanges += sum(e.kind == EXCHANGE for e in rec.events)
            assert sum(e.kind == PASS for e in rec.events) == rec.passes
    assert (exchanges > 0) == (rules.circulation != "off")


# --- players who forget and slip (docs/human-players.md) -----------------------------------


@pytest.mark.parametrize("rules", VARIANTS, ids=lambda r: r.circulation)
@pytest.mark.parametrize("n", SEAT_COUNTS)
def test_kernel_plays_the_reference_round_when_players_forget_and_slip(n: int, rules: Rules) -> None:
    """Every shipped strategy with every (forget, slip) of HUMAN, at a table of its own kind
    and beside plain players; the rounds differ from the plain ones (the values are used)."""
    cap = 1_000 if rules.circulation == "off" else STALL_CAP
    exchanges = changed = 0
    for k, (spec, (forget, slip)) in enumerate(itertools.product(SPECS, HUMAN)):
        plain = PLAYERS[spec]
        mixed = SPECS[(k * 7 + n) % len(SPECS)]
        for table in (
            [human(plain, forget, slip)] * n,
            [human(plain, forget, slip), *[PLAYERS[mixed]] * (n - 1)],
        ):
            where = dict(seed=(131 * k + n) * 2654435761 % 2**63, game=k + 17 * n, deal=k % 3, dealer=k % n)
            rec = assert_same_round(table, rules, **where, stall_cap=cap)
            before = play_round(rules, [p.plain for p in table], **where, stall_cap=cap)
            changed += rec.events != before.events
            exchanges += sum(e.kind == EXCHANGE for e in rec.events)
    assert changed > 0
    assert (exchanges > 0) == (rules.circulation != "off")


@settings(max_examples=60, deadline=None, derandomize=True)
@given(
    n=st.sampled_from(SEAT_COUNTS),
    table=st.lists(st.sampled_from(STEADY), min_size=10, max_size=10),
    values=st.lists(
        st.tuples(
            st.sampled_from((0.0, 0.0, 0.02, 0.3, 0.7, 1.0)), st.sampled_from((0.0, 0.0, 0.05, 0.5, 1.0))
        ),
        min_size=10,
        max_size=10,
    ),
    rules=st.sampled_from(VARIANTS),
    seed=st.integers(0, 2**63 - 1),
    game=st.integers(0, 2**40),
    deal=st.integers(0, 500),
    dealer_at=st.floats(0, 1, exclude_max=True),
)
def test_kernel_plays_the_reference_round_anywhere_when_players_forget_and_slip(
    n: int,
    table: list[str],
    values: list[tuple[float, float]],
    rules: Rules,
    seed: int,
    game: int,
    deal: int,
    dealer_at: float,
) -> None:
    """Random tables in which each seat forgets and slips by its own amount (or not at all)."""
    players = [human(PLAYERS[s], f, e) for s, (f, e) in zip(table[:n], values, strict=False)]
    assert_same_round(players, rules, seed=seed, game=game, deal=deal, dealer=int(dealer_at * n))


@pytest.mark.parametrize("values", [(0.3, 0.0), (0.0, 0.3), (0.5, 0.2), (1.0, 0.0)], ids=str)
@pytest.mark.parametrize("rules", VARIANTS, ids=lambda r: r.circulation)
def test_kernel_fills_every_observation_field_like_the_reference_when_players_forget_and_slip(
    digest_trace: Callable, rules: Rules, values: tuple[float, float]
) -> None:
    """The digest sees every field, the forgotten history counts included; every other
    seat forgets and slips."""
    forget, slip = values
    changed = 0
    for n in SEAT_COUNTS:
        for i in range(3):
            players = [Digest((0.5, 0.8, 0.95, 0.3)[(s + i) % 4], 10 * i + s) for s in range(n)]
            where = dict(seed=777 + i, game=n * 100 + i, deal=i, dealer=(n - 1 + i) % n, stall_cap=300)
            before = play_round(rules, players, **where)
            for p in players[::2]:
                p.params[FORGET_AT], p.params[SLIP_AT] = forget, slip
            rec = assert_same_round(
                players,
                rules,
                **where,
                trace=digest_trace,
                sids=[0] * n,
            )
            changed += rec.events != before.events
    assert changed > 0  # the digest saw what was forgotten, or slipped


# --- a later copy of a strategy in a comparison (its copy salt, docs/random-streams.md) ------


@pytest.mark.parametrize("rules", VARIANTS, ids=lambda r: r.circulation)
@pytest.mark.parametrize("n", SEAT_COUNTS)
def test_kernel_plays_the_reference_round_with_salted_seats(n: int, rules: Rules) -> None:
    """Copies of one strategy with salts 0, 1, 2... around the table, plain, slipping and
    forgetting; the salts change the rounds (the same seats unsalted play otherwise)."""
    cap = 1_000 if rules.circulation == "off" else STALL_CAP
    changed = 0
    for k, (spec, (forget, slip)) in enumerate(
        itertools.product(("random", "greedy", "commit:after=1"), HUMAN[:3])
    ):
        copies = [human(PLAYERS[spec], forget, slip).copy_number(s % 3) for s in range(n)]
        beside = [copies[0].copy_number(1), *[PLAYERS["greedy"]] * (n - 1)]
        for table in (copies, beside):
            where = dict(seed=(977 * k + n) * 2654435761 % 2**63, game=k + 31 * n, deal=k % 4, dealer=k % n)
            rec = assert_same_round(table, rules, **where, stall_cap=cap)
            before = play_round(rules, [p.copy_number(0) for p in table], **where, stall_cap=cap)
            changed += rec.events != before.events
    assert changed > 0
