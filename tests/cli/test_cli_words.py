"""Numbers a card player reads without stumbling: one column, one number of digits; a rate
that does not apply to a seat says n/a there; a real parameter a search drew is shown to the
digits that matter, with a note that says so."""

from __future__ import annotations

import json
import re

import pytest
from typer.testing import CliRunner

from simulator.cli import app
from simulator.cli.tune import RealsShort, print_tune, short_real
from simulator.engine import formatting as F


def run(*args: str):
    r = CliRunner().invoke(app, list(args), env={"COLUMNS": None})
    assert r.exit_code == 0, r.output
    return r.stdout


def column(text: str, index: int) -> list[str]:
    """The cells of the ``index``-th column of the first table's rows."""
    rows = [line for line in text.splitlines() if re.match(r"│ +\d+ │", line)]
    return [row.strip("│").split("│")[index].strip() for row in rows]


def decimals(cell: str) -> int:
    head = cell.split(" ")[0].rstrip("%")
    return len(head.partition(".")[2])


# --- one column, one number of digits ----------------------------------------------------


def test_a_column_takes_the_decimals_its_most_precise_interval_asks_for():
    assert F.column_decimals([[0.9164, 0.9239], [0.0408, 0.0465]], percent=True) == 2
    assert F.column_decimals([[5.8, 6.0], [5.87, 5.93], None]) == 3  # ±0.1: 2 places; ±0.03: 3
    assert F.column_decimals([None, [3.0, 3.0]]) is None  # no interval with a width
    assert F.rate(0.9203, [0.9164, 0.9239], decimals=2) == "92.03% [91.64, 92.39]"
    assert F.rate(0.9203, [0.9164, 0.9239]) == "92.0% [91.6, 92.4]"  # its own digits, alone


def test_every_figure_of_a_column_has_the_same_number_of_digits():
    text = run("simulate", "gris", "--players", "3", "-s", "greedy", "-s", "random", "-s", "random",
               "--rounds", "20000", "--seed", "1")  # fmt: skip
    for index in (2, 3):  # signal_first_rate and letter_rate: 92% beside 4% once had 1 and 2 decimals
        cells = column(text, index)
        assert len(cells) == 3 and len({decimals(c) for c in cells}) == 1, cells


# --- not applicable -----------------------------------------------------------------------


def test_a_rate_the_rules_fix_at_a_seat_says_n_a_there_and_the_json_keeps_it():
    args = ["simulate", "gris", "--players", "4", "-s", "greedy", "--rounds", "3000", "--seed", "2"]
    text = run(*args)
    dealt = column(text, 4)  # dealt_complete_rate: seat 0 holds six cards in round play
    assert dealt[0] == "n/a" and all("%" in c for c in dealt[1:]), dealt
    assert "not applicable to that seat" in text
    doc = json.loads(run(*args, "--json"))
    assert doc["seats"][0]["dealt_complete_rate"] == 0.0


# --- real parameters a search drew --------------------------------------------------------


def test_a_drawn_real_is_shown_to_three_significant_digits():
    assert short_real(2.7190209374372762) == "2.72"
    assert short_real(25.123456789) == "25.1"
    assert short_real(0.0123456789) == "0.0123"
    assert short_real(3.0) == "3"
    short = RealsShort()
    text = short("best expect:k=1,patience=2.7190209374372762,pile=0.5,open=25 (trial 1)")
    assert text == "best expect:k=1,patience=2.72,pile=0.5,open=25 (trial 1)"
    assert short("k=1.5, open=25, pile=0.5") == "k=1.5, open=25, pile=0.5"  # values a person typed
    assert "patience=2.72 is patience=2.7190209374372762" in short.note()
    assert RealsShort().note() is None


@pytest.mark.slow
def test_tune_shows_its_drawn_reals_short_and_says_so(capsys):
    args = ["tune", "spokelse", "-s", "expect:patience=1..6", "--vs", "threshold:k=4", "--rounds", "2000",
            "--trials", "6", "--seed", "3", "--json"]  # fmt: skip
    summary = json.loads(run(*args))
    winner = summary["iterations"][0]["winner"]
    full = re.search(r"patience=(-?\d+\.\d{6,})", winner)
    assert full, winner  # the search drew a real patience, kept whole in the JSON
    print_tune(summary)
    text = capsys.readouterr().out
    assert full.group(0) not in text.replace(f"is {full.group(0)}", "")  # only the note gives it whole
    assert f"patience={short_real(float(full.group(1)))}," in text
    assert re.search(r"note: real values the search drew are shown to 3 significant digits", text)


# --- a ranking without a finite strength ---------------------------------------------------


def test_a_strategy_that_never_did_better_on_a_deal_is_said_so_in_the_ranking():
    args = ["compare", "spokelse", "-s", "threshold:k=4", "-s", "expect", "-s", "passive", "--rounds", "500",
            "--seed", "7"]  # fmt: skip
    doc = json.loads(run(*args, "--json"))
    passive = doc["strategies"].index("passive")
    assert not any(doc["head_to_head"]["better"][passive])  # passive never scored lower on a deal
    text = run(*args)
    row = next(line for line in text.splitlines() if re.match(r"│ +3 │ passive ", line))
    assert "never did better on a deal" in row and "[" not in row, row
    expect = next(line for line in text.splitlines() if re.match(r"│ +1 │ expect", line))
    assert re.search(r"\+\d\.\d+ \[\+\d\.\d+, \+\d\.\d+\]", expect), (
        expect
    )  # a finite strength keeps its interval
