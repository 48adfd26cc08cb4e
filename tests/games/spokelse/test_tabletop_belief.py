"""The table's advice on the belief (tabletop_belief.py): its worlds keep everything you
knew, read nothing you did not, learn from the opponent's play, and are a pure function
of the seed."""

from __future__ import annotations

import copy

import numpy as np
import pytest

from simulator.engine.rng import Stream
from simulator.games.spokelse import tabletop_advice as ta
from simulator.games.spokelse.ladder import TUNED_EXPECT
from simulator.games.spokelse.observation import PHASE, PLACE
from simulator.games.spokelse.tabletop_advice import HUMAN
from simulator.games.spokelse.tabletop_belief import belief_model, belief_tables
from simulator.tabletop import Scripted, play
from simulator.tabletop.session import prepare

OPP = 1 - HUMAN
BOT = "threshold:k=4"


@pytest.fixture(scope="module")
def decisions() -> list[ta.Decision]:
    """Your decisions in a match of always drawing and throwing against ``threshold:k=4``."""
    out = play("spokelse", [BOT], seed=7, rules={"target": "5"}, seat=Scripted(["s", "x"] * 200),
               advice_samples=0)  # fmt: skip
    return [a.decision for a in out.advice]


def worlds(d: ta.Decision, model: str = BOT, n: int = 64, key: int = 3) -> list:
    return belief_tables(d.table, d.obs, d.view, model, n, Stream(11, 0, ta.ADVICE_KEY, d.round, key))


def unseen_places(d: ta.Decision) -> list[tuple[str, int, int]]:
    """The places whose cards you did not know at ``d``."""
    t = d.table
    places = [("slot", HUMAN, i) for i in range(4) if not t.knows_slot[HUMAN][i]]
    places += [("slot", OPP, i) for i in range(4) if not t.public_slot[OPP][i]]
    return places + [("ghost", s, 0) for s in (0, 1)] + [("stock", 0, i) for i in range(len(t.stock))]


def cards_at(t, places) -> list[int]:
    stock = list(t.stock)
    return [t.slots[s][i] if k == "slot" else t.ghosts[s] if k == "ghost" else stock[i] for k, s, i in places]


def layout(t) -> tuple:
    return tuple(map(tuple, t.slots)), tuple(t.ghosts), tuple(t.stock), tuple(t.discard)


def test_the_worlds_keep_what_you_knew_and_put_every_card_once(decisions):
    d = decisions[-1]
    known = [("slot", HUMAN, i) for i in range(4) if d.table.knows_slot[HUMAN][i]]
    known += [("slot", OPP, i) for i in range(4) if d.table.public_slot[OPP][i]]
    in_hand = [int(d.obs[ta.HAND])] if d.obs[PHASE] == PLACE else []
    for t in worlds(d):
        assert cards_at(t, known) == cards_at(d.table, known)
        assert t.discard == d.table.discard and len(t.stock) == len(d.table.stock)
        everything = [c for row in t.slots for c in row] + t.ghosts + list(t.stock) + t.discard + in_hand
        assert sorted(everything) == list(range(52))


def test_the_worlds_read_no_card_you_had_not_seen(decisions):
    """Permuting every card you had not seen (the opponent's slots it knows included)
    leaves the worlds, and so the advice, as they were."""
    gen = np.random.default_rng(5)
    for d in (decisions[len(decisions) // 2], decisions[-1]):
        moved = copy.deepcopy(d)
        places = unseen_places(d)
        stock = list(moved.table.stock)
        for (k, s, i), c in zip(places, gen.permutation(cards_at(d.table, places)).tolist(), strict=True):
            if k == "slot":
                moved.table.slots[s][i] = c
            elif k == "ghost":
                moved.table.ghosts[s] = c
            else:
                stock[i] = c
        moved.table.stock.clear()
        moved.table.stock.extend(stock)
        assert cards_at(moved.table, places) != cards_at(d.table, places)
        assert [layout(t) for t in worlds(moved)] == [layout(t) for t in worlds(d)]


def test_the_worlds_are_a_pure_function_of_the_stream(decisions):
    d = decisions[-1]
    assert [layout(t) for t in worlds(d)] == [layout(t) for t in worlds(d)]
    assert [layout(t) for t in worlds(d, key=4)] != [layout(t) for t in worlds(d)]


def test_the_belief_learns_that_the_opponent_keeps_low_cards(decisions):
    """Late in a round against threshold:k=4 the belief puts lower cards in the
    opponent's hidden slots than the uniform deal does."""
    d = decisions[-1]
    values = d.table.rules.values_half()
    hidden = [("slot", OPP, i) for i in range(4) if not d.table.public_slot[OPP][i]]
    assert hidden

    def mean_value(tables) -> float:
        return float(np.mean([values[c % 13] for t in tables for c in cards_at(t, hidden)]))

    gen = np.random.default_rng(1)
    uniform = mean_value([ta.resample(d, gen) for _ in range(400)])
    belief = mean_value(worlds(d, n=400))
    assert belief < uniform - 2.0, (belief, uniform)  # half points


def test_the_model_is_the_bot_when_the_belief_can_model_it():
    assert belief_model(BOT) == BOT
    assert belief_model("expect:forget=0.1") == TUNED_EXPECT


def test_the_advice_says_how_it_dealt_and_uniform_stays_an_option(decisions):
    *_, setup = prepare("spokelse", [BOT], None, 7, {"target": "5"}, None)
    advisor, bot = setup.players
    tail = decisions[-6:]
    on_belief = ta.advise(tail, advisor, bot, samples=8, seed=7)
    uniform = ta.advise(tail, advisor, bot, samples=8, seed=7, belief="uniform")
    priced = [(a, b) for a, b in zip(on_belief, uniform, strict=True) if a.cost is not None]
    assert priced and all(a.model == BOT and b.model is None for a, b in priced)
    assert [a.cost for a, _ in priced] != [b.cost for _, b in priced]
    assert any("dealt as the play of threshold:k=4" in line for line in ta.advice_lines(on_belief, "expect"))
    assert any("dealt uniformly" in line for line in ta.advice_lines(uniform, "expect"))
    with pytest.raises(ValueError, match="belief must be"):
        ta.advise(tail, advisor, bot, samples=8, seed=7, belief="clairvoyant")
