"""One validated setup for every run: what is played, and how it is played.

Every entry point (:func:`simulator.simulate`, :func:`simulator.analysis.compare.compare`,
:func:`simulator.analysis.sweep.sweep`, the experiments and the ``kortsim`` commands over them)
checks its input here, once, through two constructors:

* :meth:`Setup.build`: *what* is played, the numbers depend on it alone: the game, its
  table (rules, seats, reaction profiles), the players, the unit (rounds or matches), how
  many and the seed;
* :meth:`Execution.build`: *how* it is played, which never changes a number: threads,
  block size, the backend and its options, the run folder, records and progress.

Both objects are frozen, and a bad input is refused by them with one line
(:class:`~simulator.games.base.InputError`), worded the same whichever command or function
it came through.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import numba
import numpy as np

from simulator.engine.arguments import callback, flag, optional_path, optional_text
from simulator.errors import InputError
from simulator.games import Game, Table
from simulator.running.backends import (
    Backend,
    check_backend_options,
    check_connect_timeout,
    resolve_backend,
)
from simulator.running.inputs import (
    MAX_GAME_INDEX,
    MAX_GAMES,
    UNITS,
    check_block_size,
    check_game_index,
    check_threads,
    check_workers,
    load_plugins,
    make_table,
    parse_players,
    resolve_game,
    resolve_players,
    resolve_unit,
)
from simulator.running.records import MAX_RECORDS_IN_MEMORY
from simulator.running.seed import MAX_SEED, SeedLike, resolve_seed, seed_provenance
from strategies.registry import Player

# --- the two objects ------------------------------------------------------------------------


@dataclass(frozen=True)
class Setup:
    """What a run plays; the numbers depend on this alone (and are the same for any
    :class:`Execution`).

    Build it with :meth:`Setup.build`, which checks every input.

    Attributes
    ----------
    game : Game
        The game.
    table : Table
        Its rules, the number of seats and (Gris games) the seats' reaction profiles.
    players : tuple of Player
        A run (``simulate``): the player in each seat, in seat order.  A comparison
        (``compare``, ``sweep``): the strategies compared, in the order given.
    unit : str
        ``"round"`` (independent deals) or ``"match"`` (whole matches).
    n : int
        How many rounds or matches (deals, in a comparison): 1 to ``MAX_GAMES``.
    seed : int
        The run's seed, 0 to 2**63 - 1.
    seed_extra : dict
        Where the seed came from when it was a ``numpy.random.SeedSequence`` (its entropy
        and spawn key, kept in the provenance); empty otherwise.
    plugins : tuple of str
        The strategy files the players may come from (loaded again on Dask workers).
    compared : bool
        Whether ``players`` are the strategies compared (built with ``fill_seats=False``)
        rather than the seats' players.
    seed_sequence : numpy.random.SeedSequence or None
        The sequence ``seed`` came from, when it was one (so that :meth:`arguments` builds
        the same setup again, ``seed_extra`` included); None otherwise.
    """

    game: Game
    table: Table
    players: tuple[Player, ...]
    unit: str
    n: int
    seed: int
    seed_extra: dict[str, Any] = field(default_factory=dict)
    plugins: tuple[str, ...] = ()
    compared: bool = False
    # Compared through ``seed`` and ``seed_extra`` (a SeedSequence compares by identity).
    seed_sequence: np.random.SeedSequence | None = field(default=None, compare=False)

    @property
    def rules(self) -> Any:
        """The game's Rules object in force (``table.rules``)."""
        return self.table.rules

    @property
    def n_seats(self) -> int:
        """The number of seats at the table."""
        return self.table.n_seats

    @classmethod
    def build(
        cls,
        game: str | Game,
        strategies: Sequence[str | Player] | str | Player,
        *,
        rounds: int | None = None,
        matches: int | None = None,
        seed: SeedLike | None = None,
        rules: Mapping[str, Any] | Any = None,
        players: int | None = None,
        reaction: Sequence[Any] | None = None,
        plugins: Sequence[str | Path] = (),
        fill_seats: bool = True,
    ) -> Setup:
        """Check every input of a run and build its setup.

        Parameters
        ----------
        game
            A game id or a :class:`Game`.
        strategies
            Specs such as ``"threshold:k=4"`` or :class:`Player` objects.  With
            ``fill_seats`` (a run): one for every seat, or one per seat in seat order.
            Without (a comparison): the strategies compared, at least one.
        rounds, matches
            Exactly one: how many rounds or matches, 1 to ``MAX_GAMES`` (10**12).
        seed
            0 to 2**63 - 1, a numpy integer or a ``numpy.random.SeedSequence``; None
            draws a fresh one (:func:`resolve_seed`).
        rules
            Rule variants: a mapping (``{"jack": "11"}``), a list (``["jack=11"]``) or the
            game's Rules object.
        players
            The number of seats (default: the game's).
        reaction
            Reaction profiles ``MEDIAN[,SIGMA]`` or ``SEAT=MEDIAN[,SIGMA]`` (Gris games).
        plugins
            Strategy files to load first.
        fill_seats
            Whether ``strategies`` fill the seats (a run) or are compared (a comparison).

        Returns
        -------
        Setup

        Raises
        ------
        InputError
            For any bad input, in one line.
        strategies.registry.SpecError
            For a strategy spec or plugin file that cannot be read.
        strategies.checks.StrategyCompileError
            For a user strategy numba cannot compile.
        """
        paths = load_plugins(plugins, game)
        g = resolve_game(game)
        unit, n = resolve_unit(rounds, matches)
        seed_extra = seed_provenance(seed)
        chosen = resolve_seed(seed)
        table = make_table(g, rules, players, reaction)
        if fill_seats:
            seated = resolve_players(g, strategies, table.n_seats)
        else:
            seated = parse_players(g, strategies)
        sequence = seed if isinstance(seed, np.random.SeedSequence) else None
        return cls(g, table, tuple(seated), unit, n, chosen, seed_extra, paths, not fill_seats, sequence)

    def arguments(self) -> dict[str, Any]:
        """The keywords of :meth:`build` that build this setup again (``game`` and
        ``strategies`` included): ``Setup.build(**s.arguments()) == s``.  A seed that came
        from a ``numpy.random.SeedSequence`` is given as that sequence, so that its
        provenance (``seed_extra``) is kept too."""
        return {
            "game": self.game.name,
            "strategies": [p.spec for p in self.players],
            "rounds": self.n if self.unit == "round" else None,
            "matches": self.n if self.unit == "match" else None,
            "seed": self.seed if self.seed_sequence is None else self.seed_sequence,
            "rules": self.table.rules,
            "players": self.table.n_seats,
            "reaction": [f"{seat}={m!r},{sd!r}" for seat, (m, sd) in enumerate(self.table.reaction)] or None,
            "plugins": self.plugins,
            "fill_seats": not self.compared,
        }

    def with_players(self, players: Sequence[Player]) -> Setup:
        """The same setup with other players of the same game (already checked, e.g. the
        points of a sweep that are played)."""
        for p in players:
            if p.family.game != self.game.name:
                raise InputError(f"strategy {p.spec!r} is for {p.family.game}, not {self.game.name}")
        return replace(self, players=tuple(players))


@dataclass(frozen=True)
class Execution:
    """How a run is played; never changes a number.

    Build it with :meth:`Execution.build`, which checks every input.

    Attributes
    ----------
    threads : int or None
        Worker threads of the local backend (None: every thread numba may use).
    block_size : int or None
        Games per block, 1 to ``MAX_BLOCK`` (None: sized from the measured speed).
    backend : Backend
        ``local`` (this machine's threads) or ``dask``.
    scheduler : str or None
        A Dask scheduler address or scheduler file (``dask`` only).
    workers : int or None
        Processes of a local Dask cluster (``dask`` only, not with ``scheduler``).
    connect_timeout : float or None
        Seconds to wait for a Dask scheduler and its workers (``dask`` only).
    out : Path or None
        A run folder: finished blocks are kept there (``simulate`` only).
    resume : bool
        Continue the run in ``out``.
    records : bool
        Also keep one row per game.
    progress : callable or None
        Called with the number of games after every block.
    """

    threads: int | None = None
    block_size: int | None = None
    backend: Backend = Backend.local
    scheduler: str | None = None
    workers: int | None = None
    connect_timeout: float | None = None
    out: Path | None = None
    resume: bool = False
    records: bool = False
    progress: Callable[[int], None] | None = field(default=None, compare=False)

    @classmethod
    def build(
        cls,
        *,
        threads: int | None = None,
        block_size: int | None = None,
        backend: str | Backend = "local",
        scheduler: str | None = None,
        workers: int | None = None,
        connect_timeout: float | None = None,
        out: str | Path | None = None,
        resume: bool = False,
        records: bool = False,
        progress: Callable[[int], None] | None = None,
    ) -> Execution:
        """Check every option of how a run is played and build its execution.

        Parameters
        ----------
        threads, block_size, backend, scheduler, workers, connect_timeout, out, resume, records, progress
            As the attributes of :class:`Execution` say.

        Returns
        -------
        Execution

        Raises
        ------
        InputError
            For any bad option or options that do not go together, in one line.
        """
        folder = optional_path(out, "--out")
        resume, records = flag(resume, "resume"), flag(records, "records")
        progress = callback(progress, "progress")
        scheduler = optional_text(scheduler, "scheduler")
        chosen = resolve_backend(backend)
        threads = check_threads(threads)
        workers = check_workers(workers)
        check_backend_options(chosen, scheduler, workers, threads)
        if connect_timeout is not None:
            check_connect_timeout(connect_timeout)
            if chosen is Backend.local:
                raise InputError("--connect-timeout is for --backend dask (the wait for a scheduler)")
        check_block_size(block_size)
        if out is None and resume:
            raise InputError("--resume needs --out DIR (the run's folder)")
        block = None if block_size is None else int(block_size)
        return cls(
            threads, block, chosen, scheduler, workers, connect_timeout, folder, resume, records, progress
        )

    def check_records(self, n: int) -> None:
        """Records kept in memory (no ``out``) are bounded: at most ``MAX_RECORDS_IN_MEMORY``
        games."""
        if self.out is None and self.records and n > MAX_RECORDS_IN_MEMORY:
            raise InputError(
                f"records=True keeps at most {MAX_RECORDS_IN_MEMORY:,} games in memory, not {n:,}: "
                "give out=DIR to stream them to DIR/records/"
            )

    def apply_threads(self) -> None:
        """Set numba's thread count for this run (when ``threads`` was given)."""
        if self.threads is not None:
            numba.set_num_threads(self.threads)

    def with_progress(self, progress: Callable[[int], None] | None) -> Execution:
        """The same execution reporting progress to ``progress``."""
        return replace(self, progress=progress)

    def tick(self, count: int) -> None:
        """Report ``count`` games played."""
        if self.progress is not None:
            self.progress(count)

    def backend_options(self) -> dict[str, Any]:
        """The keywords of :func:`simulator.running.backends.run_blocks` for the backend."""
        return {
            "backend": self.backend,
            "scheduler": self.scheduler,
            "workers": self.workers,
            "connect_timeout": self.connect_timeout,
        }


EXECUTION_OPTIONS = ("threads", "block_size", "backend", "scheduler", "workers", "connect_timeout")
# Options of how a single run is played that only simulate takes (its run folder and records).
RUN_ONLY_OPTIONS = ("out", "resume", "records", "stop")


def execution_of(
    options: Mapping[str, Any],
    progress: Callable[[int], None] | None = None,
    *,
    caller: str | None = None,
    takes: Sequence[str] = (),
) -> Execution:
    """An :class:`Execution` from keyword options such as an experiment's ``**backend``
    (``threads=2``); an option that is not one of ``EXECUTION_OPTIONS`` is one line.

    ``caller`` names the function the options were given to (``"sweep"``), and ``takes``
    the other keywords it takes (already taken out of ``options``): the line then names the
    function and all its options, and says so when the option is one only
    :func:`simulator.simulate` takes."""
    unknown = [k for k in options if k not in EXECUTION_OPTIONS]
    if unknown:
        key = unknown[0]
        if caller is None:
            raise InputError(
                f"unknown option {key!r} for how runs are played (options: {', '.join(EXECUTION_OPTIONS)})"
            )
        if key in RUN_ONLY_OPTIONS:
            raise InputError(
                f"{caller}() takes no {key}= (a run folder, resuming and records are options of simulate)"
            )
        raise InputError(
            f"unknown option {key!r} for {caller}() (options: {', '.join([*takes, *EXECUTION_OPTIONS])})"
        )
    return Execution.build(**options, progress=progress)


__all__ = [
    "EXECUTION_OPTIONS",
    "MAX_GAMES",
    "MAX_GAME_INDEX",
    "MAX_SEED",
    "RUN_ONLY_OPTIONS",
    "UNITS",
    "Execution",
    "SeedLike",
    "Setup",
    "check_block_size",
    "check_game_index",
    "check_threads",
    "check_workers",
    "execution_of",
    "load_plugins",
    "make_table",
    "parse_players",
    "resolve_game",
    "resolve_players",
    "resolve_seed",
    "resolve_unit",
    "seed_provenance",
]
