"""``simulator.profile`` refuses inputs of the wrong type with one line, before playing, and
takes one rule as a ``NAME=VALUE`` string as the command does."""

import pytest

import simulator
from simulator.analysis.profiling.core import variants
from simulator.errors import InputError
from simulator.running.setup import resolve_game

BASE = {"game": "spokelse", "rounds": 100, "matches": 10, "threads": 1}


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"strategies": 3}, "strategies are spec strings"),
        ({"strategies": [3]}, "strategies are spec strings"),
        ({"rules": 5}, "rules are a mapping"),
        ({"game": None}, "the game is a game id"),
    ],
)
def test_a_wrong_type_is_one_line(change, message):
    with pytest.raises(InputError, match=message):
        simulator.profile(**(BASE | change))


def test_one_rule_as_a_string():
    g = resolve_game("spokelse")
    assert variants(g, "jack=11", None) == [{"jack": "11"}]
    with pytest.raises(InputError, match="the jack counts"):
        variants(g, "jack=99", None)
