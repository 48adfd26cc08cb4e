"""Layouts declared once: the int64 rows a kernel reads and writes, named piece by piece.

A game declares each of its rows once, in ``simulator/games/<game>/layout.py``, as a
:class:`Layout` of :class:`Piece` s (name, kind, width, scale, unit, doc): the
observation a strategy reads, the summed aggregates of a chunk of rounds or matches,
the per-game records and the error row.  Everything that reads or writes such a row
takes its numbers from the declaration:

* the kernels' integer offsets (``R_SUM = ROUND_AGG.offset("score_sum")`` at module
  level in ``rules.py`` and ``observation.py``; numba freezes module-level ints as
  constants, so the compiled code is the same as with literal numbers);
* the JSON summary, the histograms, the record columns and the per-seat outcomes, from
  what a game declares over its rows per unit of play (:mod:`simulator.engine.plays`).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass

import numpy as np

SEATS = "seats"
"""A piece's width that is the number of seats at the table (record columns only: the
offsets of the pieces after such a piece depend on the table, so kernels cannot freeze them)."""

ERROR_ROW_WIDTH = 8
"""Slots of the error row the engine gives every kernel chunk (``simulator/running/runner.py``): a
game's declared error row is at most this wide.  The engine reads slot 0 (a flag), 1 (the
game's index), 2 (the seat) and :data:`simulator.kernels.containment.ANSWER_COLUMN` (the answer)."""

PIECE_KINDS: dict[str, str] = {
    "count": "games or events, counted",
    "sum": "a value summed over games",
    "sum2": "the squares of a value, summed over games",
    "cross": "the product of seat 0's and seat 1's values, summed over games",
    "hist": "a histogram: bin k counts the games with value k, the last bin that value or more",
    "value": "a number of the game (a score, a count of turns, a total)",
    "flag": "0 or 1",
    "seat": "a seat number, -1 for none",
    "mask": "a bit mask over seats, bit s for seat s",
    "code": "a code: a card (suit * 13 + rank), an action, a phase, an identifier; -1 for none",
}


@dataclass(frozen=True)
class Piece:
    """One named run of int64 slots in a row.

    Parameters
    ----------
    name
        The piece's name, unique in its layout (a record column's name, or its stem).
    kind
        One of :data:`PIECE_KINDS`.
    doc
        What the piece holds, in plain words; ``{s}`` stands for the seat (or index) of
        a slot of a wide piece.
    width
        Slots (or copies of a histogram): an int, or :data:`SEATS` for one per seat.
    bins
        Bins of a histogram (each copy); 1 for other kinds.
    scale
        Multiplies the stored integer into the reported unit (0.5: half points to points).
    unit
        The unit of the stored integer in words (``"half points"``), if it has one.
    """

    name: str
    kind: str
    doc: str = ""
    width: int | str = 1
    bins: int = 1
    scale: float = 1.0
    unit: str = ""

    def __post_init__(self) -> None:
        if self.kind not in PIECE_KINDS:
            raise ValueError(f"piece {self.name!r}: unknown kind {self.kind!r} ({', '.join(PIECE_KINDS)})")
        if self.width != SEATS and (not isinstance(self.width, int) or self.width < 1):
            raise ValueError(f"piece {self.name!r}: width is a positive int or SEATS, not {self.width!r}")
        if self.bins < 1 or (self.bins > 1 and self.kind != "hist"):
            raise ValueError(f"piece {self.name!r}: only a histogram has bins")

    def copies(self, n_seats: int | None = None) -> int:
        """The piece's width for a table of ``n_seats`` (needed for a :data:`SEATS` width)."""
        if self.width == SEATS:
            if n_seats is None:
                raise ValueError(f"piece {self.name!r} is one per seat: give the number of seats")
            return int(n_seats)
        return int(self.width)

    def span(self, n_seats: int | None = None) -> int:
        """Slots the piece takes: its width times its bins."""
        return self.copies(n_seats) * self.bins

    def columns(self, n_seats: int | None = None) -> tuple[str, ...]:
        """Column names: the name for a one-slot piece, ``<name>_<i>`` for each slot of a wide one."""
        if self.width == 1 and self.bins == 1:
            return (self.name,)
        return tuple(f"{self.name}_{i}" for i in range(self.span(n_seats)))

    def column_doc(self, i: int | str) -> str:
        return self.doc.replace("{s}", str(i))


class Layout:
    """A row made of pieces laid end to end, in the order given.

    Parameters
    ----------
    name
        What the row is (``"Spøkelse round aggregates"``), for messages and docs.
    pieces
        The pieces, first at offset 0.
    doc
        A sentence on the row as a whole.
    """

    def __init__(self, name: str, pieces: Sequence[Piece], doc: str = "") -> None:
        self.name, self.doc = name, doc
        self.pieces: tuple[Piece, ...] = tuple(pieces)
        self._by_name = {p.name: p for p in self.pieces}
        if len(self._by_name) != len(self.pieces):
            seen: set[str] = set()
            twice = [p.name for p in self.pieces if p.name in seen or seen.add(p.name)]
            raise ValueError(f"{name}: pieces named twice: {', '.join(twice)}")

    def __iter__(self) -> Iterator[Piece]:
        return iter(self.pieces)

    def __contains__(self, name: object) -> bool:
        return name in self._by_name

    def piece(self, name: str) -> Piece:
        try:
            return self._by_name[name]
        except KeyError:
            raise KeyError(f"{self.name} has no piece {name!r}") from None

    def spans(self, n_seats: int | None = None) -> list[tuple[Piece, int, int]]:
        """``(piece, start, stop)`` of every piece, in order."""
        out, at = [], 0
        for p in self.pieces:
            out.append((p, at, at + p.span(n_seats)))
            at += p.span(n_seats)
        return out

    def offset(self, name: str, n_seats: int | None = None) -> int:
        """Where ``name`` starts (an int the kernels freeze; ``n_seats`` is needed only after
        a piece one per seat)."""
        self.piece(name)
        at = 0
        for p in self.pieces:
            if p.name == name:
                return at
            at += p.span(n_seats)
        raise AssertionError("unreachable")

    def offsets(self, names: str) -> tuple[int, ...]:
        """Where each of ``names`` (piece names separated by spaces, all before any piece one
        per seat) starts, in the order given: ``A, B = layout.offsets("a b")``."""
        return tuple(self.offset(name) for name in names.split())

    def size(self, n_seats: int | None = None) -> int:
        """Slots in the row."""
        return sum(p.span(n_seats) for p in self.pieces)

    def slice(self, name: str, n_seats: int | None = None) -> slice:
        start = self.offset(name, n_seats)
        return slice(start, start + self.piece(name).span(n_seats))

    def columns(self, n_seats: int | None = None) -> tuple[str, ...]:
        """Every slot's column name, in order (records)."""
        return tuple(c for p in self.pieces for c in p.columns(n_seats))

    def column_docs(self, n_seats: int | None = None) -> dict[str, str]:
        """Every column's description (``{s}`` of a wide piece's doc replaced by the slot)."""
        docs: dict[str, str] = {}
        for p in self.pieces:
            cols = p.columns(n_seats)
            for i, c in enumerate(cols):
                docs[c] = p.column_doc(i) if len(cols) > 1 else p.doc
        return docs

    def markdown(self, n_seats: int | None = None) -> str:
        """The row as a markdown table: each piece's constant, offset, width, kind and doc."""
        lines = ["| field | offset | width | kind | meaning |", "|---|---|---|---|---|"]
        for p, start, stop in self.spans(n_seats):
            doc = p.doc.replace("{s}", "*i*") + (f" ({p.unit})" if p.unit else "")
            lines.append(f"| `{p.name.upper()}` | {start} | {stop - start} | {p.kind} | {doc} |")
        return "\n".join(lines) + "\n"

    def read(self, row: np.ndarray) -> dict[str, int]:
        """A row of one-slot pieces as ``{name: int}`` (an error row, say)."""
        return {p.name: int(row[start]) for p, start, _ in self.spans() if p.span() == 1}


__all__ = ["ERROR_ROW_WIDTH", "PIECE_KINDS", "SEATS", "Layout", "Piece"]
