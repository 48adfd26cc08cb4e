"""simulator/engine/chunks.py: a block's chunks played on threads, the same for any thread count."""

from __future__ import annotations

import itertools
import threading

import numba
import numpy as np
import pytest

from simulator.api import make_table, resolve_players
from simulator.engine.chunks import RECORDS_UNIT, ChunkedBlock, chunk_of_block_nb, entry_points, play_chunks
from simulator.games import get_game
from simulator.running.runner import BlockRunner


@pytest.fixture
def threads():
    """Set numba's thread count for one test, then put it back."""
    before = numba.get_num_threads()
    yield numba.set_num_threads
    numba.set_num_threads(before)


@pytest.mark.parametrize("n_threads", [1, 2])
def test_every_chunk_is_played_once(threads, n_threads: int) -> None:
    threads(min(n_threads, numba.config.NUMBA_NUM_THREADS))
    seen: list[int] = []
    lock = threading.Lock()

    def chunk(tag: str, c: int) -> None:
        assert tag == "block"
        with lock:
            seen.append(c)

    play_chunks(chunk, ("block",), 13)
    assert sorted(seen) == list(range(13))


def test_an_error_in_a_chunk_reaches_the_caller(threads) -> None:
    threads(numba.config.NUMBA_NUM_THREADS)

    def chunk(c: int) -> None:
        if c == 5:
            raise ValueError("chunk 5 failed")

    with pytest.raises(ValueError, match="chunk 5 failed"):
        play_chunks(chunk, (), 8)


def test_the_unit_offset_reaches_the_chunk_kernel() -> None:
    units: list[int] = []

    def chunk(sids, params, rules_i, rules_f, seed, unit, first, n, out, err, c) -> None:
        units.append(int(unit))

    chunk.signatures = ["compiled"]  # stands for a compiled kernel
    ChunkedBlock(chunk, unit_offset=2)(0, 0, 0, 0, 0, np.int64(1), 0, 4, None, np.zeros((3, 8)))
    assert units == [3, 3, 3]


@pytest.mark.parametrize("game_name", ["gris", "gris-nese"])
@pytest.mark.parametrize("unit", ["round", "match"])
def test_results_do_not_depend_on_the_thread_count(threads, game_name: str, unit: str) -> None:
    game = get_game(game_name)
    table = make_table(game)
    players = resolve_players(game, ["greedy"], table.n_seats)
    runner = BlockRunner(table, players, unit, 11)
    out = {}
    for n_threads in sorted({1, min(2, numba.config.NUMBA_NUM_THREADS)}):
        threads(n_threads)
        out[n_threads] = (runner.play(0, 300, n_chunks=6), runner.records(0, 300, n_chunks=6))
    one = out[1]
    for agg, rec in out.values():
        np.testing.assert_array_equal(agg, one[0])
        np.testing.assert_array_equal(rec, one[1])


@pytest.mark.parametrize(("first", "n", "n_chunks"), [(0, 13, 4), (1000, 7, 7), (5, 3, 8)])
def test_the_chunks_of_a_block_cover_its_games_once_in_order(first: int, n: int, n_chunks: int) -> None:
    bounds = [chunk_of_block_nb(first, n, n_chunks, c) for c in range(n_chunks)]
    assert bounds[0][0] == first and bounds[-1][1] == first + n
    assert all(g1 == g0 for (_, g1), (g0, _) in itertools.pairwise(bounds))
    sizes = [g1 - g0 for g0, g1 in bounds]
    assert max(sizes) - min(sizes) <= 1


def test_the_entry_points_share_one_chunk_kernel_records_from_their_unit() -> None:
    chunk = get_game("gris").kernel.block_chunk_nb
    run_block, records_block = entry_points(chunk)
    assert run_block.chunk is records_block.chunk is chunk
    assert (run_block.unit_offset, records_block.unit_offset) == (0, RECORDS_UNIT)
