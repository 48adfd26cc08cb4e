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

import secrets
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import numba
import numpy as np

from simulator.errors import InputError
from simulator.games import Game, Table, get_game
from simulator.running.backends import (
    MAX_BLOCK,
    Backend,
    check_backend_options,
    check_connect_timeout,
    resolve_backend,
)
from simulator.running.records import MAX_RECORDS_IN_MEMORY
from simulator.running.results import plain
from strategies.checks import check_compiles
from strategies.registry import Player, load_plugin, parse_spec

MAX_SEED = (1 << 63) - 1
# The most games (rounds or matches) one run may play: about three years of one fast core;
# far below the game indices the random-stream contract allows (docs/random-streams.md).
MAX_GAMES = 10**12
# A game's index in a run is a signed 64-bit integer in the kernels: 0 <= index < 2**63.
MAX_GAME_INDEX = (1 << 63) - 1
UNITS = ("round", "match")

SeedLike = int | np.integer | np.random.SeedSequence


# --- the checks, one function per input --------------------------------------------------


def _whole(value: Any) -> int | None:
    """``value`` as an ``int`` when it is a whole number (not a bool), else None."""
    if isinstance(value, bool | np.bool_) or not isinstance(value, int | np.integer):
        return None
    return int(value)


def resolve_game(game: str | Game) -> Game:
    """The game object for a game id (as ``kortsim games`` lists them, in any case) or the
    game itself."""
    if not isinstance(game, Game | str):
        raise InputError(f"the game is a game id (see `kortsim games`), not {game!r}")
    return game if isinstance(game, Game) else get_game(game)


def load_plugins(plugins: Sequence[str | Path]) -> tuple[str, ...]:
    """Load every strategy file of ``plugins``; return their paths as strings.

    Raises
    ------
    strategies.registry.SpecError
        When a file does not exist, fails to run or registers a name it may not.
    """
    if isinstance(plugins, str | Path):
        plugins = [plugins]
    paths = tuple(str(p) for p in plugins)
    for path in paths:
        load_plugin(path)
    return paths


def resolve_unit(rounds: int | None, matches: int | None) -> tuple[str, int]:
    """The unit (``"round"`` or ``"match"``) and the number of games of a run.

    Exactly one of ``rounds`` and ``matches`` is given, a whole number from 1 to
    ``MAX_GAMES`` (10**12); anything else raises :class:`InputError` (one line).
    """
    if (rounds is None) == (matches is None):
        raise InputError("give exactly one of --rounds N or --matches N")
    unit, n = ("round", rounds) if rounds is not None else ("match", matches)
    units = "rounds" if unit == "round" else "matches"
    whole = _whole(n)
    if whole is None or whole <= 0:
        raise InputError(f"the number of {units} must be a positive whole number, not {n!r}")
    if whole > MAX_GAMES:
        raise InputError(
            f"--{units} {whole}: at most {MAX_GAMES:,} (10**12) {units} in one run "
            "(split a longer study into runs with different seeds)"
        )
    return unit, whole


def check_game_index(game_index: int) -> int:
    """A game's index in a run (``kortsim trace --game``) as an ``int``: a whole number from
    0 to ``MAX_GAME_INDEX`` (2**63 - 1)."""
    whole = _whole(game_index)
    if whole is None:
        raise InputError(f"--game takes a whole number, not {game_index!r}")
    if not 0 <= whole <= MAX_GAME_INDEX:
        raise InputError(
            f"--game {whole}: a game's index counts from 0 and is below 2**63 (at most {MAX_GAME_INDEX})"
        )
    return whole


def resolve_seed(seed: SeedLike | None) -> int:
    """The run's seed as an ``int`` from 0 to 2**63 - 1 (the one recorded in the summary).

    ``None`` draws a fresh one; an ``int`` or numpy integer is taken as it is; a
    ``numpy.random.SeedSequence`` becomes the top 63 bits of its first 64-bit word,
    ``int(seq.generate_state(1, np.uint64)[0]) >> 1`` (so the children of
    ``seq.spawn(k)`` give k different seeds, and the same sequence the same seed).
    Anything else is an :class:`InputError`.
    """
    if seed is None:
        return secrets.randbits(63)
    if isinstance(seed, np.random.SeedSequence):
        return int(seed.generate_state(1, np.uint64)[0]) >> 1
    whole = _whole(seed)
    if whole is None:
        shown = repr(seed).splitlines()[0] if repr(seed) else ""
        shown = shown if len(shown) <= 40 else shown[:39] + "…"
        raise InputError(
            f"the seed must be a whole number from 0 to {MAX_SEED} or a numpy SeedSequence, "
            f"not {type(seed).__name__} {shown}"
        )
    if not 0 <= whole <= MAX_SEED:
        raise InputError(f"the seed must be a whole number from 0 to {MAX_SEED}")
    return whole


def seed_provenance(seed: Any) -> dict[str, Any]:
    """Where a seed came from, when it was not a plain number: a SeedSequence's entropy and
    spawn key (the recorded integer seed is :func:`resolve_seed` of it)."""
    if isinstance(seed, np.random.SeedSequence):
        return plain({"seed_sequence": {"entropy": seed.entropy, "spawn_key": list(seed.spawn_key)}})
    return {}


def make_table(
    game: Game,
    rules: Mapping[str, Any] | Any = None,
    players: int | None = None,
    reaction: Sequence[Any] | None = None,
) -> Table:
    """The table a run is played at: the rules (a mapping, a list of ``NAME=VALUE`` or the
    game's Rules object), the number of seats (default: the game's) and the reaction
    profiles (Gris games), each checked by the game."""
    if players is not None and _whole(players) is None:
        raise InputError(f"--players takes a whole number of seats, not {players!r}")
    return game.table(rules, None if players is None else int(players), reaction)


def parse_players(game: Game, strategies: Sequence[str | Player] | str | Player) -> list[Player]:
    """The strategies given (specs or :class:`Player` objects) as players of ``game``: at
    least one, each for this game and each compiling (a user strategy is compiled alone
    here, so that a strategy numba cannot compile is one line before anything is played)."""
    if isinstance(strategies, str | Player):
        strategies = [strategies]
    if not strategies:
        raise InputError("give at least one strategy (-s NAME)")
    players = [parse_spec(s, game.name) if isinstance(s, str) else s for s in strategies]
    for p in players:
        if p.family.game != game.name:
            raise InputError(f"strategy {p.spec!r} is for {p.family.game}, not {game.name}")
        check_compiles(p.family)
    return players


def resolve_players(game: Game, strategies: Sequence[str | Player] | str, n_seats: int) -> list[Player]:
    """One strategy fills every seat; otherwise one per seat, in seat order."""
    players = parse_players(game, strategies)
    if len(players) == 1:
        return players * n_seats
    if len(players) != n_seats:
        raise InputError(
            f"{len(players)} strategies for {n_seats} seats: give one for every seat, or one for all"
        )
    return players


def check_block_size(block_size: int | None) -> None:
    """``block_size`` is None (sized automatically) or a whole number from 1 to ``MAX_BLOCK``
    (2**22 games; runs with records play at most ``MAX_RECORDS_BLOCK`` games at a time)."""
    if block_size is None:
        return
    whole = _whole(block_size)
    if whole is None:
        raise InputError(f"the block size must be a whole number, not {block_size!r}")
    if not 1 <= whole <= MAX_BLOCK:
        raise InputError(
            f"--block-size {whole}: give 1 to {MAX_BLOCK:,} (2**22) games per block "
            "(the figures do not depend on it)"
        )


def check_threads(threads: int | None) -> int | None:
    """``threads`` is None (every thread numba may use) or a whole number from 1 to
    ``numba.config.NUMBA_NUM_THREADS``."""
    if threads is None:
        return None
    whole = _whole(threads)
    most = numba.config.NUMBA_NUM_THREADS
    if whole is None:
        raise InputError(f"--threads takes a whole number, not {threads!r}")
    if not 1 <= whole <= most:
        raise InputError(f"--threads {whole}: give 1 to {most} (the threads numba may use here)")
    return whole


def check_workers(workers: int | None) -> int | None:
    """``workers`` is None or a whole number (its range is checked with the backend)."""
    if workers is None:
        return None
    whole = _whole(workers)
    if whole is None:
        raise InputError(f"--workers takes a whole number of processes, not {workers!r}")
    return whole


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
        paths = load_plugins(plugins)
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
        folder = None if out is None else Path(out)
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
