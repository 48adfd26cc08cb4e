"""Upper and lower bounds on what kortsim takes (docs/limits.md), each refused with one line
and exit code 2; and strict JSON (``null``, never ``NaN``) when nothing was counted."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

import simulator
from simulator.analysis.sweep import MAX_POINTS, parse_sweep
from simulator.api import MAX_GAMES, resolve_unit
from simulator.cli import app
from simulator.engine.reaction import MEDIAN_RANGE, SIGMA_RANGE, parse_profile
from simulator.errors import InputError
from simulator.games import get_game

runner = CliRunner()


def run(*args: str):
    return runner.invoke(app, list(args))


def one_error_line(r, code: int = 2) -> str:
    assert r.exit_code == code, r.output
    lines = [line for line in r.stderr.splitlines() if line.strip() and not line.startswith("seed ")]
    assert len(lines) == 1, r.stderr
    assert lines[0].startswith("error:") and "Traceback" not in r.output
    return lines[0]


def strict_json(text: str):
    """``json.loads`` that refuses NaN and Infinity (not JSON, RFC 8259)."""

    def refuse(constant: str):
        raise AssertionError(f"{constant} in the JSON output")

    return json.loads(text, parse_constant=refuse)


def walk(value):
    """Every leaf of a JSON document."""
    if isinstance(value, dict):
        for v in value.values():
            yield from walk(v)
    elif isinstance(value, list):
        for v in value:
            yield from walk(v)
    else:
        yield value


def intervals(value):
    """Every ``*_ci`` value of a JSON document."""
    if isinstance(value, dict):
        for k, v in value.items():
            if k.endswith("_ci"):
                yield v
            else:
                yield from intervals(v)
    elif isinstance(value, list):
        for v in value:
            yield from intervals(v)


# --- reaction profiles ------------------------------------------------------------------------


BAD_REACTIONS = [
    ("0.8,0", "sigma must be from 0.01 to 3, not 0"),
    ("1=0.8,0", "sigma must be from 0.01 to 3, not 0"),
    ("0.8,-0.2", "sigma"),
    ("0.8,nan", "sigma"),
    ("0.8,inf", "sigma"),
    ("0.8,4", "sigma"),
    ("nan", "median"),
    ("inf,0.3", "median"),
    ("-1", "median"),
    ("0", "median"),
    ("0.001", "median"),
    ("61", "median must be a number of seconds from 0.01 to 60"),
]


@pytest.mark.parametrize(("profile", "message"), BAD_REACTIONS)
def test_a_reaction_profile_outside_its_range_is_one_line(profile, message):
    r = run("simulate", "gris", "-s", "greedy", "--rounds", "10", "--seed", "1", "--reaction", profile)
    line = one_error_line(r)
    assert message in line and repr(profile.partition("=")[2] or profile) in line


@pytest.mark.parametrize("command", ["trace", "compare"])
def test_sigma_zero_is_refused_by_trace_and_compare(command):
    args = ["gris-nese", "-s", "greedy", "--seed", "1", "--reaction", "0.8,0"]
    if command == "compare":
        args = [
            "gris-nese",
            "-s",
            "greedy",
            "-s",
            "commit",
            "--rounds",
            "10",
            "--seed",
            "1",
            "--reaction",
            "0.8,0",
        ]
    line = one_error_line(run(command, *args))
    assert "sigma" in line and "ties would go by seat number" in line


def test_sigma_zero_is_refused_by_the_python_api():
    with pytest.raises(InputError, match="sigma"):
        simulator.simulate("gris", "greedy", rounds=10, seed=1, reaction=[(0.8, 0.0)])
    with pytest.raises(InputError, match="sigma"):
        simulator.trace("gris", "greedy", seed=1, reaction=[(0.8, 0.0)])


def test_the_ends_of_the_reaction_ranges_are_accepted():
    assert parse_profile(f"{MEDIAN_RANGE[0]},{SIGMA_RANGE[0]}") == (MEDIAN_RANGE[0], SIGMA_RANGE[0])
    assert parse_profile(f"{MEDIAN_RANGE[1]},{SIGMA_RANGE[1]}") == (MEDIAN_RANGE[1], SIGMA_RANGE[1])
    r = run("simulate", "gris", "-s", "greedy", "--rounds", "200", "--seed", "1", "--reaction", "0.01,0.01",
            "--reaction", "3=60,3", "--json")  # fmt: skip
    assert r.exit_code == 0, r.output
    seats = strict_json(r.stdout)["seats"]
    assert seats[0]["reaction"] == {"median_s": 0.01, "sigma": 0.01}
    assert seats[3]["reaction"] == {"median_s": 60.0, "sigma": 3.0}


def test_the_option_help_states_the_reaction_range():
    r = run("simulate", "--help")
    assert "MEDIAN 0.01 to 60 s, SIGMA 0.01 to 3" in " ".join(r.stdout.split())


# --- how many games -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "args",
    [
        ["simulate", "spokelse", "-s", "passive", "--rounds", str(10**30)],
        ["simulate", "spokelse", "-s", "passive", "--matches", str(10**12 + 1)],
        ["simulate", "gris", "-s", "greedy", "--rounds", str(10**13)],
        ["compare", "spokelse", "-s", "passive", "-s", "random", "--rounds", str(10**30)],
        ["sweep", "spokelse", "-s", "threshold:k=1|2", "--rounds", str(10**30)],
    ],
)
def test_more_than_ten_to_the_twelve_games_is_one_line(args):
    line = one_error_line(run(*args, "--seed", "1"))
    assert "at most 1,000,000,000,000 (10**12)" in line


def test_ten_to_the_twelve_itself_is_allowed():
    assert resolve_unit(MAX_GAMES, None) == ("round", 10**12)
    assert resolve_unit(None, MAX_GAMES) == ("match", 10**12)
    with pytest.raises(InputError, match="matches"):
        resolve_unit(None, MAX_GAMES + 1)


# --- rule variants --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("game", "rule", "message"),
    [
        ("spokelse", "target=1000000000000", "the target must be from 1 to 1000 points"),
        ("spokelse", "target=1001", "from 1 to 1000"),
        ("spokelse", "target=0", "from 1 to 1000"),
        ("gris-nese", "unclear_margin=1e9", "from 0 to 10"),
        ("gris-nese", "unclear_margin=inf", "from 0 to 10"),
        ("gris-nese", "unclear_margin=nan", "from 0 to 10"),
        ("gris", "circulation=sometimes", "straight, always, off"),
    ],
)
def test_a_rule_variant_outside_its_range_is_one_line(game, rule, message):
    strategy = "passive" if game == "spokelse" else "greedy"
    line = one_error_line(
        run("simulate", game, "-s", strategy, "--matches", "5", "--seed", "1", "--rule", rule)
    )
    assert message in line


def test_the_ends_of_the_variant_ranges_play():
    r = run(
        "simulate",
        "spokelse",
        "-s",
        "passive",
        "--matches",
        "20",
        "--seed",
        "1",
        "--rule",
        "target=1000",
        "--json",
    )
    assert r.exit_code == 0, r.output
    doc = strict_json(r.stdout)
    assert doc["rules"]["target"] == 1000 and doc["n"] == 20
    assert get_game("gris-nese").parse_rules({"unclear_margin": "10"}).unclear_margin == 10.0


def test_games_lists_each_variant_with_its_range():
    doc = strict_json(run("games", "--json").stdout)
    rules = {g["game"]: g["rules"] for g in doc}
    assert "1 to 1000 points" in rules["spokelse"]["target"]["doc"]
    assert "0 to 10 s" in rules["gris-nese"]["unclear_margin"]["doc"]
    assert "straight" in rules["gris"]["circulation"]["doc"] and "off" in rules["gris"]["circulation"]["doc"]


# --- sweep size -------------------------------------------------------------------------------------


def test_a_sweep_of_a_hundred_million_points_is_refused_at_once():
    line = one_error_line(
        run("sweep", "spokelse", "-s", "expect:patience=0..10/0.0000001", "--rounds", "10", "--seed", "1")
    )
    assert "asks for 100,000,001 points" in line and f"at most {MAX_POINTS}" in line


def test_a_grid_over_the_point_limit_says_how_many_it_asked_for():
    with pytest.raises(InputError, match=r"asks for 441 points; a sweep plays at most 400"):
        parse_sweep("expect:patience=0..10/0.5,k=0..10/0.5", "spokelse")
    assert len(parse_sweep("expect:patience=0..10/0.5,k=0..9/0.5", "spokelse").axes) == 2  # 21 x 19 = 399


# --- strict JSON ----------------------------------------------------------------------------------


@pytest.mark.parametrize("game", ["spokelse", "gris", "gris-nese"])
@pytest.mark.parametrize("unit", ["--rounds", "--matches"])
def test_one_game_gives_strict_json_with_null_for_undefined_figures(game, unit):
    r = run("simulate", game, "-s", "random", unit, "1", "--seed", "1", "--json")
    assert r.exit_code == 0, r.output
    doc = strict_json(r.stdout)
    # One game has no interval for a mean: somewhere an interval is [null, null].
    assert [None, None] in list(intervals(doc)), doc


def test_all_matches_abandoned_gives_null_rates():
    # unclear_margin=10 s replays every round: both matches are abandoned, nothing is counted.
    r = run("simulate", "gris-nese", "-s", "greedy", "--matches", "2", "--seed", "1",
            "--rule", "unclear_margin=10", "--json")  # fmt: skip
    assert r.exit_code == 0, r.output
    doc = strict_json(r.stdout)
    assert doc["abandoned"] == 2
    rates = {k: v for k, v in doc["seats"][0].items() if k.endswith("_rate")}
    assert rates and all(v is None for v in rates.values()), rates
    assert all(doc["seats"][0][k + "_ci"] == [None, None] for k in rates)


def test_compare_and_sweep_of_one_round_give_strict_json():
    r = run("compare", "spokelse", "-s", "passive", "-s", "random", "--rounds", "1", "--seed", "1", "--json")
    assert r.exit_code == 0, r.output
    assert None in list(walk(strict_json(r.stdout)))
    r = run("sweep", "spokelse", "-s", "threshold:k=1|2", "--rounds", "1", "--seed", "1", "--json")
    assert r.exit_code == 0, r.output
    assert None in list(walk(strict_json(r.stdout)))


def test_the_python_result_writes_strict_json_too():
    result = simulator.simulate("spokelse", "passive", rounds=1, seed=1)
    doc = strict_json(result.to_json())
    assert doc["seats"][0]["mean_score_ci"] == [None, None]
