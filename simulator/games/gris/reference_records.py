"""Gris, the records of the readable reference: a round and a match, and how they read as a trace.

The move-by-move record is a list of :class:`~simulator.games.gris.reference_table.Event`
(4-tuples ``(kind, seat, card, other)``): ``(PASS, seat, card, to_seat)`` and
``(EXCHANGE, seat, card, drawn)``.  A pass includes the card's arrival at the
left neighbour, so an exchange is logged right after the pass that brought the
card home, before its owner's own pass (also when that pass was the signalling
pass that ended the round).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from simulator.engine.cards import N_CARDS, name
from simulator.games.gris.reference_table import CARDS_PER_PLAYER, LETTERS, PASS, Event
from simulator.games.gris.variants import ABANDON_AFTER

# --- records ------------------------------------------------------------------


@dataclass
class RoundRecord:
    """Everything that happened in one round; tuples are indexed by seat.

    ``passes`` counts every pass including the signaller's last (RULES.md §1);
    ``signallers`` are the seats dealt a complete five-card hand, or the one
    seat that signalled after passing; ``times`` are the touch times (RULES.md
    §4), empty for a stalled round, whose ``loser`` is -1.
    """

    dealer: int
    six_seat: int
    hands_dealt: tuple[tuple[int, ...], ...]
    events: list[Event]
    passes: int
    stalled: bool
    signallers: tuple[int, ...]
    times: tuple[float, ...]
    loser: int
    final_hands: tuple[tuple[int, ...], ...]


@dataclass
class MatchRecord:
    """A match: every deal in order (stalled ones included), the letters, and the loser.

    ``loser`` is the seat that got all four letters, -1 if the match was abandoned
    after ``ABANDON_AFTER`` stalled rounds in a row; ``counted_rounds`` leaves
    the stalled rounds out (RULES.md §6).
    """

    first_dealer: int
    rounds: list[RoundRecord]
    letters: tuple[int, ...]
    loser: int
    abandoned: bool
    counted_rounds: int


# --- traces ----------------------------------------------------------------------


def _names(n: int, names: Sequence[str] | None) -> list[str]:
    if names is None:
        return [f"seat {s}" for s in range(n)]
    return [f"seat {s} ({names[s]})" for s in range(n)]


def _cards(cards: Sequence[int]) -> str:
    return " ".join(name(c) for c in cards)


def spelled(letters: int) -> str:
    """The letters held so far: 0 -> '-', 2 -> 'G-R'."""
    return "-".join(LETTERS[:letters]) if letters else "-"


def format_round(record: RoundRecord, names: Sequence[str] | None = None) -> str:
    """A pass-by-pass trace of a round, for people (``names`` are the players' names, optional)."""
    n = len(record.hands_dealt)
    who = _names(n, names)
    stock = N_CARDS - CARDS_PER_PLAYER * n - 1
    lines = [f"Deal: {who[record.dealer]} deals; {who[record.six_seat]} holds six; stock {stock} cards."]
    for seat in range(n):
        lines.append(f"  {who[seat]}: {_cards(record.hands_dealt[seat])}")
    if record.events:
        lines.append("Passes:")
    passes = 0
    for ev in record.events:
        if ev.kind == PASS:
            passes += 1
            lines.append(f"  pass {passes:5d}  {who[ev.seat]} passes {name(ev.card)} to {who[ev.other]}")
        else:
            lines.append(
                f"              {who[ev.seat]} gets {name(ev.card)} back after a trip round the table: "
                f"it goes to the bottom of the stock, {who[ev.seat]} draws {name(ev.other)}"
            )
    if record.stalled:
        lines.append(f"Stalled: no signal after {record.passes} passes; no letter.")
        return "\n".join(lines)
    if record.passes == 0:
        sig = ", ".join(who[s] for s in record.signallers)
        lines.append(f"Signal at the deal (0 passes): {sig} dealt five of one suit.")
    else:
        seat = record.signallers[0]
        lines.append(
            f"Signal after pass {record.passes}: {who[seat]} holds "
            f"{_cards(record.final_hands[seat])}, five of one suit."
        )
    lines.append("Thumbs on the table edge (seconds after the hands became complete):")
    order = sorted(range(n), key=lambda s: (record.times[s], s))
    for seat in order:
        how = "signaller" if seat in record.signallers else "reacts to the first thumb"
        lines.append(f"  {record.times[seat]:8.4f}  {who[seat]} ({how})")
    lines.append(f"  {who[record.loser]} is the last to touch and gets a letter.")
    return "\n".join(lines)


def format_match(record: MatchRecord, names: Sequence[str] | None = None) -> str:
    """A round-by-round trace of a match, each round pass by pass, with the letters so far."""
    n = len(record.letters)
    who = _names(n, names)
    lines = [f"Match: {who[record.first_dealer]} deals first (drawn); the dealer moves left each round."]
    letters = [0] * n
    counted = 0
    for deal, rnd in enumerate(record.rounds):
        lines.append("")
        if rnd.stalled:
            lines.append(f"=== Deal {deal}: stalled, re-dealt by the same dealer (not counted) ===")
        else:
            counted += 1
            lines.append(f"=== Round {counted} (deal {deal}) ===")
        lines.append(format_round(rnd, names))
        if not rnd.stalled:
            letters[rnd.loser] += 1
            lines.append(f"  {who[rnd.loser]} now holds {spelled(letters[rnd.loser])}.")
            lines.append("  Letters: " + ", ".join(f"{who[s]} {spelled(letters[s])}" for s in range(n)))
    lines.append("")
    if record.abandoned:
        lines.append(
            f"Match abandoned after {ABANDON_AFTER} stalled rounds in a row "
            f"({record.counted_rounds} counted rounds)."
        )
    else:
        lines.append(
            f"Match over after {record.counted_rounds} round{'s' if record.counted_rounds != 1 else ''}: "
            f"{who[record.loser]} holds G-R-I-S and loses."
        )
    return "\n".join(lines)
