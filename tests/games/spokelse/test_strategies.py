"""The shipped Spøkelse strategies on hand-made observations (RULES.md §5).

Each observation is built field by field with the constants of
``simulator.games.spokelse.observation``; :func:`make_obs` fills the derived
fields (values, HIGH, HIGH_SLOT, UNKNOWN_SLOT, UNSEEN) from the cards given.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from simulator.engine.cards import N_RANKS, N_SUITS, parse_card, rank_of
from simulator.engine.rng import Stream
from simulator.games.spokelse import observation as ob
from simulator.games.spokelse.expect import (
    expect_in_order_nb,
    expect_play_nb,
    reservation_in_order_nb,
    reservation_nb,
    value_order_nb,
)
from simulator.games.spokelse.observation import (
    DISCARD_TOP,
    DISCARD_VALUE,
    FROM_DISCARD,
    HAND,
    HAND_VALUE,
    HIGH,
    HIGH_SLOT,
    MAX_PARAMS,
    MY_TOTAL,
    OBS_SIZE,
    OPP_SLOT,
    OPP_TOTAL,
    PHASE,
    PLACE,
    SEAT,
    SLOT,
    SLOT_VALUE,
    SOURCE,
    STOCK_LEFT,
    TARGET,
    TURN,
    UNKNOWN_SLOT,
    UNSEEN,
    VALUE,
    Place,
    Source,
)
from simulator.games.spokelse.strategies import (
    decide_builtin_nb,
    expect_nb,
    passive_nb,
    random_nb,
    threshold_nb,
)
from simulator.games.spokelse.variants import Rules

DEFAULT_RULES = Rules()
JACK_11 = Rules(jack=11)


def card(text: str | None) -> int:
    return -1 if text is None else parse_card(text)


def make_obs(
    slots: Sequence[str | None] = (None, None, None, None),
    *,
    hand: str | None = None,
    from_discard: bool = False,
    top: str | None = "♣A",
    rules: Rules = DEFAULT_RULES,
    opp_slots: Sequence[str | None] = (None, None, None, None),
    stock_left: int = 30,
    turn: int = 10,
    seat: int = 0,
    totals: tuple[int, int] = (0, 0),
    target_half: int = 0,
    seen: Sequence[str] = (),
) -> np.ndarray:
    """An observation: ``slots`` are the player's own known cards (None = unknown), ``hand``
    the card in hand (the PLACE phase when given), ``top`` the discard top (None = empty pile),
    ``seen`` further cards whose place the player knows (for UNSEEN)."""
    values = rules.values_half()
    obs = np.full(OBS_SIZE, -1, np.int64)
    obs[PHASE] = SOURCE if hand is None else PLACE
    obs[HAND] = card(hand)
    obs[HAND_VALUE] = -1 if hand is None else values[rank_of(card(hand))]
    obs[FROM_DISCARD] = int(from_discard and hand is not None)
    obs[DISCARD_TOP] = card(top)
    obs[DISCARD_VALUE] = -1 if top is None else values[rank_of(card(top))]
    obs[STOCK_LEFT] = stock_left
    obs[TURN] = turn
    obs[SEAT] = seat
    obs[MY_TOTAL], obs[OPP_TOTAL] = totals
    obs[TARGET] = target_half
    own = [card(s) for s in slots]
    for i, c in enumerate(own):
        obs[SLOT + i] = c
        obs[SLOT_VALUE + i] = -1 if c < 0 else values[rank_of(c)]
        obs[OPP_SLOT + i] = card(opp_slots[i])
    known = [i for i in range(4) if own[i] >= 0]
    if known:
        high = max(obs[SLOT_VALUE + i] for i in known)
        obs[HIGH] = high
        obs[HIGH_SLOT] = min(i for i in known if obs[SLOT_VALUE + i] == high)
    obs[UNKNOWN_SLOT] = next((i for i in range(4) if own[i] < 0), -1)
    obs[VALUE : VALUE + N_RANKS] = values
    visible = {c for c in (*own, *map(card, opp_slots), card(hand), card(top), *map(card, seen)) if c >= 0}
    count = Counter(rank_of(c) for c in visible)
    for r in range(N_RANKS):
        obs[UNSEEN + r] = N_SUITS - count[r]
    return obs


def params(*values: float) -> np.ndarray:
    out = np.zeros(MAX_PARAMS)
    out[: len(values)] = values
    return out


def rng(seed: int = 1) -> np.ndarray:
    return Stream(seed, 0, 2).as_array()


def threshold(obs: np.ndarray, k: float) -> int:
    return int(threshold_nb(obs, params(k), rng()))


def expect(obs: np.ndarray, k: float = 1, patience: float = 3, pile: float = 0.5, open_at: float = 25) -> int:
    """expect's answer; the defaults are the registry's (k=1, patience=3, pile=0.5, open=25)."""
    return int(expect_nb(obs, params(k, patience, pile, open_at), rng()))


def test_make_obs_summaries() -> None:
    obs = make_obs(["♠5", None, "♥K", "♦K"], hand="♣8", top=None)
    assert (obs[HIGH], obs[HIGH_SLOT], obs[UNKNOWN_SLOT]) == (26, 2, 1)
    assert (obs[HAND_VALUE], obs[DISCARD_TOP], obs[DISCARD_VALUE], obs[PHASE]) == (0, -1, -1, PLACE)
    assert obs[UNSEEN + 12] == 2 and obs[UNSEEN + 7] == 3 and obs[UNSEEN + 4] == 3
    obs = make_obs(top="♠J", rules=JACK_11)
    assert (obs[HIGH], obs[HIGH_SLOT], obs[UNKNOWN_SLOT], obs[DISCARD_VALUE]) == (-1, -1, 0, 22)


# --- passive (RULES.md §5) -------------------------------------------------------------


@pytest.mark.parametrize(
    "obs",
    [
        make_obs(["♠K", "♥K", None, None], top="♣8"),  # even a free eight against two kings
        make_obs(top=None),
        make_obs(["♠2", "♥2", "♦2", "♣2"], top="♣A", stock_left=1),
    ],
)
def test_passive_takes_the_stock(obs: np.ndarray) -> None:
    state = rng()
    assert passive_nb(obs, params(), state) == Source.STOCK
    assert state[0] == rng()[0]  # draws nothing


@pytest.mark.parametrize("hand", ["♠8", "♥J", "♣K"])
def test_passive_discards_what_it_draws(hand: str) -> None:
    obs = make_obs(["♠K", "♥K", None, None], hand=hand)
    assert passive_nb(obs, params(), rng()) == Place.DISCARD
    assert decide_builtin_nb(0, obs, params(), rng()) == Place.DISCARD


# --- threshold (RULES.md §5): the source rule --------------------------------------------


@pytest.mark.parametrize(
    ("slots", "top", "k", "expected"),
    [
        # d <= k and an unknown slot exists: take it
        (["♠K", "♥2", None, None], "♣3", 4, Source.DISCARD_PILE),
        (["♠K", "♥2", None, None], "♣4", 4, Source.DISCARD_PILE),  # d = k
        (["♠K", "♥2", None, None], "♣5", 4, Source.STOCK),  # d > k
        (["♠K", "♥2", None, None], "♣4", 4.5, Source.DISCARD_PILE),
        (["♠K", "♥2", None, None], "♣5", 4.5, Source.STOCK),  # 5 > 4.5
        (["♠K", "♥2", None, None], "♣J", 0, Source.STOCK),  # ½ > 0
        (["♠K", "♥2", None, None], "♣8", 0, Source.DISCARD_PILE),  # 0 <= 0
        ([None, None, None, None], "♣3", 4, Source.DISCARD_PILE),  # nothing known, U = 0
        # no unknown slot: take it only if it beats the highest known slot, d < H
        (["♠A", "♥2", "♦3", "♣4"], "♣3", 4, Source.DISCARD_PILE),
        (["♠A", "♥2", "♦3", "♣4"], "♠4", 4, Source.STOCK),  # d = H
        (["♠A", "♥2", "♦3", "♣2"], "♠4", 4, Source.STOCK),  # d > H
        (["♠8", "♥8", "♦8", "♣8"], "♠J", 13, Source.STOCK),  # H = 0: no d beats it
        (["♠K", "♥K", "♦K", "♣Q"], "♠Q", 13, Source.DISCARD_PILE),  # 12 < 13 <= k
        (["♠K", "♥K", "♦K", "♣Q"], "♣K", 13, Source.STOCK),  # 13 = H
        # an empty pile: the stock
        (["♠K", "♥2", None, None], None, 13, Source.STOCK),
    ],
)
def test_threshold_source_rule(slots: list, top: str | None, k: float, expected: Source) -> None:
    assert threshold(make_obs(slots, top=top), k) == expected


def test_threshold_source_rule_with_the_jack_at_eleven() -> None:
    obs = make_obs(["♠K", "♥2", None, None], top="♣J")
    assert threshold(obs, 4) == Source.DISCARD_PILE  # ½ point
    obs = make_obs(["♠K", "♥2", None, None], top="♣J", rules=JACK_11)
    assert threshold(obs, 4) == Source.STOCK  # 11 points
    assert threshold(obs, 11) == Source.DISCARD_PILE


# --- threshold (RULES.md §5): the placement rules a-d -------------------------------------


@pytest.mark.parametrize(
    ("slots", "hand", "k", "expected"),
    [
        # a. H > c and H > k: over the highest known slot, before an unknown slot (b)
        (["♠2", "♠K", None, None], "♥3", 4, Place.SLOT1),
        (["♠5", "♠K", "♥K", None], "♥3", 4, Place.SLOT1),  # a tie: the lowest-numbered slot
        (["♠9", "♠A", "♥2", "♦3"], "♥7", 4, Place.SLOT0),  # c > k too: still a
        (["♠5", "♠A", None, None], "♥3", 4.5, Place.SLOT0),  # 5 > 4.5
        (["♠8", "♠J", None, None], "♥8", 0, Place.SLOT1),  # ½ > 0 = k
        # b. else, an unknown slot and c <= k: into the lowest-numbered unknown slot
        (["♠2", "♠3", None, None], "♥4", 4, Place.SLOT2),  # H <= k
        (["♠4", "♠3", None, None], "♥4", 4.5, Place.SLOT2),  # H = 4 <= 4.5
        (["♠4", "♠A", None, None], "♥3", 4, Place.SLOT2),  # H = k, H > c: not a
        ([None, "♠2", None, "♠3"], "♥A", 4, Place.SLOT0),
        (["♠2", None, None, "♠3"], "♥A", 4, Place.SLOT1),
        ([None, None, None, None], "♥4", 4, Place.SLOT0),  # no H at all
        (["♠8", None, None, None], "♥8", 0, Place.SLOT1),  # H = 0 = c, c <= k = 0
        (["♠K", None, None, None], "♥K", 13, Place.SLOT1),  # H = c = k: not a; c <= k
        # c. else, H > c: over the highest known slot (all slots known, H <= k)
        (["♠A", "♠2", "♥4", "♠3"], "♥2", 4, Place.SLOT2),
        (["♠Q", "♠Q", "♥J", "♠10"], "♥9", 13, Place.SLOT0),
        # d. else discard
        (["♠A", "♠2", "♠3", "♠4"], "♥5", 4, Place.DISCARD),  # all known, c > H
        (["♠A", "♠2", "♠3", "♠4"], "♥4", 4, Place.DISCARD),  # c = H
        (["♠A", "♠2", None, None], "♥9", 4, Place.DISCARD),  # c > k, c > H
        (["♠9", None, None, None], "♥K", 4, Place.DISCARD),  # H > k but H < c
        (["♠9", None, None, None], "♥9", 4, Place.DISCARD),  # H = c > k
        ([None, None, None, None], "♥5", 4, Place.DISCARD),  # nothing known, c > k
    ],
)
def test_threshold_placement_rules(slots: list, hand: str, k: float, expected: Place) -> None:
    assert threshold(make_obs(slots, hand=hand), k) == expected


def test_threshold_placement_with_the_jack_at_eleven() -> None:
    slots = ["♠A", "♠2", None, None]
    assert threshold(make_obs(slots, hand="♥J"), 4) == Place.SLOT2  # b: ½ <= 4
    assert threshold(make_obs(slots, hand="♥J", rules=JACK_11), 4) == Place.DISCARD  # d: 11 > 4
    slots = ["♠A", "♠J", None, None]
    assert threshold(make_obs(slots, hand="♥3", rules=JACK_11), 4) == Place.SLOT1  # a: 11 > 4, 11 > 3
    assert threshold(make_obs(slots, hand="♥3"), 4) == Place.SLOT2  # b: H = 1 <= k


def test_threshold_places_a_card_from_the_pile_into_a_slot() -> None:
    """What threshold takes from the pile it never throws away (that would be illegal)."""
    for k2 in range(27):
        k = k2 / 2
        for slots in (["♠A", "♠2", None, None], ["♠K", "♠2", None, None], ["♠A", "♠2", "♠9", "♠K"]):
            for top in ("♥8", "♥J", "♥4", "♥9", "♥Q", "♥K"):
                if threshold(make_obs(slots, top=top), k) == Source.DISCARD_PILE:
                    obs = make_obs(slots, hand=top, from_discard=True, top="♣2")
                    assert threshold(obs, k) in (Place.SLOT0, Place.SLOT1, Place.SLOT2, Place.SLOT3)


def test_threshold_draws_nothing() -> None:
    state = rng()
    threshold_nb(make_obs(["♠A", None, None, None], top="♣3"), params(4), state)
    threshold_nb(make_obs(["♠A", None, None, None], hand="♣3"), params(4), state)
    assert state[0] == rng()[0]


# --- random (RULES.md §5, docs/random-streams.md) -----------------------------------------


def draws(obs: np.ndarray, n: int = 4000, seed: int = 3) -> Counter:
    state = rng(seed)
    return Counter(int(random_nb(obs, params(), state)) for _ in range(n))


def test_random_source_is_either_pile_uniformly() -> None:
    counts = draws(make_obs(["♠K", None, None, None], top="♣8"))
    assert set(counts) == {Source.STOCK, Source.DISCARD_PILE}
    assert all(abs(counts[a] - 2000) < 200 for a in counts)


def test_random_source_with_an_empty_pile_is_the_stock_and_draws_nothing() -> None:
    state = rng()
    for _ in range(50):
        assert random_nb(make_obs(top=None), params(), state) == Source.STOCK
    assert state[0] == rng()[0]


def test_random_places_a_stock_card_anywhere() -> None:
    counts = draws(make_obs(["♠K", None, None, None], hand="♥5"), n=5000)
    assert set(counts) == set(Place)
    assert all(abs(counts[a] - 1000) < 150 for a in counts)


def test_random_never_throws_away_a_card_from_the_pile() -> None:
    counts = draws(make_obs(["♠K", None, None, None], hand="♥5", from_discard=True, top=None), n=4000)
    assert set(counts) == {Place.SLOT0, Place.SLOT1, Place.SLOT2, Place.SLOT3}
    assert all(abs(counts[a] - 1000) < 150 for a in counts)


def test_random_draws_as_the_contract_says() -> None:
    """below(2) for the source, below(5) for a stock card, below(4) for a card from the pile."""
    state, stream = rng(9), Stream(9, 0, 2)
    source, stock_card = make_obs(top="♣8"), make_obs(hand="♥5")
    pile_card = make_obs(hand="♥5", from_discard=True)
    for _ in range(200):
        assert random_nb(source, params(), state) == stream.below(2)
        assert random_nb(stock_card, params(), state) == stream.below(5)
        assert random_nb(pile_card, params(), state) == stream.below(4)
    assert state[0] == stream.state


# --- expect ----------------------------------------------------------------------------------

CARDS = [
    f"{s}{r}" for s in "♠♥♦♣" for r in ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
]


@settings(max_examples=400, deadline=None)
@given(
    picked=st.permutations(CARDS).map(lambda p: p[:10]),
    known=st.lists(st.booleans(), min_size=4, max_size=4),
    public=st.lists(st.booleans(), min_size=4, max_size=4),
    phase=st.sampled_from(["source", "stock card", "pile card"]),
    empty_pile=st.booleans(),
    stock_left=st.integers(0, 41),
    k=st.integers(0, 26).map(lambda m: m / 2),
    patience=st.floats(0, 10),
    pile=st.integers(0, 26).map(lambda m: m / 2),
    open_at=st.integers(0, 41),
    totals=st.tuples(st.integers(0, 60), st.integers(0, 60)),
    match=st.booleans(),
    jack=st.sampled_from([0.5, 11]),
)
def test_expect_never_answers_illegally(
    picked: list[str],
    known: list[bool],
    public: list[bool],
    phase: str,
    empty_pile: bool,
    stock_left: int,
    k: float,
    patience: float,
    pile: float,
    open_at: int,
    totals: tuple[int, int],
    match: bool,
    jack: float,
) -> None:
    slots = [c if kn else None for c, kn in zip(picked[:4], known, strict=True)]
    rules = Rules(jack=jack)
    common = dict(
        rules=rules,
        stock_left=stock_left,
        totals=totals,
        target_half=rules.target_half() if match else 0,
        seen=picked[7:],
        opp_slots=[c if pb else None for c, pb in zip(picked[6:10], public, strict=True)],
    )
    state = rng()
    if phase == "source":
        obs = make_obs(slots, top=None if empty_pile else picked[4], **common)
        action = expect_nb(obs, params(k, patience, pile, open_at), state)
        assert action in (Source.STOCK, Source.DISCARD_PILE)
        if empty_pile:
            assert action == Source.STOCK
    else:
        from_pile = phase == "pile card"
        top = None if empty_pile else picked[5]
        obs = make_obs(slots, hand=picked[4], from_discard=from_pile, top=top, **common)
        action = expect_nb(obs, params(k, patience, pile, open_at), state)
        assert action in tuple(Place)
        if from_pile:
            assert action != Place.DISCARD
    assert state[0] == rng()[0]  # expect draws nothing from its stream


# The reservation value R (half points).


def test_reservation_with_no_draws_left_is_the_highest_value() -> None:
    obs = make_obs(["♠A", "♠8", None, None], top="♥K")
    assert reservation_nb(obs, 0.0) == 26  # a king
    assert reservation_nb(make_obs(["♠A", "♠8", None, None], top="♥K", rules=JACK_11), 0.0) == 26


def test_reservation_falls_as_more_draws_are_counted_on() -> None:
    obs = make_obs(["♠A", "♠8", None, None], top="♥K")
    rs = [reservation_nb(obs, float(t)) for t in (0, 1, 3, 10, 30, 60)]
    assert rs == sorted(rs, reverse=True)
    assert rs[-1] <= 2  # with plenty of draws, nothing worse than an ace is worth keeping


def test_reservation_by_hand() -> None:
    """Slots A, 8 and two unknown; the player has seen ♠A ♠8 ♥K, so 49 cards are unseen,
    and the opponent's four slots are hidden: the low cards count four fewer.  With 10
    draws, an ace is not enough (3 eights + 4 jacks + 3 aces - 4 = 6; 10 x 6 < 2 slots x 49)
    but a two is (4 more: 10 x 10 >= 98), so R = 2 points."""
    obs = make_obs(["♠A", "♠8", None, None], top="♥K")
    assert reservation_nb(obs, 10.0) == 4
    # With 3 draws it takes 37 unseen cards at most R (3 x (37 - 4) >= 98): up to the nines.
    assert reservation_nb(obs, 3.0) == 18


def test_reservation_counts_the_opponents_hidden_slots() -> None:
    """The opponent's public slots are seen and hide nothing: with ♣8 ♣J ♦8 ♦J public,
    45 cards are unseen and 3 x 30 >= 2 x 45 already at the sevens (8+J+A+2..7 = 30)."""
    hidden = make_obs(["♠A", "♠8", None, None], top="♥K")
    public = make_obs(["♠A", "♠8", None, None], top="♥K", opp_slots=["♣8", "♣J", "♦8", "♦J"])
    assert reservation_nb(public, 3.0) == 14
    assert reservation_nb(public, 3.0) < reservation_nb(hidden, 3.0)


def test_reservation_is_lowest_when_no_slot_needs_filling() -> None:
    assert reservation_nb(make_obs(["♠8", "♥8", "♦8", "♣8"], top="♥K"), 5.0) == 0


def random_observations(n: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """``n`` observation rows with random unseen counts, known slots, public opponent slots,
    phases, cards in hand and discard tops under both jack rules and a value table with
    ties, and as many ``turns``."""
    gen = np.random.default_rng(seed)
    rows = np.full((n, ob.OBS_SIZE), -1, np.int64)
    for k, o in enumerate(rows):
        values = (JACK_11 if k % 2 else Rules()).values_half()
        if k % 4 == 3:  # a value table with ties (no shipped rule has one, the layout allows it)
            values = np.minimum(values, 20)
        o[ob.VALUE : ob.VALUE + 13] = values
        o[ob.UNSEEN : ob.UNSEEN + 13] = gen.integers(0, 5, 13) * (gen.random(13) < 0.8)
        o[ob.OPP_SLOT : ob.OPP_SLOT + 4] = np.where(gen.random(4) < 0.3, 5, -1)
        known = gen.random(4) < 0.5
        o[ob.SLOT_VALUE : ob.SLOT_VALUE + 4] = np.where(known, gen.choice(values, 4), -1)
        o[ob.SLOT : ob.SLOT + 4] = np.where(known, 0, -1)
        h = o[ob.SLOT_VALUE : ob.SLOT_VALUE + 4].max()
        o[ob.HIGH], o[ob.HIGH_SLOT] = (
            (h, int(np.argmax(o[ob.SLOT_VALUE : ob.SLOT_VALUE + 4]))) if h >= 0 else (-1, -1)
        )
        o[ob.UNKNOWN_SLOT] = int(np.argmax(~known)) if not known.all() else -1
        o[ob.PHASE] = k % 3 == 0
        o[ob.STOCK_LEFT] = gen.integers(0, 42)
        o[ob.DISCARD_VALUE] = gen.choice(values) if gen.random() < 0.9 else -1
        o[ob.HAND_VALUE] = gen.choice(values)
        o[ob.FROM_DISCARD] = gen.random() < 0.3
    turns = gen.choice([0.0, 1.0, 2.84, 5.68, 14.2, 30.0], n) * gen.integers(0, 3, n)
    return rows, turns


def expect_as_written(o: np.ndarray, params: np.ndarray) -> int:
    """expect's rule in plain Python, the reservation value computed first at every
    decision (as the registry's text says it), for the compiled one to agree with."""
    floor, patience, pile, opening = params[0] * 2.0, params[1], params[2] * 2.0, params[3]
    h, h_slot, u, left = o[HIGH], o[HIGH_SLOT], o[UNKNOWN_SLOT], o[STOCK_LEFT]
    if o[PHASE] == SOURCE:
        d = o[DISCARD_VALUE]
        if d < 0:
            return Source.STOCK
        reserve = reservation_nb(o, patience * ((left + 1) // 2))
        return Source.DISCARD_PILE if d <= max(reserve, pile) and (u >= 0 or d < h) else Source.STOCK
    reserve, c = max(reservation_nb(o, patience * (left // 2)), floor), o[HAND_VALUE]
    for holds, answer in (
        (h > c and h > reserve, h_slot),
        (u >= 0 and c <= reserve, u),
        (h > c, h_slot),
        (u >= 0 and left <= opening, u),
        (o[FROM_DISCARD] == 1, h_slot if h_slot >= 0 else u),
    ):
        if holds:
            return answer
    return Place.DISCARD


def test_the_playouts_reservation_and_decisions_are_expects_own() -> None:
    """search's playouts decide with the ranks sorted by value once (expect_in_order_nb):
    the same reservation value and the same answer as expect on every observation, and
    both answer as the rule reads (the compiled one computes the reservation value only
    where the answer depends on it)."""
    rows, turns = random_observations(20_000, 3)
    order = np.empty(13, np.int64)
    params = np.array([1.0, 2.8417279406896636, 0.5, 26.0])
    answers = set()
    for o, t in zip(rows, turns, strict=True):
        value_order_nb(o, order)
        assert [o[ob.VALUE + r] for r in order] == sorted(o[ob.VALUE : ob.VALUE + 13])
        assert reservation_in_order_nb(o, t, order) == reservation_nb(o, t)
        a = expect_in_order_nb(o, params, order)
        assert a == expect_play_nb(o, params, rng()) == expect_as_written(o, params)
        answers.add(int(a))
    assert answers >= {0, 1, 4}  # both sources and throwing away, not one answer everywhere


# The source.


def test_expect_with_an_empty_pile_takes_the_stock() -> None:
    assert expect(make_obs(["♠K", "♥K", None, None], top=None)) == Source.STOCK


def test_expect_takes_an_eight_or_a_jack_from_the_pile() -> None:
    for top in ("♥8", "♥J"):
        assert expect(make_obs(["♠8", "♠2", None, None], top=top)) == Source.DISCARD_PILE
        assert expect(make_obs(["♠A", "♠2", "♦A", "♦K"], top=top)) == Source.DISCARD_PILE  # d < H


def test_expect_leaves_an_early_ace_on_the_pile() -> None:
    """On the first turns R is a jack: 3 x 20 draws counted on, and 3 eights + 4 jacks
    unseen less the opponent's 4 hidden slots, 60 x 3 >= 3 slots x 49 unseen cards.  So an
    ace on the pile is left there; threshold at k=1 would take it."""
    obs = make_obs(["♠8", "♠2", None, None], top="♥A", stock_left=40)
    assert reservation_nb(obs, 3.0 * 20) == 1
    assert expect(obs) == Source.STOCK
    assert threshold(obs, 1) == Source.DISCARD_PILE
    assert expect(obs, pile=1) == Source.DISCARD_PILE  # unless `pile` says aces are always taken


def test_expect_takes_an_ace_from_the_pile_late() -> None:
    assert expect(make_obs(["♠8", "♠2", None, None], top="♥A", stock_left=2)) == Source.DISCARD_PILE


def test_expect_takes_a_pile_card_only_if_it_has_a_place() -> None:
    # all slots known and no worse than the jack on the pile
    assert expect(make_obs(["♠8", "♠J", "♦8", "♦J"], top="♥J", stock_left=1)) == Source.STOCK
    assert expect(make_obs(["♠A", "♠2", "♦A", "♦8"], top="♥K", stock_left=1)) == Source.STOCK


def test_expect_takes_a_useful_discard_top_on_the_last_stock_card() -> None:
    obs = make_obs(["♠A", "♠2", "♦A", "♦4"], top="♥3", stock_left=1)
    assert reservation_nb(obs, 3.0) == 8  # only the 4 is left to improve: R = 4 points
    assert expect(obs) == Source.DISCARD_PILE
    assert threshold(obs, 1) == Source.STOCK


# The placement.


def test_expect_swaps_a_good_card_over_the_worst_known_slot() -> None:
    assert expect(make_obs(["♠3", "♠K", None, None], hand="♥8")) == Place.SLOT1


def test_expect_puts_a_good_card_into_an_unknown_slot_when_the_known_ones_are_low() -> None:
    assert expect(make_obs(["♠A", "♠8", None, None], hand="♥J")) == Place.SLOT2  # H = A is not above k


def test_expect_improves_a_known_slot_with_any_lower_card() -> None:
    assert expect(make_obs(["♠A", "♠8", "♦K", None], hand="♥9")) == Place.SLOT2


def test_expect_opens_an_unknown_slot_once_the_stock_is_low() -> None:
    """A card with no place (not below any known slot, above R) is thrown away while the
    stock holds more than `open` cards, and swapped into an unknown slot after that."""
    slots = ["♠A", "♠2", None, None]
    assert expect(make_obs(slots, hand="♥K", stock_left=30)) == Place.DISCARD
    assert expect(make_obs(slots, hand="♥K", stock_left=25)) == Place.SLOT2
    assert expect(make_obs(slots, hand="♥K", stock_left=30), open_at=30) == Place.SLOT2
    # With 3 draws counted on, R is a nine (3 x (37 - 4) >= 2 slots x 48 unseen): a king has no place.
    obs = make_obs(slots, hand="♥K", stock_left=3)
    assert reservation_nb(obs, 3.0) == 18
    assert expect(obs) == Place.SLOT2
    assert expect(obs, open_at=0) == Place.DISCARD
    # On the last draw anything goes: R is the highest value.
    assert expect(make_obs(slots, hand="♥K", stock_left=1), open_at=0) == Place.SLOT2


def test_expect_throws_away_a_card_that_saves_nothing() -> None:
    assert expect(make_obs(["♠A", "♠2", "♦A", "♦8"], hand="♥K", stock_left=3)) == Place.DISCARD


def test_expect_places_a_pile_card_even_when_it_saves_nothing() -> None:
    obs = make_obs(["♠A", "♠2", "♦A", "♦8"], hand="♥K", from_discard=True, stock_left=30)
    assert expect(obs) in (Place.SLOT0, Place.SLOT1, Place.SLOT2, Place.SLOT3)
    obs = make_obs(["♠A", "♠2", None, None], hand="♥K", from_discard=True, stock_left=30)
    assert expect(obs) == Place.SLOT1  # over the highest known slot, the unknown ones kept


def test_expect_accepts_more_on_the_last_draws() -> None:
    slots = ["♠A", "♠8", None, None]
    assert expect(make_obs(slots, hand="♥5", stock_left=30)) == Place.DISCARD
    assert expect(make_obs(slots, hand="♥5", stock_left=1)) == Place.SLOT2  # no draws left: R = K


def test_expect_k_is_the_lowest_reservation() -> None:
    """With the opponent's slots all public (no low cards hidden there) and 60 draws
    counted on, the reservation alone is an eight (60 x 3 eights >= 3 slots x 44 unseen)."""
    opp = ["♣K", "♦K", "♥Q", "♦Q"]
    jack = make_obs(["♠A", "♠8", None, None], hand="♥J", stock_left=40, opp_slots=opp)
    assert reservation_nb(jack, 60.0) == 0
    assert expect(jack) == Place.SLOT2  # R = max(0, k = 1 point): the ace is not above it
    assert expect(jack, k=0) == Place.SLOT0  # R = 0: the ace is, and the jack goes over it
    three = make_obs(["♠A", "♠8", None, None], hand="♥3", stock_left=40, opp_slots=opp)
    assert expect(three) == Place.DISCARD
    assert expect(three, k=3) == Place.SLOT2


def test_expect_ignores_the_match_totals() -> None:
    for totals in ((0, 0), (10, 30), (30, 10)):
        for target in (0, 42):
            obs = make_obs(["♠A", "♠2", None, None], hand="♥6", totals=totals, target_half=target)
            assert expect(obs) == Place.DISCARD
            obs = make_obs(
                ["♠8", "♠2", None, None], top="♥A", stock_left=40, totals=totals, target_half=target
            )
            assert expect(obs) == Source.STOCK


def test_builtin_ids_dispatch_to_the_strategies() -> None:
    obs = make_obs(["♠A", "♠K", None, None], hand="♥3")
    assert decide_builtin_nb(0, obs, params(), rng()) == passive_nb(obs, params(), rng())
    assert decide_builtin_nb(1, obs, params(), rng()) == random_nb(obs, params(), rng())
    assert decide_builtin_nb(2, obs, params(4), rng()) == threshold_nb(obs, params(4), rng())
    p = params(1, 3, 0.5, 25)
    assert decide_builtin_nb(3, obs, p, rng()) == expect_nb(obs, p, rng())
    assert decide_builtin_nb(4, obs, params(), rng()) == -1  # search is compiled on demand (test_search.py)
