"""What the reliability review found saying more than one line, or a traceback, says one line."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from simulator.cli import app


def one_line(*args: str) -> str:
    r = CliRunner().invoke(app, list(args))
    lines = [ln for ln in r.output.splitlines() if ln.strip()]
    assert r.exit_code == 2, r.output
    assert len(lines) == 1 and lines[0].startswith("error: "), r.output
    assert "Traceback" not in r.output
    return lines[0]


def test_a_command_without_its_game_names_the_choices_in_one_line():
    assert one_line("simulate") == "error: Missing argument 'GAME'. Choose from: spokelse, gris, gris-nese"


@pytest.mark.parametrize(
    ("content", "words"),
    [
        ("garbage{", "cannot be read as a report (JSONDecodeError)"),
        ("[1, 2]", "is not a kortsim report (no title)"),
        ('{"title": 3}', "is not a kortsim report (no title)"),
        ('{"title": "x", "sections": [1]}', "is not a kortsim report (TypeError"),
    ],
)
def test_report_on_a_damaged_report_json_is_one_line(tmp_path, content, words):
    (tmp_path / "report.json").write_text(content, encoding="utf-8")
    assert words in one_line("report", str(tmp_path))


@pytest.mark.parametrize(
    ("spec", "words"), [("threshold:k=1||2", "has an empty item"), ("threshold:k=1|1", "gives a value twice")]
)
def test_a_sweep_list_with_an_empty_or_repeated_item_is_refused(spec, words):
    line = one_line(
        "sweep", "spokelse", "-s", spec, "--vs", "threshold:k=4", "--rounds", "100", "--seed", "1"
    )
    assert words in line


def _odd_paths(tmp_path):
    """A folder, a named pipe and a device: paths that exist and are no file to read."""
    import os

    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    return {"a folder": tmp_path, "a named pipe (fifo)": fifo, "a device": "/dev/zero"}


def test_a_plugin_that_is_no_file_says_what_the_path_is(tmp_path):
    for kind, path in _odd_paths(tmp_path).items():
        line = one_line("simulate", "spokelse", "-s", "expect", "--rounds", "10", "--plugin", str(path))
        assert f"is {kind}, not a Python file" in line, line


def test_a_reaction_file_that_is_no_file_says_what_the_path_is_and_never_blocks(tmp_path):
    """A fifo was opened and read before: the run waited for a writer for ever."""
    for kind, path in _odd_paths(tmp_path).items():
        line = one_line("simulate", "gris", "-s", "greedy", "--rounds", "10", "--reaction", f"0={path}")
        assert f"it is {kind}, not a file" in line, line
    (tmp_path / "sub").mkdir()
    import os

    here = os.getcwd()
    os.chdir(tmp_path)
    try:  # a bare folder name (no slash) is a path too, not a MEDIAN,SIGMA that is no number
        line = one_line("simulate", "gris", "-s", "greedy", "--rounds", "10", "--reaction", "0=sub")
    finally:
        os.chdir(here)
    assert "it is a folder" in line, line


@pytest.mark.parametrize("command", ["simulate", "compare", "sweep", "tune"])
def test_a_plugin_with_no_strategy_for_the_game_played_is_refused(tmp_path, command):
    nothing = tmp_path / "nothing.py"
    nothing.write_text("x = 1\n", encoding="utf-8")
    other = tmp_path / "other_game.py"
    other.write_text(
        "from strategies import strategy\n\n\n"
        f"@strategy(game='gris', name='other-game-only-{command}')\n"
        "def other_game_only(obs, params, rng):\n    return 0\n",
        encoding="utf-8",
    )
    specs = {"simulate": ["-s", "expect"], "compare": ["-s", "expect", "-s", "passive"],
             "sweep": ["-s", "threshold:k=3|4"], "tune": ["-s", "threshold:k=3..4", "--trials", "2"]}  # fmt: skip
    for plugin, words in ((nothing, "none at all"), (other, "only for gris")):
        line = one_line(
            command, "spokelse", *specs[command], "--rounds", "10", "--seed", "1", "--plugin", str(plugin)
        )
        assert f"registers no strategy for spokelse: {words}" in line, line
