"""Spøkelse, the records of the readable reference: a round and a match, and how they read as a trace.

Numbering: seats are 0 and 1; ``Turn.turn`` counts from 0 and equals the
``obs[TURN]`` the player saw (the number of turns finished before it); a trace
numbers turns from 1.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from simulator.engine.cards import N_CARDS, name
from simulator.games.spokelse.observation import Place, Source
from simulator.games.spokelse.reference_table import CARDS_PER_PLAYER, LOOKED_AT, N_SEATS, Turn, other

# --- records ------------------------------------------------------------------


@dataclass
class RoundRecord:
    """Everything that happened in one round; tuples are indexed by seat."""

    dealer: int
    ghosts: tuple[int, int]
    initial_slots: tuple[tuple[int, ...], tuple[int, ...]]
    final_slots: tuple[tuple[int, ...], tuple[int, ...]]
    initial_discard: int
    scores_half: tuple[int, int]
    capped: bool
    turns: list[Turn]


@dataclass
class MatchRecord:
    """A match: its rounds in order, the final totals, and the loser (-1 for a draw)."""

    first_dealer: int
    rounds: list[RoundRecord]
    totals_half: tuple[int, int]
    loser: int


# --- traces ----------------------------------------------------------------------


def points(half: int) -> str:
    """Half points as points: 7 -> '3.5', 38 -> '19'."""
    return str(half // 2) if half % 2 == 0 else f"{half / 2:.1f}"


def _names(names: Sequence[str] | None) -> list[str]:
    if names is None:
        return [f"seat {s}" for s in range(N_SEATS)]
    return [f"seat {s} ({names[s]})" for s in range(N_SEATS)]


def _row(cards: Sequence[int]) -> str:
    return " ".join(f"{i}:{name(c)}" for i, c in enumerate(cards))


def format_round(record: RoundRecord, *, names: Sequence[str] | None = None) -> str:
    """A turn-by-turn trace of a round, for people (``names`` are the players' names, optional)."""
    who = _names(names)
    first = other(record.dealer)
    lines = [f"Deal: {who[record.dealer]} deals, {who[first]} plays first."]
    for seat in (first, record.dealer):
        row = "  ".join(
            f"{i}:{name(c)}" + (" (looked at)" if i in LOOKED_AT else "")
            for i, c in enumerate(record.initial_slots[seat])
        )
        lines.append(f"  {who[seat]}: ghost ?? (face down, revealed at the end); row {row}")
    stock = N_CARDS - N_SEATS * CARDS_PER_PLAYER - 1
    lines.append(f"  discard pile: {name(record.initial_discard)} face up; stock: {stock} cards")
    lines.append("Turns:")
    # Which of its own slots each seat knows (RULES.md §3: the two looked at, then every slot
    # it has swapped a card into, less those it forgot): only a slot it did not know reveals
    # a card it had not seen, or had forgotten (docs/human-players.md).
    known = [set(LOOKED_AT) for _ in range(N_SEATS)]
    forgot = [set() for _ in range(N_SEATS)]  # slots it knew once and forgot
    row = [list(record.initial_slots[s]) for s in range(N_SEATS)]
    for t in record.turns:
        lost = [i for i in sorted(known[t.seat]) if row[t.seat][i] in t.forgotten]
        known[t.seat] -= set(lost)
        forgot[t.seat] |= set(lost)
        start = f"forgets {', '.join(name(c) for c in t.forgotten)}, then " if t.forgotten else ""
        slip_source, slip_place = (" (a slip)" if s else "" for s in t.slips)
        if t.source == Source.STOCK:
            stock -= 1
            source = "the stock"
        else:
            source = "the discard pile"
        if t.place == Place.DISCARD:
            action = "discards it"
        elif t.place in known[t.seat]:
            action = f"swaps it into slot {t.place} for the {name(t.discarded)} it knew was there"
        else:
            seen = "forgotten" if t.place in forgot[t.seat] else "not seen before"
            action = f"swaps it into slot {t.place}, revealing {name(t.discarded)} ({seen})"
            known[t.seat].add(t.place)
            forgot[t.seat].discard(t.place)
        if t.place != Place.DISCARD:
            row[t.seat][t.place] = t.taken
        lines.append(
            f"  turn {t.turn + 1:3d}  {who[t.seat]} {start}takes {name(t.taken)} from {source}{slip_source}, "
            f"{action}{slip_place}; discard pile top {name(t.discarded)}, stock {stock}"
        )
    n = len(record.turns)
    if record.capped:
        lines.append(f"End: capped at {n} turns with {stock} cards left in the stock; scored as it stands.")
    else:
        lines.append(f"End: the last stock card was drawn on turn {n}.")
    for seat in (first, record.dealer):
        lines.append(
            f"  {who[seat]}: row {_row(record.final_slots[seat])}, ghost revealed {name(record.ghosts[seat])}"
            f" = {points(record.scores_half[seat])} points"
        )
    a, b = record.scores_half
    if a == b:
        lines.append("  The round is a tie.")
    else:
        winner = 0 if a < b else 1
        lines.append(f"  {who[winner]} wins the round (lower score).")
    return "\n".join(lines)


def format_match(record: MatchRecord, *, names: Sequence[str] | None = None) -> str:
    """A round-by-round trace of a match, each round turn by turn, with running totals."""
    who = _names(names)
    lines = [f"Match: {who[record.first_dealer]} deals first (drawn); the deal alternates."]
    totals = [0, 0]
    for r, rnd in enumerate(record.rounds):
        lines.append("")
        lines.append(f"=== Round {r + 1} (deal {r}) ===")
        lines.append(format_round(rnd, names=names))
        for seat in range(N_SEATS):
            totals[seat] += rnd.scores_half[seat]
        lines.append(f"  Totals: {who[0]} {points(totals[0])}, {who[1]} {points(totals[1])} points.")
    lines.append("")
    t0, t1 = record.totals_half
    if record.loser < 0:
        lines.append(f"Match over: a draw at {points(t0)} points each.")
    else:
        lines.append(
            f"Match over after {len(record.rounds)} round{'s' if len(record.rounds) != 1 else ''}: "
            f"{who[record.loser]} loses with "
            f"{points(record.totals_half[record.loser])} points "
            f"({who[0]} {points(t0)}, {who[1]} {points(t1)})."
        )
    return "\n".join(lines)
