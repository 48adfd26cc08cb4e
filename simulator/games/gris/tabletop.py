"""Gris at the table: you in seat 0, bots in the other seats, a match to G-R-I-S.

Played by the readable reference (:mod:`simulator.games.gris.reference`) with the
engine's streams: ``--seed`` replays the same deals and the bots play as in
``simulate``.  You see your hand sorted by suit and the card passed to you; of the
other seats only what the table shows (a card passed, a card sent under the stock).
When somebody's thumb goes down you press a key; your measured time takes the place of
your seat's drawn reaction time (RULES.md §4), everybody else's is drawn as in a run.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np

from simulator.engine.cards import name
from simulator.engine.formatting import plural
from simulator.games.gris import reference as ref
from simulator.games.gris.observation import (
    HAND,
    HAND_SIZE,
    INCOMING,
    INCOMING_DRAWN,
    MEMORY,
    N_MEMORY,
    PASSES,
)
from simulator.games.gris.variants import ABANDON_AFTER, STALL_CAP
from simulator.games.human_player import HumanPlayer
from simulator.tabletop.console import Seat
from simulator.tabletop.outcome import Outcome
from simulator.tabletop.passing import (
    HUMAN,
    MatchContext,
    Pass,
    Shadow,
    ask_beside_advisor,
    hand_text,
    react,
    sit_match,
    times_lines,
    touch_times,
)

if TYPE_CHECKING:
    from simulator.running.setup import Setup

ADVISOR = "reader"  # the stronger shipped strategy set beside your choices afterwards


@dataclass
class Human(HumanPlayer):
    """Your seat, as a reference player: ``decide`` shows your hand and asks for a card."""

    seat: Seat
    shadow: Shadow
    letters: Callable[[], str] = lambda: ""
    passes: list[Pass] = field(default_factory=list)
    round: int = 0
    held: set[int] = field(default_factory=set)  # every card you have held this round

    def decide(self, obs: np.ndarray, params: np.ndarray, rng: np.ndarray) -> int:
        hand = [int(c) for c in obs[HAND : HAND + int(obs[HAND_SIZE])]]
        self.held.update(hand)
        incoming = int(obs[INCOMING])
        got = ""
        if incoming >= 0:
            got = f"; you {'drew' if obs[INCOMING_DRAWN] else 'were passed'} {name(incoming)} (*)"
        self.seat.show(f"-- pass {int(obs[PASSES]) + 1}{got}; letters: {self.letters()}")
        self.seat.show(f"   your hand: {hand_text(hand, incoming)}")
        return ask_beside_advisor(self.seat, self.shadow, self.passes, self.round, hand, obs, "Pass")


def event_line(ev: ref.Event, names: Sequence[str], held: set[int]) -> str:
    """A move as you see it: the cards you cannot see stay hidden."""
    who = names[ev.seat]
    if ev.kind == ref.PASS:
        if ev.seat == HUMAN:
            return f"   you pass {name(ev.card)} to {names[ev.other]}"
        if ev.other == HUMAN:
            return f"   {who} passes you {name(ev.card)}"
        return f"   {who} passes a card to {names[ev.other]}"
    if ev.seat == HUMAN:
        return (
            f"   {name(ev.card)} came back to you round the table: under the stock, you draw {name(ev.other)}"
        )
    card = name(ev.card) if ev.card in held else "a card"
    return f"   {who} gets {card} back round the table: it goes under the stock, {who} draws a card"


def play_deal(
    ctx: MatchContext, table: ref.Table, rngs: Sequence[np.ndarray]
) -> tuple[tuple[int, ...], bool]:
    """:func:`reference.play_deal`, each move on screen as it happens."""
    human, shown = ctx.players[HUMAN], 0
    human.held = set(table.hands[HUMAN])
    dealt = ref.dealt_signallers(table)
    if dealt:
        return dealt, False
    while table.passes < ctx.stall_cap:
        seat = table.to_play
        signalled = ref.play_turn(table, ctx.players, rngs)
        for ev in table.events[shown:]:
            ctx.seat.show(event_line(ev, ctx.names, human.held), style=None if ev.seat == HUMAN else "cyan")
        shown = len(table.events)
        human.held.update(table.hands[HUMAN])
        if signalled:
            return (seat,), False
    return (), True


def signal_text(signallers: Sequence[int], names: Sequence[str], passes: int) -> tuple[bool, str]:
    own = HUMAN in signallers
    if own:
        how = "as dealt" if passes == 0 else "after your pass"
        return True, f">>> five of one suit {how}! Press a key: thumb on the table edge!"
    who = " and ".join(names[s] for s in signallers)
    return (
        False,
        f">>> THUMB: {who} put{'s' if len(signallers) == 1 else ''} a thumb on the table edge! Press a key!",
    )


def play_round(ctx: MatchContext, *, deal: int, dealer: int) -> ref.RoundRecord:
    """One deal as :func:`reference.play_round` plays it, with your reaction measured."""
    n = len(ctx.players)
    table = ref.deal_cards(ctx.rules, ref.shuffle_deck(ctx.seed, ctx.game, deal), n, dealer)
    hands_dealt = tuple(tuple(h) for h in table.hands)
    rngs = ref.seat_streams(ctx.seed, ctx.game, deal, ctx.players)
    human = ctx.players[HUMAN]
    human.shadow.begin(rngs[HUMAN])
    six = ref.six_card_seat(dealer, n)
    ctx.seat.show(
        f"{ctx.names[dealer]} deal{'' if dealer == HUMAN else 's'}; {ctx.names[six]} hold{'' if six == HUMAN else 's'} six."
    )
    ctx.seat.show(f"   your hand: {hand_text(table.hands[HUMAN])}")
    signallers, stalled = play_deal(ctx, table, rngs)
    times: tuple[float, ...] = ()
    loser = -1
    if not stalled:
        own, text = signal_text(signallers, ctx.names, table.passes)
        yours = react(ctx.seat, ctx.reactions, own, text, ctx.waits)
        flags = [s in signallers for s in range(n)]
        times = tuple(touch_times(ctx.seed, ctx.game, deal, range(n), flags, ctx.profiles, yours))
        loser = ref.last_to_touch(times)
    return ref.RoundRecord(
        dealer=dealer, six_seat=six, hands_dealt=hands_dealt, events=list(table.events),
        passes=table.passes, stalled=stalled, signallers=signallers, times=times, loser=loser,
        final_hands=tuple(tuple(h) for h in table.hands),
    )  # fmt: skip


def reveal(ctx: MatchContext, record: ref.RoundRecord) -> None:
    """The end of a round: every hand, the touches, the letter."""
    show = ctx.seat.show
    if record.stalled:
        show(
            f"Stalled: no signal after {plural(record.passes, 'passes')}; no letter, the same dealer deals again."
        )
        return
    show(f"End of the round after {plural(record.passes, 'passes')}. The hands:")
    for s, hand in enumerate(record.final_hands):
        mark = " (five of one suit)" if s in record.signallers else ""
        show(f"   {ctx.names[s]}: {' '.join(name(c) for c in hand)}{mark}")
    flags = [s in record.signallers for s in range(len(record.final_hands))]
    show("Thumbs on the table edge (seconds after the first hand became complete):")
    for line in times_lines(record.times, range(len(flags)), flags, ctx.names):
        show(line)
    show(
        f"   {ctx.names[record.loser]} {'are' if record.loser == HUMAN else 'is'} last and get{'' if record.loser == HUMAN else 's'} a letter."
    )


def play_match(ctx: MatchContext) -> ref.MatchRecord:
    """A match as :func:`reference.play_match` plays it: letters G-R-I-S, stalls re-dealt."""
    n = len(ctx.players)
    first = ref.first_dealer(ctx.seed, ctx.game, n)
    dealer, letters = first, [0] * n
    ctx.players[HUMAN].letters = lambda: ", ".join(
        f"{ctx.names[s]} {ref.spelled(letters[s])}" for s in range(n)
    )
    rounds: list[ref.RoundRecord] = []
    stalled_in_a_row = counted = 0
    while True:
        ctx.seat.show("")
        ctx.seat.show(f"=== Round {counted + 1} (deal {len(rounds)}) ===")
        ctx.players[HUMAN].round = counted
        record = play_round(ctx, deal=len(rounds), dealer=dealer)
        rounds.append(record)
        reveal(ctx, record)
        if record.stalled:
            stalled_in_a_row += 1
            if stalled_in_a_row >= ABANDON_AFTER:
                ctx.seat.show(f"Match abandoned after {ABANDON_AFTER} stalled rounds in a row.")
                return ref.MatchRecord(first, rounds, tuple(letters), -1, True, counted)
            continue
        stalled_in_a_row = 0
        counted += 1
        letters[record.loser] += 1
        ctx.seat.show(
            "   letters: " + ", ".join(f"{ctx.names[s]} {ref.spelled(letters[s])}" for s in range(n))
        )
        if letters[record.loser] == len(ref.LETTERS):
            loser = "you hold" if record.loser == HUMAN else f"{ctx.names[record.loser]} holds"
            ctx.seat.show(
                f"Match over after {counted} rounds: {loser} G-R-I-S and lose{'' if record.loser == HUMAN else 's'}."
            )
            return ref.MatchRecord(first, rounds, tuple(letters), record.loser, False, counted)
        dealer = ref.left_of(dealer, n)


def sit(seat: Seat, setup: Setup, *, samples: int, wait: tuple[float, float], index: int) -> Outcome:
    """A match at the table for ``setup`` (seat 0 holds the advisor, the others the bots),
    then how often the advisor would have passed your card.  ``samples`` is not used here."""
    memory = slice(MEMORY, MEMORY + N_MEMORY)  # the memory fields of a Gris observation
    return sit_match(seat, setup, Human, memory, play_match, STALL_CAP, index=index, wait=wait, verb="passed")
