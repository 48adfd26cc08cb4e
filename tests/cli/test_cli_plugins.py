"""Strategy files on the command line: enum answers, compile errors, reserved names, duplicates."""

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from simulator.cli import app

PLUGINS = Path(__file__).resolve().parents[1] / "plugins"
BROKEN = str(PLUGINS / "does_not_compile.py")
runner = CliRunner()


def run(*args: str):
    return runner.invoke(app, list(args))


def error_lines(r) -> list[str]:
    """What a run said on stderr, without the seed notice."""
    return [line for line in r.stderr.splitlines() if line.strip() and not line.startswith("seed ")]


def one_line_exit_2(r, *needles: str) -> str:
    assert r.exit_code == 2, r.output
    lines = error_lines(r)
    assert len(lines) == 1, r.stderr
    assert lines[0].startswith("error:")
    for needle in needles:
        assert needle in lines[0], lines[0]
    assert "Traceback" not in r.output
    return lines[0]


@pytest.mark.slow
def test_a_plugin_answering_with_the_enums_runs_and_plays_as_one_answering_with_ints():
    docs = {}
    for name in ("enum", "int"):
        r = run(
            "simulate", "spokelse", "--plugin", str(PLUGINS / f"{name}_answers.py"),
            "-s", f"test-{name}-answers:keep=3", "--rounds", "3000", "--seed", "5", "--json",
        )  # fmt: skip
        assert r.exit_code == 0, r.output
        docs[name] = json.loads(r.stdout)
    for doc in docs.values():
        for key in ("elapsed_s", "games_per_s", "compile_s"):
            doc.pop(key)
        for seat in doc["seats"]:
            seat.pop("player")
    assert docs["enum"] == docs["int"]
    assert 3 < docs["enum"]["seats"][0]["mean_score"] < 20


@pytest.mark.parametrize(
    "command",
    [
        "simulate spokelse -s test-does-not-compile --rounds 10 --seed 1",
        "compare spokelse -s test-does-not-compile -s passive --rounds 10 --seed 1",
        "trace spokelse -s test-does-not-compile --seed 1",
        "sweep spokelse -s threshold:k=1|2 --vs test-does-not-compile --rounds 10 --seed 1",
    ],
    ids=["simulate", "compare", "trace", "sweep"],
)
def test_a_plugin_that_does_not_compile_gives_one_line_and_exit_2(command):
    r = run(*command.split(), "--plugin", BROKEN)
    line = one_line_exit_2(r, "'test-does-not-compile'", "does_not_compile.py:12", "Unknown attribute 'best'")
    assert "--verbose" in line
    assert "Failed in nopython mode pipeline" not in r.output

    loud = run(*command.split(), "--plugin", BROKEN, "--verbose")
    assert loud.exit_code == 2
    assert "Failed in nopython mode pipeline" in loud.stderr
    assert "line 12" in loud.stderr and "return obs.best" in loud.stderr
    assert loud.stderr.rstrip().splitlines()[-1] == line.replace(
        " (--verbose shows numba's full message)", ""
    )
    assert "Traceback" not in loud.output


def test_a_plugin_taking_a_shipped_name_is_refused():
    r = run(
        "simulate", "spokelse", "--plugin", str(PLUGINS / "takes_a_shipped_name.py"),
        "-s", "threshold", "--rounds", "10", "--seed", "1",
    )  # fmt: skip
    one_line_exit_2(r, "takes_a_shipped_name.py", "'threshold' is reserved")
    r = run("strategies", "spokelse", "--plugin", str(PLUGINS / "takes_a_shipped_name.py"))
    one_line_exit_2(r, "'threshold' is reserved")


@pytest.mark.parametrize(
    "command",
    [
        ["simulate", "spokelse", "-s", "threshold:k=4,k=5", "--rounds", "10", "--seed", "1"],
        ["compare", "spokelse", "-s", "threshold:k=4,k=5", "-s", "passive", "--rounds", "10", "--seed", "1"],
        ["trace", "spokelse", "-s", "threshold:k=4,k=5", "--seed", "1"],
    ],
    ids=["simulate", "compare", "trace"],
)
def test_a_parameter_given_twice_is_refused(command):
    one_line_exit_2(run(*command), "parameter 'k' is given twice")


@pytest.mark.parametrize("command", ["simulate", "compare", "sweep"])
def test_a_rule_given_twice_is_refused(command):
    strategies = {"simulate": ["-s", "passive"], "compare": ["-s", "passive", "-s", "threshold"]}
    r = run(
        command, "spokelse", *strategies.get(command, ["-s", "threshold:k=1|2"]),
        "--rule", "jack=11", "--rule", "jack=0.5", "--rounds", "10", "--seed", "1",
    )  # fmt: skip
    one_line_exit_2(r, "--rule jack is given twice")
