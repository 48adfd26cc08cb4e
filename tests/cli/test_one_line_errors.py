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
