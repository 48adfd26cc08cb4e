"""A block of games played chunk by chunk on threads, each chunk one call of a jitted kernel.

A kernel's block entry points (``run_block_nb``, ``records_block_nb``: ten arguments,
the last two the output rows and the error rows, one error row per chunk) split games
``[first, first + n)`` into ``err.shape[0]`` fixed chunks.  Each chunk is played by one
call of a jitted *chunk kernel* that takes the same ten arguments and the chunk's index,
compiled without the GIL, so that the chunks of a block run on several threads at once.

Playing the chunks from Python threads instead of a ``prange`` loop costs nothing in
speed (a block is tens of milliseconds of play, a thread start some microseconds) and
saves much compile time: a ``parallel=True`` entry point is a further compiled layer
(and its loop body another) into which the LLVM code of everything it calls is linked,
optimised and turned into machine code again, once per entry point.

The chunks are fixed by the caller, and each chunk's result depends only on its own
games, so results are the same for any number of threads.
"""

from __future__ import annotations

import itertools
import threading
from collections.abc import Callable

import numba

from simulator.engine import cache as _cache  # noqa: F401  (first: numba caches this module's code with the package digest)

# The unit a block's records start at: units 0 and 1 sum rounds and matches into one row of
# aggregates per chunk, units 2 and 3 write the same games' records, one row per game.
RECORDS_UNIT = 2


def chunk_njit(*, cache: bool, nogil: bool = True) -> Callable:
    """``numba.njit`` for a chunk kernel: compiled without the GIL (``nogil=True``).

    A kernel's copy for users' strategies (:mod:`simulator.kernels.hooks`) releases the
    GIL in every function, so that a watchdog can stop a strategy that never answers.

    Parameters
    ----------
    cache : bool
        Keep the compiled kernel in numba's on-disk cache.
    nogil : bool, default True
        Release the GIL while the kernel runs.

    Returns
    -------
    callable
        A decorator, as ``numba.njit(...)`` returns.
    """
    return numba.njit(cache=cache, nogil=nogil)


@numba.njit(cache=True, inline="always")
def chunk_of_block_nb(first, n, n_chunks, c):
    """Games ``[g0, g1)`` of chunk ``c`` when games ``[first, first + n)`` are split into
    ``n_chunks`` fixed chunks: returns ``(g0, g1)``."""
    return first + c * n // n_chunks, first + (c + 1) * n // n_chunks


def play_chunks(chunk: Callable, args: tuple, n_chunks: int) -> None:
    """Call ``chunk(*args, c)`` for every chunk ``c`` in ``range(n_chunks)``, on up to
    ``numba.get_num_threads()`` threads (this one among them).

    Parameters
    ----------
    chunk : callable
        A jitted chunk kernel that releases the GIL.
    args : tuple
        Its arguments before the chunk index.
    n_chunks : int
        How many chunks the block has.

    Raises
    ------
    BaseException
        The first exception any call raised (the other threads finish their chunk first).
    """
    workers = min(n_chunks, numba.get_num_threads())
    if workers <= 1:
        for c in range(n_chunks):
            chunk(*args, c)
        return
    todo = itertools.count()  # next() is atomic under the GIL
    failed: list[BaseException] = []

    def work() -> None:
        while not failed:
            c = next(todo)
            if c >= n_chunks:
                return
            try:
                chunk(*args, c)
            except BaseException as e:  # handed to the calling thread, which raises it
                failed.append(e)

    helpers = [threading.Thread(target=work, name="kortsim-chunk", daemon=True) for _ in range(workers - 1)]
    for t in helpers:
        t.start()
    work()
    for t in helpers:
        t.join()
    if failed:
        raise failed[0]


class ChunkedBlock:
    """A block entry point of a kernel: ``block(sids, params, rules_i, rules_f, seed, unit,
    first, n, out, err)`` plays ``err.shape[0]`` chunks with ``chunk`` on threads.

    Parameters
    ----------
    chunk : numba dispatcher
        The chunk kernel: the same ten arguments, then the chunk index; compiled with
        :func:`chunk_njit`.
    unit_offset : int, default 0
        Added to ``unit`` before it reaches ``chunk`` (so one chunk kernel can serve both
        the aggregates, units 0 and 1, and the per-game records, units 2 and 3).
    """

    def __init__(self, chunk: Callable, unit_offset: int = 0) -> None:
        self.chunk = chunk
        self.unit_offset = unit_offset

    def __call__(self, sids, params, rules_i, rules_f, seed, unit, first, n, out, err) -> None:
        unit = type(unit)(unit + self.unit_offset)
        args = (sids, params, rules_i, rules_f, seed, unit, first, n, out, err)
        if not self.chunk.signatures:  # compile (or load) here, never in several threads at once
            self.compile(tuple(numba.typeof(a) for a in args))
        play_chunks(self.chunk, args, err.shape[0])

    def with_chunk(self, chunk: Callable) -> ChunkedBlock:
        """The same entry point over another chunk kernel (a kernel's copy for a run's
        strategies, :mod:`simulator.kernels.hooks`)."""
        return ChunkedBlock(chunk, self.unit_offset)

    @property
    def signatures(self) -> list:
        """The chunk kernel's compiled signatures (empty before it is compiled)."""
        return self.chunk.signatures

    def compile(self, sig: tuple) -> None:
        """Compile the chunk kernel for the argument types ``sig`` of a block call."""
        self.chunk.compile((*sig, numba.types.int64))


def entry_points(chunk: Callable) -> tuple[ChunkedBlock, ChunkedBlock]:
    """A kernel's two block entry points over its chunk kernel ``chunk``.

    Parameters
    ----------
    chunk : numba dispatcher
        The chunk kernel (compiled with :func:`chunk_njit`): units 0 and 1 sum rounds and
        matches into one aggregate row per chunk, units ``RECORDS_UNIT`` and after write
        the same games' records, one row per game.

    Returns
    -------
    tuple of ChunkedBlock
        ``(run_block_nb, records_block_nb)``: the aggregates of games ``[first, first + n)``
        (one row of ``out`` and of ``err`` per chunk), and their records (one row of
        ``out[:n]`` per game).
    """
    return ChunkedBlock(chunk), ChunkedBlock(chunk, unit_offset=RECORDS_UNIT)
