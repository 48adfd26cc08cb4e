"""The ``search`` player: sampled worlds agree with the observation, it reads nothing
hidden, it is a pure function of its stream, and the kernel plays its games exactly as
the reference does."""

from __future__ import annotations

import itertools
from collections import Counter

import numpy as np
import pytest

import simulator
from simulator.engine.cards import N_CARDS, rank_of
from simulator.games import get_game
from simulator.games.spokelse import kernel, search, search_worlds
from simulator.games.spokelse import reference as R
from simulator.games.spokelse.observation import (
    DISCARD_TOP,
    OPP_SLOT,
    PHASE,
    PLACE,
    SEAT,
    SLOT,
    SOURCE,
    STOCK_LEFT,
    UNSEEN,
    Place,
    Source,
)
from simulator.games.spokelse.rules import LOG_FIELDS
from simulator.games.spokelse.variants import TURN_CAP, Rules
from simulator.kernels.specialise import specialised_kernel
from simulator.running.setup import Execution, Setup
from strategies import parse_spec
from strategies.registry import shipped_decides

RULES = Rules()
EXPECT = parse_spec("expect", "spokelse")
SMALL = parse_spec("search:samples=4", "spokelse")


def tables(n_games: int, turns: tuple[int, ...] = (0, 3, 12, 25, 38)):
    """Reference tables of expect against expect at several turns, and the seat to play."""
    for g, t in itertools.product(range(n_games), turns):
        table = R.deal_cards(RULES, R.shuffle_deck(17, g), dealer=g % 2)
        rngs = R.decide_streams(17, g)
        for _ in range(t):
            if R.round_over(table):
                break
            R.play_turn(table, (EXPECT, EXPECT), rngs)
        if not R.round_over(table):
            yield table, R.seat_to_play(table)


def place_obs(table: R.Table, seat: int, from_discard: bool) -> np.ndarray:
    """``seat``'s PLACE observation after taking the stock card or the discard top
    (the table is changed as the reference's turn changes it)."""
    card = R.take_from_discard(table) if from_discard else R.take_from_stock(table, seat)
    return R.observe(table, seat, PLACE, card, from_discard)


def observations():
    """SOURCE and PLACE observations (from the stock and from the pile) of real positions."""
    for k, (table, seat) in enumerate(tables(8)):
        yield R.observe(table, seat, SOURCE)
        yield place_obs(table, seat, from_discard=k % 2 == 1 and bool(table.discard))


def card_value(obs: np.ndarray) -> np.ndarray:
    """Each card's points (half points) under the default rules."""
    return RULES.values_half()[np.arange(N_CARDS) % 13]


def test_sampled_worlds_hold_every_card_once_and_agree_with_the_observation() -> None:
    rng = np.array([12345], np.uint64)
    checked = 0
    for obs in observations():
        pool, under = np.empty(52, np.int64), np.empty(52, np.int64)
        n_pool, n_under = search_worlds.split_cards_nb(obs, pool, under)
        assert n_pool == search_worlds.places_nb(obs)  # in play the unseen cards fill the hidden places
        world, knows = search_worlds.new_world_nb(), np.empty(4, np.int64)
        me = int(obs[SEAT])
        for _ in range(5):
            n_stock = search_worlds.sample_world_nb(
                obs, rng, card_value(obs), 26, pool, under, n_pool, n_under, world, knows
            )
            wobs, seen, slot, ghost, stock, pile, counts = world
            assert n_stock == obs[STOCK_LEFT] == counts[0]
            cards = [*slot.ravel(), *ghost, *stock[:n_stock], *pile[: counts[1]]]
            if obs[PHASE] == PLACE:
                cards.append(int(obs[search.HAND]))
            assert sorted(cards) == list(range(N_CARDS))  # every card exactly once
            assert (wobs[me] == obs).all()
            for i in range(4):
                if obs[SLOT + i] >= 0:
                    assert slot[me, i] == obs[SLOT + i]
                if obs[OPP_SLOT + i] >= 0:
                    assert slot[1 - me, i] == obs[OPP_SLOT + i]
            top = obs[DISCARD_TOP]
            assert (counts[1] == 0) if top < 0 else (pile[counts[1] - 1] == top)
            # What the player has not seen is exactly what lies in the places it cannot see.
            hidden = [slot[me, i] for i in range(4) if obs[SLOT + i] < 0]
            hidden += [slot[1 - me, i] for i in range(4) if obs[OPP_SLOT + i] < 0]
            hidden += [*ghost, *stock[:n_stock]]
            count = Counter(rank_of(int(c)) for c in hidden)
            assert all(obs[UNSEEN + r] == count[r] for r in range(13))
            # The opponent's view agrees with its seen bits.
            theirs = [c for c in range(N_CARDS) if (int(seen[1 - me]) >> c) & 1]
            tcount = Counter(rank_of(c) for c in theirs)
            assert all(wobs[1 - me, UNSEEN + r] == 4 - tcount[r] for r in range(13))
            checked += 1
    assert checked > 300


def test_a_uniform_deal_puts_every_unseen_card_everywhere() -> None:
    """Over many worlds each unseen card reaches the opponent's hidden slots, the ghosts
    and the stock: nothing is pinned in place."""
    table, seat = next(tables(1, (4,)))
    obs = R.observe(table, seat, SOURCE)
    pool, under = np.empty(52, np.int64), np.empty(52, np.int64)
    n_pool, n_under = search_worlds.split_cards_nb(obs, pool, under)
    world, knows = search_worlds.new_world_nb(), np.empty(4, np.int64)
    rng = np.array([7], np.uint64)
    ghosts = Counter()
    for _ in range(3000):
        search_worlds.sample_world_nb(
            obs, rng, card_value(obs), 26, pool, under, n_pool, n_under, world, knows
        )
        ghosts.update(int(c) for c in world[3])
    unseen = set(pool[:n_pool].tolist())
    assert set(ghosts) == unseen
    expected = 2 * 3000 / n_pool
    assert all(abs(k - expected) < 5 * expected**0.5 for k in ghosts.values())


def hidden_shuffled(table: R.Table, seat: int, rng: np.random.Generator) -> R.Table:
    """A copy of ``table`` with the cards ``seat`` has not seen permuted among their places
    (its unknown slots, the opponent's hidden slots, both ghosts, the stock)."""
    places: list[tuple[str, int, int]] = []
    for s in range(2):
        for i in range(4):
            if table.slots[s][i] not in table.seen[seat]:
                places.append(("slot", s, i))
        places.append(("ghost", s, 0))
    places += [("stock", 0, i) for i in range(len(table.stock))]
    new = R.Table(
        rules=table.rules, dealer=table.dealer, ghosts=list(table.ghosts), slots=[list(r) for r in table.slots],
        stock=type(table.stock)(table.stock), discard=list(table.discard),
        knows_slot=[list(r) for r in table.knows_slot], public_slot=[list(r) for r in table.public_slot],
        seen=[set(s) for s in table.seen], turn=table.turn,
    )  # fmt: skip
    stock = list(new.stock)

    def get(p):
        kind, s, i = p
        return new.slots[s][i] if kind == "slot" else new.ghosts[s] if kind == "ghost" else stock[i]

    cards = [get(p) for p in places]
    rng.shuffle(cards)
    for (kind, s, i), c in zip(places, cards, strict=True):
        if kind == "slot":
            new.slots[s][i] = c
        elif kind == "ghost":
            new.ghosts[s] = c
        else:
            stock[i] = c
    new.stock = type(table.stock)(stock)
    return new


@pytest.mark.parametrize("spec", ["search:samples=8", "search:samples=8,margin=0,low=3,z=0"])
def test_search_never_reads_the_hidden_cards(spec: str) -> None:
    """Permuting every card the player has not seen leaves its observation as it was, and
    so its decision and its stream; the observation itself is not written to."""
    player = parse_spec(spec, "spokelse")
    shuffle = np.random.default_rng(3)
    changed = 0
    for table, seat in tables(6):
        other = hidden_shuffled(table, seat, shuffle)
        obs, obs2 = R.observe(table, seat, SOURCE), R.observe(other, seat, SOURCE)
        assert (obs == obs2).all()
        changed += other.ghosts != table.ghosts or list(other.stock) != list(table.stock)
        r1, r2 = np.array([99], np.uint64), np.array([99], np.uint64)
        keep = obs.copy()
        assert player.decide(obs, player.params, r1) == player.decide(obs2, player.params, r2)
        assert r1[0] == r2[0]
        assert (obs == keep).all()
        # The PLACE decision on the card drawn, the rest of the unseen cards permuted again.
        card = R.take_from_stock(table, seat)
        other = hidden_shuffled(table, seat, shuffle)
        p1, p2 = (R.observe(t, seat, PLACE, card, False) for t in (table, other))
        assert (p1 == p2).all()
        assert player.decide(p1, player.params, r1) == player.decide(p2, player.params, r2)
        assert r1[0] == r2[0]
    assert changed > 20


def test_swapping_the_ghosts_changes_the_scores_but_not_one_move() -> None:
    """Nobody ever sees a ghost: with them swapped, search and expect play the same round."""
    for g in range(4):
        deck = R.shuffle_deck(5, g)
        swapped = [deck[1], deck[0], *deck[2:]]  # deck[0] and deck[1] are the two ghosts
        records = []
        for d in (deck, swapped):
            table = R.deal_cards(RULES, d, dealer=1)
            rngs = R.decide_streams(5, g)
            while not R.round_over(table):
                R.play_turn(table, (SMALL, EXPECT), rngs)
            records.append(([(t.source, t.taken, t.place, t.discarded) for t in table.turns], table.ghosts))
        assert records[0][0] == records[1][0]
        assert records[0][1] == records[1][1][::-1]


def test_the_same_stream_gives_the_same_decision_and_draws_only_from_it() -> None:
    for obs in itertools.islice(observations(), 0, 40, 3):
        states = [np.array([2024], np.uint64) for _ in range(2)]
        answers = [SMALL.decide(obs, SMALL.params, s) for s in states]
        assert answers[0] == answers[1] and states[0][0] == states[1][0]
        legal = np.empty(5, np.int64)
        search_worlds.legal_nb(obs, legal)
        assert legal[answers[0]] == 1
        if obs[PHASE] == SOURCE and obs[DISCARD_TOP] < 0:
            assert answers[0] == Source.STOCK and states[0][0] == 2024  # one answer: nothing drawn
        else:
            assert states[0][0] != 2024  # it sampled


def kernel_round(players, seed, game, deal, dealer, totals, target_half):
    # search is compiled on demand: the kernel that plays it is the shipped kernel's copy
    # with a dispatcher over every shipped strategy (what simulate runs)
    decides = shipped_decides("spokelse")
    module = specialised_kernel(kernel, decides)
    log = np.full((TURN_CAP, LOG_FIELDS), -7, np.int64)
    s0, s1, turns, capped, err = module.trace_round_nb(
        np.array([decides.index(p.family.decide) for p in players], np.int64),
        np.stack([p.params for p in players]),
        RULES.values_half(), target_half, np.array(totals, np.int64), seed, game, deal, dealer, log,
    )  # fmt: skip
    assert err == 0
    return [tuple(int(x) for x in row) for row in log[:turns]], (int(s0), int(s1)), bool(capped)


@pytest.mark.parametrize(
    "specs",
    [
        ("search:samples=3", "expect"),
        ("threshold:k=4", "search:samples=2,margin=0,low=2,z=0"),
        ("search:samples=2",) * 2,
    ],
)
def test_the_kernel_plays_the_reference_game_with_search(specs: tuple[str, ...]) -> None:
    players = tuple(parse_spec(s, "spokelse") for s in specs)
    used = set()
    for seed, game, deal, dealer, match_play in [
        (1, 0, 0, 1, False),
        (2**40 + 3, 77, 2, 0, True),
        (9, 5, 1, 1, False),
    ]:
        totals = (10, 30) if match_play else (0, 0)
        rec = R.play_round(
            RULES,
            players,
            seed=seed,
            game=game,
            deal=deal,
            dealer=dealer,
            totals_half=totals,
            match_play=match_play,
        )
        rows, scores, capped = kernel_round(
            players, seed, game, deal, dealer, totals, RULES.target_half() if match_play else 0
        )
        assert rows == [(t.turn, t.seat, t.source, t.taken, t.place, t.discarded) for t in rec.turns]
        assert scores == rec.scores_half and capped == rec.capped
        used |= {(t.source, min(t.place, Place.DISCARD)) for t in rec.turns}
    assert {s for s, _ in used} == {Source.STOCK, Source.DISCARD_PILE}


def test_search_results_are_the_same_for_any_threads_and_block_size() -> None:
    summaries = []
    for threads, block in ((1, 7), (2, 5), (2, 40)):
        setup = Setup.build("spokelse", ["search:samples=3", "expect"], rounds=40, seed=8)
        result = simulator.run(setup, Execution.build(threads=threads, block_size=block))
        summaries.append(result.summary["seats"])
    assert summaries[0] == summaries[1] == summaries[2]
    setup = Setup.build("spokelse", ["search:samples=3", "expect"], matches=6, seed=8)
    assert simulator.run(setup, Execution.build(threads=2, block_size=2)).summary["seats"]


def test_search_is_compiled_on_demand_not_into_every_kernel() -> None:
    # search's playouts make a kernel compile for minutes: the shipped kernel (what every
    # other run loads) must not hold it, and a run with search must still be uncontained
    # (full speed) yet played through a kernel of its own.
    from simulator.games.spokelse.strategies import decide_builtin_nb
    from simulator.running.runner import resolve_kernel

    fam = SMALL.family
    assert fam.builtin_id is None and fam.on_demand and not fam.user
    obs = next(iter(observations()))
    assert decide_builtin_nb(4, obs, SMALL.params, np.array([31], np.uint64)) == -1
    game = get_game("spokelse")
    kernel = resolve_kernel(game, [SMALL, parse_spec("expect", "spokelse")])
    assert kernel.user and kernel.message.startswith("compiling the shipped strategy search")
    # one copy over every shipped strategy serves every line-up with search: it compiles once
    players = [parse_spec("threshold:k=4", "spokelse"), SMALL]
    other = resolve_kernel(game, players)
    assert other.run_block is kernel.run_block and other.records_block is kernel.records_block
    decides = shipped_decides("spokelse")
    assert [decides[s] for s in other.sids] == [p.family.decide for p in players]
