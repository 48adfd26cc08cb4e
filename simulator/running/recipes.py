"""Block functions and their recipes: what a block plays, in this process or rebuilt on a worker.

A :class:`Recipe` is a picklable description of a block function (the players, the table,
the user's strategy files as :class:`PluginFile`), built once per process; :class:`Work`
holds the function built here and, for Dask, the recipe.
"""

from __future__ import annotations

import hashlib
import pickle
import sys
import tempfile
from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from simulator.engine.files import atomic_write
from simulator.errors import InputError, SpecError
from simulator.games import get_game
from simulator.games.base import Table
from strategies.plugins import load_plugin
from strategies.registry import Player, parse_spec

BlockFn = Callable[[int, int], Any]


class Recipe(ABC):
    """A picklable description of a block function, built once per worker process."""

    @abstractmethod
    def key(self) -> str:
        """Identifies the block function (the per-process cache key)."""

    @abstractmethod
    def build(self) -> BlockFn:
        """Load what is needed, compile, and return ``fn(first, n) -> payload``."""


@dataclass
class Work:
    """What a run plays: the block function in this process (built on first use) and,
    for Dask, the recipe the workers build it from."""

    local: Callable[[], BlockFn]
    recipe: Recipe | None = None
    _fn: BlockFn | None = field(default=None, repr=False)

    def local_fn(self) -> BlockFn:
        if self._fn is None:
            self._fn = self.local()
        return self._fn


@dataclass(frozen=True)
class PluginFile:
    """A user's strategy file: its path, and its text for workers that cannot see the path."""

    path: str
    text: str
    sha256: str

    @classmethod
    def read(cls, path: str | Path) -> PluginFile:
        p = Path(path).resolve()
        data = p.read_bytes()
        return cls(str(p), data.decode("utf-8"), hashlib.sha256(data).hexdigest())

    def copy_path(self) -> Path:
        """Where a worker keeps the shipped text (by content, so an edited file is a new one)."""
        return Path(tempfile.gettempdir()) / "kortsim-plugins" / self.sha256[:20] / Path(self.path).name

    def load(self, from_copy: bool = False) -> None:
        """Load the file on this machine: the path if it holds the same text, else a copy."""
        p = Path(self.path)
        if not from_copy and p.is_file() and hashlib.sha256(p.read_bytes()).hexdigest() == self.sha256:
            load_plugin(p)
            return
        copy = self.copy_path()
        if not copy.is_file():
            copy.parent.mkdir(parents=True, exist_ok=True)
            atomic_write(copy, self.text)
        load_plugin(copy, source=self.path)  # the copy stands for that file (names, reloads)


def shippable_plugins(
    players: Sequence[Player], plugins: Sequence[str | Path] = ()
) -> tuple[PluginFile, ...]:
    """The strategy files workers must load: the ``plugins`` given, and the file each user
    strategy was registered from.  A strategy defined in the main script or a notebook
    cannot be shipped: say so in one line."""
    paths: list[Path] = [Path(p).resolve() for p in plugins]
    main_file = getattr(sys.modules.get("__main__"), "__file__", None)
    for p in players:
        fam = p.family
        if not fam.user:
            continue
        origin = Path(fam.origin)
        if not origin.is_file() or (main_file and origin.resolve() == Path(main_file).resolve()):
            raise InputError(
                f"strategy {p.spec!r} was defined in {fam.origin}, not in a strategy file: put it in "
                "its own file and load it with --plugin (or load_plugin) to play it on Dask workers"
            )
        if origin.resolve() not in paths:
            paths.append(origin.resolve())
    return tuple(PluginFile.read(p) for p in paths)


@dataclass(frozen=True)
class Played:
    """One block's aggregates, and its per-game records when they were asked for."""

    agg: np.ndarray
    rec: np.ndarray | None = None


def play_block(runner: Any, first: int, n: int, records: bool) -> Played:
    agg = runner.play(first, n)
    return Played(agg, runner.records(first, n) if records else None)


@dataclass(frozen=True)
class PlayRecipe(Recipe):
    """The settings of a ``simulate`` run, enough to rebuild its BlockRunner anywhere."""

    game: str
    rules: Any
    n_seats: int
    reaction: tuple[tuple[float, float], ...]
    specs: tuple[str, ...]
    source_hashes: tuple[str, ...]
    unit: str
    seed: int
    records: bool
    plugins: tuple[PluginFile, ...] = ()
    #: Each player's copy salt (strategies.registry.Player.salt), or () when all are 0.
    salts: tuple[int, ...] = ()

    @classmethod
    def of(
        cls, table: Table, players: Sequence[Player], unit: str, seed: int, records: bool, plugins=()
    ) -> PlayRecipe:
        return cls(
            table.game.name,
            table.rules,
            table.n_seats,
            tuple(table.reaction),
            tuple(p.spec for p in players),
            tuple(p.family.source_hash() for p in players),
            unit,
            int(seed),
            bool(records),
            shippable_plugins(players, plugins),
            tuple(p.salt for p in players) if any(p.salt for p in players) else (),
        )

    def key(self) -> str:
        text = repr((self.game, self.rules, self.n_seats, self.reaction, self.specs, self.source_hashes))
        text += repr((self.unit, self.seed, self.records, tuple(p.sha256 for p in self.plugins)))
        if self.salts:  # no salts: the key it always had
            text += repr(self.salts)
        return "play-" + hashlib.sha256(text.encode()).hexdigest()[:20]

    def players(self) -> list[Player]:
        for pf in self.plugins:
            pf.load()
        players = [parse_spec(s, self.game) for s in self.specs]
        if self._changed(players) and self.plugins:
            # This process loaded an older version of a file at the same path: use the shipped text.
            for pf in self.plugins:
                pf.load(from_copy=True)
            players = [parse_spec(s, self.game) for s in self.specs]
        changed = self._changed(players)
        if changed:
            raise SpecError(
                f"strategy {changed[0].spec!r} on this worker is not the one the run was started with "
                "(install the same kortsim and strategy files on every worker)"
            )
        if self.salts:
            players = [p.copy_number(salt) for p, salt in zip(players, self.salts)]
        return players

    def _changed(self, players: list[Player]) -> list[Player]:
        return [p for p, h in zip(players, self.source_hashes) if p.family.source_hash() != h]

    def build(self) -> BlockFn:
        from simulator.running.runner import BlockRunner

        game = get_game(self.game)
        table = Table(game, self.rules, self.n_seats, self.reaction)
        runner = BlockRunner(table, self.players(), self.unit, self.seed)
        runner.compile()
        if self.records:
            runner.records(0, 1, n_chunks=1)
        return lambda first, n: play_block(runner, first, n, self.records)


@dataclass(frozen=True)
class SeatingsRecipe(Recipe):
    """The same deals played under several seatings (duplicate-deal comparisons): each block
    is the per-game records of every seating, reduced on the worker by ``reduce(first, recs)``
    (a picklable module-level function or ``functools.partial`` of one) so that only small
    integer sums travel back."""

    seatings: tuple[PlayRecipe, ...]
    reduce: Callable[[int, list[np.ndarray]], Any]

    def key(self) -> str:
        text = repr(tuple(s.key() for s in self.seatings))
        text += hashlib.sha256(pickle.dumps(self.reduce)).hexdigest()
        return "seatings-" + hashlib.sha256(text.encode()).hexdigest()[:20]

    def build(self) -> BlockFn:
        from simulator.running.runner import BlockRunner

        runners = []
        for s in self.seatings:
            table = Table(get_game(s.game), s.rules, s.n_seats, s.reaction)
            runner = BlockRunner(table, s.players(), s.unit, s.seed)
            runner.records(0, 1, n_chunks=1)  # compile
            runners.append(runner)
        return lambda first, n: self.reduce(first, [r.records(first, n) for r in runners])
