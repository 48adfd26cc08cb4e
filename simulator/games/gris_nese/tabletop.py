"""Gris-nese at the table: you in seat 0, bots in the others, until two players remain.

Played by the readable reference (:mod:`simulator.games.gris_nese.reference`) with the
engine's streams.  Passing is simultaneous: you choose your card before you see what
anyone else laid down; after each pass step you see the card that came to you from the
right.  When somebody touches the nose you press a key; your measured time takes the
place of your seat's drawn reaction (RULES.md §4).  Once you are out, the bots play the
match to its end and each round is shown in one line.  A bot given ``forget`` or ``slip``
(``--vs follow:forget=0.2``) forgets and slips as in a run (the reference's ``take_turn``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np

from simulator.engine.cards import name
from simulator.engine.formatting import plural
from simulator.games.gris_nese import reference as ref
from simulator.games.gris_nese.observation import HAND, HAND_SIZE, INCOMING, MEMORY, N_MEMORY, STEPS
from simulator.games.gris_nese.variants import ABANDON_AFTER, STALL_CAP
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

ADVISOR = "follow"  # the stronger shipped strategy set beside your choices afterwards


def by_rank(hand: Sequence[int]) -> list[int]:
    """The hand grouped by rank (A K Q J 10 ...), suits ♠ ♥ ♦ ♣ within a rank."""
    return sorted(hand, key=lambda c: (ref.group_of(c), c // 13))


@dataclass
class Human(HumanPlayer):
    """Your seat, as a reference player: ``decide`` shows your hand and asks for a card."""

    seat: Seat
    shadow: Shadow
    passes: list[Pass] = field(default_factory=list)
    round: int = 0

    def decide(self, obs: np.ndarray, params: np.ndarray, rng: np.ndarray) -> int:
        hand = by_rank(int(c) for c in obs[HAND : HAND + HAND_SIZE])
        incoming = int(obs[INCOMING])
        self.seat.show(f"-- pass step {int(obs[STEPS]) + 1}: everyone lays one card to the left at once")
        self.seat.show(f"   your hand: {hand_text(hand, incoming)}")
        return ask_beside_advisor(self.seat, self.shadow, self.passes, self.round, hand, obs, "Lay down")


def play_steps(ctx: MatchContext, table: ref.Table, rngs: Sequence[np.ndarray]) -> list[bool]:
    """Pass steps until somebody holds four of a kind (or the cap), as the reference plays them."""
    playing = HUMAN in table.seats
    signals = ref.signalling(table)
    while not any(signals) and table.steps < ctx.stall_cap:
        ref.pass_step(table, ctx.players, rngs)
        signals = ref.signalling(table)
        if playing:
            i = table.seats.index(HUMAN)
            right = table.seats[i - 1]
            ctx.seat.show(
                f"   step {table.steps}: all {table.m} players laid a card to the left; you laid "
                f"{name(table.events[-table.m + i][2])}, {ctx.names[right]} passed you {name(table.incoming[i])}",
                style="cyan",
            )
    return signals


def signal_text(table: ref.Table, signals: Sequence[bool], names: Sequence[str]) -> tuple[bool, str]:
    i = table.seats.index(HUMAN)
    if signals[i]:
        hand = " ".join(name(c) for c in by_rank(table.hands[i]))
        return True, f">>> four of a kind ({hand})! Press a key: finger on your nose!"
    who = " and ".join(names[s] for s, f in zip(table.seats, signals, strict=True) if f)
    return False, f">>> NOSE: {who} touch{'es' if sum(signals) == 1 else ''} the nose! Press a key!"


def play_round(ctx: MatchContext, *, deal: int, seats: Sequence[int]) -> ref.RoundRecord:
    """One deal as :func:`reference.play_round` plays it, with your reaction measured."""
    m = len(seats)
    hands = ref.deal_hands(ref.shuffle_cards(ctx.seed, ctx.game, deal, m), m)
    table = ref.new_table(ctx.rules, seats, hands)
    hands_dealt = tuple(tuple(sorted(h)) for h in table.hands)
    rngs = ref.decide_streams(ctx.seed, ctx.game, deal, table.seats)
    playing = HUMAN in seats
    if playing:
        ctx.players[HUMAN].shadow.begin(rngs[table.seats.index(HUMAN)])
        ranks = " ".join(ref.RANKS[r] for r in ref.rank_groups(m))
        ctx.seat.show(f"{m} players, ranks in play {ranks}; your hand: {hand_text(by_rank(table.hands[0]))}")
    signals = play_steps(ctx, table, rngs)
    stalled = not any(signals)
    times: tuple[float, ...] = ()
    loser, replayed = -1, False
    if not stalled:
        yours = None
        if playing:
            own, text = signal_text(table, signals, ctx.names)
            yours = react(ctx.seat, ctx.reactions, own, text, ctx.waits)
        times = tuple(touch_times(ctx.seed, ctx.game, deal, table.seats, signals, ctx.profiles, yours))
        replayed = ref.is_unclear(times, ctx.rules.unclear_margin)
        if not replayed:
            loser = table.seats[ref.last_to_touch(times)]
    return ref.RoundRecord(
        deal=deal, seats=tuple(table.seats), groups=ref.rank_groups(m), hands_dealt=hands_dealt,
        events=list(table.events), passes=table.steps, stalled=stalled, replayed=replayed,
        signallers=tuple(s for s, f in zip(table.seats, signals, strict=True) if f), times=times,
        loser=loser, final_hands=tuple(tuple(sorted(h)) for h in table.hands),
        unclear_margin=float(ctx.rules.unclear_margin),
    )  # fmt: skip


def reveal(ctx: MatchContext, rec: ref.RoundRecord, was_playing: bool) -> None:
    """The end of a round: every hand, the touches, who leaves (one line once you are out)."""
    show = ctx.seat.show
    if rec.stalled:
        show(
            f"Stalled: no four of a kind after {plural(rec.passes, 'pass steps')}; nobody leaves, dealt again."
        )
        return
    if not was_playing:
        how = (
            "replayed (too close to tell)"
            if rec.replayed
            else f"{ctx.names[rec.loser]} touches last and leaves"
        )
        show(f"   {len(rec.seats)} players, {plural(rec.passes, 'pass steps')}: {how}")
        return
    show(f"End of the round after {plural(rec.passes, 'pass steps')}. The hands:")
    for s, hand in zip(rec.seats, rec.final_hands, strict=True):
        mark = " (four of a kind)" if s in rec.signallers else ""
        show(f"   {ctx.names[s]}: {' '.join(name(c) for c in by_rank(hand))}{mark}")
    flags = [s in rec.signallers for s in rec.seats]
    show("Touches of the nose (seconds after the first hand became complete):")
    for line in times_lines(rec.times, rec.seats, flags, ctx.names):
        show(line)
    if rec.replayed:
        show(
            f"   the two latest touches are less than {rec.unclear_margin:g} s apart: replayed, nobody leaves"
        )
    else:
        out = "you are" if rec.loser == HUMAN else f"{ctx.names[rec.loser]} is"
        show(f"   {out} last and leave{'' if rec.loser == HUMAN else 's'} the game")


def play_match(ctx: MatchContext) -> ref.MatchRecord:
    """A match as :func:`reference.play_match` plays it: until two players remain."""
    n = len(ctx.players)
    seats, places, out = list(range(n)), [0] * n, []
    rounds: list[ref.RoundRecord] = []
    in_a_row, abandoned = 0, False
    while len(seats) > ref.WINNERS:
        playing = HUMAN in seats
        if playing:
            ctx.seat.show("")
            ctx.seat.show(f"=== Round {len(out) + 1} (deal {len(rounds)}) ===")
            ctx.players[HUMAN].round = len(out)
        rec = play_round(ctx, deal=len(rounds), seats=seats)
        rounds.append(rec)
        reveal(ctx, rec, playing)
        if not rec.counted:
            in_a_row += 1
            if in_a_row >= ABANDON_AFTER:
                abandoned = True
                ctx.seat.show(f"Match abandoned after {ABANDON_AFTER} stalled or replayed rounds in a row.")
                break
            continue
        in_a_row = 0
        places[rec.loser] = len(seats)
        out.append(rec.loser)
        seats.remove(rec.loser)
        if rec.loser == HUMAN and len(seats) > ref.WINNERS:
            ctx.seat.show(f"You are out, in place {places[HUMAN]}; the bots play on:")
    winners: tuple[int, ...] = () if abandoned else tuple(seats)
    for s in winners:
        places[s] = 1
    if not abandoned:
        you = (
            "you are one of the two winners" if HUMAN in winners else f"you finished in place {places[HUMAN]}"
        )
        ctx.seat.show(f"Match over: {' and '.join(ctx.names[s] for s in winners)} win together; {you}.")
    return ref.MatchRecord(
        n_players=n, rounds=rounds, places=tuple(places), winners=winners, abandoned=abandoned,
        counted_rounds=len(out), out_order=tuple(out),
    )  # fmt: skip


def sit(seat: Seat, setup: Setup, *, samples: int, wait: tuple[float, float], index: int) -> Outcome:
    """A match at the table for ``setup`` (seat 0 holds the advisor, the others the bots),
    then how often the advisor would have laid down your card.  ``samples`` is not used here."""
    memory = slice(MEMORY, MEMORY + N_MEMORY)  # the memory fields of a Gris-nese observation
    return sit_match(
        seat,
        setup,
        Human,
        memory,
        play_match,
        STALL_CAP,
        index=index,
        wait=wait,
        verb="laid down",
        noun="pass step",
    )
