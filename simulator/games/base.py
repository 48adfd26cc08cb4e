"""What every game provides to the engine, and the table a run is played at.

A game is a small object over its modules: the rule variants, the compiled
kernel (with the uniform block entry point ``run_block_nb``), the layouts of its
rows with the figures, outcomes and histograms read from them (``plays``, one
:class:`simulator.engine.plays.Play` per unit; the summary, records and metrics are
generated from them here), and how to show one game as a trace.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, fields
from types import ModuleType
from typing import Any

import numpy as np

from simulator.engine import summary as figures
from simulator.engine.fields import Field
from simulator.engine.layout import Layout
from simulator.engine.plays import Play
from simulator.errors import InputError

UNITS = ("round", "match")

#: What a game's ``profile`` module may declare, by the :class:`Game` attribute it gives.
_PROFILE_CONSTANTS = {
    "baseline_strategy": "BASELINE",
    "best_strategy": "BEST",
    "length_columns": "LENGTH",
    "irregular_columns": "IRREGULAR",
    "margin_words": "MARGIN_WORDS",
}


def rule_items(items: Sequence[Any]) -> dict[str, str]:
    """Rules given as a list, ``["jack=11", "target=31"]`` or ``[("jack", "11"), ...]``, as a dict.

    A rule named twice is refused (the same rule as the command line's ``--rule``).

    Parameters
    ----------
    items : sequence of str or (name, value) pairs

    Returns
    -------
    dict of str to str

    Raises
    ------
    InputError
        For an item that is not ``NAME=VALUE`` or a pair, or a rule given twice.
    """
    rules: dict[str, str] = {}
    for item in items:
        if isinstance(item, str):
            key, eq, value = item.partition("=")
            if not eq or not key.strip() or not value.strip():
                raise InputError(f"a rule is written NAME=VALUE, got {item!r}")
        elif isinstance(item, list | tuple) and len(item) == 2:
            key, value = str(item[0]), str(item[1])
        else:
            raise InputError(f"a rule is written NAME=VALUE or (NAME, VALUE), got {item!r}")
        key, value = key.strip(), value.strip()
        if key in rules:
            raise InputError(f"rule {key} is given twice (give each rule once)")
        rules[key] = value
    return rules


@dataclass(frozen=True)
class Variant:
    """One rule variant: how to read it from text, and what it means."""

    parse: Callable[[str], Any]
    doc: str


@dataclass(frozen=True)
class Metric:
    """A per-seat outcome: ``scale`` turns the stored integer into the reported unit."""

    name: str
    doc: str
    lower_is_better: bool
    scale: float = 1.0
    kind: str = "rate"  # "rate" (0/1 per game) or "mean"


@dataclass(frozen=True)
class SeatRole:
    """A seat with a part in the order of play (who starts, who deals), for ``kortsim profile``.

    The seat is fixed (``seat``; negative counts from the last seat, ``-1`` is seat n−1) or read
    from a record column (``column``, e.g. the match's first dealer) and moved ``offset`` seats
    on: the role's seat is ``(record[column] + offset) % n``.
    """

    words: str  # what the seat does, as a subject: "starting first", "dealing"
    seat: int | None = None
    column: str | None = None
    offset: int = 0

    def seats(self, rec: Mapping[str, np.ndarray], n_games: int, n_seats: int) -> np.ndarray:
        """The role's seat in each game, from the records' columns (int64[games])."""
        if self.column is None:
            return np.full(n_games, (self.seat or 0) % n_seats, dtype=np.int64)
        return (np.asarray(rec[self.column], dtype=np.int64) + self.offset) % n_seats


@dataclass(frozen=True)
class Standings:
    """One match, round by round, for ``kortsim profile``: how the players stood.

    ``after_round[r, s]`` is seat ``s``'s standing after counted round ``r`` (higher is
    better: minus the points, minus the letters); ``winners`` are the seats that won (empty
    for a draw); ``margin`` says how close the finish was, in the game's ``margin_words``.
    """

    after_round: np.ndarray
    winners: tuple[int, ...]
    margin: float


@dataclass(frozen=True)
class Table:
    """The game, its rules, the number of seats and (Gris games) the seats' reactions."""

    game: Game
    rules: Any
    n_seats: int
    reaction: tuple[tuple[float, float], ...] = ()

    def rules_dict(self) -> dict[str, Any]:
        return {f.name: getattr(self.rules, f.name) for f in fields(self.rules)}


class Game(ABC):
    name: str
    title: str
    doc: str
    min_seats: int
    max_seats: int
    default_seats: int
    kernel: ModuleType
    rules_type: type
    variants: Mapping[str, Variant]
    # The rows, declared once (simulator/engine/layout.py; each game's layout.py):
    plays: Mapping[str, Play]  # per unit: aggregates, records, figures, outcomes, histograms
    error_row: Layout  # the kernel's error row (read by describe_error)
    observation: Layout  # what a strategy sees
    uses_reaction: bool = False
    default_opponent: str | None = None
    """The strategy spec ``compare`` and ``sweep`` seat against the strategies they compare
    when no ``--field``/``--vs`` is given (e.g. ``"greedy"``); None: a comparison plays the
    candidates against one another, a sweep against its family at its defaults."""

    # --- what the design profile reads (simulator/profiling; docs/profile.md) ------------

    profile: ModuleType | None = None
    """The game's ``profile.py``: its constants give the attributes below (unless the class
    sets them), its ``seat_roles``, ``decisions`` and ``match_standings`` the methods."""

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        profile = cls.__dict__.get("profile")
        for attr, constant in _PROFILE_CONSTANTS.items():
            if hasattr(profile, constant) and attr not in cls.__dict__:
                setattr(cls, attr, getattr(profile, constant))

    baseline_strategy: str = "random"
    """The canonical baseline (RULES.md §5) the profile measures skill against and seats as
    the field."""
    best_strategy: str = "random"
    """The strongest shipped strategy: the profile's default at the table and its top of skill."""
    length_columns: Mapping[str, tuple[str, str]] = {}
    """Per unit, the record column that says how long a game lasted and its unit in words,
    e.g. ``{"round": ("turns", "turns"), "match": ("rounds", "rounds")}``."""
    irregular_columns: Mapping[str, tuple[tuple[str, str, str], ...]] = {}
    """Per unit, the record columns counting games or rounds that did not finish normally
    (RULES.md §6): ``(column, what it counts, kind)``, kind ``"rate"`` for a 0/1 flag per game
    or ``"count"`` for a number per game, e.g. ``(("capped", "rounds stopped at the cap", "rate"),)``."""
    margin_words: str = ""
    """The unit of :attr:`Standings.margin` (how close a match's finish was); empty when the
    game has no match standings."""

    def seat_roles(self, unit: str, n_seats: int) -> tuple[SeatRole, ...]:
        """The seats with a part in the order of play in ``unit`` play (none by default)."""
        roles = getattr(self.profile, "seat_roles", None)
        return roles(unit, n_seats) if roles else ()

    def decisions_per_round(
        self, cols: Mapping[str, np.ndarray], seat: int, n_seats: int
    ) -> np.ndarray | None:
        """How many decisions ``seat``'s strategy made in each round of a round run's records
        (``cols``: the record columns): what the profile divides the cost of slips by to give
        the cost of one.  None when the game does not say."""
        decisions = getattr(self.profile, "decisions", None)
        return decisions(cols, seat, n_seats) if decisions else None

    def match_standings(
        self, table: Table, players: Sequence, seed: int, game_index: int
    ) -> Standings | None:
        """Match ``game_index`` of a run, round by round, from the reference (the kernel's
        match: the same streams); None for a game without standings or an abandoned match."""
        standings = getattr(self.profile, "match_standings", None)
        return standings(table, players, seed, game_index) if standings else None

    # --- rules and table -----------------------------------------------------

    def parse_rules(self, options: Mapping[str, str] | None) -> Any:
        values: dict[str, Any] = {}
        for key, text in (options or {}).items():
            if key not in self.variants:
                known = ", ".join(self.variants) or "none"
                raise InputError(f"unknown rule {key!r} for {self.name} (rules: {known})")
            try:
                values[key] = self.variants[key].parse(str(text))
            except (TypeError, ValueError) as exc:
                raise InputError(f"rule {key}={text}: {exc}") from None
        try:
            return self.rules_type(**values)
        except (TypeError, ValueError) as exc:
            raise InputError(str(exc)) from None

    def table(
        self,
        rules: Any = None,
        n_seats: int | None = None,
        reaction: Sequence[tuple[float, float]] | None = None,
    ) -> Table:
        if isinstance(rules, list | tuple):
            rules = rule_items(rules)
        if rules is None or isinstance(rules, Mapping):
            rules = self.parse_rules(rules)
        n = self.default_seats if n_seats is None else int(n_seats)
        if not self.min_seats <= n <= self.max_seats:
            if self.min_seats == self.max_seats:
                raise InputError(f"{self.name} is played by exactly {self.min_seats} players, not {n}")
            raise InputError(
                f"{self.name} is played by {self.min_seats} to {self.max_seats} players, not {n}"
            )
        prof: tuple[tuple[float, float], ...] = ()
        if self.uses_reaction:
            from simulator.engine.reaction_file import seat_profiles  # MEDIAN[,SIGMA] or a profile file

            prof = seat_profiles(reaction, n)
        elif reaction:
            raise InputError(f"{self.name} has no reaction model; --reaction is for the Gris games")
        return Table(self, rules, n, prof)

    # --- the kernel ---------------------------------------------------------

    @abstractmethod
    def rules_arrays(self, table: Table) -> tuple[np.ndarray, np.ndarray]:
        """The rules as ``(int64 array, float64 array)`` for ``run_block_nb``."""

    def play(self, unit: str) -> Play:
        """What ``unit`` play declares: aggregates, records, figures, outcomes, histograms."""
        try:
            return self.plays[unit]
        except KeyError:
            raise InputError(f"{self.name} is played in {' or '.join(self.plays)}, not {unit!r}") from None

    def agg_size(self, unit: str, n_seats: int) -> int:
        """Length of one row of aggregates (fixed: :class:`~simulator.engine.plays.Play` refuses
        aggregate pieces one per seat, so ``n_seats`` does not change it)."""
        return self.play(unit).agg.size(n_seats)

    def summarise(self, agg: np.ndarray, table: Table, players: Sequence, unit: str, n: int) -> dict:
        """JSON-ready figures: top-level fields plus ``seats`` (a list of dicts), each
        rate and mean with its ``<name>_ci``, generated from :attr:`plays`."""
        return figures.summarise(self.play(unit), agg, table.n_seats, players, n)

    @abstractmethod
    def describe_error(self, err: np.ndarray, players: Sequence) -> str:
        """One line naming the strategy and the decision that broke the rules."""

    @abstractmethod
    def trace(self, table: Table, players: Sequence, seed: int, game_index: int, unit: str) -> str:
        """Game ``game_index`` of a seeded run, readable, from the reference implementation."""

    # --- per-game records (compare, --records) ----------------------------------

    def record_columns(self, unit: str, n_seats: int) -> tuple[str, ...]:
        """Names of the columns ``records_block_nb`` writes, one row per game."""
        return self.play(unit).records.columns(n_seats)

    def record_docs(self, unit: str, n_seats: int) -> dict[str, str]:
        """What each of :meth:`record_columns` holds, by name."""
        return self.play(unit).records.column_docs(n_seats)

    def outcomes(self, rec: np.ndarray, unit: str, n_seats: int) -> tuple[dict[str, np.ndarray], np.ndarray]:
        """Per-seat integer outcomes from records: ``{metric: int64[games, seats]}`` and a
        bool mask of the games that count (finished: not stalled, replayed or abandoned)."""
        return figures.outcomes(self.play(unit), rec, n_seats)

    def metrics(self, unit: str) -> tuple[Metric, ...]:
        """The outcomes ``outcomes`` returns, the primary one first."""
        play = self.play(unit)
        out = []
        for o in play.outcomes:
            scale = play.records.piece(o.piece).scale if o.kind == "mean" else 1.0
            out.append(Metric(o.name, o.doc, o.lower_is_better, scale, o.kind))
        return tuple(out)

    def histograms(self, agg: np.ndarray, table: Table, unit: str) -> dict[str, np.ndarray]:
        """Named histograms carried by the aggregates (for plots)."""
        return figures.histograms(self.play(unit), agg, table.n_seats)

    def fields(self, unit: str) -> Mapping[str, Field]:
        """What each figure of :meth:`summarise` and each metric of :meth:`metrics` means
        (kind, unit, direction, words), by name; see :mod:`simulator.engine.fields`."""
        return self.play(unit).fields()

    # --- conformance hooks (tests/games/test_conformance.py; docs/adding-a-game.md) --------

    strategies_module: str
    """Import path of the module that registers the game's shipped strategies
    (``strategies/__init__.py`` imports it for every game of the registry)."""

    tabletop_module: str | None = None
    #: the module whose ``play`` runs ``simulator.calibrate`` for this game (None: no belief model)
    calibration_module: str | None = None
    """Import path of the module that plays the game at the table (``kortsim play``): it
    offers ``ADVISOR`` (the spec of the stronger shipped strategy set beside a person's
    choices) and ``sit(seat, setup, *, samples, wait, index) -> Outcome``
    (:mod:`simulator.tabletop`).  None: the game cannot be played at the table."""

    @abstractmethod
    def moves(
        self, table: Table, players: Sequence, seed: int, game_index: int, deal: int, engine: str
    ) -> list[tuple[int, ...]]:
        """Every move of one deal, in order, as played by the kernel or by the reference.

        The conformance test asks for both and requires them equal, move by move: the
        compiled kernel (its traced entry point, with the shipped strategies' ids) and the
        readable reference draw from the same streams, so they must play the same game.

        Parameters
        ----------
        table : Table
            The game, rules, seats (and reaction profiles) to play at.
        players : sequence of Player
            Shipped strategies, one per seat.
        seed, game_index, deal : int
            The streams of the deal: the run's seed, the game's index, the deal within it.
        engine : {"kernel", "reference"}
            Which implementation plays.

        Returns
        -------
        list of tuple of int
            One tuple per move, the same layout for both engines (the kernel's log rows).
        """

    @abstractmethod
    def reference_record(
        self, table: Table, players: Sequence, seed: int, game_index: int, unit: str
    ) -> tuple[int, ...]:
        """Game ``game_index`` of a run, played by the reference, as the record row.

        Parameters
        ----------
        table : Table
        players : sequence of Player
        seed, game_index : int
        unit : {"round", "match"}

        Returns
        -------
        tuple of int
            The row ``records_block_nb`` writes for that game, one value per name of
            :meth:`record_columns` (the conformance test compares the two).
        """

    @abstractmethod
    def card_places(
        self, table: Table, players: Sequence, seed: int, game_index: int
    ) -> tuple[tuple[int, ...], list[dict[str, list[int]]]]:
        """Where every card is, after the deal and after every move of a reference round.

        Parameters
        ----------
        table : Table
        players : sequence of Player
        seed, game_index : int
            The round's streams (dealt as in a run of rounds).

        Returns
        -------
        cards : tuple of int
            Every card in play at this table.
        states : list of dict of str to list of int
            One entry per state, first the deal: each place (a hand, the stock, a pile)
            and the cards in it.  The conformance test requires every card of ``cards``
            in exactly one place of every state, and no other card.
        """
