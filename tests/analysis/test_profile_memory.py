"""The profile's memory-and-care section: its specs, its slip arithmetic and its wording."""

from __future__ import annotations

import numpy as np
import pytest

from simulator.analysis.profiling.memory import FORGET_GRID, SLIP, human_specs, ratio_of
from simulator.engine.stats import z_value
from simulator.games import get_game


def test_the_specs_are_the_best_strategy_plain_then_forgetting_then_slipping():
    g = get_game("spokelse")
    plain, forgetting, slipping = human_specs(g, "expect")
    assert forgetting[0] == plain and "forget" not in plain and "slip" not in plain
    assert [s.rsplit("forget=", 1)[-1] for s in forgetting[1:]] == [f"{f:g}" for f in FORGET_GRID[1:]]
    assert slipping == f"{plain},slip={SLIP:g}"


def test_a_preset_is_measured_as_the_spec_it_stands_for():
    g = get_game("gris-nese")
    plain, forgetting, _ = human_specs(g, g.best_strategy)
    assert forgetting[3].startswith(plain + ",") or forgetting[3].startswith(plain + ":")


def test_the_ratio_of_proportional_columns_is_exact():
    b = np.array([10.0, 20.0, 30.0, 40.0])
    est = ratio_of(0.25 * b, b)
    assert est["value"] == pytest.approx(0.25)
    assert est["ci"][0] == pytest.approx(0.25) and est["ci"][1] == pytest.approx(0.25)


def test_the_ratio_interval_covers_the_true_ratio_about_95_percent_of_the_time():
    rng = np.random.default_rng(20261202)
    covered = 0
    for _ in range(400):
        d = rng.poisson(30, size=500).astype(float)  # decisions per round
        cost = 0.1 * d * 0.4 + rng.normal(0, 2.0, size=500)  # true cost per slip 0.4 at slip 0.1
        est = ratio_of(cost, 0.1 * d)
        covered += est["ci"][0] <= 0.4 <= est["ci"][1]
    # 400 trials at 95%: the count lies in [366, 394] with probability above 0.999
    assert 366 <= covered <= 394


def test_the_ratio_needs_two_games_and_some_decisions():
    assert np.isnan(ratio_of(np.array([1.0]), np.array([1.0]))["value"])
    assert np.isnan(ratio_of(np.zeros(5), np.zeros(5))["value"])


def test_the_ratio_interval_is_the_delta_methods():
    a, b = np.array([1.0, 3.0, 2.0, 6.0]), np.array([2.0, 2.0, 4.0, 4.0])
    r = a.mean() / b.mean()
    half = z_value() * (a - r * b).std(ddof=1) / (2.0 * b.mean())
    est = ratio_of(a, b)
    assert est["value"] == pytest.approx(r)
    assert est["ci"] == pytest.approx([r - half, r + half])


@pytest.mark.parametrize(
    "game, cols, n, per_seat",
    [
        ("spokelse", {"turns": np.array([0, 1, 2, 43])}, 2, [[0, 2, 2, 44], [0, 0, 2, 42]]),
        ("gris", {"passes": np.array([0, 1, 4, 5, 9])}, 4, [[0, 1, 1, 2, 3], [0, 0, 1, 1, 2],
                                                          [0, 0, 1, 1, 2], [0, 0, 1, 1, 2]]),
        ("gris-nese", {"passes": np.array([0, 3, 7])}, 5, [[0, 3, 7]] * 5),
    ],
)  # fmt: skip
def test_each_game_counts_a_seats_decisions_per_round(game, cols, n, per_seat):
    g = get_game(game)
    got = [g.decisions_per_round(cols, s, n).tolist() for s in range(n)]
    assert got == [[float(x) for x in row] for row in per_seat]


def test_a_spokelse_profile_says_what_forgetting_and_a_slip_cost():
    import simulator

    p = simulator.profile("spokelse", ["threshold"], rounds=2000, matches=20, seed=3)
    mem = p.summary["pages"][0]["memory"]
    assert mem["strategy"] == "expect" and mem["better"] == "lower" and mem["unit"] == "points per round"
    costs = [r["cost"] for r in mem["forget"]]
    assert costs[0]["value"] == 0 and costs[0]["ci"] == [0.0, 0.0]  # the plain strategy against itself
    assert all(c["ci"][0] > 0 for c in costs[3:])  # forget 0.1 and more: clearly worse
    assert costs[-1]["value"] > costs[3]["value"]  # forgetting everything costs more than one in ten
    assert mem["slip"]["cost_per_slip"]["ci"][0] > 0
    assert 40 < mem["slip"]["decisions"]["value"] < 46  # two decisions a turn, about 21.4 turns a seat
    said = [h.answer for h in p.headlines if "Forgetting one card in ten" in h.answer]
    assert said and said[0].startswith("Forgetting one card in ten each turn costs ")
    assert set(p.frames["memory"]["measure"]) == {
        "cost of forgetting",
        "cost of slipping, per round",
        "cost of one slip",
    }
