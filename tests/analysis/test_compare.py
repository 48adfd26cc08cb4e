"""Duplicate-deal comparisons: the same deals reach every seating, paired intervals,
Holm, Bradley–Terry, variance reduction, per-candidate reactions and bad input."""

import numpy as np
import pytest
from numba import njit

from simulator.analysis.compare import FIELD, PairedSums, compare, make_design
from simulator.engine.rng import below_nb
from simulator.errors import InputError, SpecError
from simulator.games.spokelse.observation import PHASE, SOURCE
from simulator.games.spokelse.strategies import threshold_nb
from strategies.registry import families, strategy


def _coin_threshold(obs, params, rng):
    """A randomised strategy: whether to take the discard top, a fair coin picks the rule
    of threshold k=3 or k=5; the card is then placed as threshold k=5 places it.  Mode 1
    reads the same coin flipped: the same distribution of play from different
    realisations of the seat's random stream."""
    k = np.empty(1, np.float64)
    k[0] = 5.0
    if obs[PHASE] == SOURCE:
        c = below_nb(rng, 2)
        if params[0] == 1:
            c = 1 - c
        k[0] = 3.0 if c == 0 else 5.0
    return threshold_nb(obs, k, rng)


if "coin-threshold" not in families("spokelse"):
    strategy(game="spokelse", name="coin-threshold", params={"mode": (0, 0, 1, 1)})(njit(_coin_threshold))


def test_designs_seat_everyone_everywhere():
    d = make_design(2, 2, has_field=False)
    assert d.seatings.tolist() == [[0, 1], [1, 0]]
    d = make_design(2, 3, has_field=True)
    assert d.seatings.tolist() == [[0, FIELD], [FIELD, 0], [1, FIELD], [FIELD, 1], [2, FIELD], [FIELD, 2]]
    d = make_design(4, 2, has_field=True)
    for c in range(2):
        seats = [list(row).index(c) for row in d.seatings if c in row]
        assert sorted(seats) == [0, 1, 2, 3]  # every seat once
    d = make_design(3, 3, has_field=False)
    assert sorted(map(tuple, d.seatings.tolist())) == [(0, 1, 2), (1, 2, 0), (2, 0, 1)]


def test_the_same_deals_reach_every_seating_by_construction():
    """passive never changes its row, so its score is a function of the deal and the seat
    alone: whoever it meets, in a given seat it must score the same on every deal."""
    seen: dict[int, list[np.ndarray]] = {0: [], 1: []}

    def grab(first, design, recs):
        for row, rec in zip(design.seatings, recs):
            for seat, c in enumerate(row):
                if c == 0:  # passive
                    seen[seat].append(rec[:, seat].copy())

    compare("spokelse", ["passive", "threshold:k=4", "random", "expect"], rounds=3000, seed=9, on_block=grab)
    for seat in (0, 1):
        cols = seen[seat]
        assert len(cols) == 3  # it met each of the three others in this seat
        for col in cols[1:]:
            np.testing.assert_array_equal(col, cols[0])
        assert np.unique(cols[0]).size > 10  # and the deals do differ from game to game


def test_a_randomised_strategy_against_itself_is_paired_tightly():
    r = compare(
        "spokelse",
        ["coin-threshold:mode=0", "coin-threshold:mode=1"],
        field="threshold:k=4",
        rounds=20_000,
        seed=4,
    )
    row = r.summary["metrics"]["score"]["strategies"][1]
    lo, hi = row["diff_ci"]
    ulo, uhi = row["unpaired_diff_ci"]
    assert lo < 0 < hi  # the same strategy: no difference
    assert (hi - lo) < 0.25 * (uhi - ulo)  # the shared deals make it far narrower
    assert row["variance_reduction"] > 10


def test_paired_differences_holm_ranking_and_variance_reduction():
    r = compare("spokelse", ["threshold:k=4", "threshold:k=0", "passive", "expect"], rounds=4000, seed=1)
    s = r.summary
    rows = s["metrics"]["score"]["strategies"]
    assert s["baseline"] == "threshold:k=4" and "diff" not in rows[0]
    for row in rows[1:]:
        assert row["p_holm"] >= row["p_value"] - 1e-15
        lo, hi = row["diff_ci"]
        assert lo <= row["diff"] <= hi
        assert row["diff"] == pytest.approx(row["score"] - rows[0]["score"])
    # passive scores far worse than threshold; the paired interval shows it.
    passive = rows[2]
    assert passive["diff_ci"][0] > 5 and passive["significant"]
    assert rows[1]["variance_reduction"] > 1
    ranking = s["ranking"]
    assert ranking is not None and {r["player"] for r in ranking} == set(s["strategies"])
    assert ranking[-1]["player"] == "passive"
    assert "ranking" in r.frames and len(r.frames["score"]) == 4


def test_baseline_option_and_matches():
    r = compare("spokelse", ["threshold:k=4", "passive"], matches=300, seed=3, baseline="passive")
    rows = r.summary["metrics"]["loss"]["strategies"]
    assert r.summary["baseline"] == "passive" and "diff" in rows[0] and "diff" not in rows[1]
    assert rows[0]["diff"] < 0  # threshold loses far less often than passive


def test_wins_matrix_equals_the_direct_count():
    rng = np.random.default_rng(1)
    t = rng.integers(0, 20, size=(200, 4))
    a = np.array([2, 2, 4, 2])
    s = PairedSums(4)
    s.add(t, a, lower_is_better=True)
    direct = np.zeros((4, 4), dtype=np.int64)
    for i in range(4):
        for j in range(4):
            direct[i, j] = int(np.sum(t[:, i] * a[j] < t[:, j] * a[i]))
    np.testing.assert_array_equal(s.better, direct)


def test_reaction_profiles_follow_the_candidate():
    r = compare(
        "gris-nese",
        ["greedy", "greedy", "greedy"],
        field="greedy",
        rounds=1500,
        players=4,
        seed=6,
        reactions=[None, (0.8, 0.35), "0.4"],
    )
    s = r.summary
    assert s["strategies"] == ["greedy", "greedy @0.8s", "greedy @0.4s"]
    rows = s["metrics"]["eliminated"]["strategies"]
    # The default profile given explicitly plays the very same games: a difference of exactly 0.
    assert rows[1]["diff"] == 0 and rows[1]["diff_ci"] == [0.0, 0.0]
    # Half the reaction time: eliminated far less often, on the same deals.
    assert rows[2]["diff_ci"][1] < -0.05


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"strategies": ["threshold:k=4"], "field": "greedy"}, "is for gris"),
        ({"strategies": ["threshold:k=4", "passive"], "baseline": "expect"}, "baseline"),
        ({"strategies": ["threshold:k=4", "passive"], "reactions": [None, None]}, "no reaction model"),
        ({"strategies": ["threshold:k=4"]}, "two strategies"),
    ],
)
def test_bad_input_is_one_clear_error(kwargs, message):
    with pytest.raises((InputError, SpecError), match=message):
        compare("spokelse", rounds=10, seed=1, **kwargs)


def test_compare_command_rejects_a_field_from_another_game():
    from typer.testing import CliRunner

    from simulator.cli import app

    res = CliRunner().invoke(
        app,
        ["compare", "spokelse", "-s", "threshold:k=4", "--field", "greedy", "--rounds", "10", "--seed", "1"],
    )
    assert res.exit_code == 2
    assert [line for line in res.stderr.splitlines() if line.strip()] == [
        "error: strategy 'greedy' is for gris, gris-nese, not spokelse"
    ]
