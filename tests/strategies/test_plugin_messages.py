"""A plugin's mistakes in plain words: a non-integer return points at its ``return`` line and
says what it is; an illegal move reads the same from ``simulate`` and from ``trace``."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

import simulator
from simulator.cli import app
from simulator.errors import StrategyError
from simulator.games.spokelse import illegal as spokelse_illegal
from strategies.checks import StrategyCompileError, plainly
from strategies.plugins import load_plugin

runner = CliRunner()

RETURNS_A_VIEW = """from strategies import strategy


@strategy("spokelse", "msg-returns-keys")
def returns_keys(obs, params, rng):
    x = {1: obs}
    if obs[0] > 100:
        pass
    return x.keys()


@strategy("spokelse", "msg-returns-bool")
def returns_bool(obs, params, rng):
    return obs[0] > 3
"""

ILLEGAL = """from simulator.games.spokelse.observation import PHASE, SOURCE
from strategies import strategy


@strategy("spokelse", "msg-takes-and-throws")
def takes_and_throws(obs, params, rng):
    if obs[PHASE] == SOURCE:
        return 1
    return 4


@strategy("spokelse", "msg-slot-nine")
def slot_nine(obs, params, rng):
    if obs[PHASE] == SOURCE:
        return 0
    return 9


@strategy("gris", "msg-card-sixty")
def card_sixty(obs, params, rng):
    return 60


@strategy("gris-nese", "msg-lays-sixty")
def lays_sixty(obs, params, rng):
    return 60
"""


def run(*args: str):
    return runner.invoke(app, list(args))


def error_lines(stderr: str) -> list[str]:
    return [line for line in stderr.splitlines() if line.strip() and "compil" not in line]


@pytest.fixture(scope="module")
def views(tmp_path_factory: pytest.TempPathFactory) -> str:
    path = tmp_path_factory.mktemp("plugins") / "views.py"
    path.write_text(RETURNS_A_VIEW)
    return str(path)


@pytest.fixture(scope="module")
def illegal_moves(tmp_path_factory: pytest.TempPathFactory) -> str:
    path = tmp_path_factory.mktemp("plugins") / "illegal_moves.py"
    path.write_text(ILLEGAL)
    return str(path)


# --- a return that is not a whole number ------------------------------------------------------


def test_a_dictionary_view_is_named_plainly_at_its_return_line(views):
    load_plugin(views)
    with pytest.raises(StrategyCompileError) as err:
        simulator.simulate("spokelse", "msg-returns-keys", rounds=10, seed=1)
    text = str(err.value)
    assert "views.py:9)" in text  # the `return x.keys()`, not the decorator on line 4
    assert "returns a dictionary view" in text and "not a whole number" in text
    assert "DictType" not in text and "keys[" not in text  # numba's words only in the details
    assert err.value.line == 9
    assert "keys[DictType[int64" in err.value.details and "line 9" in err.value.details


def test_a_bool_return_is_named_plainly(views):
    load_plugin(views)
    with pytest.raises(StrategyCompileError, match=r"views\.py:14\) returns True or False \(a bool\)"):
        simulator.simulate("spokelse", "msg-returns-bool", rounds=10, seed=1)


def test_verbose_adds_numba_s_text_to_the_one_line(views):
    plain = run("simulate", "spokelse", "--plugin", views, "-s", "msg-returns-keys", "--rounds", "10")
    verbose = run("simulate", "spokelse", "--plugin", views, "-s", "msg-returns-keys", "--rounds", "10",
                  "--verbose")  # fmt: skip
    assert plain.exit_code == verbose.exit_code == 2
    (line,) = error_lines(plain.stderr)
    assert (
        line.startswith("error: strategy 'msg-returns-keys' (")
        and "views.py:9) returns a dictionary view" in line
    )
    assert "--verbose" in line
    assert verbose.stderr != plain.stderr
    assert "numba types the value returned at" in verbose.stderr and "keys[DictType" in verbose.stderr
    assert "Traceback" not in plain.output + verbose.output


def test_plainly_names_common_types():
    from numba.core import types

    assert plainly(types.float64) == "a decimal number (a float)"
    assert plainly(types.UniTuple(types.int64, 2)) == "a tuple"
    assert plainly(types.unicode_type) == "a string"
    assert plainly(types.int64[::1]) == "an array"


# --- one wording for an illegal move ----------------------------------------------------------

CASES = [
    (
        "spokelse",
        "msg-takes-and-throws",
        "error: strategy 'msg-takes-and-throws' (seat 0) returned 4 when placing its card, on turn 1 "
        "(TURN=0): a card taken from the discard pile must be placed (legal: 0-3, the slot to put it in), "
        "in round 0 of the run with seed 1",
    ),
    (
        "spokelse",
        "msg-slot-nine",
        "error: strategy 'msg-slot-nine' (seat 0) returned 9 when placing its card, on turn 1 (TURN=0): "
        "legal are 0-3 (the slot to put it in) and 4 (throw the card drawn from the stock away), "
        "in round 0 of the run with seed 1",
    ),
    (
        "gris",
        "msg-card-sixty",
        "error: strategy 'msg-card-sixty' (seat 0) returned 60 when choosing a card to pass, on pass 1 "
        "(PASSES=0): not a card code (0-51)",
    ),
    (
        "gris-nese",
        "msg-lays-sixty",
        "error: strategy 'msg-lays-sixty' (seat 0) returned 60 when choosing a card to lay down, on pass "
        "step 1 (STEPS=0): not a card code (0-51)",
    ),
]


@pytest.mark.parametrize(("game", "spec", "start"), CASES)
def test_trace_and_simulate_word_an_illegal_move_the_same(illegal_moves, game, spec, start):
    traced = run("trace", game, "--plugin", illegal_moves, "-s", spec, "--seed", "1")
    played = run("simulate", game, "--plugin", illegal_moves, "-s", spec, "--seed", "1", "--rounds", "50")
    assert traced.exit_code == played.exit_code == 3
    (t_line,) = error_lines(traced.stderr)
    (p_line,) = error_lines(played.stderr)
    assert t_line == p_line
    assert t_line.startswith(start), t_line
    assert t_line.endswith("in round 0 of the run with seed 1")


def test_the_api_raises_the_same_words(illegal_moves):
    load_plugin(illegal_moves)
    with pytest.raises(StrategyError) as played:
        simulator.simulate("spokelse", "msg-takes-and-throws", rounds=20, seed=4)
    with pytest.raises(StrategyError) as traced:
        simulator.trace("spokelse", "msg-takes-and-throws", seed=4)
    assert str(played.value) == str(traced.value)
    assert "of the run with seed 4" in str(played.value)


def test_the_kernel_row_fallback_uses_the_same_words():
    """When the replay cannot word it, the kernel's row gives the same sentence."""
    from simulator.games import get_game
    from strategies.registry import parse_spec

    class Named:
        spec = "x"

    row = [1, 0, 0, 1, 4, 0, 0]  # flag, game, seat, PLACE, action 4, turn 0, strategy id
    text = get_game("spokelse").describe_error(row, [Named(), parse_spec("passive", "spokelse")])
    assert text == spokelse_illegal.place_line("x", 0, 4, 0, from_discard=True)
    assert "a card taken from the discard pile must be placed" in text
