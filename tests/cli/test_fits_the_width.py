"""Every command's output fits the width it is printed at, down to 80 columns: the
terminal's, ``COLUMNS`` or ``--width N``; output that is not a terminal stays 140 wide,
with every table row on one line, as scripts read it."""

from __future__ import annotations

import io
import os
import re
import shlex
import sys

import pexpect
import pytest
from rich.cells import cell_len
from typer.testing import CliRunner

from simulator.cli import app
from simulator.cli.width import WIDE, FittedConsole, ask_width, width_for

ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")


def run(*args: str, columns: str | None = "80"):
    env = {"COLUMNS": columns}  # None: COLUMNS unset, as in a pipe from a script
    r = CliRunner().invoke(app, list(args), env=env)
    assert r.exit_code == 0, r.output
    return r.stdout


def assert_fits(text: str, width: int = 80) -> None:
    """No line wider than ``width`` (display width: ♠ and σ are one column each) and
    nothing cut short with an ellipsis."""
    lines = text.splitlines()
    assert lines, "printed nothing"
    wide = [line for line in lines if cell_len(line) > width]
    assert not wide, "\n".join(wide)
    assert "…" not in text, text


# The commands people run, at sizes a test can afford (each prints tables or long lines).
COMMANDS = {
    "simulate spokelse": ["simulate", "spokelse", "-s", "threshold:k=4", "-s", "passive", "--rounds", "3000",
                          "--seed", "7"],
    "simulate spokelse matches": ["simulate", "spokelse", "-s", "expect", "-s", "threshold", "--matches", "200",
                                  "--seed", "7"],
    "simulate gris": ["simulate", "gris", "--players", "5", "-s", "commit:after=3", "-s", "greedy", "-s", "greedy",
                      "-s", "greedy", "-s", "random", "--matches", "200", "--seed", "7"],
    "simulate gris rounds": ["simulate", "gris", "--players", "6", "-s", "greedy", "--rounds", "2000", "--seed",
                             "7"],
    "simulate gris-nese": ["simulate", "gris-nese", "--players", "4", "-s", "follow", "-s", "greedy", "-s", "greedy",
                           "-s", "greedy", "--matches", "200", "--seed", "7"],
    "compare spokelse": ["compare", "spokelse", "-s", "threshold:k=4", "-s", "expect", "-s", "passive", "-s",
                         "threshold:k=5", "--rounds", "2000", "--seed", "7"],
    "compare gris": ["compare", "gris", "--players", "5", "-s", "greedy", "-s", "random", "-s",
                     "commit:after=3", "--matches", "100", "--seed", "1"],
    "compare gris-nese": ["compare", "gris-nese", "-s", "greedy", "-s", "follow", "--matches", "100", "--seed",
                          "1"],
    "sweep": ["sweep", "spokelse", "-s", "expect:patience=1..3/1,open=15|25", "--rounds", "500", "--seed", "2"],
    "profile": ["profile", "spokelse", "--rounds", "1000", "--matches", "100", "--seed", "1"],
    "profile variants": ["profile", "spokelse", "--compare-rule", "jack=0.5,11", "--rounds", "1000", "--matches",
                         "100", "--seed", "1"],
    "profile gris": ["profile", "gris", "--players", "3..4", "--rounds", "1000", "--matches", "50", "--seed",
                     "1"],
    "advise": ["advise", "spokelse", "--row", "♠8 ♦K ? ?", "--hand", "♥3", "--discard", "♣Q", "--stock", "20",
               "--samples", "100"],
    "calibrate": ["calibrate", "spokelse", "--rounds", "10", "--particles", "8", "--seed", "1"],
    "tune": ["tune", "spokelse", "-s", "threshold:k=2..6", "--rounds", "1000", "--trials", "4", "--seed", "1"],
    "trace": ["trace", "spokelse", "-s", "threshold:k=4", "-s", "random", "--seed", "3", "--game", "17"],
    "strategies spokelse": ["strategies", "spokelse"],
    "strategies gris": ["strategies", "gris"],
    "strategies gris-nese": ["strategies", "gris-nese"],
    "games": ["games"],
    "experiment list": ["experiment", "list"],
}  # fmt: skip


@pytest.mark.slow
@pytest.mark.parametrize("name", COMMANDS)
def test_every_command_fits_80_columns(name):
    assert_fits(run(*COMMANDS[name]))


def test_width_n_asks_for_a_width_and_is_kept_to_that_command():
    args = COMMANDS["compare spokelse"]
    assert_fits(CliRunner().invoke(app, ["--width", "80", *args], env={"COLUMNS": None}).stdout)
    # the next command decides afresh: not a terminal, so the wide layout
    wide = run(*args, columns=None)
    assert max(cell_len(line) for line in wide.splitlines()) > 80


def test_a_width_below_40_is_refused_in_one_line():
    r = CliRunner().invoke(app, ["--width", "20", "games"])
    assert r.exit_code == 2
    assert r.stderr.strip() == "error: --width 20: give 40 columns or more"


def test_the_issues_run_keeps_each_row_whole_in_80_columns():
    """The row the issue saw wrap: tie_rate, its value and its words, now within 80 columns."""
    text = run(
        "simulate", "spokelse", "-s", "threshold:k=4", "-s", "passive", "--rounds", "20000", "--seed", "7"
    )
    assert_fits(text)
    assert re.search(r"│ tie_rate +│ +[\d.]+% \[[\d.]+, [\d.]+\] │ share of rounds tied", text), text


def test_not_a_terminal_keeps_the_wide_layout_scripts_read():
    """Piped, nothing asked: tables 140 columns wide, each candidate's row and each sentence
    on one line."""
    text = run(*COMMANDS["compare spokelse"], columns=None)
    rows = [
        line for line in text.splitlines() if line.startswith("│ expect:k=1,patience=3,pile=0.5,open=25 │")
    ]
    assert len(rows) == 2, text  # one per metric, the interval beside the value
    assert all(re.search(r"│ +[\d.]+%? \[[\d.]+, [\d.]+\] │ +[+-][\d.]+( pp)? \[", r) for r in rows), rows
    said = [line for line in text.splitlines() if line.startswith("• ")]
    assert len(said) == 6 and all(line.endswith((": better", ": worse", "at this size")) for line in said)
    assert max(len(line) for line in said) > WIDE  # a sentence is never broken for a script
    table = [line for line in text.splitlines() if line[:1] in "┏┃┡│└"]
    assert table and max(cell_len(line) for line in table) <= WIDE


def test_a_table_too_wide_for_the_width_splits_its_columns_keeping_seat_and_player():
    r = CliRunner().invoke(app, ["--width", "60", *COMMANDS["simulate gris"]], env={"COLUMNS": None})
    text = r.stdout
    assert_fits(text, 60)
    heads = [line for line in text.splitlines() if re.match(r"┃ +┃ +┃|┃ seat ┃ player", line)]
    assert sum(line.startswith("┃ seat ┃ player") for line in heads) >= 2, text
    for figure in ("loss_rate", "mean_letters", "first_dealer_rate", "reaction"):
        assert figure in text


def test_the_width_rules(monkeypatch):
    monkeypatch.delenv("COLUMNS", raising=False)
    assert width_for(io.StringIO()) == (WIDE, False)
    monkeypatch.setenv("COLUMNS", "93")
    assert width_for(io.StringIO()) == (93, True)
    ask_width(61)
    try:
        assert width_for(io.StringIO()) == (61, True)
    finally:
        ask_width(None)
    monkeypatch.delenv("COLUMNS")
    leader, follower = os.openpty()
    try:
        import fcntl
        import struct
        import termios

        fcntl.ioctl(follower, termios.TIOCSWINSZ, struct.pack("HHHH", 30, 72, 0, 0))
        with os.fdopen(follower, "w", closefd=False) as tty:
            assert width_for(tty) == (72, True)
            console = FittedConsole(file=tty)
            assert console.width == 72 and console.fitted
    finally:
        os.close(leader)
        os.close(follower)


def test_fitted_text_wraps_between_words_and_piped_text_stays_one_line(monkeypatch):
    line = " ".join(f"word{i}" for i in range(40))
    buf = io.StringIO()
    monkeypatch.delenv("COLUMNS", raising=False)
    FittedConsole(file=buf).print(line)
    assert buf.getvalue() == line + "\n"
    monkeypatch.setenv("COLUMNS", "50")
    buf = io.StringIO()
    FittedConsole(file=buf).print(line)
    lines = buf.getvalue().splitlines()
    assert len(lines) > 1 and all(cell_len(x) <= 50 for x in lines)
    assert " ".join(x.strip() for x in lines) == line  # whole words, none cut


def test_the_tables_lines_wrap_under_their_own_indent(monkeypatch):
    """``kortsim play`` prints to the fitted console: an indented line wraps under its indent."""
    from simulator.tabletop import Terminal

    monkeypatch.setenv("COLUMNS", "40")
    buf = io.StringIO()
    Terminal(FittedConsole(file=buf)).show("   round 1, your pass 2: hand ♥2 ♥Q ♦A ♦3 ♦8 ♣10; you passed ♥2")
    lines = buf.getvalue().splitlines()
    assert len(lines) > 1 and all(line.startswith("   ") and cell_len(line) <= 40 for line in lines), lines


@pytest.mark.slow
def test_a_real_terminal_of_80_columns_gets_output_that_fits():
    """Through a pseudo-terminal 80 columns wide, COLUMNS unset: the terminal decides."""
    env = {k: v for k, v in os.environ.items() if k != "COLUMNS"}
    # stdout on the terminal; stderr (the progress bar, which redraws its line) elsewhere
    command = shlex.join([sys.executable, "-m", "simulator.cli", *COMMANDS["compare spokelse"]])
    child = pexpect.spawn("sh", ["-c", command + " 2>/dev/null"], encoding="utf-8", timeout=300, env=env,
                          dimensions=(60, 80))  # fmt: skip
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0, child.before
    text = ANSI.sub("", child.before.replace("\r\n", "\n"))
    assert_fits(text)
    assert "in plain words" in text


@pytest.mark.slow
@pytest.mark.parametrize("name", ["profile", "profile gris"])
def test_progress_lines_fit_80_columns(name):
    """What a long command says while it runs (on stderr) fits as its tables do."""
    r = CliRunner().invoke(app, COMMANDS[name], env={"COLUMNS": "80"})
    assert r.exit_code == 0, r.output
    assert_fits(r.stderr)


def test_an_error_wraps_between_words_on_a_narrow_terminal_and_stays_one_line_in_a_pipe():
    """stderr fits the width as stdout does; a script reading a pipe still gets one line."""
    args = ["simulate", "spokelse", "-s", "nosuch", "--rounds", "10"]
    piped = CliRunner().invoke(app, args, env={"COLUMNS": None})
    assert piped.exit_code == 2
    message = piped.stderr.strip()
    assert "\n" not in message and cell_len(message) > 60, message
    narrow = CliRunner().invoke(app, args, env={"COLUMNS": "60"})
    assert narrow.exit_code == 2
    lines = narrow.stderr.splitlines()
    assert len(lines) > 1 and all(cell_len(line) <= 60 for line in lines), lines
    assert " ".join(line.strip() for line in lines) == message  # whole words, none cut
