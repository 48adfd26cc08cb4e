"""What one unit of play reports, declared over a game's layouts: figures, histograms, outcomes.

A game declares, per unit (``"round"`` or ``"match"``), a :class:`Play`: the figures of the
JSON summary read from its aggregates row (:class:`Figure`: rates with Wilson intervals
from counts, means with normal intervals from a sum and a sum of squares, paired
differences, counts, settings), the histograms (:class:`Histogram`) and the per-seat
outcomes of its records (:class:`Outcome`) that ``compare`` and ``--records`` use.  Each
carries the meaning of its number (:class:`simulator.engine.fields.Field`).
:class:`simulator.games.base.Game` implements ``summarise``, ``histograms``,
``record_columns``, ``metrics``, ``outcomes``, ``fields`` and ``agg_size`` from it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from simulator.engine.fields import Field
from simulator.engine.layout import SEATS, Layout

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


def count_and_rate(piece: str, counted: Field, share: Field, of: str = "n") -> tuple[Figure, Figure]:
    """A one-slot aggregate piece as a count and as a share of ``of``.

    Parameters
    ----------
    piece
        The aggregate piece; the figures are named ``<piece>`` and ``<piece>_rate``.
    counted
        The count's meaning; its ``of`` is set to ``of``.
    share
        The rate's meaning.
    of
        What both are out of: ``"n"`` (the games of the run) or a count declared before.

    Returns
    -------
    tuple of Figure
        The count, then the rate, in the summary's order.
    """
    return count(piece, [piece], replace(counted, of=of)), rate(f"{piece}_rate", piece, share, of=of)


def stalled_rounds() -> tuple[Figure, Figure]:
    """Match play: the stalled (re-dealt) rounds of the finished matches, counted and as a
    share of :func:`rounds_played` (RULES.md §6), from the aggregate piece ``stalled``."""
    return count_and_rate(
        "stalled",
        Field("count", "rounds", "lower", "stalled rounds of the finished matches (dealt again)"),
        Field(
            "rate", "share of the finished matches' rounds stalled", "lower", "stalled rounds, dealt again"
        ),
        of="rounds_played",
    )


def abandoned_matches() -> tuple[Figure, Figure]:
    """Match play: the matches given up after too many stalled rounds in a row, counted and
    as a share of the run's matches (RULES.md §6), from the aggregate piece ``abandoned``."""
    return count_and_rate(
        "abandoned",
        Field("count", "matches", "lower", "matches given up after too many stalled rounds in a row"),
        Field("rate", "share of matches abandoned", "lower"),
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
    "FIGURE_HOWS",
    "OUTCOME_READS",
    "Figure",
    "Histogram",
    "Outcome",
    "Play",
    "abandoned_matches",
    "count",
    "count_and_rate",
    "diff",
    "mean",
    "rate",
    "ratio",
    "rounds_played",
    "setting",
    "stalled_rounds",
]
