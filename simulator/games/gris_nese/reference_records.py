"""Gris-nese, the records of the readable reference: a deal and a match, and how they read as a trace.

Seats in records (``seats``, ``signallers``, ``loser``, events) are original
seats; the hands and ``times`` of a deal are per position, the order of ``seats``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from simulator.engine.cards import RANKS, name, rank_of
from simulator.games.gris_nese.reference_table import WINNERS, Event
from simulator.games.gris_nese.variants import ABANDON_AFTER

# --- records ------------------------------------------------------------------


@dataclass
class RoundRecord:
    """Everything that happened in one deal.

    ``seats``: the original seats in the round, in ring order.  ``groups``: the
    ranks in play (0 = A … 12 = K), in the order the groups joined.  Hands and
    ``times`` are per position (the order of ``seats``).  ``passes`` is the
    number of pass steps completed before the check that found four of a kind
    (the stall cap when ``stalled``).  ``signallers`` are original seats, in
    ring order.  ``loser`` is the original seat that leaves, -1 when the round
    is stalled or replayed.  ``times`` is empty for a stalled round.
    """

    deal: int
    seats: tuple[int, ...]
    groups: tuple[int, ...]
    hands_dealt: tuple[tuple[int, ...], ...]
    events: list[Event]
    passes: int
    stalled: bool
    replayed: bool
    signallers: tuple[int, ...]
    times: tuple[float, ...]
    loser: int
    final_hands: tuple[tuple[int, ...], ...]
    unclear_margin: float = 0.0

    @property
    def counted(self) -> bool:
        """RULES.md §6: a stalled or replayed round does not count."""
        return self.loser >= 0

    @property
    def rank_out(self) -> int:
        """RULES.md §2: the rank group removed after this round (the last added), -1 if none."""
        return self.groups[-1] if self.counted else -1


@dataclass
class MatchRecord:
    """A match: every deal in order, and how it ended.

    ``places`` per original seat: 1 for the two joint winners, else the number
    of players left when it went out (the first out gets ``n``).  An abandoned
    match has no winners and place 0 for every player still in.
    """

    n_players: int
    rounds: list[RoundRecord]
    places: tuple[int, ...]
    winners: tuple[int, ...]
    abandoned: bool
    counted_rounds: int
    out_order: tuple[int, ...] = ()  # original seats in the order they left


# --- traces --------------------------------------------------------------------------


def _who(seat: int, names: Sequence[str] | None) -> str:
    return f"seat {seat}" if names is None else f"seat {seat} ({names[seat]})"


def _hand(cards: Sequence[int]) -> str:
    return " ".join(name(c) for c in sorted(cards))


_PLURALS = {"A": "aces", "K": "kings", "Q": "queens", "J": "jacks", "10": "tens"}
_PLURALS |= {"9": "nines", "8": "eights", "7": "sevens"}


def _plural(rank: int) -> str:
    return _PLURALS[RANKS[rank]]


def format_round(record: RoundRecord, *, names: Sequence[str] | None = None) -> str:
    """A step-by-step trace of one deal, for people (``names`` per original seat, optional)."""
    seats, m = record.seats, len(record.seats)
    ranks = " ".join(RANKS[r] for r in record.groups)
    lines = [
        f"Deal {record.deal}: {m} players in ring order {', '.join(str(s) for s in seats)}; "
        f"ranks in play {ranks} ({4 * m} cards), four each."
    ]
    for seat, hand in zip(seats, record.hands_dealt, strict=True):
        lines.append(f"  {_who(seat, names)}: {_hand(hand)}")
    hands = [list(h) for h in record.hands_dealt]
    if record.passes == 0 and not record.stalled:
        lines.append("Four of a kind dealt: no passing.")
    for step in range(record.passes):
        laid = record.events[step * m : (step + 1) * m]
        moves = ", ".join(f"{_who(s, names)} lays {name(c)}" for _, s, c in laid)  # s: original seat
        lines.append(f"Pass step {step + 1} (all at once, to the left): {moves}")
        for i, (_, _, card) in enumerate(laid):
            hands[i].remove(card)
        for i, (_, _, card) in enumerate(laid):
            hands[(i + 1) % m].append(card)
        lines.append(
            "  hands: " + " | ".join(f"seat {s}: {_hand(h)}" for s, h in zip(seats, hands, strict=True))
        )
    if record.stalled:
        lines.append(
            f"Stalled: no four of a kind after {record.passes} pass steps; nobody leaves, the deal is redone."
        )
        return "\n".join(lines)
    when = "at the deal" if record.passes == 0 else f"after pass step {record.passes}"
    sig = set(record.signallers)
    if len(sig) == m:
        lines.append(f"Signal {when}: everybody holds four of a kind and touches the nose at once.")
    else:
        who = ", ".join(
            f"{_who(s, names)} (four {_plural(rank_of(h[0]))})"
            for s, h in zip(seats, record.final_hands, strict=True)
            if s in sig
        )
        lines.append(f"Signal {when}: {who} touch{'es' if len(sig) == 1 else ''} the nose.")
    first = min(t for s, t in zip(seats, record.times, strict=True) if s in sig)
    lines.append("Touch times (seconds after the hands became complete):")
    for s, t in zip(seats, record.times, strict=True):
        how = "signalled" if s in sig else f"followed the first touch: {first:.3f} + {t - first:.3f}"
        lines.append(f"  {_who(s, names)}: {t:.3f} s ({how})")
    latest, second = sorted(record.times, reverse=True)[:2]
    if record.replayed:
        lines.append(
            f"Unclear: the two latest touches differ by {latest - second:.3f} s, less than "
            f"unclear_margin {record.unclear_margin:g} s; the round is replayed, nobody leaves."
        )
        return "\n".join(lines)
    lines.append(f"{_who(record.loser, names)} touches last ({latest:.3f} s) and leaves the game.")
    if m - 1 > WINNERS:
        lines.append(f"The {_plural(record.rank_out)} go out of play; {m - 1} players go on.")
    else:
        rest = [s for s in seats if s != record.loser]
        lines.append(f"Two players remain: {' and '.join(_who(s, names) for s in rest)} win together.")
    return "\n".join(lines)


def format_match(record: MatchRecord, *, names: Sequence[str] | None = None) -> str:
    """A deal-by-deal trace of a match, each deal step by step, then the places."""
    n = record.n_players
    lines = [f"Match: {n} players; each round's last to touch the nose leaves, until two remain."]
    counted = 0
    for rnd in record.rounds:
        lines.append("")
        if rnd.counted:
            counted += 1
            head = f"=== Round {counted} (deal {rnd.deal}) ==="
        else:
            why = "stalled" if rnd.stalled else "replayed"
            head = f"=== Deal {rnd.deal}: {why}, not counted ==="
        lines.append(head)
        lines.append(format_round(rnd, names=names))
    lines.append("")
    if record.abandoned:
        lines.append(
            f"Abandoned: {ABANDON_AFTER} stalled or replayed rounds in a row after "
            f"{record.counted_rounds} counted rounds; no winners."
        )
        return "\n".join(lines)
    lines.append(f"Match over after {record.counted_rounds} counted rounds ({len(record.rounds)} deals).")
    for s in record.out_order:
        lines.append(f"  place {record.places[s]}: {_who(s, names)}")
    lines.append(f"  place 1 (joint winners): {' and '.join(_who(s, names) for s in record.winners)}")
    return "\n".join(lines)
