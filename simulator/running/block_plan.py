"""Blocks: a run's game ranges cut into blocks sized to take about ``TARGET_BLOCK_S`` seconds.

What every backend shares: the range arithmetic (``merge_ranges``, ``missing_ranges``), the
plan that hands out blocks (:class:`BlockPlan`) and how a session of blocks went (:class:`Ran`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

TARGET_BLOCK_S = 0.25  # aim for blocks of about this many seconds
PROBE_BLOCK = 1024  # the first block(s) of an automatically sized run
MIN_BLOCK = 256
MAX_BLOCK = 1 << 22  # aggregates only
MAX_RECORDS_BLOCK = 1 << 18  # per-game records are held in memory a block at a time


# --- block sizes ----------------------------------------------------------------------


def merge_ranges(ranges: Sequence[tuple[int, int]]) -> list[tuple[int, int]]:
    """Sorted, disjoint, non-adjacent ``[a, b)`` ranges covering the same games."""
    out: list[tuple[int, int]] = []
    for a, b in sorted((int(a), int(b)) for a, b in ranges if b > a):
        if out and a <= out[-1][1]:
            out[-1] = (out[-1][0], max(out[-1][1], b))
        else:
            out.append((a, b))
    return out


def missing_ranges(n: int, done: Sequence[tuple[int, int]]) -> list[tuple[int, int]]:
    """The parts of ``[0, n)`` not in ``done``."""
    gaps, at = [], 0
    for a, b in merge_ranges(done):
        if a > at:
            gaps.append((at, min(a, n)))
        at = max(at, b)
        if at >= n:
            break
    if at < n:
        gaps.append((at, n))
    return [(a, b) for a, b in gaps if b > a]


class BlockPlan:
    """Hands out blocks ``(first, n)`` covering ``gaps``: of ``block_size`` games, or, when that
    is None, sized from the measured speed so that a block takes about ``target_s``."""

    def __init__(
        self,
        gaps: Sequence[tuple[int, int]],
        block_size: int | None = None,
        *,
        max_block: int = MAX_BLOCK,
        target_s: float = TARGET_BLOCK_S,
    ) -> None:
        self.gaps = list(merge_ranges(gaps))
        self.fixed = block_size
        self.max_block = max_block
        self.target_s = target_s
        # A given size is capped too: per-game records are held in memory a block at a time.
        self.size = min(block_size, max_block) if block_size is not None else min(PROBE_BLOCK, max_block)
        self._rate: float | None = None

    @property
    def remaining(self) -> int:
        return sum(b - a for a, b in self.gaps)

    def next(self) -> tuple[int, int] | None:
        if not self.gaps:
            return None
        a, b = self.gaps[0]
        n = min(self.size, b - a)
        if a + n >= b:
            self.gaps.pop(0)
        else:
            self.gaps[0] = (a + n, b)
        return a, n

    def observe(self, n: int, seconds: float) -> None:
        """A block of ``n`` games took ``seconds`` where it ran: resize later blocks."""
        if self.fixed is not None or seconds <= 0:
            return
        rate = n / seconds
        self._rate = rate if self._rate is None else (self._rate * rate) ** 0.5
        want = max(MIN_BLOCK, min(self.max_block, int(self._rate * self.target_s)))
        self.size = 1 << (want.bit_length() - 1)  # a power of two: tidy file names, steady sizes


@dataclass
class Ran:
    """How a session of blocks went: compile and play seconds, whether it was stopped."""

    compile_s: float
    elapsed_s: float
    stopped: bool
    backend: str
    workers: int = 1


OnBlock = Callable[[int, int, Any], None]
