"""Profile wording: a seat advantage with no clear sign says which way is positive, a rate
advantage names its rate in the terminal too, and a count never seen is not shown as the
empty interval ``0.0 [0.0, 0.0]``."""

import numpy as np

from simulator.analysis.profiling.core import Page
from simulator.analysis.profiling.headlines import role_lines, role_unit
from simulator.cli.profile import _irregular


def _page(value: float, lo: float, hi: float, unit: str = "points per round") -> Page:
    est = {"value": value, "ci": [lo, hi], "n": 2000}
    roles = {"unit": unit, "metric": "score", "roles": [{"role": "starting first", "advantage": est}]}
    return Page("as played", {}, 2, figures={"round": {"roles": roles}})


def test_no_clear_advantage_says_which_way_is_positive():
    (line,) = role_lines(_page(0.11, -0.16, 0.37), "Spøkelse", False)
    assert "makes no clear difference" in line.answer
    assert "positive: in favour of starting first" in line.answer


def test_a_clear_advantage_keeps_its_verb():
    (line,) = role_lines(_page(0.08, 0.07, 0.09), "Spøkelse", False)
    assert line.answer.startswith("Starting first is worth 0.08")
    assert "positive:" not in line.answer


def test_a_rate_advantage_names_the_rate():
    assert role_unit({"unit": "percentage points", "metric": "win"}) == "percentage points of the win rate"
    assert role_unit({"unit": "points per round", "metric": "score"}) == "points per round"


def test_a_count_never_seen_reads_as_none():
    item = {"kind": "mean", "total": 0, "n": 200, "value": 0.0, "ci": [0.0, 0.0]}
    assert _irregular(item, "match") == "none in 200 matches"
    assert _irregular(item, "round") == "none in 200 rounds"
    seen = {"kind": "mean", "total": 3, "n": 200, "value": 0.015, "ci": [0.0, 0.03]}
    assert "[" in _irregular(seen)


def test_the_roles_table_says_which_way_is_positive():
    from simulator.analysis.profiling.tables import _roles

    est = {"value": 14.0, "ci": [0.3, 27.7], "n": 200}
    side = {
        "roles": {
            "metric": "loss",
            "unit": "percentage points",
            "roles": [{"role": "starting", "advantage": est}],
        },
        "seats": {"seats": []},
        "irregular": {"items": []},
    }
    roles, _, _ = _roles([{"label": "as played", "round": side, "match": side}])
    assert all(r["positive"] == "favours the role" and r["metric"] == "loss" for r in roles)


def _est(v: float, lo: float, hi: float) -> dict:
    return {"value": v, "ci": [lo, hi], "n": 2000}


def test_an_unclear_skill_difference_says_where_which_rate_and_which_way():
    from simulator.analysis.profiling.headlines import skill_lines

    diff = {"metric": "eliminated", "strategy": "follow", "against": "greedy", "unit": "percentage points"}
    diff |= {"better": "lower", "difference": _est(-0.3, -0.7, 0.01)}
    line = skill_lines(_unclear_page(diff), "Gris-nese", True)[0].answer
    assert "do not differ clearly in Gris-nese (unclear_margin=0, 5 players)" in line
    assert (
        "follow − greedy -0.3 [-0.7, 0.0] percentage points of the eliminated rate (lower is better)" in line
    )


def _unclear_page(diff: dict) -> Page:
    pair = {
        "strategies": ["greedy", "follow"],
        "strategy": _est(0.0, 0.0, 0.003),
        "deal": _est(0.9, 0.88, 0.92),
    }
    shares = {"metric": "eliminated", "ladder": ["random", "greedy", "follow"]}
    shares |= {"strategy": _est(0.13, 0.11, 0.14), "deal": _est(0.01, 0.0, 0.02)}
    skill = {"differences": [diff], "shares": shares, "pairs": [pair]}
    return Page("unclear_margin=0", {}, 5, seats_vary=True, figures={"skill": skill})


def test_the_skill_share_leads_with_the_real_pair_and_says_that_it_depends_on_the_strategies():
    from simulator.analysis.profiling.headlines import skill_lines

    diff = {"metric": "eliminated", "strategy": "follow", "against": "greedy", "unit": "percentage points"}
    diff |= {"better": "lower", "difference": _est(-0.3, -0.7, 0.01)}
    line = skill_lines(_unclear_page(diff), "Gris-nese", True)[1].answer
    assert line.startswith(
        "Between greedy and follow, which of the two plays explains an amount indistinguishable from 0% "
        "(at most 0.30%) of the variance"
    ), line
    assert "the deal (its cards and every random draw of it) 90.0% [88.0%, 92.0%]" in line
    assert line.endswith(
        "The share depends on the strategies compared: across random, greedy, follow the strategy explains 13.0% [11.0%, 14.0%]."
    )
    assert "-0" not in line


def test_a_variance_share_is_never_below_0():
    from simulator.analysis.profiling.skill import variance_shares

    rng = np.random.default_rng(3)
    deals = rng.normal(size=(400, 1))
    y = deals + np.zeros((400, 2))  # the two strategies score alike on every deal: no strategy share
    y[:, 1] += rng.normal(scale=1e-3, size=400)
    shares = variance_shares(y, seed=1, boot=200)
    for part in ("strategy", "deal", "rest"):
        assert shares[part]["value"] >= 0 and shares[part]["ci"][0] >= 0, (part, shares[part])


def test_a_length_without_spread_is_not_a_range_of_one_value():
    from simulator.analysis.profiling.headlines import length_lines

    ln = {"unit": "deals", "mean": _est(3.09, 3.03, 3.15), "p10": 3, "p90": 3}
    page = Page("as played", {}, 5, figures={"round": {}, "match": {"length": ln}})
    (line,) = length_lines(page, "Gris-nese", False)
    assert line.answer.endswith("at least 80% of matches take 3.")
    assert "3 to 3" not in line.answer


def test_a_change_of_variance_share_reads_in_percentage_points():
    from simulator.cli.profile import _differences

    d = {
        "variant": "b",
        "against": "a",
        "measures": [],
        "skill_shares": {"strategy": _est(0.021, 0.015, 0.027)},
    }
    table = _differences([d])
    cells = [str(c) for col in table.columns for c in col._cells]
    assert "+2.1 [+1.5, +2.7] percentage points" in cells
