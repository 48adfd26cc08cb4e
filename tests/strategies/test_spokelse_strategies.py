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

from simulator.cards import N_RANKS, N_SUITS, parse_card, rank_of
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
from simulator.games.spokelse.variants import Rules
from simulator.rng import Stream
from strategies.spokelse import decide_builtin_nb, expect_nb, passive_nb, random_nb, threshold_nb

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


def expect(obs: np.ndarray, margin: float = 0.0, risk: float = 0.5) -> int:
    return int(expect_nb(obs, params(margin, risk), rng()))


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
    phase=st.sampled_from(["source", "stock card", "pile card"]),
    empty_pile=st.booleans(),
    stock_left=st.integers(0, 41),
    margin=st.integers(0, 26).map(lambda m: m / 2),
    risk=st.floats(0, 3),
    totals=st.tuples(st.integers(0, 60), st.integers(0, 60)),
    match=st.booleans(),
    jack=st.sampled_from([0.5, 11]),
)
def test_expect_never_answers_illegally(
    picked: list[str],
    known: list[bool],
    phase: str,
    empty_pile: bool,
    stock_left: int,
    margin: float,
    risk: float,
    totals: tuple[int, int],
    match: bool,
    jack: float,
) -> None:
    slots = [c if k else None for c, k in zip(picked[:4], known, strict=True)]
    rules = Rules(jack=jack)
    common = dict(
        rules=rules,
        stock_left=stock_left,
        totals=totals,
        target_half=rules.target_half() if match else 0,
        seen=picked[6:],
        opp_slots=[picked[5], None, None, None],
    )
    if phase == "source":
        obs = make_obs(slots, top=None if empty_pile else picked[4], **common)
        action = expect(obs, margin, risk)
        assert action in (Source.STOCK, Source.DISCARD_PILE)
        if empty_pile:
            assert action == Source.STOCK
    else:
        from_pile = phase == "pile card"
        top = None if empty_pile else picked[6]
        obs = make_obs(slots, hand=picked[4], from_discard=from_pile, top=top, **common)
        action = expect(obs, margin, risk)
        assert action in tuple(Place)
        if from_pile:
            assert action != Place.DISCARD


def test_expect_swaps_a_good_card_over_the_worst_known_slot() -> None:
    obs = make_obs(["♠3", "♠K", None, None], hand="♥8")
    assert expect(obs) == Place.SLOT1


def test_expect_puts_a_good_card_into_an_unknown_slot_when_the_known_ones_are_low() -> None:
    obs = make_obs(["♠A", "♠2", None, None], hand="♥8")
    assert expect(obs) == Place.SLOT2  # an unknown card is worth the unseen mean, about 5.5 points


def test_expect_throws_away_a_card_that_saves_nothing() -> None:
    obs = make_obs(["♠A", "♠2", "♦A", "♦8"], hand="♥K")
    assert expect(obs) == Place.DISCARD


def test_expect_respects_its_margin() -> None:
    obs = make_obs(["♠A", "♠2", "♦A", "♦4"], hand="♥3")  # saves 1 point over the four
    assert expect(obs, margin=0) == Place.SLOT3
    assert expect(obs, margin=1) == Place.DISCARD  # a saving must exceed the margin
    assert expect(obs, margin=0.5) == Place.SLOT3


def test_expect_places_a_pile_card_even_when_the_saving_is_small() -> None:
    obs = make_obs(["♠A", "♠2", "♦A", "♦4"], hand="♥3", from_discard=True)
    assert expect(obs, margin=5) == Place.SLOT3


def test_expect_takes_a_free_eight_against_a_king() -> None:
    assert expect(make_obs(["♠K", "♠2", "♠A", "♠3"], top="♥8")) == Source.DISCARD_PILE


def test_expect_leaves_a_discard_top_that_saves_nothing() -> None:
    assert expect(make_obs(["♠A", "♠2", "♦A", "♦8"], top="♥K")) == Source.STOCK
    assert expect(make_obs(["♠A", "♠2", "♦A", "♦8"], top="♥K", stock_left=1)) == Source.STOCK


def test_expect_takes_a_useful_discard_top_on_the_last_stock_card() -> None:
    obs = make_obs(["♠A", "♠2", "♦A", "♦4"], top="♥3", stock_left=1)
    assert expect(obs) == Source.DISCARD_PILE


def test_expect_with_an_empty_pile_takes_the_stock() -> None:
    assert expect(make_obs(["♠K", "♥K", None, None], top=None)) == Source.STOCK


def test_expect_risk_in_match_play() -> None:
    """Ahead, an unknown slot is feared (worth more than its mean); behind, less feared."""
    slots = ["♠A", "♠2", None, None]
    ahead = dict(totals=(10, 30), target_half=42)
    behind = dict(totals=(30, 10), target_half=42)
    assert expect(make_obs(slots, hand="♥6"), risk=1) == Place.DISCARD  # 6 > the unseen mean
    assert expect(make_obs(slots, hand="♥6", **ahead), risk=1) == Place.SLOT2
    assert expect(make_obs(slots, hand="♥6", **behind), risk=1) == Place.DISCARD
    assert expect(make_obs(slots, hand="♥5", **behind), risk=0) == Place.SLOT2
    assert expect(make_obs(slots, hand="♥5", **behind), risk=1) == Place.DISCARD
    # risk has no effect outside match play
    assert expect(make_obs(slots, hand="♥6", totals=(10, 30)), risk=1) == Place.DISCARD


def test_builtin_ids_dispatch_to_the_strategies() -> None:
    obs = make_obs(["♠A", "♠K", None, None], hand="♥3")
    assert decide_builtin_nb(0, obs, params(), rng()) == passive_nb(obs, params(), rng())
    assert decide_builtin_nb(1, obs, params(), rng()) == random_nb(obs, params(), rng())
    assert decide_builtin_nb(2, obs, params(4), rng()) == threshold_nb(obs, params(4), rng())
    assert decide_builtin_nb(3, obs, params(0, 0.5), rng()) == expect_nb(obs, params(0, 0.5), rng())
    assert decide_builtin_nb(4, obs, params(), rng()) == -1
