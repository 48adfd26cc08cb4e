"""Spøkelse at the table: you (seat 0) against a bot, a match to the target.

The game is played by the readable reference (:mod:`simulator.games.spokelse.reference`)
with its own deal, decision and dealer streams, so ``--seed`` replays the same deals
and the bot plays as it does in ``simulate`` (forgetting and slipping too, when it is given
``forget`` or ``slip``: the reference plays them, docs/human-players.md).  Your seat is a player whose ``decide``
shows exactly what the observation holds (your row with ``?`` for the slots you have
not seen, the discard top, the stock count, the opponent's public slots) and asks.
"""

from __future__ import annotations

import copy
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np

from simulator.engine.cards import name
from simulator.engine.formatting import noun, plural
from simulator.games.human_player import HumanPlayer
from simulator.games.spokelse import observation as ob
from simulator.games.spokelse import reference as ref
from simulator.games.spokelse.observation import Place, Source
from simulator.games.spokelse.tabletop_advice import HUMAN, Decision
from simulator.games.spokelse.tabletop_belief import view_of
from simulator.games.spokelse.variants import N_SLOTS, Rules
from simulator.tabletop.console import Left, Seat, choose
from simulator.tabletop.outcome import Outcome

if TYPE_CHECKING:
    from simulator.running.setup import Setup

ADVISOR = "expect"  # the stronger shipped strategy set beside your choices afterwards
points = ref.points


@dataclass
class Human(HumanPlayer):
    """Your seat, as a reference player: ``decide`` renders the observation and asks."""

    seat: Seat
    opponent: str
    decisions: list[Decision] = field(default_factory=list)
    # Set by the table before each turn, for the advice's copy of the state.
    table: ref.Table | None = None
    rngs: Sequence[np.ndarray] = ()
    round: int = 0
    initial_discard: int = -1
    dealt: tuple[int, int] = (-1, -1)  # your slots 0 and 1 as dealt (you looked at them)

    #: Cards face down as at a real table (``--face-down``): you see your slots 0 and 1 once as
    #: the round begins and every card while it is in your hand, then you must remember it.
    face_down: bool = False
    looked: int = -1  # the round whose first look was shown (face down)

    def decide(self, obs: np.ndarray, params: np.ndarray, rng: np.ndarray) -> int:
        if self.face_down and self.looked != self.round:
            self.looked = self.round
            self.seat.show(look_line(obs))
        for line in render(obs, self.opponent, face_down=self.face_down):
            self.seat.show(line)
        choice = ask_source(self.seat, obs) if obs[ob.PHASE] == ob.SOURCE else ask_place(self.seat, obs)
        return self.record(obs, int(choice))

    def record(self, obs: np.ndarray, choice: int) -> int:
        """Keep decision ``choice`` on ``obs`` with what the advice and the memory estimate
        replay it from; returns ``choice``."""
        table = self.table
        public = {self.initial_discard} | {t.discarded for t in table.turns} if table else set()
        self.decisions.append(
            Decision(
                self.round,
                obs.copy(),
                int(choice),
                copy.deepcopy(table),
                (self.rngs[0].copy(), self.rngs[1].copy()),
                frozenset(public),
                self.view(),
            )
        )
        return int(choice)

    def view(self) -> tuple[np.ndarray, np.ndarray, int] | None:
        """Your view of the round so far, as the belief reads it (None off the table)."""
        table = self.table
        if table is None:
            return None
        deal, hist = view_of(table.turns, HUMAN, table.dealer, self.dealt, self.initial_discard)
        return deal, hist, len(table.turns)


# --- what you see -------------------------------------------------------------------


def worth(half: int) -> str:
    """Half points in words: ``1 point``, ``0.5 points``, ``19 points``."""
    return f"{points(half)} {noun(half / 2, 'points')}"


def _slot(card: int, value: int, i: int) -> str:
    return f"{i}:?" if card < 0 else f"{i}:{name(card)} ({points(value)})"


def look_line(obs: np.ndarray) -> str:
    """The look at the deal (face down): the two slots you know, before they are turned over."""
    seen = [f"slot {i}: {name(obs[ob.SLOT + i])} ({worth(obs[ob.SLOT_VALUE + i])})" for i in range(N_SLOTS)
            if obs[ob.SLOT + i] >= 0]  # fmt: skip
    return f"   you look at {' and '.join(seen)}; now they lie face down: remember them"


def render(obs: np.ndarray, opponent: str, face_down: bool = False) -> list[str]:
    """Your view of the table, from the observation alone (nothing hidden is read); with
    ``face_down`` every card in the rows shows only its back (▢), as at a real table."""
    top = (
        "empty"
        if obs[ob.DISCARD_TOP] < 0
        else f"{name(obs[ob.DISCARD_TOP])} ({worth(obs[ob.DISCARD_VALUE])})"
    )
    lines = [
        f"-- turn {obs[ob.TURN] + 1}: stock {plural(int(obs[ob.STOCK_LEFT]), 'cards')}, discard top {top}"
    ]
    if obs[ob.TARGET] > 0:
        lines[0] += (
            f"; match: you {points(obs[ob.MY_TOTAL])}, {opponent} {points(obs[ob.OPP_TOTAL])}, "
            f"target {points(obs[ob.TARGET])}"
        )
    mine = "  ".join(_slot(int(obs[ob.SLOT + i]), int(obs[ob.SLOT_VALUE + i]), i) for i in range(N_SLOTS))
    theirs = "  ".join(
        f"{i}:?" if obs[ob.OPP_SLOT + i] < 0 else f"{i}:{name(obs[ob.OPP_SLOT + i])}" for i in range(N_SLOTS)
    )
    if face_down:
        mine = theirs = "  ".join(f"{i}:▢" for i in range(N_SLOTS))
    if obs[ob.PHASE] != ob.SOURCE:  # the table was shown a moment ago: your row and the card in hand
        where = "the discard pile" if obs[ob.FROM_DISCARD] else "the stock"
        return [
            f"   your row:  {mine}   ghost ?",
            f"   in your hand: {name(obs[ob.HAND])} ({worth(obs[ob.HAND_VALUE])}) from {where}",
        ]
    lines.append(f"   your row:  {mine}   ghost ?")
    lines.append(f"   {opponent}: {theirs}   ghost ?")
    return lines


def ask_source(seat: Seat, obs: np.ndarray) -> Source:
    """Take the stock card or the discard top (when there is one)."""
    options: dict[str, Source] = {"s": Source.STOCK, "stock": Source.STOCK}
    if obs[ob.DISCARD_TOP] < 0:
        return choose(seat, "Take [s] the stock card: ", options, "s (the discard pile is empty)")
    options |= {"d": Source.DISCARD_PILE, "discard": Source.DISCARD_PILE, "pile": Source.DISCARD_PILE}
    top = name(obs[ob.DISCARD_TOP])
    return choose(seat, f"Take [s] the stock card or [d] the {top} on the discard pile? ", options, "s or d")


def ask_place(seat: Seat, obs: np.ndarray) -> Place:
    """Swap the card in hand into a slot, or (a stock card only) throw it away."""
    options: dict[str, Place] = {str(i): Place(i) for i in range(N_SLOTS)}
    card = name(obs[ob.HAND])
    if obs[ob.FROM_DISCARD]:
        return choose(
            seat,
            f"Swap {card} into slot [0-3]? ",
            options,
            "a slot 0, 1, 2 or 3 (a card from the discard pile must be placed)",
        )
    options |= {"x": Place.DISCARD, "throw": Place.DISCARD, "discard": Place.DISCARD}
    return choose(seat, f"Swap {card} into slot [0-3] or [x] throw it away? ", options, "0, 1, 2, 3 or x")


def turn_line(t: ref.Turn, who: str, mine: bool) -> str:
    """A played turn, as the other player sees it (a stock card stays hidden unless discarded)."""
    verb = (lambda v: v) if mine else (lambda v: v + "s")
    if t.source == Source.DISCARD_PILE:
        took = f"{verb('take')} {name(t.taken)} from the discard pile"
    else:
        took = f"{verb('take')} {name(t.taken) if mine else 'a card'} from the stock"
    if t.place == Place.DISCARD:
        return f"   {who} {took} and {verb('throw')} it away: {name(t.discarded)} on the pile"
    return (
        f"   {who} {took}, {verb('swap')} it into slot {t.place}: {name(t.discarded)} comes out onto the pile"
    )


# --- the round and the match ----------------------------------------------------------


def play_round(
    seat: Seat, rules: Rules, players: Sequence, *, seed: int, game: int, deal: int, dealer: int,
    totals_half: tuple[int, int],
) -> ref.RoundRecord:  # fmt: skip
    """One round, as :func:`reference.play_round` plays it in match play, turn by turn on screen."""
    human, bot = players[HUMAN], players[1 - HUMAN]
    table = ref.deal_cards(
        rules, ref.shuffle_deck(seed, game, deal), dealer=dealer, totals_half=totals_half,
        target_half=rules.target_half(),
    )  # fmt: skip
    initial_slots = (tuple(table.slots[0]), tuple(table.slots[1]))
    rngs = ref.decide_streams(seed, game, deal)
    human.table, human.rngs, human.round, human.initial_discard = table, rngs, deal, table.discard[-1]
    human.dealt = (table.slots[HUMAN][0], table.slots[HUMAN][1])
    who = bot.family.name
    first = "you play" if ref.other(dealer) == HUMAN else f"{who} plays"
    seat.show(f"{'you deal' if dealer == HUMAN else f'{who} deals'}, {first} first.")
    while not ref.round_over(table):
        t = ref.play_turn(table, players, rngs)
        line = turn_line(t, "you" if t.seat == HUMAN else bot.family.name, t.seat == HUMAN)
        seat.show(line, style=None if t.seat == HUMAN else "cyan")
    scores = tuple(ref.score_half(table.slots[s], table.ghosts[s], rules) for s in range(2))
    return ref.RoundRecord(
        dealer=dealer,
        ghosts=(table.ghosts[0], table.ghosts[1]),
        initial_slots=initial_slots,
        final_slots=(tuple(table.slots[0]), tuple(table.slots[1])),
        initial_discard=human.initial_discard,
        scores_half=(scores[0], scores[1]),
        capped=ref.capped(table),
        turns=list(table.turns),
    )


def reveal(record: ref.RoundRecord, names: Sequence[str]) -> list[str]:
    """The end of a round: both rows and ghosts turned over, and the scores."""
    n = len(record.turns)
    how = (
        f"capped at {plural(n, 'turns')}, scored as it stands"
        if record.capped
        else f"the stock ran out after {plural(n, 'turns')}"
    )
    lines = [f"End of the round ({how}):"]
    for s in range(2):
        row = " ".join(f"{i}:{name(c)}" for i, c in enumerate(record.final_slots[s]))
        lines.append(
            f"   {names[s]}: row {row}, ghost {name(record.ghosts[s])} = {worth(record.scores_half[s])}"
        )
    a, b = record.scores_half
    lines.append(
        "   a tie" if a == b else f"   {names[0 if a < b else 1]} win{'' if a < b else 's'} the round"
    )
    return lines


def play_match(seat: Seat, rules: Rules, players: Sequence, *, seed: int, game: int = 0) -> ref.MatchRecord:
    """A match to the target, as :func:`reference.play_match` plays it, shown as it goes."""
    bot = players[1 - HUMAN]
    names = ["you", bot.family.name]
    first = ref.first_dealer(seed, game)
    dealer, totals = first, [0, 0]
    rounds: list[ref.RoundRecord] = []
    seat.show(
        f"Spøkelse, a match to {plural(rules.target, 'points')}: you (seat 0) against {bot.spec}; lower is better."
    )
    while True:
        seat.show("")
        seat.show(f"=== Round {len(rounds) + 1} ===")
        record = play_round(
            seat, rules, players, seed=seed, game=game, deal=len(rounds), dealer=dealer,
            totals_half=(totals[0], totals[1]),
        )  # fmt: skip
        rounds.append(record)
        for s in range(2):
            totals[s] += record.scores_half[s]
        for line in reveal(record, names):
            seat.show(line)
        seat.show(
            f"   totals: you {points(totals[0])}, {names[1]} {points(totals[1])} (target {rules.target})"
        )
        if ref.match_over(totals, rules):
            break
        dealer = ref.other(dealer)
    loser = ref.match_loser(totals)
    if loser < 0:
        seat.show(f"Match over after {plural(len(rounds), 'rounds')}: a draw at {worth(totals[0])} each.")
    else:
        seat.show(
            f"Match over after {plural(len(rounds), 'rounds')}: {'you lose' if loser == HUMAN else 'you win'} "
            f"({points(totals[0])} to {points(totals[1])})."
        )
    return ref.MatchRecord(first_dealer=first, rounds=rounds, totals_half=(totals[0], totals[1]), loser=loser)


def sit(
    seat: Seat, setup: Setup, *, samples: int, wait: tuple[float, float], index: int,
    face_down: bool = False, memory: bool = False,
) -> Outcome:  # fmt: skip
    """A match at the table for ``setup`` (seat 0 holds the advisor, seat 1 the bot), then
    the advisor's choices and, with ``samples`` > 0, what yours cost
    (:mod:`~simulator.games.spokelse.tabletop_advice`).  ``wait`` is not used here.
    ``face_down``: the rows' cards show only their backs; ``memory``: estimate your
    ``forget`` from your choices (:mod:`~simulator.games.spokelse.memory_estimate`)."""
    from simulator.games.spokelse import tabletop_advice

    advisor, bot = setup.players
    human = Human(seat, opponent=bot.family.name, face_down=face_down)
    match = play_match(seat, setup.table.rules, [human, bot], seed=setup.seed, game=index)
    seat.show("")
    if samples and human.decisions:
        seat.show(f"Replaying the rounds from your decisions ({plural(samples, 'continuations')} each) ...")
    try:
        advice = tabletop_advice.advise(human.decisions, advisor, bot, samples=samples, seed=setup.seed)
    except KeyboardInterrupt:
        raise Left("stopped while pricing your choices; the match itself was played to its end") from None
    for line in tabletop_advice.advice_lines(advice, advisor.family.name):
        seat.show(line)
    outcome = Outcome(setup.game.name, setup.seed, match, advisor.spec, advice)
    if memory and human.decisions:
        from simulator.games.spokelse.memory_estimate import estimate

        seat.show("Estimating your memory from your choices ...")
        try:
            outcome.memory = estimate(human.decisions, advisor, seed=setup.seed)
        except KeyboardInterrupt:
            raise Left("stopped while estimating your memory; the match was played to its end") from None
        seat.show(outcome.memory.words())
    return outcome
