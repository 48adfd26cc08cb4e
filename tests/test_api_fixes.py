"""The package's public names, long records, input bounds, a scheduler that speaks garbage,
and the pieces ``simulate`` is made of."""

from __future__ import annotations

import contextlib
import importlib
import inspect
import random
import re
import socket
import threading

import numpy as np
import pandas as pd
import pytest
from typer.testing import CliRunner

import simulator
from simulator import InputError, SpecError, simulate
from simulator.cli import app
from simulator.games import get_game
from simulator.running.records import read_records
from simulator.running.runner import BlockRunner
from strategies.registry import parse_spec

runner = CliRunner()

GAMES = [
    ("spokelse", ["threshold:k=4", "passive"], None),
    ("gris", ["greedy"], 3),
    ("gris-nese", ["greedy"], 4),
]


# --- simulator.compare: the module and the function -----------------------------------------


def test_simulator_compare_is_the_module_and_calls_the_function():
    module = importlib.import_module("simulator.compare")
    assert inspect.ismodule(module) and simulator.compare is module
    from simulator.analysis.compare import CompareResult, compare

    assert inspect.isfunction(compare) and module.compare is compare
    assert simulator.CompareResult is CompareResult
    assert inspect.signature(simulator.compare) == inspect.signature(compare)
    assert "same deals" in (simulator.analysis.compare.__doc__ or "")

    via_package = simulator.compare("spokelse", ["threshold:k=4", "threshold:k=2"], rounds=200, seed=3)
    via_module = module.compare("spokelse", ["threshold:k=4", "threshold:k=2"], rounds=200, seed=3)
    assert isinstance(via_package, CompareResult)
    assert via_package.summary["metrics"] == via_module.summary["metrics"]


def test_import_simulator_compare_as_m_gives_the_module():
    import simulator.analysis.compare as m

    assert inspect.ismodule(m)
    assert callable(m) and m.compare.__name__ == "compare"


# --- long records keep every column ------------------------------------------------------------


def _per_seat(column: str, n_seats: int) -> tuple[str, int] | None:
    """``(long name, seat)`` of a wide per-seat column, or None for a game-level one."""
    m = re.fullmatch(r"(.+?)_(seat)?(\d+)", column)
    if m is None or int(m[3]) >= n_seats:
        return None
    return m[1] + ("" if m[2] else "@record"), int(m[3])


@pytest.mark.parametrize("unit", ["rounds", "matches"])
@pytest.mark.parametrize(("game", "specs", "players"), GAMES)
def test_every_wide_column_is_in_the_long_frame(game, specs, players, unit, tmp_path):
    result = simulate(game, specs, players=players, seed=5, records=True, **{unit: 7})
    wide = result.records()
    long = result.records(long=True)
    n_seats = result.summary["players"]
    assert len(long) == len(wide) * n_seats
    metric_names = {m.name for m in get_game(game).metrics(unit.removesuffix("es").removesuffix("s"))}
    for column in wide.columns:
        seat_of = _per_seat(column, n_seats)
        if seat_of is None:  # game-level: repeated on each seat's row
            repeated = np.repeat(wide[column].to_numpy(), n_seats)
            assert np.array_equal(long[column].to_numpy(), repeated), column
            continue
        head, seat = seat_of
        if head.endswith("@record"):
            head = head.removesuffix("@record")
            head = f"{head}_raw" if head in metric_names else head
        got = long.loc[long["seat"] == seat, head].to_numpy()
        assert np.array_equal(got, wide[column].to_numpy()), column
        assert long[head].dtype == wide[column].dtype, column
    assert list(long.columns[:3]) == ["game", "seat", "player"] and long.columns[-1] == "counted"

    folder = tmp_path / "run"
    simulate(game, specs, players=players, seed=5, records=True, out=folder, **{unit: 7})
    pd.testing.assert_frame_equal(read_records(folder, long=True), long, check_categorical=False)


def test_long_spokelse_rounds_keep_turns_capped_and_half_points():
    long = simulate("spokelse", ["threshold:k=4", "passive"], rounds=5, seed=1, records=True).records(
        long=True
    )
    for column in ("turns", "capped", "score_half", "score", "win"):
        assert column in long.columns
    assert (long["score_half"] == 2 * long["score"]).all()


def test_long_gris_nese_matches_keep_rounds_stalled_replayed_abandoned_deals():
    r = simulate("gris-nese", "greedy", players=4, matches=3, seed=2, records=True)
    long = r.records(long=True)
    for column in ("rounds", "stalled", "replayed", "abandoned", "deals", "place", "win"):
        assert column in long.columns, column


# --- bounds -----------------------------------------------------------------------------------


def run(*args: str):
    return runner.invoke(app, list(args))


def one_error_line(r) -> str:
    lines = [line for line in r.stderr.splitlines() if line.strip() and "compil" not in line]
    assert len(lines) == 1, r.stderr
    assert "Traceback" not in r.output
    return lines[0]


@pytest.mark.parametrize("size", ["10000000000000", str(2**22 + 1), "0"])
def test_a_block_size_out_of_range_is_one_line(size):
    r = run("simulate", "spokelse", "-s", "passive", "--rounds", "10", "--seed", "1", "--block-size", size)
    assert r.exit_code == 2
    assert one_error_line(r).startswith(f"error: --block-size {size}: give 1 to 4,194,304")


def test_the_largest_block_size_is_accepted():
    r = simulate("spokelse", "passive", rounds=10, seed=1, block_size=2**22)
    assert r.summary["n"] == 10
    with pytest.raises(InputError, match="must be a whole number"):
        simulate("spokelse", "passive", rounds=10, seed=1, block_size=2.5)  # type: ignore[arg-type]


@pytest.mark.parametrize("lines", ["10000000000000000000000", str(10**7 + 1)])
def test_a_huge_max_lines_is_one_line(lines):
    r = run("trace", "spokelse", "-s", "passive", "--seed", "1", "--max-lines", lines)
    assert r.exit_code == 2
    assert one_error_line(r).startswith(f"error: --max-lines {lines}: at most 10,000,000")


def test_ten_million_max_lines_is_accepted():
    assert "Trace of spokelse" in simulator.trace("spokelse", "passive", seed=1, max_lines=10**7)


@pytest.mark.parametrize(
    ("spec", "words"),
    [
        ("threshold:", "no parameters after the colon"),
        ("threshold: ", "no parameters after the colon"),
        ("threshold:k=4,,", "an empty parameter between commas"),
        ("threshold:,k=4", "an empty parameter between commas"),
    ],
)
def test_an_empty_parameter_list_is_refused(spec, words):
    with pytest.raises(SpecError, match=words):
        parse_spec(spec, "spokelse")
    r = run("simulate", "spokelse", "-s", spec, "--rounds", "10", "--seed", "1")
    assert r.exit_code == 2
    line = one_error_line(r)
    assert line.startswith("error: ") and words in line


def test_a_plain_name_and_parameters_still_parse():
    assert parse_spec("threshold", "spokelse").spec == parse_spec(" threshold ", "spokelse").spec
    assert parse_spec("threshold:k=2", "spokelse").spec == parse_spec("threshold: k=2 ", "spokelse").spec
    assert parse_spec("threshold:k=2", "spokelse").params[0] == 2.0


# --- a scheduler address where something answers with garbage ------------------------------


@contextlib.contextmanager
def garbage_server(payload: bytes):
    """A TCP server on 127.0.0.1 that answers every connection with ``payload`` and closes."""
    server = socket.create_server(("127.0.0.1", 0))
    server.settimeout(0.2)
    done = threading.Event()

    def serve() -> None:
        while not done.is_set():
            try:
                conn, _ = server.accept()
            except TimeoutError:
                continue
            except OSError:
                return
            with conn, contextlib.suppress(OSError):
                conn.sendall(payload)

    t = threading.Thread(target=serve, daemon=True)
    t.start()
    try:
        yield f"tcp://127.0.0.1:{server.getsockname()[1]}"
    finally:
        done.set()
        t.join(5)
        server.close()


PAYLOADS = {
    "random": random.Random(1).randbytes(4096),
    "huge frame count": b"\xff" * 64 + random.Random(2).randbytes(512),
}


@pytest.mark.parametrize("kind", list(PAYLOADS))
def test_a_scheduler_that_answers_garbage_is_one_clean_line(kind):
    with garbage_server(PAYLOADS[kind]) as address:
        with pytest.raises(InputError) as err:
            simulate(
                "spokelse", "passive", rounds=10, seed=1, backend="dask", scheduler=address, connect_timeout=3
            )
        r = run("simulate", "spokelse", "-s", "passive", "--rounds", "10", "--seed", "1",
                "--backend", "dask", "--scheduler", address, "--connect-timeout", "3")  # fmt: skip
    text = str(err.value)
    assert text.startswith(f"no Dask scheduler answered at {address}") or "did not answer as a Dask" in text
    for internal in ("allocate", "EiB", "array", "Error", "0x"):
        assert internal not in text, text
    assert r.exit_code == 2
    line = one_error_line(r)
    assert address in line and "allocate" not in line


# --- simulate is made of pieces that add nothing -----------------------------------------------


@pytest.mark.parametrize(("game", "specs", "players"), GAMES)
def test_simulate_gives_the_runner_s_aggregates_exactly(game, specs, players, tmp_path):
    """Whatever the blocks, in memory or in a folder, the aggregates are the runner's own over
    the whole range: the orchestration adds nothing and loses nothing."""
    g = get_game(game)
    table = g.table(None, players, None)
    seats = [parse_spec(s, game) for s in specs] * (table.n_seats if len(specs) == 1 else 1)
    expected = BlockRunner(table, seats, "round", 9).play(0, 3000)
    in_memory = simulate(game, specs, players=players, rounds=3000, seed=9, block_size=700)
    in_folder = simulate(
        game, specs, players=players, rounds=3000, seed=9, block_size=1024, out=tmp_path / "f"
    )
    assert np.array_equal(in_memory.aggregates, expected)
    assert np.array_equal(in_folder.aggregates, expected)
    assert in_memory.summary["seats"] == in_folder.summary["seats"]
