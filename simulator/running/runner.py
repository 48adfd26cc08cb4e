"""Plays games in blocks on local threads and merges their integer aggregates.

A run of ``n`` games is cut into blocks of ``block_size`` consecutive game
indices; within a block the kernel splits the games into chunks, one per
parallel task.  Every game's randomness is keyed by ``(seed, game index)`` and
aggregates are integer sums, so the result is the same for any thread count,
block size or chunking, and blocks can be played anywhere, in any order
(the Dask backend and resumable runs rely on this).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from contextlib import nullcontext
from dataclasses import dataclass
from typing import Any

import numba
import numpy as np

from simulator.engine.layout import ERROR_ROW_WIDTH
from simulator.errors import IllegalMove, StrategyError
from simulator.games.base import Game, Table
from simulator.games.illegal import where
from simulator.kernels.containment import (
    ANSWER_COLUMN,
    RAISED,
    checked_decide,
    watched,
    who,
)
from simulator.kernels.messages import announced, kernel_message
from simulator.kernels.raised import describe_raised, trapping_players
from simulator.kernels.specialise import compiling_alone, specialised_kernel
from strategies.checks import check_compiles
from strategies.registry import Player, shipped_decides

DEFAULT_BLOCK = 1 << 16
UNIT_CODE = {"round": 0, "match": 1}


@dataclass(frozen=True)
class Kernel:
    """The block entry point for a set of players, and their ids in its dispatcher."""

    run_block: Callable
    sids: np.ndarray
    user: bool
    records_block: Callable
    message: str = ""  # said before it compiles (simulator/kernels/messages.py) ...
    compile_key: tuple = ()  # ... once per process for this key
    compile_lock: str | None = None  # held while compiling a copy (simulator/kernels/specialise.py)


def resolve_kernel(game: Game, players: Sequence[Player]) -> Kernel:
    """The cached kernel when every player is shipped; otherwise one compiled for the run."""
    fams = [p.family for p in players]
    if all(f.builtin_id is not None for f in fams):
        sids = np.array([f.builtin_id for f in fams], dtype=np.int64)
        message = kernel_message(game, players, builtin=True)
        key = (message, id(game.kernel.run_block_nb))
        return Kernel(game.kernel.run_block_nb, sids, False, game.kernel.records_block_nb, message, key)
    message = kernel_message(game, players, builtin=False)
    key = (message, *(id(f.decide) for f in fams))
    if not any(f.user for f in fams):
        # Shipped strategies only, some compiled on demand (``search``): one copy of the
        # kernel over all of them serves every such line-up, so it compiles once.
        decides = run_as = shipped_decides(game.name)
        contained = []
    else:
        decides, run_as, contained = [], [], []
        for f in fams:
            check_compiles(f)  # one clear line when a user strategy does not compile
            if f.decide not in decides:
                decides.append(f.decide)
                # simulator/kernels/containment.py: bounds-checked, read-only inputs, exceptions trapped
                user = f.user
                run_as.append(checked_decide(f) if user else f.decide)
                contained.append(user)
    sids = np.array([decides.index(f.decide) for f in fams], dtype=np.int64)
    module = specialised_kernel(game.kernel, run_as, tuple(contained))
    lock = getattr(module, "COMPILE_LOCK", None)  # None: a copy for this process only
    return Kernel(module.run_block_nb, sids, True, module.records_block_nb, message, key, lock)


def params_matrix(players: Sequence[Player]) -> np.ndarray:
    return np.ascontiguousarray(np.stack([p.params for p in players]))


@dataclass
class BlockRunner:
    """Everything needed to play any block of a run; cheap to call repeatedly."""

    table: Table
    players: Sequence[Player]
    unit: str
    seed: int

    def __post_init__(self) -> None:
        game = self.table.game
        self.kernel = resolve_kernel(game, self.players)
        self.params = params_matrix(self.players)
        self.rules_i, self.rules_f = game.rules_arrays(self.table)
        self.width = game.agg_size(self.unit, self.table.n_seats)
        self.compile_s = 0.0
        self._called: set[str] = set()

    def _first_call(self, which: str):
        """Around a kernel's first call: say what compiles, if anything does."""
        if which in self._called:
            return nullcontext()
        self._called.add(which)
        return announced(self.kernel.message, key=self.kernel.compile_key or None)

    def compile(self) -> float:
        """Compile (or load from the cache) and return the seconds it took."""
        t0 = time.perf_counter()
        self.play(0, 1, n_chunks=1)
        self.compile_s = time.perf_counter() - t0
        return self.compile_s

    def play(self, first: int, n: int, n_chunks: int | None = None) -> np.ndarray:
        """Aggregates of games ``[first, first + n)`` as one int64 row."""
        n_chunks = self._n_chunks(n, n_chunks)
        agg = np.zeros((n_chunks, self.width), dtype=np.int64)
        self._run_block("play", self.kernel.run_block, first, n, n_chunks, agg)
        return agg.sum(axis=0)

    def records(self, first: int, n: int, n_chunks: int | None = None) -> np.ndarray:
        """Per-game records of games ``[first, first + n)``, one int64 row each."""
        n_chunks = self._n_chunks(n, n_chunks)
        cols = self.table.game.record_columns(self.unit, self.table.n_seats)
        rec = np.zeros((n, len(cols)), dtype=np.int64)
        self._run_block("records", self.kernel.records_block, first, n, n_chunks, rec)
        return rec

    @staticmethod
    def _n_chunks(n: int, n_chunks: int | None) -> int:
        """The chunks a block of ``n`` games splits into: as asked, else enough to keep
        every thread busy (four a thread) but never more than the games."""
        if n_chunks is None:
            return max(1, min(n, 4 * numba.get_num_threads()))
        return n_chunks

    def _run_block(
        self, which: str, kernel: Callable, first: int, n: int, n_chunks: int, out: np.ndarray
    ) -> None:
        """Run ``kernel`` (the table's ``run_block`` or ``records_block``) on games
        ``[first, first + n)``, filling ``out``; raise if a strategy played illegally.

        Parameters
        ----------
        which : str
            The call's name for the first-call compile message ("play" or "records").
        kernel : Callable
            The block kernel; it takes the table's arguments, then ``out`` and the error rows.
        first, n : int
            The first game and the number of games.
        n_chunks : int
            The number of error rows (one a chunk).
        out : np.ndarray
            The int64 array the kernel writes its results into.
        """
        err = np.zeros((n_chunks, ERROR_ROW_WIDTH), dtype=np.int64)
        args = (
            self.kernel.sids,
            self.params,
            self.rules_i,
            self.rules_f,
            np.int64(self.seed),
            np.int64(UNIT_CODE[self.unit]),
            np.int64(first),
            np.int64(n),
            out,
            err,
        )
        with self._first_call(which):
            self._compile_user(kernel, args)
            with self._watched(first, n):
                kernel(*args)
        self._raise_if_illegal(err)

    def _compile_user(self, kernel: Callable, args: tuple) -> None:
        """Compile a user kernel before its first call, so that its time limit counts
        playing only (shipped kernels load from the cache as they are called)."""
        if self.kernel.user and not getattr(kernel, "signatures", True):
            with compiling_alone(self.kernel.compile_lock):
                kernel.compile(tuple(numba.typeof(a) for a in args))

    def _watched(self, first: int, n: int):
        """Around a kernel call with user strategies: the watchdog of simulator/kernels/containment.py
        (a time limit per block, and Ctrl-C); shipped-only kernels run unwatched."""
        if not self.kernel.user or not any(p.family.user for p in self.players):
            return nullcontext()  # shipped strategies only (``search`` too): never stopped
        return watched(who(self.players), first, n)

    def _raise_if_illegal(self, err: np.ndarray) -> None:
        bad = np.flatnonzero(err[:, 0])
        if bad.size:
            row = err[bad[np.argmin(err[bad, 1])]]
            if self.kernel.user and int(row[ANSWER_COLUMN]) == RAISED:  # a user strategy raised
                words = describe_raised(self.table.game, self.table, self.players, self.seed, self.unit, row)
                raise StrategyError(words)
            # The same words as a trace of that game (simulator/games/illegal.py): the reference
            # implementation replays it up to the move; the kernel's row is the fallback.
            index = int(row[1])
            words = describe_illegal(self.table.game, self.table, self.players, self.seed, self.unit, index)
            if words is None:
                fallback = self.table.game.describe_error(row, self.players)
                words = f"{fallback}, {where(self.unit, index, self.seed)}"
            raise StrategyError(words)


def blocks(n: int, block_size: int, start: int = 0) -> list[tuple[int, int, int]]:
    """``(block index, first game, games)`` for games ``[0, n)``, from block ``start``."""
    out = []
    for b, first in enumerate(range(0, n, block_size)):
        if b >= start:
            out.append((b, first, min(block_size, n - first)))
    return out


def run_local(
    runner: BlockRunner,
    n: int,
    *,
    block_size: int = DEFAULT_BLOCK,
    progress: Callable[[int], None] | None = None,
) -> np.ndarray:
    """Play games ``[0, n)`` on this machine's threads; return the merged aggregates."""
    total = np.zeros(runner.width, dtype=np.int64)
    for _, first, count in blocks(n, block_size):
        total += runner.play(first, count)
        if progress is not None:
            progress(count)
    return total


def describe_illegal(
    game: Any, table: Any, players: Sequence[Any], seed: int, unit: str, index: int
) -> str | None:
    """The line for an illegal move found by a run in game ``index``: the game is replayed in
    the reference implementation, which stops at the same move and words it (None when the
    replay does not stop on an illegal move, so the caller words it from what it kept)."""
    try:
        game.trace(table, trapping_players(players), seed, index, unit)
    except IllegalMove as exc:
        return f"{exc}, {where(unit, index, seed)}"
    except Exception:  # the replay is only for the words
        return None
    return None
