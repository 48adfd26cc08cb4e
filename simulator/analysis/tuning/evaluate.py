"""Playing one candidate against the field on growing prefixes of the same deals.

Every candidate of a tune is played exactly as :func:`simulator.analysis.compare.compare` plays a
candidate against a field (the same seatings, :func:`simulator.analysis.compare.make_design`, the
same block runners and per-deal outcome totals), on deals ``0..n_r - 1`` of the search's
seed for the rungs ``n_1 < n_2 < ... < n``.  The starting parameters are played once on
all ``n`` deals first and their per-deal totals kept, so that every candidate's estimate
is its **paired** difference to the starting parameters on the deals it has played: the
mean over deals of ``(T_c − T_start) / a`` (``T``: the total of the metric over the ``a``
seatings a candidate sits in on a deal), with a 95% normal interval.  All sums are
integers, so every estimate is a pure function of the seed.
"""

from __future__ import annotations

import functools
import math
import time
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from simulator.analysis.compare import FIELD, Design, _outcome_totals, make_design, seating_table
from simulator.engine.stats import z_value
from simulator.errors import InputError
from simulator.games.base import Game, Metric, Table
from simulator.running.backends import (
    MAX_RECORDS_BLOCK,
    Backend,
    BlockPlan,
    PlayRecipe,
    SeatingsRecipe,
    Work,
    run_blocks,
)
from simulator.running.runner import DEFAULT_BLOCK, BlockRunner
from simulator.running.setup import Execution, Setup
from strategies.registry import Player

# A tune keeps the starting parameters' per-deal totals in memory (4 bytes a deal).
MAX_TUNE_DEALS = 50_000_000
RUNG_FRACTIONS = (1 / 16, 1 / 4, 1.0)
RUNG_STEPS = (1, 4, 16)  # the rungs in sixteenths of the budget: the pruner's steps


def rung_deals(n: int) -> tuple[int, ...]:
    """The deals played by each rung: ``n/16``, ``n/4`` and ``n`` (rounded up, at least 1)."""
    return tuple(max(1, math.ceil(n * f)) for f in RUNG_FRACTIONS)


@dataclass
class Sums:
    """Integer sums over the valid deals ``0..deals - 1`` of a candidate: ``v`` of its
    totals ``T_c``, ``d`` of its differences ``T_c − T_start`` (and their squares)."""

    deals: int = 0
    n: int = 0
    v: int = 0
    v2: int = 0
    d: int = 0
    d2: int = 0

    def add(self, t: np.ndarray, t0: np.ndarray, ok: np.ndarray) -> None:
        self.deals += len(t)
        t, diff = t[ok].astype(np.int64), (t[ok] - t0[ok]).astype(np.int64)
        self.n += int(ok.sum())
        self.v += int(t.sum())
        self.v2 += int((t * t).sum())
        self.d += int(diff.sum())
        self.d2 += int((diff * diff).sum())

    def copy(self) -> Sums:
        return Sums(self.deals, self.n, self.v, self.v2, self.d, self.d2)

    def to_json(self) -> dict[str, int]:
        return {k: getattr(self, k) for k in ("deals", "n", "v", "v2", "d", "d2")}

    @classmethod
    def of_json(cls, doc: dict[str, Any]) -> Sums:
        return cls(**{k: int(doc[k]) for k in ("deals", "n", "v", "v2", "d", "d2")})

    def figures(self, appearances: int, scale: float) -> dict[str, Any]:
        """The candidate's mean and its paired difference to the start, with 95% intervals
        (NaN below 2 deals), in the metric's unit."""
        z, k = z_value(), scale / appearances
        out: dict[str, Any] = {"deals": self.deals, "deals_used": self.n}
        for name, s, s2 in (("value", self.v, self.v2), ("diff", self.d, self.d2)):
            if self.n < 1:
                out[name], out[f"{name}_ci"] = math.nan, [math.nan, math.nan]
                continue
            mean = s / self.n
            out[name] = mean * k
            if self.n < 2:
                out[f"{name}_ci"] = [math.nan, math.nan]
                continue
            var = max((s2 - self.n * mean * mean) / (self.n - 1), 0.0)
            half = z * math.sqrt(var / self.n)
            out[f"{name}_ci"] = [(mean - half) * k, (mean + half) * k]
        return out


@dataclass
class Entry:
    """What is known of one representative point: its sums after each rung played."""

    rungs: list[Sums] = field(default_factory=list)

    @property
    def played(self) -> int:
        return self.rungs[-1].deals if self.rungs else 0


@dataclass
class Budget:
    """What a search spent: new deals and games played, and seconds of play (compiling the
    kernels, on a first run, included)."""

    deals: int = 0
    games: int = 0
    play_s: float = 0.0


def block_totals(
    game: Game, table: Table, unit: str, design: Design, metric: str, first: int, recs: list[np.ndarray]
) -> tuple[np.ndarray, np.ndarray]:
    """One block's per-deal totals of the candidate (over its seatings) and the valid mask:
    a pure function of the block's records, so it runs wherever the block is played."""
    t, ok = _outcome_totals(game, table, unit, recs, design, 1, metric)
    return t[:, 0], ok


class Evaluator:
    """Plays candidates of ``setup``'s game against ``field`` on deals of ``setup.seed``."""

    def __init__(self, setup: Setup, execution: Execution, field_player: Player, metric: Metric) -> None:
        if setup.n > MAX_TUNE_DEALS:
            raise InputError(
                f"a tune plays at most {MAX_TUNE_DEALS:,} deals per candidate; give fewer "
                f"--{setup.unit}s (got {setup.n:,})"
            )
        self.setup, self.execution, self.field, self.metric = setup, execution, field_player, metric
        self.design = make_design(setup.table.n_seats, 1, True)
        self.appearances = int((self.design.seatings == 0).sum())
        self.rungs = rung_deals(setup.n)
        self.budget = Budget()
        self.start_t: np.ndarray | None = None
        self.start_spec = ""  # the starting parameters' spec, once played
        self.start_ok: np.ndarray | None = None

    @property
    def seatings(self) -> int:
        return len(self.design.seatings)

    def _seatings(self, player: Player) -> list[tuple[Table, list[Player]]]:
        """Each seating of the design: its table and who sits where (``player`` or the field)."""
        g, table = self.setup.game, self.setup.table
        return [
            (seating_table(g, table, row, [None]), [self.field if c == FIELD else player for c in row])
            for row in self.design.seatings
        ]

    def _reduce(self) -> functools.partial:
        """A block's per-deal totals from its seatings' records (picklable: a Dask worker runs it)."""
        s = self.setup
        return functools.partial(block_totals, s.game, s.table, s.unit, self.design, self.metric.name)

    def _block_fn(self, player: Player):
        unit, seed, reduce = self.setup.unit, self.setup.seed, self._reduce()
        runners = [BlockRunner(t, ps, unit, seed) for t, ps in self._seatings(player)]
        return lambda first, count: reduce(first, [r.records(first, count) for r in runners])

    def _recipe(self, player: Player) -> SeatingsRecipe | None:
        """What a Dask worker rebuilds the block function from (None on the local backend)."""
        if self.execution.backend is not Backend.dask:
            return None
        s = self.setup
        seatings = tuple(
            PlayRecipe.of(t, ps, s.unit, s.seed, True, s.plugins) for t, ps in self._seatings(player)
        )
        return SeatingsRecipe(seatings, self._reduce())

    def _play(self, player: Player, first: int, last: int, on_block) -> None:
        """Play deals ``[first, last)`` block by block; ``on_block(first, t, ok)``."""
        self.execution.apply_threads()
        size = self.execution.block_size or DEFAULT_BLOCK
        plan = BlockPlan([(first, last)], size, max_block=MAX_RECORDS_BLOCK)

        def merge(a: int, count: int, payload: tuple[np.ndarray, np.ndarray]) -> None:
            on_block(a, *payload)
            self.execution.tick(count * self.seatings)

        t0 = time.perf_counter()
        work = Work(lambda: self._block_fn(player), self._recipe(player))
        run_blocks(work, plan, merge, **self.execution.backend_options())
        self.budget.play_s += time.perf_counter() - t0
        self.budget.deals += last - first
        self.budget.games += (last - first) * self.seatings

    def play_start(self, start: Player, saved: tuple[np.ndarray, np.ndarray] | None = None) -> None:
        """The starting parameters' per-deal totals on all deals (or ``saved`` ones)."""
        self.start_spec = start.spec
        if saved is not None and len(saved[0]) == self.setup.n:
            self.start_t, self.start_ok = saved
            return
        t_all = np.zeros(self.setup.n, dtype=np.int32)
        ok_all = np.ones(self.setup.n, dtype=bool)

        def keep(a: int, t: np.ndarray, ok: np.ndarray) -> None:
            t_all[a : a + len(t)] = t
            ok_all[a : a + len(t)] = ok

        self._play(start, 0, self.setup.n, keep)
        self.start_t, self.start_ok = t_all, ok_all

    def start_entry(self) -> Entry:
        """The starting parameters' own entry, from the totals already played: a trial at
        the starting point plays nothing more."""
        assert self.start_t is not None and self.start_ok is not None
        entry = Entry()
        for target in self.rungs:
            sums = Sums()
            sums.add(self.start_t[:target], self.start_t[:target], self.start_ok[:target])
            entry.rungs.append(sums)
        return entry

    def _collect(self, player: Player, first: int, last: int) -> dict[int, tuple[np.ndarray, np.ndarray]]:
        """Each block of deals ``[first, last)`` by its first deal: ``(totals, valid)``."""
        parts: dict[int, tuple[np.ndarray, np.ndarray]] = {}
        self._play(player, first, last, lambda a, t, ok: parts.__setitem__(a, (t, ok)))
        return parts

    def extend(self, player: Player, entry: Entry, rung: int) -> None:
        """Play ``player`` on to rung ``rung`` (its deals not yet played), recording the sums
        after every rung reached."""
        assert self.start_t is not None and self.start_ok is not None
        while len(entry.rungs) <= rung:
            sums = entry.rungs[-1].copy() if entry.rungs else Sums()
            target = self.rungs[len(entry.rungs)]
            parts = self._collect(player, sums.deals, target) if target > sums.deals else {}
            for a in sorted(parts):  # in deal order, whatever order the blocks came in
                t, ok = parts[a]
                end = a + len(t)
                sums.add(t, self.start_t[a:end], ok & self.start_ok[a:end])
            entry.rungs.append(sums)

    def figures(self, sums: Sums) -> dict[str, Any]:
        return sums.figures(self.appearances, self.metric.scale)
