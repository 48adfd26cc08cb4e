"""simulator/engine/chunks.py: a block's chunks played on threads, the same for any thread count."""

from __future__ import annotations

import threading

import numba
import numpy as np
import pytest

from simulator.api import make_table, resolve_players
from simulator.engine.chunks import ChunkedBlock, play_chunks
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
