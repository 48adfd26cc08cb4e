"""After a Spøkelse match: what ``expect`` would have chosen at each of your decisions,
and what your choice cost where it differed.

The cost of a decision is estimated by replaying the rest of its round from it, once with
your choice and once with the advisor's, on ``samples`` continuations drawn from what you
knew then.  By default they come from the belief (:mod:`.tabletop_belief`): the cards you
had not seen are dealt as your opponent's play so far makes them likely, under a model of
it (the bot itself when the belief can model it, tuned ``expect`` otherwise).  With
``belief="uniform"`` they are dealt afresh into the same places (your unknown slots, the
opponent's hidden slots, both ghosts and the stock, in its order) uniformly, as before.
Both branches of a continuation play the same cards and the same decision streams; after
the decision your seat is played by the advisor and the other seat by its own strategy.
The cost is the paired difference of (your round score minus the opponent's), in points,
with a 95% normal interval: positive means your choice did worse.
"""

from __future__ import annotations

import copy
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from simulator.engine.cards import name
from simulator.engine.formatting import plural
from simulator.engine.rng import Stream
from simulator.engine.stats import z_value
from simulator.games.spokelse import reference as ref
from simulator.games.spokelse.observation import (
    DISCARD_TOP,
    FROM_DISCARD,
    HAND,
    PHASE,
    SLOT,
    SOURCE,
    TURN,
    Place,
    Source,
)
from simulator.games.spokelse.tabletop_belief import belief_model, belief_tables
from simulator.games.spokelse.variants import N_SLOTS

ADVICE_KEY = 0x5B0E1  # the advice's own sampling stream: it never touches the game's streams


HUMAN = 0  # your seat at the table; the bot sits in seat 1


@dataclass
class Decision:
    """One of your decisions, with what the advice needs to replay the round from it."""

    round: int
    obs: np.ndarray
    choice: int
    table: ref.Table  # the table as it stood (a copy), the card in hand included
    rngs: tuple[np.ndarray, np.ndarray]  # both seats' DECIDE streams as they stood
    public: frozenset[int]  # every card discarded so far in the round (seen by both)
    # your view of the round so far, as the belief reads it (tabletop_belief.view_of): deal, hist, turns
    view: tuple[np.ndarray, np.ndarray, int] | None = None


@dataclass(frozen=True)
class Advice:
    """One decision: yours, the advisor's, and (when they differ) the estimated cost."""

    decision: Decision
    advised: int
    cost: float | None = None  # points of round score difference; positive: yours did worse
    cost_ci: tuple[float, float] | None = None
    samples: int = 0
    model: str | None = None  # the belief's model of the opponent; None: the uniform deal


def advised_choice(advisor, d: Decision) -> int:
    """What ``advisor`` answers on your observation, with your seat's stream as it stood."""
    return int(advisor.decide(d.obs.copy(), advisor.params, d.rngs[HUMAN].copy()))


def resample(d: Decision, gen: np.random.Generator) -> ref.Table:
    """A table that agrees with everything you knew at the decision, the rest dealt afresh."""
    t = copy.deepcopy(d.table)
    opp = 1 - HUMAN
    places: list[tuple[str, int, int]] = []
    places += [("slot", HUMAN, i) for i in range(N_SLOTS) if not t.knows_slot[HUMAN][i]]
    places += [("slot", opp, i) for i in range(N_SLOTS) if not t.public_slot[opp][i]]
    places += [("ghost", s, 0) for s in range(2)]
    places += [("stock", 0, i) for i in range(len(t.stock))]
    stock = list(t.stock)

    def card_at(p: tuple[str, int, int]) -> int:
        kind, s, i = p
        return t.slots[s][i] if kind == "slot" else t.ghosts[s] if kind == "ghost" else stock[i]

    cards = [card_at(p) for p in places]
    for (kind, s, i), c in zip(places, gen.permutation(cards).tolist(), strict=True):
        if kind == "slot":
            t.slots[s][i] = c
        elif kind == "ghost":
            t.ghosts[s] = c
        else:
            stock[i] = c
    t.stock.clear()
    t.stock.extend(stock)
    return t


def with_opponent_memory(d: Decision, t: ref.Table) -> ref.Table:
    """``t`` with what the opponent has seen in it: every card discarded so far and its own
    known slots (a bot that forgets starts the continuation remembering every discard: what
    it forgot is hidden)."""
    opp = 1 - HUMAN
    t.seen[opp] = set(d.public) | {t.slots[opp][i] for i in range(N_SLOTS) if t.knows_slot[opp][i]}
    return t


def finish_turn(table: ref.Table, seat: int, card: int, source: Source, place: Place) -> None:
    """The end of a turn begun with ``card`` in hand, as :func:`reference.play_turn` ends it."""
    if place == Place.DISCARD:
        ref.throw_on_discard(table, card)
        discarded = card
    else:
        discarded = ref.swap_into_slot(table, seat, int(place), card, source == Source.DISCARD_PILE)
    table.turns.append(ref.Turn(table.turn, seat, int(source), card, int(place), discarded))
    table.turn += 1


def play_out(d: Decision, table: ref.Table, choice: int, players: Sequence) -> int:
    """The rest of the round from decision ``d`` with ``choice``; your score minus the other's."""
    rngs = [d.rngs[0].copy(), d.rngs[1].copy()]
    if d.obs[PHASE] == SOURCE:
        source = Source(choice)
        card = ref.take_from_stock(table, HUMAN) if source == Source.STOCK else ref.take_from_discard(table)
        place = ref.choose_place(table, players[HUMAN], HUMAN, card, source, rngs[HUMAN])
    else:
        card = int(d.obs[HAND])
        source = Source.DISCARD_PILE if d.obs[FROM_DISCARD] else Source.STOCK
        place = Place(choice)
    finish_turn(table, HUMAN, card, source, place)
    while not ref.round_over(table):
        ref.play_turn(table, players, rngs)
    mine, theirs = (ref.score_half(table.slots[s], table.ghosts[s], table.rules) for s in (HUMAN, 1 - HUMAN))
    return mine - theirs


def worlds(d: Decision, samples: int, seed: int, k: int, model: str | None) -> list[ref.Table]:
    """The ``samples`` continuations' tables of decision ``k``: from the belief under
    ``model``, or uniform (``model`` None)."""
    if model is None:
        gen = np.random.default_rng([ADVICE_KEY, seed & (2**63 - 1), k])
        tables = [resample(d, gen) for _ in range(samples)]
    else:
        if d.view is None:
            raise ValueError("a decision without its view of the round cannot be priced on the belief")
        tables = belief_tables(
            d.table, d.obs, d.view, model, samples, Stream(seed, 0, ADVICE_KEY, d.round, k)
        )
    return [with_opponent_memory(d, t) for t in tables]


def cost_of(
    d: Decision, advised: int, players: Sequence, samples: int, seed: int, k: int, model: str | None = None
) -> Advice:
    """The paired cost of your choice against the advisor's on ``samples`` continuations
    (drawn from the belief under ``model``; uniform when it is None)."""
    diffs = np.empty(samples)
    for j, world in enumerate(worlds(d, samples, seed, k, model)):
        yours = play_out(d, copy.deepcopy(world), d.choice, players)
        theirs = play_out(d, world, advised, players)
        diffs[j] = (yours - theirs) / 2  # half points to points
    mean = float(diffs.mean())
    half = z_value() * float(diffs.std(ddof=1)) / np.sqrt(samples) if samples > 1 else float("nan")
    return Advice(d, advised, mean, (mean - half, mean + half), samples, model)


def advise(
    decisions: Sequence[Decision], advisor, bot, *, samples: int, seed: int, belief: str = "model"
) -> list[Advice]:
    """Every decision with the advisor's choice; the cost where they differ (``samples`` > 0),
    on continuations from the belief (``belief="model"``, its model chosen by
    :func:`~.tabletop_belief.belief_model`) or from the uniform deal (``"uniform"``)."""
    if belief not in ("model", "uniform"):
        raise ValueError(f"belief must be 'model' or 'uniform', not {belief!r}")
    model = belief_model(bot.spec) if belief == "model" else None
    players = [advisor, bot] if HUMAN == 0 else [bot, advisor]
    out = []
    for k, d in enumerate(decisions):
        advised = advised_choice(advisor, d)
        if advised == d.choice or samples <= 0:
            out.append(Advice(d, advised))
        else:
            out.append(cost_of(d, advised, players, samples, seed, k, model))
    return out


def choice_words(d: Decision, choice: int) -> str:
    """A choice in words, naming the cards it moves as you saw them: ``take the discard top
    (♣Q)``, ``throw ♥3 away``, ``swap ♥3 into slot 2 (in place of ♦K)``."""
    obs = d.obs
    if obs[PHASE] == SOURCE:
        return (
            "take the stock card"
            if choice == Source.STOCK
            else f"take the discard top ({name(obs[DISCARD_TOP])})"
        )
    card = name(int(obs[HAND]))
    if choice == Place.DISCARD:
        return f"throw {card} away"
    held = int(obs[SLOT + choice])
    return f"swap {card} into slot {choice} (in place of {'a card you had not seen' if held < 0 else name(held)})"


def advice_lines(advice: Sequence[Advice], advisor: str) -> list[str]:
    """The advice in words: each decision that differed, its cost, and the sum."""
    differ = [a for a in advice if a.advised != a.decision.choice]
    lines = [
        f"Your {plural(len(advice), 'decisions')} against {advisor}'s: the same in {len(advice) - len(differ)}, "
        f"different in {len(differ)}."
    ]
    priced = next((a for a in differ if a.cost is not None), None)
    if priced is not None:
        lines.append(
            "   (the cards you had not seen dealt uniformly)"
            if priced.model is None
            else f"   (the cards you had not seen dealt as the play of {priced.model} makes them likely)"
        )
    total, spread, known = 0.0, 0.0, 0
    for a in differ:
        d = a.decision
        what = "source" if d.obs[PHASE] == SOURCE else "placement"
        line = (
            f"   round {d.round + 1}, turn {int(d.obs[TURN]) + 1} ({what}): you chose to "
            f"{choice_words(d, d.choice)}, {advisor} would {choice_words(d, a.advised)}"
        )
        if a.cost is not None:
            lo, hi = a.cost_ci or (float("nan"), float("nan"))
            line += (
                f"; cost {a.cost:+.2f} points [{lo:+.2f}, {hi:+.2f}] ({plural(a.samples, 'continuations')})"
            )
            total, spread, known = total + a.cost, spread + ((hi - lo) / 2) ** 2, known + 1
        lines.append(line)
    if known:
        lines.append(
            f"   summed over {'this decision' if known == 1 else f'these {known} decisions'}: "
            f"{total:+.2f} points [{total - spread**0.5:+.2f}, "
            f"{total + spread**0.5:+.2f}] of round score difference "
            "(positive: your choices did worse; replayed from what you knew, see docs/play.md)"
        )
    return lines
