"""``kortsim play``'s bad input (one line, exit 2) and the reaction profile it saves: a
file that ``simulate --reaction SEAT=FILE`` and ``compare`` read back, the old
``MEDIAN[,SIGMA]`` syntax untouched."""

from __future__ import annotations

import json
import math

import pytest
from typer.testing import CliRunner

from simulator.cli import app
from simulator.engine.reaction import parse_profile as parse_numbers
from simulator.engine.reaction_file import fit, parse_profile, read_profile, seat_profiles, write_profile
from simulator.errors import InputError

runner = CliRunner()
TIMES = [0.41, 0.52, 0.38, 0.61, 0.47, 0.55, 0.44, 0.72]


def one_error_line(r, code: int = 2) -> str:
    assert r.exit_code == code, r.output
    lines = [line for line in r.stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("error:") and "Traceback" not in r.output, r.output
    return lines[0]


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (("spokelse", "--players", "3"), "exactly 2 players"),
        (("gris", "--vs", "greedy", "--vs", "greedy"), "--vs given 2 times for 3 bot seats"),
        (("gris", "--signal-wait", "3,1"), "--signal-wait '3,1'"),
        (("gris", "--signal-wait", "soon"), "write MIN,MAX"),
        (("spokelse", "--save-reaction", "x.json"), "--save-reaction is for the Gris games"),
        (("gris", "--save-reaction", "no/such/dir/x.json"), "its folder does not exist"),
        (("spokelse", "--advice-samples", "-1"), "--advice-samples -1"),
        (("gris", "--vs", "nosuch"), "nosuch"),
        (("spokelse", "--rule", "target=0"), "target"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(args, words):
    assert words in one_error_line(runner.invoke(app, ["play", *args]))


def test_the_fit_is_the_log_normal_of_the_times_with_intervals():
    p = fit(TIMES)
    logs = [math.log(t) for t in TIMES]
    mean = sum(logs) / len(logs)
    sd = math.sqrt(sum((x - mean) ** 2 for x in logs) / (len(logs) - 1))
    assert p["n"] == len(TIMES) and math.isclose(p["median_s"], math.exp(mean))
    assert math.isclose(p["sigma"], sd)
    assert p["median_s_ci"][0] < p["median_s"] < p["median_s_ci"][1]
    assert p["sigma_ci"][0] < p["sigma"] < p["sigma_ci"][1]
    with pytest.raises(ValueError, match="at least two"):
        fit([0.5])


def test_times_that_hardly_vary_are_saved_at_the_smallest_sigma_a_profile_may_take(tmp_path):
    saved = write_profile(tmp_path / "me.json", [0.5, 0.501, 0.5005])
    assert saved["clamped"] == ["sigma"] and saved["sigma"] == 0.01 and 0 < saved["sigma_fitted"] < 0.01
    assert read_profile(tmp_path / "me.json") == (saved["median_s"], 0.01)


def test_a_saved_profile_reads_back_and_feeds_simulate(tmp_path):
    path = tmp_path / "me.json"
    saved = write_profile(path, TIMES)
    assert json.loads(path.read_text())["median_s"] == saved["median_s"]
    assert read_profile(path) == (saved["median_s"], saved["sigma"])
    assert seat_profiles([f"1={path}"], 3)[1] == (saved["median_s"], saved["sigma"])
    assert parse_profile(str(path)) == (saved["median_s"], saved["sigma"])  # compare's reactions=
    r = runner.invoke(app, ["simulate", "gris", "--players", "3", "-s", "greedy", "--rounds", "50",
                            "--seed", "1", "--reaction", f"1={path}", "--json"])  # fmt: skip
    assert r.exit_code == 0, r.output
    seats = json.loads(r.stdout)["seats"]
    assert seats[1]["reaction"] == {"median_s": saved["median_s"], "sigma": saved["sigma"]}
    assert seats[0]["reaction"] == {"median_s": 0.8, "sigma": 0.35}


@pytest.mark.parametrize("command", ["simulate", "compare"])
@pytest.mark.parametrize(
    ("content", "words"),
    [
        (None, "no such file"),
        ("{not json", "not JSON"),
        ('{"median_s": 0.5}', "not a reaction profile"),
        ('{"kind": "kortsim reaction profile", "median_s": "fast", "sigma": 0.3}', "must be numbers"),
        ('{"kind": "kortsim reaction profile", "median_s": 0.5, "sigma": 0}', "sigma must be from 0.01"),
    ],
)
def test_a_bad_or_missing_profile_file_is_one_line_and_exit_2(tmp_path, command, content, words):
    path = tmp_path / "me.json"
    if content is not None:
        path.write_text(content)
    args = [command, "gris", "-s", "greedy", "--rounds", "10", "--seed", "1", "--reaction", f"0={path}"]
    if command == "compare":
        args[4:4] = ["-s", "commit"]
    line = one_error_line(runner.invoke(app, args))
    assert words in line and "me.json" in line


@pytest.mark.parametrize("parse", [parse_profile, parse_numbers])
def test_the_old_syntax_and_its_messages_are_unchanged(parse):
    assert parse("0.6") == (0.6, 0.35) and parse("0.6,0.2") == (0.6, 0.2)
    with pytest.raises(InputError, match=r"reaction profile 'abc': MEDIAN and SIGMA must be numbers"):
        parse("abc")
    with pytest.raises(InputError, match=r"write MEDIAN or MEDIAN,SIGMA"):
        parse("1,2,3")
    with pytest.raises(InputError, match=r"--reaction '9=0.5': seat must be 0 to 2"):
        seat_profiles(["9=0.5"], 3)
