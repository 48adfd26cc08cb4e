"""Layouts declared once: the int64 rows a kernel reads and writes, named piece by piece.

A game declares each of its rows once, in ``simulator/games/<game>/layout.py``, as a
:class:`Layout` of :class:`Piece` s (name, kind, width, scale, unit, doc): the
observation a strategy reads, the summed aggregates of a chunk of rounds or matches,
the per-game records and the error row.  Everything that reads or writes such a row
takes its numbers from the declaration:

* the kernels' integer offsets (``R_SUM = ROUND_AGG.offset("score_sum")`` at module
  level in ``rules.py`` and ``observation.py``; numba freezes module-level ints as
  constants, so the compiled code is the same as with literal numbers);
* the JSON summary, from the figures a game declares over its aggregates
  (:class:`Figure`: rates with Wilson intervals from counts, means with normal
  intervals from a sum and a sum of squares, paired differences, counts, settings);
* the histograms (:class:`Histogram`);
* the record columns, their documentation and the per-seat outcomes that ``compare``
  and ``--records`` use (:class:`Outcome`);
* the meaning of every figure (:class:`simulator.engine.fields.Field`), carried by the
  figure and the outcome declarations.

A :class:`Play` bundles what one unit of play (``"round"`` or ``"match"``) declares;
:class:`simulator.games.base.Game` implements ``summarise``, ``histograms``,
``record_columns``, ``metrics``, ``outcomes``, ``fields`` and ``agg_size`` from it.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from simulator.engine.fields import Field

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


# --- figures of the summary ------------------------------------------------------------

FIGURE_HOWS = ("rate", "mean", "diff", "ratio", "count", "setting")


@dataclass(frozen=True)
class Figure:
    """One figure of the JSON summary and how it is read from the aggregates.

    Use the constructors :func:`rate`, :func:`mean`, :func:`diff`, :func:`ratio`,
    :func:`count` and :func:`setting`.  A per-seat figure reads slot ``s`` of its
    pieces for seat ``s``.

    Parameters
    ----------
    name
        The JSON key (a rate or mean adds ``<name>_ci``).
    how
        One of :data:`FIGURE_HOWS`.
    pieces
        The aggregate pieces it reads.
    of
        What it is out of: ``"n"`` (the games of the run), a count figure declared
        before it, or a one-slot aggregate piece.
    field
        What the figure means (kind, unit, direction, words).
    value
        A setting's value.
    """

    name: str
    how: str
    pieces: tuple[str, ...]
    field: Field
    of: str = "n"
    value: Any = None

    def __post_init__(self) -> None:
        if self.how not in FIGURE_HOWS:
            raise ValueError(
                f"figure {self.name!r}: how is one of {', '.join(FIGURE_HOWS)}, not {self.how!r}"
            )


def rate(name: str, count: str, field: Field, of: str = "n") -> Figure:
    """``count / of`` with its Wilson interval (:func:`simulator.engine.stats.rate_ci`)."""
    return Figure(name, "rate", (count,), field, of)


def mean(name: str, total: str, squares: str, field: Field, of: str = "n") -> Figure:
    """``total / of`` with its normal interval from the sum of squares, in the unit of
    ``total``'s scale (:func:`simulator.engine.stats.mean_ci`)."""
    return Figure(name, "mean", (total, squares), field, of)


def diff(name: str, total: str, squares: str, cross: str, field: Field, of: str = "n") -> Figure:
    """The paired difference seat 0 minus seat 1 of a two-slot ``total``, with its interval:
    the differences' sum of squares is ``squares[0] + squares[1] - 2 * cross``."""
    return Figure(name, "diff", (total, squares, cross), field, of)


def ratio(name: str, total: str, field: Field, of: str = "n") -> Figure:
    """``total / of``, no interval (use :func:`mean` where the squares are summed)."""
    return Figure(name, "ratio", (total,), field, of)


def count(name: str, pieces: Sequence[str], field: Field) -> Figure:
    """The sum of one-slot pieces, as an int (a denominator for the figures after it)."""
    return Figure(name, "count", tuple(pieces), field)


def setting(name: str, value: Any, field: Field) -> Figure:
    """A fixed setting of the run, shown as it is."""
    return Figure(name, "setting", (), field, value=value)


def rounds_played(pieces: Sequence[str], words: str) -> Figure:
    """Match play: every deal of the finished matches, the counted rounds and the re-dealt
    ones (``pieces``), as the count :func:`stalled_rounds` and the like are out of."""
    return count("rounds_played", pieces, Field("count", "rounds", words=words))


def stalled_rounds() -> tuple[Figure, Figure]:
    """Match play: the stalled (re-dealt) rounds of the finished matches, counted and as a
    share of :func:`rounds_played` (RULES.md §6), from the aggregate piece ``stalled``."""
    return (
        count(
            "stalled",
            ["stalled"],
            Field(
                "count",
                "rounds",
                "lower",
                "stalled rounds of the finished matches (dealt again)",
                of="rounds_played",
            ),
        ),
        rate(
            "stalled_rate",
            "stalled",
            Field(
                "rate",
                "share of the finished matches' rounds stalled",
                "lower",
                "stalled rounds, dealt again",
            ),
            of="rounds_played",
        ),
    )


@dataclass(frozen=True)
class Histogram:
    """A histogram of the aggregates, by name (``{s}`` in ``name``: one per seat)."""

    name: str
    piece: str


OUTCOME_READS = ("value", "is_seat", "bit", "lowest", "equals")


@dataclass(frozen=True)
class Outcome:
    """A per-seat outcome of one game, read from its record (a metric of ``compare``).

    Parameters
    ----------
    name
        The metric's name (records' ``<name>_seat<s>``).
    piece
        The record piece it is read from.
    read
        How: ``"value"`` (the piece has one slot per seat, taken as it is), ``"is_seat"``
        (1 for the seat the one-slot piece names), ``"bit"`` (bit ``s`` of a mask),
        ``"lowest"`` (1 for the seat with the strictly lowest value of a per-seat piece),
        ``"equals"`` (1 where the per-seat value equals ``equals``).
    doc
        What the outcome is, in words (also the records' column description).
    lower_is_better
    field
        The outcome's meaning as a figure.
    equals
        The value ``"equals"`` looks for.
    """

    name: str
    piece: str
    read: str
    doc: str
    lower_is_better: bool
    field: Field
    equals: int = 0

    def __post_init__(self) -> None:
        if self.read not in OUTCOME_READS:
            raise ValueError(f"outcome {self.name!r}: read is one of {', '.join(OUTCOME_READS)}")

    @property
    def kind(self) -> str:
        """``"mean"`` for a value taken as it is, ``"rate"`` (0/1 per game) otherwise."""
        return "mean" if self.read == "value" else "rate"


@dataclass(frozen=True)
class Play:
    """Everything one unit of play (rounds or matches) declares.

    Parameters
    ----------
    agg
        The aggregates a chunk of games sums (``run_block_nb``'s ``agg`` row).
    records
        One game's record (``records_block_nb``'s ``rec`` row).
    figures
        The summary's top-level figures, in JSON order.
    seat_figures
        Each seat's figures, in JSON order (after ``seat`` and ``player``).
    outcomes
        The per-seat outcomes, the primary one first.
    uncounted
        One-slot record pieces that are 1 when the game enters no figure (stalled, replayed,
        abandoned; RULES.md §6).

    Raises
    ------
    ValueError
        For an aggregate piece one per seat (:data:`SEATS`): the kernels freeze the
        aggregates' offsets, so every aggregate piece has a fixed width.
    histograms
        The histograms the aggregates carry.
    """

    agg: Layout
    records: Layout
    figures: tuple[Figure, ...]
    seat_figures: tuple[Figure, ...]
    outcomes: tuple[Outcome, ...]
    uncounted: tuple[str, ...] = ()
    histograms: tuple[Histogram, ...] = ()

    def __post_init__(self) -> None:
        per_seat = [p.name for p in self.agg if p.width == SEATS]
        if per_seat:  # the kernels freeze the aggregates' offsets: they cannot hang on the table
            raise ValueError(
                f"{self.agg.name}: an aggregate piece is never one per seat ({', '.join(per_seat)}); "
                "give it a slot for every seat up to the game's most"
            )

    def fields(self) -> dict[str, Field]:
        """Every figure's and outcome's meaning, by name: the seats', the run's, the outcomes'."""
        out: dict[str, Field] = {}
        for f in (*self.seat_figures, *self.figures):
            out.setdefault(f.name, f.field)
        for o in self.outcomes:
            out.setdefault(o.name, o.field)
        return out


__all__ = [
    "ERROR_ROW_WIDTH",
    "FIGURE_HOWS",
    "OUTCOME_READS",
    "PIECE_KINDS",
    "SEATS",
    "Figure",
    "Histogram",
    "Layout",
    "Outcome",
    "Piece",
    "Play",
    "count",
    "diff",
    "mean",
    "rate",
    "ratio",
    "rounds_played",
    "setting",
    "stalled_rounds",
]
