"""Tune specs: ranges on each parameter's grid and within its bounds, and what is refused."""

import pytest

from simulator.analysis.tuning.space import OPEN_CEILING, parse_space
from simulator.errors import InputError
from simulator.games import get_game

SPOKELSE = get_game("spokelse")


def test_ranges_fixed_values_and_defaults():
    sp = parse_space("expect:k=0..4,patience=1..6,open=10..41", SPOKELSE)
    assert [(d.name, d.low, d.high, d.step) for d in sp.dims] == [
        ("k", 0, 4, 0.5),
        ("patience", 1, 6, 0),
        ("open", 10, 41, 1),
    ]
    assert sp.start_values() == {"k": 1.0, "patience": 3.0, "pile": 0.5, "open": 25.0}
    fixed = parse_space("expect:k=0..4,pile=2", SPOKELSE)
    assert fixed.fixed == {"pile": 2.0} and fixed.start_values()["pile"] == 2.0


def test_no_range_searches_every_parameter_and_clamps_open_ended_bounds():
    sp = parse_space("reader", get_game("gris"))
    dims = {d.name: d for d in sp.dims}
    assert set(dims) == {"flow", "spent", "stick", "hold", "patience"}
    assert (dims["flow"].low, dims["flow"].high) == (-5, 5)
    assert dims["patience"].high == max(4 * 40, OPEN_CEILING) < 10000
    assert "searched up to 160" in dims["patience"].note and sp.notes()


def test_values_that_play_alike_share_a_representative():
    sp = parse_space("threshold:k=0..13", SPOKELSE)
    rules = SPOKELSE.table(None, None, None).rules
    assert sp.representative({"k": 1.5}, rules) == sp.representative({"k": 1.0}, rules)
    assert sp.representative({"k": 8.0}, rules) == sp.representative({"k": 7.0}, rules)
    assert sp.representative({"k": 2.0}, rules) != sp.representative({"k": 1.0}, rules)


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("expect:k=4..1", "empty range"),
        ("expect:k=0..20", "outside k's bounds"),
        ("expect:k=0.25..4", "not on k's grid"),
        ("expect:zz=0..1", "unknown parameter 'zz'"),
        ("expect:k=0..x", "is not a number"),
        ("expect:k=0..4,k=1..2", "given twice"),
        ("passive", "nothing to tune"),
        ("expect:k=2..2", "nothing to tune"),
        ("nosuch:k=0..1", "unknown strategy 'nosuch'"),
        ("greedy", "is for gris"),
    ],
)
def test_bad_specs_are_one_clear_line(spec, message):
    with pytest.raises(InputError, match=message):
        parse_space(spec, SPOKELSE)
