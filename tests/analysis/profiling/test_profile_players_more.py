"""``--players`` / ``players=`` of a profile: every table size once, whole numbers only."""

import pytest

from simulator.analysis.profiling.core import parse_players
from simulator.errors import InputError
from simulator.running.setup import resolve_game

GRIS = resolve_game("gris")


@pytest.mark.parametrize(
    ("players", "message"),
    [
        ("3,3", "a table size is given twice"),
        ([4, 4], "a table size is given twice"),
        ([], "give at least one table size"),
        ([3.5], "whole numbers of seats"),
        (3.0, "whole numbers of seats"),
        (True, "whole numbers of seats"),
        ([True, 4], "whole numbers of seats"),
    ],
)
def test_bad_table_sizes_are_refused(players, message):
    with pytest.raises(InputError, match=message):
        parse_players(players, GRIS)


def test_good_table_sizes_pass():
    import numpy as np

    assert parse_players("3..5", GRIS) == [3, 4, 5]
    assert parse_players("3,6", GRIS) == [3, 6]
    assert parse_players((np.int64(3), 6), GRIS) == [3, 6]
    assert parse_players(4, GRIS) == [4]


def test_cli_refuses_a_repeated_size_in_one_line(tmp_path):
    from typer.testing import CliRunner

    from simulator.cli.app import app

    r = CliRunner().invoke(app, ["profile", "gris", "--players", "3,3", "--rounds", "100"])
    assert r.exit_code == 2
    assert "a table size is given twice" in r.output
    assert "Traceback" not in r.output


@pytest.mark.parametrize("values", ["jack=0.5,.5", "target=21,021", "jack=11,0.5,½"])
def test_one_rule_value_written_two_ways_is_refused(values):
    from simulator.analysis.profiling.core import variants

    with pytest.raises(InputError, match="is the same rule as"):
        variants(resolve_game("spokelse"), None, values)


def test_distinct_rule_values_pass():
    from simulator.analysis.profiling.core import variants

    assert variants(resolve_game("spokelse"), None, "jack=0.5,11") == [{"jack": "0.5"}, {"jack": "11"}]
