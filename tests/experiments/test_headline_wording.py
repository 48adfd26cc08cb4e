"""Every experiment headline is one plain sentence of at most 35 words, and one that reports
a difference says which way it goes ("more", "fewer", "worse", ...) and in what unit; the
ranges, intervals and sizes needed follow in the longer answer."""

import re
from types import SimpleNamespace

import numpy as np
import pandas as pd
import pytest

from experiments import commit_early, reaction_vs_cards
from experiments.commit_early import report as commit_early_report
from experiments.spokelse_strategy import swap

MAX_WORDS = commit_early.HEADLINE_WORDS
DIRECTION = re.compile(r"\b(better|worse|more|fewer|less|lower|higher|faster|slower)\b", re.I)
NO_DIFFERENCE = re.compile(
    r"\b(no difference|not settled|not shown|no advantage|no value|no detectable|no differently|"
    r"does not flip|not on the grid)\b",
    re.I,
)
DIFFERENCE_UNIT = re.compile(r"\d\s*(percentage points|points per round)")


def check_headline(answer: str) -> None:
    words = answer.split()
    assert len(words) <= MAX_WORDS, f"{len(words)} words: {answer}"
    assert answer.endswith("."), answer
    # One sentence: no full stop followed by a new sentence inside it.
    assert not re.search(r"[.!?]\s+[A-Z]", answer[:-1]), f"more than one sentence: {answer}"
    assert answer.count("(") <= 2 and not re.search(r"\([^)]*\(", answer), f"nested brackets: {answer}"
    assert DIRECTION.search(answer) or NO_DIFFERENCE.search(answer), f"no direction: {answer}"
    if DIFFERENCE_UNIT.search(answer) and not NO_DIFFERENCE.search(answer):
        assert DIRECTION.search(answer), f"a difference without its direction: {answer}"


@pytest.mark.parametrize("name", ["commit-early", "reaction-vs-cards", "spokelse-strategy"])
def test_every_tiny_headline_is_one_short_sentence_with_its_direction(tiny_results, name):
    res = tiny_results(name)
    assert res.headlines
    for h in res.headlines:
        check_headline(h.answer)


def test_the_check_refuses_what_the_review_found():
    long = (
        "Not shown at this size: against greedy players, no difference from greedy is detected at this "
        "size at any table size tried (3, 5, 8 players; differences −1.1 to 0.67 percentage points of "
        "lost matches); against early committers, differences 1.2–4.4 percentage points of lost matches."
    )
    with pytest.raises(AssertionError):
        check_headline(long)
    with pytest.raises(AssertionError):
        check_headline("Committing on the deal: differences 1.2–4.4 percentage points of lost matches.")
    check_headline(
        "No: committing on the deal loses more matches than greedy at every table size tried, by 0.3–2.4 "
        "percentage points."
    )


def _rows(diffs, los, his, ps, field, players=(3, 4, 5)):
    t = pd.DataFrame(
        {
            "players": list(players),
            "metric": "lose_match",
            "diff_vs_greedy": diffs,
            "diff_vs_greedy_lo": los,
            "diff_vs_greedy_hi": his,
            "p_holm": ps,
            "deals": 2000,
        }
    )
    t["game"], t["field"], t["player"] = "gris", field, "commit:after=0"
    return t


WORSE = ([0.003, 0.012, 0.024], [0.001, 0.006, 0.016], [0.005, 0.018, 0.030], [0.01, 0.001, 1e-9])
BETTER = ([-0.003, -0.012, -0.024], [-0.005, -0.018, -0.030], [-0.001, -0.006, -0.016], [0.01, 0.001, 1e-9])
NONE = ([-0.011, 0.003, 0.0067], [-0.03, -0.01, -0.01], [0.01, 0.02, 0.02], [0.5, 0.7, 0.4])
MIXED = ([0.003, -0.012, 0.001], [0.001, -0.018, -0.01], [0.005, -0.006, 0.01], [0.01, 0.001, 0.6])


def _commit_headlines(greedy, early):
    b = SimpleNamespace(headlines=[], tables={}, answer=[])
    b.headline = lambda q, a: b.headlines.append((q, a))
    b.table = lambda name, df, formats=None: b.tables.setdefault(name, df)
    t = pd.concat([_rows(*greedy, "greedy"), _rows(*early, "commit:after=0")])
    cfg = {"games": ["gris"], "afters": [0], "players": [3, 4, 5], "fields": ["greedy", "commit:after=0"]}
    commit_early_report._headlines(b, t, cfg)
    return b


def test_commit_early_worse_everywhere_reads_as_the_issue_asks():
    b = _commit_headlines(WORSE, WORSE)
    (_, a1), (_, a2) = b.headlines
    assert a1 == (
        "No: committing on the deal loses more matches than greedy at every table size tried, "
        "against both fields, by 0.30–2.4 percentage points."
    )
    check_headline(a1)
    check_headline(a2)
    # The details moved below the headline, not lost.
    assert any("95% intervals from 0.10 to 3.0" in a for a in b.answer)


@pytest.mark.parametrize(
    ("greedy", "early", "start", "says"),
    [
        (BETTER, BETTER, "Yes:", "loses fewer matches"),
        (NONE, NONE, "Not shown at this size:", "no difference from greedy in lost matches"),
        (WORSE, NONE, "No:", "against greedy players it loses more matches than greedy"),
        (WORSE, BETTER, "It depends:", "against early committers it loses fewer matches"),
        (
            MIXED,
            NONE,
            "It depends:",
            "it loses more matches than greedy at 3 players, fewer at 4 and no detectable difference at 5;",
        ),
    ],
)
def test_commit_early_every_case_is_one_sentence_with_a_direction(greedy, early, start, says):
    b = _commit_headlines(greedy, early)
    (_, a1), (_, a2) = b.headlines
    assert a1.startswith(start) and says in a1, a1
    check_headline(a1)
    check_headline(a2)
    if start == "Not shown at this size:":
        assert "percentage points" not in a1  # an undirected range stays in the details
        # what the size could detect, never a size based on a difference not shown
        assert any("or more would usually show (80% power" in a for a in b.answer)
        assert not any("would take about" in a for a in b.answer)


def test_a_flip_is_one_sentence():
    flip = ([-0.01, -0.012, 0.024], [-0.02, -0.018, 0.016], [-0.005, -0.006, 0.030], [0.01, 0.001, 1e-9])
    b = _commit_headlines(flip, flip)
    _, a2 = b.headlines[1]
    assert a2.startswith(
        "It flips against greedy players between 4 and 5 players (better below, worse above)"
    )
    check_headline(a2)


def _swap_table(diffs, sig, came, shares=(0.6, 0.02)):
    n = len(diffs)
    return pd.DataFrame(
        {
            "card_points": [1.0, 3.0] * (n // 2),
            "stock_left": ["21-40", "0-20"] * (n // 2),
            "left_lo": [21, 0] * (n // 2),
            "unknown_minus_known": diffs,
            "unknown_minus_known_lo": np.array(diffs) - 0.01,
            "unknown_minus_known_hi": np.array(diffs) + 0.01,
            "significant": sig,
            "came_up": came,
            "open_slot_share": list(shares) * (n // 2),
            "open_slot_placements": [int(1000 * x) for x in shares] * (n // 2),
            "placements_counted": [1000, 1000] * (n // 2),
        }
    )


def test_the_swap_headline_is_one_sentence_and_says_why_cells_are_empty():
    t = _swap_table([-0.05, np.nan, 0.02, np.nan], [True, False, True, False], [True, False, True, False])
    line = swap._swap_headline(t)
    assert "the unknown slot scores lower in 1 of 4 cells" in line and "0.0500 points per round" in line
    check_headline(line)
    t = _swap_table([0.001, np.nan], [False, False], [True, False])
    line = swap._swap_headline(t)
    assert line.startswith("Not settled at this size") and "1 of 2 cells never came up" in line
    check_headline(line)
    why = swap._why_empty(t, [[21, 40], [0, 20]], 20_000, 2_000)
    assert why.startswith("Why 1 of 2 cells are empty")
    assert (
        "60% with 21-40 stock cards left (600 of 1,000); 2.0% with 0-20 stock cards left (20 of 1,000)" in why
    )
    assert "played identically on every one of the 20,000 deals" in why


def test_a_break_even_off_the_grid_says_which_side():
    be = {"break_even": None, "break_even_lo": None, "break_even_hi": None, "grid": [0.5, 0.95]}
    line = reaction_vs_cards._headline({**be, "lo_open": True, "hi_open": True}, np.array([0.02, 0.05, 0.1]))
    assert "eliminated more often than an ordinary greedy seat" in line
    check_headline(line)
    line = reaction_vs_cards._headline({**be, "lo_open": True, "hi_open": True}, np.array([-0.02, -0.1]))
    assert "less often than" in line
