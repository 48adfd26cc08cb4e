"""Every registered game keeps the Game contract (docs/adding-a-game.md).

One set of checks runs over every game of the registry (``simulator.games``), at its
smallest, default and largest table and in both units, the way Gymnasium's environment
checker or OpenSpiel's random-simulation test run over theirs.  No game is named here: a
game added to the registry is checked the moment it is added.

- layouts: the aggregates, the record columns, the metrics and the documented fields
  agree with what the kernel writes and with the summary of a real run;
- the compiled kernel plays the reference's games, move by move, and the records of a
  run are the reference's games, for every shipped strategy;
- a strategy answering an impossible action stops the run and the trace with one line
  naming the strategy and its seat;
- the same seed gives the same aggregates with 1 or 2 threads and any block size, twice,
  and another seed other ones;
- through a reference round, every card is in exactly one place after every move.
"""

from __future__ import annotations

import ast
import dataclasses
import re
import sys
from pathlib import Path

import numba
import numpy as np
import pytest

import simulator
from simulator.analysis import conformance
from simulator.analysis.conformance import ConformanceError
from simulator.engine.layout import ERROR_ROW_WIDTH
from simulator.errors import IllegalMove, StrategyError
from simulator.games import all_games
from simulator.games.base import UNITS, Game
from simulator.games.illegal import where
from simulator.kernels.containment import ANSWER_COLUMN
from simulator.running.runner import UNIT_CODE, BlockRunner
from strategies import Player, families, parse_spec, strategy

GAMES = all_games()
SENTINEL = -987_654_321  # a value no kernel writes


def seat_counts(game: Game) -> list[int]:
    return conformance.seat_counts(game)


TABLES = [pytest.param(name, n, id=f"{name}-{n}") for name, g in GAMES.items() for n in seat_counts(g)]
TABLE_UNITS = [
    pytest.param(name, n, unit, id=f"{name}-{n}-{unit}")
    for name, g in GAMES.items()
    for n in seat_counts(g)
    for unit in UNITS
]
GAME_UNITS = [pytest.param(name, unit, id=f"{name}-{unit}") for name in GAMES for unit in UNITS]


def shipped(name: str) -> list[Player]:
    """Every shipped strategy of the game at its defaults, in builtin-id order."""
    return conformance.shipped(GAMES[name])


def lineups(name: str, n: int) -> list[list[Player]]:
    """Tables of ``n`` shipped strategies (:func:`simulator.analysis.conformance.lineups`)."""
    return conformance.lineups(GAMES[name], n)


def games_of(unit: str, count: int) -> dict[str, int]:
    """``simulate``'s keyword for ``count`` games of ``unit``."""
    return {"rounds": count} if unit == "round" else {"matches": count}


def players_of(name: str, specs: list[str]) -> list[Player]:
    return [parse_spec(s, name) for s in specs]


def table_of(name: str, n: int):
    return GAMES[name].table(n_seats=n)


@pytest.fixture
def restore_threads():
    yield
    numba.set_num_threads(numba.config.NUMBA_NUM_THREADS)


# --- the registry ------------------------------------------------------------------------------


@pytest.mark.parametrize("name", list(GAMES))
def test_every_game_registers_its_shipped_strategies_through_the_registry(name: str) -> None:
    game = GAMES[name]
    assert game.name == name
    assert game.min_seats <= game.default_seats <= game.max_seats
    assert conformance.check_registry(game) == len(shipped(name)) > 0
    assert all(p.family.decide.py_func.__module__ == game.strategies_module for p in shipped(name))


def test_a_gap_in_the_built_in_ids_is_refused_by_the_registry_and_by_the_check(monkeypatch) -> None:
    from strategies import registry

    game = GAMES["spokelse"]
    fams = registry._REGISTRY["spokelse"]
    first = next(n for n, f in fams.items() if f.builtin_id == 1)
    monkeypatch.setitem(fams, first, dataclasses.replace(fams[first], builtin_id=7))
    with pytest.raises(ValueError, match=r"spokelse: the built-in ids are \[0, 2, .*7.*\], not 0, 1, \.\.\."):
        registry.builtin_decides("spokelse")
    with pytest.raises(ConformanceError, match=r"registry.*the built-in ids are"):
        conformance.check_registry(game)


# Central modules that still name games; each is being moved into the games' own
# declarations.  The test below fails on any new mention, and on any of these once it is gone
# from the module (then drop it from here).
STILL_NAMING_GAMES: set[str] = set()


def game_mentions(path: Path) -> set[str]:
    """What in ``path``'s code (docstrings and comments aside) names a registered game: a
    string equal to its name, its package or strategies module as a string or an import,
    or a function named after it."""
    names = {name.replace("-", "_") for name in GAMES} | set(GAMES)
    modules = {type(g).__module__.rpartition(".")[0] for g in GAMES.values()}
    modules |= {g.strategies_module for g in GAMES.values()}
    paths = modules | {m.replace(".", "/") for m in modules}
    tree = ast.parse(path.read_text(encoding="utf-8"))
    docstrings = {
        id(node.body[0].value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef)
        and node.body
        and isinstance(node.body[0], ast.Expr)
        and isinstance(node.body[0].value, ast.Constant)
    }
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings:
            if node.value.lower() in names or any(p in node.value for p in paths):
                found.add(repr(node.value))
        elif isinstance(node, ast.ImportFrom) and node.module:
            hit = [m for m in modules if node.module == m or node.module.startswith(m + ".")]
            hit += [f"{node.module}.{a.name}" for a in node.names if f"{node.module}.{a.name}" in modules]
            found.update(f"import {h}" for h in hit)
        elif isinstance(node, ast.Import):
            found.update(f"import {a.name}" for a in node.names if any(a.name.startswith(m) for m in modules))
        elif isinstance(node, ast.FunctionDef) and any(n in node.name for n in names):
            found.add(f"def {node.name}")
    return found


def test_no_central_module_names_a_game_but_the_registry() -> None:
    root = Path(simulator.__file__).resolve().parent.parent
    game_dirs = {Path(sys.modules[type(g).__module__].__file__).resolve().parent for g in GAMES.values()}
    game_strategies = {Path(sys.modules[g.strategies_module].__file__).resolve() for g in GAMES.values()}
    registry = Path(sys.modules[all_games.__module__].__file__).resolve()
    naming = {}
    for path in sorted(
        [*root.joinpath("simulator").rglob("*.py"), *root.joinpath("strategies").rglob("*.py")]
    ):
        p = path.resolve()
        if p == registry or p in game_strategies or any(d in p.parents for d in game_dirs):
            continue
        mentions = game_mentions(p)
        if mentions:
            naming[p.relative_to(root).as_posix()] = mentions
    assert set(naming) == STILL_NAMING_GAMES, naming


# --- (a) layouts -------------------------------------------------------------------------------


def raw_arrays(name: str, n: int, unit: str, games: int) -> tuple[np.ndarray, np.ndarray]:
    """The kernel's aggregates and records of ``games`` games, written into arrays wider
    than the game declares, every cell first set to SENTINEL (extra columns at the end)."""
    game, table = GAMES[name], table_of(name, n)
    players = lineups(name, n)[0]
    runner = BlockRunner(table, players, unit, seed=11)
    args = (runner.kernel.sids, runner.params, runner.rules_i, runner.rules_f, np.int64(11))
    args += (np.int64(UNIT_CODE[unit]), np.int64(0), np.int64(games))
    width = game.agg_size(unit, n)
    agg = np.full((2, width + 3), SENTINEL, np.int64)
    agg[:, :width] = 0  # the kernel adds into its aggregates
    err = np.zeros((2, ERROR_ROW_WIDTH), np.int64)
    game.kernel.run_block_nb(*args, agg, err)
    assert not err.any(), "a shipped strategy was refused"
    cols = game.record_columns(unit, n)
    rec = np.full((games, len(cols) + 3), SENTINEL, np.int64)
    game.kernel.records_block_nb(*args, rec, np.zeros((2, ERROR_ROW_WIDTH), np.int64))
    return agg, rec


@pytest.mark.parametrize(("name", "n", "unit"), TABLE_UNITS)
def test_the_kernel_writes_exactly_the_declared_aggregates_and_record_columns(
    name: str, n: int, unit: str
) -> None:
    game = GAMES[name]
    width, cols = game.agg_size(unit, n), game.record_columns(unit, n)
    assert len(set(cols)) == len(cols) and all(isinstance(c, str) and c for c in cols)
    rules_i, rules_f = game.rules_arrays(table_of(name, n))
    assert rules_i.dtype == np.int64 and rules_f.dtype == np.float64
    agg, rec = raw_arrays(name, n, unit, games=6)
    assert (agg[:, width:] == SENTINEL).all(), "the kernel wrote past its aggregates row"
    assert agg[:, :width].any(), "the kernel wrote no aggregates"
    assert (rec[:, len(cols) :] == SENTINEL).all(), "the kernel wrote past its record columns"
    assert (rec[:, : len(cols)] != SENTINEL).all(), "a declared record column is never written"


@pytest.mark.parametrize(("name", "n", "unit"), TABLE_UNITS)
def test_summary_metrics_and_fields_agree_with_a_real_run(name: str, n: int, unit: str) -> None:
    game = GAMES[name]
    count = 40 if unit == "round" else 6
    specs = [p.spec for p in lineups(name, n)[0]]
    result = simulator.simulate(name, specs, players=n, seed=3, records=True, **games_of(unit, count))
    summary = result.summary
    assert result.aggregates.shape == (game.agg_size(unit, n),)
    assert len(summary["seats"]) == n and [s["seat"] for s in summary["seats"]] == list(range(n))
    shown = set(summary) | set().union(*(set(s) for s in summary["seats"]))
    fields = game.fields(unit)
    metrics = game.metrics(unit)
    for metric in metrics:
        assert metric.name in fields, f"metric {metric.name} has no documented field"
    for key in fields:
        assert key in shown or key in {m.name for m in metrics}, f"field {key} is neither shown nor a metric"
    for figures in (summary, *summary["seats"]):  # every rate shown comes with its interval
        for key, value in figures.items():
            if key.endswith("_rate") and isinstance(value, float):
                assert f"{key}_ci" in figures, key
    # records -> outcomes: one int64 [games, seats] array per metric, and the counted mask
    rec = BlockRunner(table_of(name, n), players_of(name, specs), unit, seed=3).records(0, count)
    assert rec.shape == (count, len(game.record_columns(unit, n)))
    outcomes, valid = game.outcomes(rec, unit, n)
    assert list(outcomes) == [m.name for m in metrics]
    for metric_name, values in outcomes.items():
        assert values.shape == (count, n) and values.dtype == np.int64, metric_name
    assert valid.shape == (count,) and valid.dtype == bool
    for hist_name, hist in game.histograms(result.aggregates, table_of(name, n), unit).items():
        assert hist.ndim == 1 and hist.size > 0, hist_name


# --- (b) kernel = reference --------------------------------------------------------------------


@pytest.mark.parametrize(("name", "n"), TABLES)
def test_the_kernel_plays_the_reference_game_move_by_move(name: str, n: int) -> None:
    assert conformance.check_moves(GAMES[name], n) > 0  # the comparison is not vacuous


@pytest.mark.parametrize(("name", "n", "unit"), TABLE_UNITS)
def test_the_records_of_a_run_are_the_reference_games(name: str, n: int, unit: str) -> None:
    assert conformance.check_records(GAMES[name], n, unit) > 0


# --- (c) an illegal action ---------------------------------------------------------------------

IMPOSSIBLE = 1_000_003  # no action of any game: not a card, a slot, a source or a place


def impossible_nb(obs, params, rng):
    """Answers an action no game allows, at its first decision."""
    return IMPOSSIBLE


ILLEGAL = "conformance_impossible"


def register_impossible(name: str) -> None:
    """Register the impossible strategy for game ``name``, as a user's ``@strategy`` does
    (when the test runs, so that tests collected with this module do not see it)."""
    if ILLEGAL not in families(name):
        strategy(game=name, name=ILLEGAL)(impossible_nb)


@pytest.mark.parametrize(("name", "unit"), GAME_UNITS)
def test_an_impossible_action_stops_the_run_and_the_trace_naming_the_strategy_and_seat(
    name: str, unit: str
) -> None:
    game = GAMES[name]
    register_impossible(name)
    n = game.default_seats
    seat = n - 1
    specs = [*(p.spec for p in lineups(name, n)[0][:seat]), ILLEGAL]
    count = 30 if unit == "round" else 4
    with pytest.raises(StrategyError) as exc:
        simulator.simulate(name, specs, players=n, seed=9, **games_of(unit, count))
    text = str(exc.value)
    assert f"{ILLEGAL!r} (seat {seat})" in text and str(IMPOSSIBLE) in text and "\n" not in text, text
    # the readable reference refuses it in the same words (the run's line replays it there)
    players = players_of(name, specs)
    found = re.search(rf"in {unit} (\d+) of the run with seed 9", text)
    assert found, text
    index = int(found.group(1))
    with pytest.raises(IllegalMove) as ref:
        game.trace(game.table(n_seats=n), players, 9, index, unit)
    assert f"{ILLEGAL!r} (seat {seat})" in str(ref.value) and "\n" not in str(ref.value)


def illegal_run(name: str, unit: str) -> tuple[BlockRunner, np.ndarray, str]:
    """A run with the impossible strategy in the last seat, in one chunk: the runner, the
    error row the kernel wrote (the array the engine gave it) and the line the run raised."""
    game = GAMES[name]
    register_impossible(name)
    n = game.default_seats
    specs = [*(p.spec for p in lineups(name, n)[0][: n - 1]), ILLEGAL]
    runner = BlockRunner(game.table(n_seats=n), players_of(name, specs), unit, seed=9)
    given: list[np.ndarray] = []
    run_block = runner.kernel.run_block

    def recording(*args):
        given.append(args[-1])
        return run_block(*args)

    recording.signatures, recording.compile = [], run_block.compile  # compiled before it is watched
    runner.kernel = dataclasses.replace(runner.kernel, run_block=recording)
    with pytest.raises(StrategyError) as exc:
        runner.play(0, 30 if unit == "round" else 4, n_chunks=1)
    (err,) = given
    return runner, err, str(exc.value)


@pytest.mark.parametrize(("name", "unit"), GAME_UNITS)
def test_the_error_row_holds_what_its_declaration_says(name: str, unit: str) -> None:
    game = GAMES[name]
    runner, err, text = illegal_run(name, unit)
    declared = game.error_row
    assert err.shape == (1, ERROR_ROW_WIDTH), "the engine's error row is not ERROR_ROW_WIDTH wide"
    assert declared.size() <= err.shape[1], f"{declared.name} is wider than the engine's error row"
    row = err[0]
    e = declared.read(row)
    assert len(e) == len(declared.pieces), "every piece of an error row is one slot"
    # The engine reads the flag, the game, the seat and the answer by position.
    starts = {p.name: start for p, start, _ in declared.spans()}
    assert (starts["flag"], starts["game"], starts["seat"]) == (0, 1, 2), starts
    answer = [p.name for p, start, _ in declared.spans() if start == ANSWER_COLUMN]
    assert answer and declared.piece(answer[0]).kind == "code", (declared.name, ANSWER_COLUMN)
    seat = game.default_seats - 1
    assert e["flag"] == 1 and e["seat"] == seat, e
    assert [k for k, v in e.items() if v == IMPOSSIBLE] == answer, e
    assert e["strategy"] == runner.kernel.sids[seat], e
    # The game is the first of the run in which the strategy answered: the reference agrees.
    table, players = runner.table, runner.players
    for before in range(e["game"]):
        game.trace(table, players, 9, before, unit)  # legal throughout
    with pytest.raises(IllegalMove):
        game.trace(table, players, 9, e["game"], unit)
    # The kernel's row, worded by the game, is the line the run reports (which the replay
    # may complete with the hand, a thing the row does not keep).
    tail = f", {where(unit, e['game'], 9)}"
    fallback = game.describe_error(row, players)
    assert "\n" not in fallback and text.endswith(tail), text
    body = text.removesuffix(tail)
    assert body == fallback or (body.startswith(fallback + "; its hand: ")), (fallback, text)


# --- (d) determinism ---------------------------------------------------------------------------


@pytest.mark.parametrize(("name", "n", "unit"), TABLE_UNITS)
def test_the_same_seed_gives_the_same_aggregates_for_any_threads_and_block_size(
    name: str, n: int, unit: str, restore_threads: None
) -> None:
    assert conformance.check_determinism(GAMES[name], n, unit) == 6


# --- (e) card conservation ---------------------------------------------------------------------


@pytest.mark.parametrize(("name", "n"), TABLES)
def test_every_card_is_in_exactly_one_place_after_every_move(name: str, n: int) -> None:
    assert conformance.check_cards(GAMES[name], n) > 0  # some rounds were played past the deal


# --- (f) observations --------------------------------------------------------------------------


@pytest.mark.parametrize(("name", "n"), TABLES)
def test_every_observation_is_within_its_declared_layout(name: str, n: int) -> None:
    assert conformance.check_observations(GAMES[name], n) > 0


@pytest.mark.parametrize("name", list(GAMES))
def test_an_observation_outside_its_declaration_is_named(name: str) -> None:
    game = GAMES[name]
    n = game.default_seats
    good = np.zeros(game.observation.size(n), np.int64)
    assert list(conformance.observation_violations(game, n, good)) == []
    piece, start, _ = next(s for s in game.observation.spans(n) if s[0].kind in ("flag", "seat", "code"))
    bad = good.copy()
    bad[start] = 99 if piece.kind != "code" else 52
    (why,) = conformance.observation_violations(game, n, bad)
    assert why.startswith(f"{piece.name} ({piece.kind}) at offset {start} is {bad[start]}")
    assert "declared" in next(conformance.observation_violations(game, n, good[:-1]))


# --- the call users make -----------------------------------------------------------------------


def test_check_game_runs_every_check_and_says_what_it_compared() -> None:
    game = GAMES["spokelse"]
    report = simulator.check_game("spokelse", seats=[game.min_seats])
    assert set(report.counts) == set(conformance.CHECKS)
    assert all(count > 0 for count in report.counts.values()), report.counts
    assert str(report).startswith(f"spokelse keeps the contract at {game.min_seats} seats: registry (")


def test_check_game_names_the_first_move_where_kernel_and_reference_differ(monkeypatch) -> None:
    game = GAMES["spokelse"]
    moves = type(game).moves

    def off_by_one(self, table, players, seed, index, deal, engine):
        played = moves(self, table, players, seed, index, deal, engine)
        return [tuple(v + 1 for v in played[0]), *played[1:]] if engine == "kernel" else played

    monkeypatch.setattr(type(game), "moves", off_by_one)
    with pytest.raises(ConformanceError, match=r"^spokelse: moves: .* move 0 differs: kernel"):
        conformance.check_moves(game, game.min_seats)


@pytest.mark.parametrize("name", sorted(GAMES))
def test_the_kernel_reaches_its_hook_from_every_entry_point(name: str) -> None:
    assert conformance.check_hook(GAMES[name]) >= 3


def test_a_kernel_without_its_hook_or_reaching_it_by_attribute_is_named() -> None:
    import types

    from numba import njit

    game = GAMES["spokelse"]
    bare = types.ModuleType("simulator.games.toy.kernel")
    fake = types.SimpleNamespace(name="toy", kernel=bare, strategies_module=game.strategies_module)
    with pytest.raises(ConformanceError, match=r"^toy: hook: .*has no module global decide_nb"):
        conformance.check_hook(fake)
    bare.decide_nb = njit(lambda sid, obs, params, rng: -1)
    with pytest.raises(ConformanceError, match=r"^toy: hook: .*decide_nb is not decide_builtin_nb"):
        conformance.check_hook(fake)
    bare.decide_nb = game.kernel.decide_nb
    inner = types.ModuleType("simulator.games.toy.round")
    inner.decide_nb = bare.decide_nb
    exec("def play_nb(x):\n    return decide_nb(0, x, x, x)\n", inner.__dict__)
    inner.play_nb.__module__ = inner.__name__
    inner.play_nb = njit(inner.play_nb)
    bare.round = inner
    exec("def trace_round_nb(x):\n    return round.play_nb(x)\n", bare.__dict__)
    bare.trace_round_nb.__module__ = bare.__name__
    bare.trace_round_nb = njit(bare.trace_round_nb)
    with pytest.raises(ConformanceError, match=r"^toy: hook: .*through the module attribute round\.play_nb"):
        conformance.check_hook(fake)
    del bare.round, bare.trace_round_nb
    with pytest.raises(ConformanceError, match=r"^toy: hook: .*run_block_nb does not reach decide_nb"):
        conformance.check_hook(fake)


def test_check_game_refuses_what_is_not_a_game_or_a_table_size() -> None:
    with pytest.raises(simulator.InputError, match="unknown game"):
        simulator.check_game("skat")
    game = GAMES["spokelse"]
    with pytest.raises(simulator.InputError, match=f"played by {game.min_seats} to {game.max_seats} players"):
        simulator.check_game("spokelse", seats=[game.max_seats + 1])
