"""``simulator.tune`` refuses inputs of the wrong type with one line, as the command does."""

import pytest

import simulator
from simulator.errors import InputError

BASE = {"game": "spokelse", "strategy": "threshold:k=0..4", "rounds": 100, "trials": 1, "threads": 1}


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"vs": 3}, "--vs takes a strategy spec"),
        ({"strategy": None}, "the strategy to tune is a spec"),
        ({"strategy": ["threshold"]}, "the strategy to tune is a spec"),
        ({"out": 123}, "--out takes a folder"),
    ],
)
def test_a_wrong_type_is_one_line(change, message):
    with pytest.raises(InputError, match=message):
        simulator.tune(**(BASE | change))
