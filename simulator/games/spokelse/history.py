"""The moves of a Spøkelse round so far, read from the notation ``kortsim trace`` prints,
as the player to move saw them (``kortsim advise --history``, docs/search.md).

A trace shows every card, the hidden ones too: the opponent's row as dealt, the cards
in one's own slots 2 and 3, the stock card the opponent drew and swapped into a slot.
:func:`parse_history` reads only what the player to move could see: its slots 0 and 1
as dealt, the first discard, and for each turn who played, where the card came from,
the card taken when it was visible (the player's own draws, anything taken from the
pile, a drawn card thrown face up), the slot changed and the card that went face up.
The hidden parts may be written ``??`` (or hold any card: they are not read).  It
replays the turns and refuses, in one line, a history that contradicts itself (a card
seen twice, a pile top or stock size that does not follow, a card taken from the pile
thrown away); :meth:`History.position` then gives the position it leads to, and
:meth:`History.arrays` the view the belief reads (belief.py's ``deal`` and ``hist``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from simulator.engine.cards import name
from simulator.errors import InputError
from simulator.games.spokelse.belief import HIST_FIELDS
from simulator.games.spokelse.position import MAX_STOCK, Position, parse_card_text
from simulator.games.spokelse.variants import Rules

THROW = 4
_WHO = r"seat ([01])(?: \((?:[^()]|\([^()]*\))*\))?"  # "seat 1" or "seat 1 (expect:k=1,...)"
_DEAL = re.compile(rf"^Deal: {_WHO} deals, {_WHO} plays first\.$")
_ROW = re.compile(
    rf"^{_WHO}: ghost \S+ \(face down, revealed at the end\); row "
    r"0:(\S+)(?: \(looked at\))? +1:(\S+)(?: \(looked at\))? +2:(\S+) +3:(\S+)$"
)
_PILE = re.compile(r"^discard pile: (\S+) face up; stock: (\d+) cards$")
_TURN = re.compile(
    rf"^turn +(\d+) +{_WHO} (?:forgets (.+?), then )?takes (\S+) from (the stock|the discard pile)"
    r"(?: \(a slip\))?, (?:(discards it)|swaps it into slot ([0-3])(?: for the (\S+) it knew was there|"
    r", revealing (\S+) \((?:not seen before|forgotten)\)))(?: \(a slip\))?; "
    r"discard pile top (\S+), stock (\d+)$"
)
_SKIP = ("Trace of ", "seats:", "Turns:")
_SPLIT = re.compile(
    r"\s+(?=Deal: |seat [01](?: \((?:[^()]|\([^()]*\))*\))?: ghost |discard pile: |turn +\d+ +seat |End: |Turns:)"
)


@dataclass(frozen=True)
class Turn:
    """One finished turn as the player saw it (belief.py's ``hist`` row)."""

    seat: int
    source: int  # 0 the stock, 1 the discard pile
    taken: int  # the card taken, -1 when the player could not see it
    place: int  # 0-3 a slot, 4 thrown on the pile
    out: int  # the card that went face up


@dataclass(frozen=True)
class History:
    """A round so far from the side of ``me``, the seat to move next, and where it led."""

    me: int
    dealer: int
    dealt: tuple[int, int]  # the player's slots 0 and 1 as dealt (it looked at them)
    first: int  # the first discard
    turns: tuple[Turn, ...]
    row: tuple[int, ...]  # own slots now, -1 unknown
    opp: tuple[int, ...]  # the opponent's public slots now, -1 hidden
    pile: tuple[int, ...]  # the discard pile, bottom first
    stock: int
    seen: frozenset[int]  # every card the player has seen (all of them are in known places)

    def position(
        self,
        *,
        hand: int = -1,
        from_discard: bool = False,
        totals: tuple[float, float] = (0.0, 0.0),
        rules: Rules | None = None,
    ) -> Position:
        """The position the history leads to, with the card in hand (-1: the SOURCE
        decision; with ``from_discard`` and no ``hand``, the pile's top).

        Raises
        ------
        InputError
            When the card in hand contradicts the history (one line)."""
        pile = list(self.pile)
        stock = self.stock
        if from_discard:
            if not pile:
                raise InputError("the history leaves the discard pile empty: no card can be taken from it")
            if hand >= 0 and hand != pile[-1]:
                raise InputError(
                    f"the history leaves {name(pile[-1])} on top of the discard pile, so the card taken "
                    f"from it is not {name(hand)}"
                )
            hand = pile.pop()
        elif hand >= 0:
            if hand in self.seen:
                raise InputError(f"{name(hand)} cannot have been drawn: the history shows where it is")
            if stock == 0:
                raise InputError("the history has emptied the stock: the round is over")
            stock -= 1
        return Position(
            row=self.row, stock=stock, hand=hand, discard=pile[-1] if pile else -1,
            from_discard=from_discard, seen=tuple(pile[:-1]), opp=self.opp, totals=totals,
            rules=rules or Rules(),
        )  # fmt: skip

    def arrays(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.uint64]:
        """``deal`` and ``hist`` as belief.py reads them, the discard pile (bottom first)
        and the ``seen`` bits, before the card in hand (if any) is taken."""
        deal = np.array([self.me, self.dealer, *self.dealt, self.first], np.int64)
        hist = np.zeros((max(len(self.turns), 1), HIST_FIELDS), np.int64)
        for t, m in enumerate(self.turns):
            hist[t] = (m.seat, m.source, m.taken, m.place, m.out)
        bits = np.uint64(0)
        for c in self.seen:
            bits |= np.uint64(1) << np.uint64(c)
        return deal, hist, np.array(self.pile, np.int64), bits

    def as_dict(self) -> dict:
        card = lambda c: None if c < 0 else name(c)
        return {
            "seat": self.me,
            "dealer": self.dealer,
            "turns": [
                {"turn": t + 1, "seat": m.seat, "source": ("stock", "discard pile")[m.source],
                 "taken": card(m.taken), "place": "throw" if m.place == THROW else m.place, "out": name(m.out)}
                for t, m in enumerate(self.turns)
            ],
        }  # fmt: skip


def check_given(pos: Position, given: dict[str, object]) -> None:
    """Refuse, in one line, a field given beside the history (``--row``, ``--opp``,
    ``--stock``, ``--discard``, ``--seen``; None where not given) that the position the
    history leads to contradicts (``--seen`` in any order)."""
    derived = {"--row": pos.row, "--opp": pos.opp, "--stock": pos.stock, "--discard": pos.discard,
               "--seen": pos.seen}  # fmt: skip

    def shown(v: object) -> str:
        if isinstance(v, tuple):
            return " ".join("?" if c < 0 else name(c) for c in v) or "nothing"
        return "none" if v == -1 else name(int(v))

    for flag, value in given.items():
        ours = derived[flag]
        same = sorted(value) == sorted(ours) if flag == "--seen" and value is not None else value == ours
        if value is not None and not same:
            what = str(value) if flag == "--stock" else shown(value)
            theirs = str(ours) if flag == "--stock" else shown(ours)
            raise InputError(f"{flag} {what} contradicts the history, which gives {theirs}")


def read_history_text(text: str) -> str:
    """``text`` itself when it holds moves, else the file it names (a trace ``kortsim
    trace`` wrote)."""
    if re.search(r"Deal: |turn +\d", text):
        return text
    path = Path(text.strip()).expanduser()
    try:
        return path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise InputError(
            f"--history: {text!r} is neither a file nor moves in the notation of kortsim trace"
        ) from None
    except (OSError, UnicodeDecodeError) as exc:
        raise InputError(f"--history: cannot read {text!r}: {exc}") from None


def _card(token: str, what: str) -> int:
    """A card, or -1 for ``??``/``?`` (a card the player could not see)."""
    if token.strip("?") == "":
        return -1
    try:
        return parse_card_text(token)
    except InputError:
        raise InputError(f"--history: {what}: {token!r} is not a card") from None


def _lines(text: str) -> list[str]:
    lines = [line.strip() for line in text.splitlines()]
    if len(lines) == 1:  # typed on one line: break it where a trace line would begin
        lines = [part.strip() for part in _SPLIT.split(lines[0])]
    return [line for line in lines if line and not line.startswith(_SKIP)]


def _check_rules(line: str, rules: Rules) -> None:
    """A trace's ``rules:`` line against the rules the advice uses."""
    wanted = rules.as_dict()
    for key, value in re.findall(r"(\w+)=([\w.]+)", line):
        if key in wanted and float(value) != float(wanted[key]):
            raise InputError(f"--history was played with {key}={value}: give --rule {key}={value}")


def parse_history(text: str, *, turn: int | None = None, rules: Rules | None = None) -> History:
    """The round so far, from the side of the seat to move (the one to play turn ``turn``,
    counted from 1 as a trace counts; by default the turn after the last one given).

    Raises
    ------
    InputError
        For text that is not a round in trace notation, or a history that contradicts
        itself (one line naming the line or the turn)."""
    rules = rules or Rules()
    dealer, first, rows, moves, ended = -1, -1, {}, [], None
    for line in _lines(read_history_text(text)):
        if ended is not None:
            continue
        table = re.match(r"^table: .*?rules: (.*)$", line)
        if line.startswith("=== Round ") or line.startswith("Match:"):
            raise InputError("--history: a match trace; give one round (from its 'Deal:' line to its 'End:')")
        if m := _DEAL.match(line):
            dealer = int(m.group(1))
            if int(m.group(2)) != 1 - dealer:
                raise InputError(f"--history: {line!r}: one seat deals, the other plays first")
        elif m := _ROW.match(line):
            rows[int(m.group(1))] = m.groups()[1:]
        elif m := _PILE.match(line):
            first = _card(m.group(1), "the first discard")
            if int(m.group(2)) != MAX_STOCK:
                raise InputError(
                    f"--history: a round starts with {MAX_STOCK} cards in the stock, not {m.group(2)}"
                )
        elif m := _TURN.match(line):
            moves.append(m)
        elif line.startswith("End:"):
            ended = len(moves)
        elif table is None:
            raise InputError(f"--history: not in the notation of kortsim trace: {line[:60]!r}")
        if table is not None:
            _check_rules(table.group(1), rules)
    if dealer < 0 or first < 0 or len(rows) < 2:
        raise InputError(
            "--history needs the deal: the 'Deal:' line, both seats' rows and the 'discard pile:' line"
        )
    n = len(moves) if turn is None else turn - 1
    if turn is not None and not 1 <= turn <= len(moves) + (ended is None):
        raise InputError(f"--turn {turn}: the history has turns 1 to {len(moves)}")
    if turn is None and ended is not None:
        raise InputError(
            f"--history is a whole round (turns 1 to {ended}): give --turn N, the turn to advise"
        )
    me = (1 - dealer) if n % 2 == 0 else dealer  # the player who does not deal plays first
    dealt = tuple(_card(x, f"seat {me}'s slot {i} as dealt") for i, x in enumerate(rows[me][:2]))
    if min(dealt) < 0:
        raise InputError(f"--history: seat {me} looked at its slots 0 and 1 when dealt: give their cards")
    return _replay(me, dealer, dealt, first, moves[:n])


def _replay(me: int, dealer: int, dealt: tuple[int, ...], first: int, moves: list) -> History:
    """Play the turns from ``me``'s side, refusing any that contradicts what it saw."""
    row, opp, pile, stock = [*dealt, -1, -1], [-1] * 4, [first], MAX_STOCK
    seen = {*dealt, first}
    if len(seen) < 3:
        raise InputError("--history: the deal shows a card twice")
    turns = []
    for t, m in enumerate(moves):
        k, p = int(m.group(1)), int(m.group(2))
        where = f"--history, turn {k}"
        if k != t + 1 or p != ((1 - dealer) if t % 2 == 0 else dealer):
            raise InputError(f"{where}: turn {t + 1} is seat {(1 - dealer) if t % 2 == 0 else dealer}'s")
        if m.group(3) and p == me:
            raise InputError(
                f"{where}: seat {me} forgets cards; the belief takes a player who remembers them"
            )
        c = _card(m.group(4), f"turn {k}'s card")
        source = 0 if m.group(5) == "the stock" else 1
        b = THROW if m.group(6) else int(m.group(7))
        top, left = _card(m.group(10), f"turn {k}'s pile top"), int(m.group(11))
        out = _card(m.group(8) or m.group(9), f"turn {k}'s card face up") if b < 4 else top
        hidden = p != me and source == 0 and b < 4
        if source == 1:
            if not pile or (c >= 0 and c != pile[-1]):
                top = name(pile[-1]) if pile else "nothing"
                raise InputError(f"{where}: the pile's top is {top}, not {m.group(4)}")
            c = pile.pop()
            if b == THROW:
                raise InputError(f"{where}: a card taken from the discard pile cannot be thrown away")
        else:
            if stock == 0:
                raise InputError(f"{where}: the stock is empty")
            stock -= 1
            if not hidden:
                if b == THROW and c < 0:
                    c = out
                if c < 0 or c in seen:
                    raise InputError(f"{where}: {m.group(4)} cannot come from the stock, it was seen before")
                seen.add(c)
        if b == THROW:
            if out != c:
                raise InputError(f"{where}: the card thrown is the card taken, {name(c)}")
        else:
            if out < 0:
                raise InputError(f"{where}: the card that went face up is seen by both: give it")
            known = (row if p == me else opp)[b]
            if known >= 0 and out != known:
                raise InputError(f"{where}: slot {b} held {name(known)}, not {name(out)}")
            if known < 0 and out in seen:
                raise InputError(f"{where}: {name(out)} was seen elsewhere, it cannot come out of slot {b}")
            if p == me:
                row[b] = c
            else:
                opp[b] = c if source == 1 else -1
            pile.append(out)
            seen.add(out)
        if b == THROW:
            pile.append(out)
        if top != pile[-1] or left != stock:
            raise InputError(
                f"{where}: the move leaves {name(pile[-1])} on the pile and {stock} in the stock, "
                f"not {m.group(10)} and {left}"
            )
        turns.append(Turn(p, source, -1 if hidden else c, b, out))
    return History(
        me, dealer, (dealt[0], dealt[1]), first, tuple(turns), tuple(row), tuple(opp), tuple(pile), stock,
        frozenset(seen),
    )  # fmt: skip


__all__ = ["History", "Turn", "check_given", "parse_history", "read_history_text"]
