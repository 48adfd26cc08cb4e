"""``simulator.profile`` and ``kortsim profile``: the seat advantage agrees with simulate,
the skill share is 0 for random against random and rises with stronger strategies, each
Gris game profiles at 3 and 6 players, variants are compared on the same deals, and bad
input is one line with exit code 2."""

import json

import numpy as np
import pytest
from typer.testing import CliRunner

import simulator
from simulator.analysis.profiling import skill
from simulator.analysis.profiling.matches import behind_won, lead_changes
from simulator.analysis.profiling.measures import Records
from simulator.cli import app
from simulator.games import get_game
from simulator.games.base import Standings

SEED = 11


@pytest.fixture(scope="module")
def spokelse_profile():
    return simulator.profile("spokelse", ["threshold"], rounds=4000, matches=200, seed=SEED)


def test_the_first_player_advantage_is_what_simulate_shows(spokelse_profile):
    result = simulator.simulate("spokelse", ["threshold"], rounds=4000, seed=SEED)
    page = spokelse_profile.summary["pages"][0]
    (role,) = page["round"]["roles"]["roles"]
    assert role["role"] == "starting first" and page["round"]["roles"]["unit"] == "points per round"
    adv = role["advantage"]
    # Seat 0 starts; the advantage is the dealer's score minus the starter's (lower is better).
    diff, (lo, hi) = result.summary["mean_score_diff"], result.summary["mean_score_diff_ci"]
    assert adv["value"] == pytest.approx(-diff, abs=1e-12)
    assert adv["ci"] == pytest.approx([-hi, -lo], rel=1e-9)
    assert adv["n"] == 4000


def test_the_match_advantage_of_starting_is_what_simulate_shows(spokelse_profile):
    result = simulator.simulate("spokelse", ["threshold"], matches=200, seed=SEED)
    (role,) = spokelse_profile.summary["pages"][0]["match"]["roles"]["roles"]
    # The starter of round 1 is the seat that did not deal it: it loses when the dealer does not.
    dealer_loses, draws = result.summary["first_dealer_loss_rate"], result.summary["draw_rate"]
    starter_loses = 1 - dealer_loses - draws
    assert role["advantage"]["value"] == pytest.approx(100 * (dealer_loses - starter_loses), abs=1e-9)


def test_lead_changes_and_comebacks_are_counted_from_the_standings():
    # Three rounds, two seats: seat 0 leads, then seat 1, then a tie, then seat 1 again.
    st = Standings(np.array([[-3.0, -5.0], [-9.0, -6.0], [-10.0, -10.0], [-12.0, -11.0]]), (1,), 1.0)
    assert lead_changes(st.after_round) == 1  # the tie between does not count as a change
    assert behind_won(st) == 1.0  # seat 1 was behind after round 1 and won
    level = Standings(np.array([[0.0, 0.0, -1.0], [-1.0, 0.0, -1.0]]), (0, 1), 3.0)
    assert behind_won(level) == 0.0  # seat 2 was behind and did not win
    assert lead_changes(level.after_round) == 0  # nobody led alone until the last round


def _ladder(game: str, ladder: tuple[str, ...], field: str, rounds: int, n_seats: int = 2):
    g = get_game(game)

    def play(specs):
        res = simulator.simulate(g, list(specs), rounds=rounds, seed=SEED, players=n_seats, records=True)
        return Records.of(g, "round", n_seats, res.records())

    y, counted = skill.ladder_table(play, ladder, field, n_seats)
    return y[g.metrics("round")[0].name][counted]


def test_the_skill_share_is_zero_for_random_against_random():
    y = _ladder("spokelse", ("random", "random"), "threshold", 3000)
    shares = skill.variance_shares(y, seed=1)
    lo, hi = shares["strategy"]["ci"]
    assert lo <= 0.0 <= hi and shares["strategy"]["value"] == pytest.approx(0.0, abs=1e-12)
    assert shares["deal"]["value"] > 0.5  # the same deals: the deal explains the rest


def test_the_estimator_finds_no_skill_between_two_independent_random_samples():
    """Not a trivial zero: two columns drawn independently from one distribution (as two
    equally good strategies with their own luck) give a share whose interval holds 0."""
    rng = np.random.default_rng(3)
    deal = rng.normal(0, 1, 4000)[:, None]
    y = deal + rng.normal(0, 2, (4000, 2))
    shares = skill.variance_shares(y, seed=2)
    lo, hi = shares["strategy"]["ci"]
    assert lo <= 0.0 <= hi and abs(shares["strategy"]["value"]) < 0.005
    assert shares["deal"]["value"] == pytest.approx(1 / 5, abs=0.04)  # a cell: variance 1 (deal) + 4


def test_the_skill_share_rises_with_stronger_strategies():
    # Against random, in rising strength (mean scores against threshold: about 27.5, 14.3, 6.7).
    ladder = ("random", "threshold:k=0", "threshold")
    y = _ladder("spokelse", ladder, "threshold", 3000)
    weak, strong = (skill.variance_shares(y[:, [0, k]], seed=1)["strategy"] for k in (1, 2))
    assert weak["ci"][0] > 0  # a clearly better strategy explains part of the variance
    assert strong["ci"][0] > weak["ci"][1]  # a stronger one explains more: the intervals do not overlap
    whole = skill.variance_shares(y, seed=1)["strategy"]
    assert whole["ci"][0] > 0


def test_the_ladder_and_its_pairs_are_reported(spokelse_profile):
    sk = spokelse_profile.summary["pages"][0]["skill"]
    assert sk["ladder"] == ["random", "threshold", "expect"]
    assert [p["strategies"] for p in sk["pairs"]] == [
        ["random", "threshold"],
        ["random", "expect"],
        ["threshold", "expect"],
    ]
    against = {(d["metric"], d["against"]) for d in sk["differences"]}
    assert ("score", "random") in against and ("score", "threshold") in against
    best = next(d for d in sk["differences"] if d["metric"] == "score" and d["against"] == "random")
    assert best["difference"]["ci"][1] < 0  # expect scores far fewer points than random


def test_length_matches_and_irregular_rounds_have_intervals(spokelse_profile):
    page = spokelse_profile.summary["pages"][0]
    ln = page["round"]["length"]
    assert ln["unit"] == "turns" and ln["mean"]["ci"][0] <= ln["mean"]["value"] <= ln["mean"]["ci"][1]
    assert sum(ln["histogram"]["games"]) == 4000
    assert page["match"]["length"]["mean"]["n"] == 200
    m = page["matches"]
    assert m["matches"] == 200
    for key in ("lead_changes", "any_lead_change", "behind_after_first_round_wins"):
        lo, hi = m[key]["ci"]
        assert lo <= m[key]["value"] <= hi
    (capped,) = page["round"]["irregular"]["items"]
    assert capped["column"] == "capped" and capped["kind"] == "rate"


@pytest.mark.parametrize("game", ["gris", "gris-nese"])
def test_each_gris_game_profiles_at_3_and_6_players(game):
    p = simulator.profile(game, players="3,6", rounds=400, matches=40, seed=5)
    pages = p.summary["pages"]
    assert [pg["players"] for pg in pages] == [3, 6]
    for pg in pages:
        roles = pg["round"]["roles"]["roles"]
        assert roles and all(np.isfinite(r["advantage"]["ci"]).all() for r in roles)
        assert pg["skill"]["shares"]["strategy"]["n"] > 0
        assert {i["column"] for i in pg["round"]["irregular"]["items"]} >= {"stalled"}
    assert p.headlines


def test_a_compared_rule_is_paired_on_the_same_deals():
    p = simulator.profile("spokelse", compare_rule="jack=0.5,11", rounds=2000, matches=30, seed=SEED)
    assert [pg["label"] for pg in p.summary["pages"]] == ["jack=0.5", "jack=11"]
    (d,) = p.summary["differences"]
    keys = {r["key"] for r in d["measures"]}
    assert {"round:length", "round:role0", "match:length", "dyn:margin"} <= keys
    # Paired: the difference is the mean of the per-game differences of the two pages.
    a, b = (pg.per_game["round:role0"] for pg in p.pages)
    row = next(r for r in d["measures"] if r["key"] == "round:role0")
    assert row["difference"]["value"] == pytest.approx(float(np.mean(b - a)))
    assert set(d["skill_shares"]) == {"strategy", "deal", "rest"}


def _cli(*args):
    return CliRunner().invoke(app, ["profile", *args])


@pytest.mark.parametrize(
    "args",
    [
        ["gris", "--players", "1..3"],
        ["gris", "--players", "8..3"],
        ["spokelse", "--compare-rule", "jack=11"],
        ["spokelse", "--compare-rule", "colour=1,2"],
        ["spokelse", "--compare-rule", "jack=0.5,"],
        ["spokelse", "--compare-rule", "jack=0.5,,11"],
        ["spokelse", "--rule", "jack=12"],
        ["spokelse", "--rounds", "1"],
        ["spokelse", "--rounds", str(10**30)],
        ["spokelse", "--matches", "2000001"],
        ["spokelse", "--players", "3"],
        ["spokelse", "-s", "nonsense"],
    ],
)
def test_bad_input_is_one_line_and_exit_code_2(args):
    r = _cli(*args)
    assert r.exit_code == 2, r.output
    lines = [ln for ln in r.output.splitlines() if ln.strip()]
    assert len(lines) == 1 and lines[0].startswith("error:"), r.output
    assert "Traceback" not in r.output


def test_json_and_out(tmp_path):
    out = tmp_path / "prof"
    r = _cli("spokelse", "--rounds", "2000", "--matches", "20", "--seed", "3", "--json", "--out", str(out))
    assert r.exit_code == 0, r.output
    doc = json.loads(r.stdout)
    assert doc["game"] == "spokelse" and doc["seed"] == 3 and doc["headlines"]
    assert (out / "report.html").is_file() and (out / "summary.parquet").is_file()
    assert (out / "tables" / "skill_shares.parquet").is_file()
    assert sorted(p.suffix for p in (out / "figures").iterdir()).count(".png") >= 5
