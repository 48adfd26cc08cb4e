"""The numbers people read: every figure with its unit and direction, rates as percentages
with the interval's digits, counts with their totals, readable speeds and p-values; the JSON
keeps fractions; a failed run never suggests repeating it."""

import json
import math
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from simulator.cli import app
from simulator.engine import formatting as F
from simulator.engine.fields import COMMON, KINDS, NOT_FIGURES, Field
from simulator.games import all_games, fields_for

runner = CliRunner()
PLUGINS = Path(__file__).resolve().parents[1] / "plugins"
PERCENT_WITH_CI = re.compile(r"\d+(\.\d+)?% \[\d+(\.\d+)?, \d+(\.\d+)?\]")


def run(*args: str):
    return runner.invoke(app, list(args))


# --- the formatter ----------------------------------------------------------------------


def test_p_values_read_as_numbers_and_never_as_zero():
    assert F.p_value(0.0) == "< 1e-16"
    assert F.p_value(3e-300) == "< 1e-16"
    assert F.p_value(0.0123) == "0.012"
    assert F.p_value(7.42e-11) == "7.4e-11"
    assert F.p_value(0.286) == "0.29"
    assert F.p_value(1.0) == "1"
    assert F.p_value(None) == "-"
    assert F.p_value(math.nan) == "-"


def test_rates_are_percentages_with_the_digits_of_their_interval():
    assert F.rate(0.48, [0.4762, 0.4838]) == "48.0% [47.6, 48.4]"
    # a wide interval: whole percent; a narrow one: more digits
    assert F.rate(0.48, [0.4365, 0.5238]) == "48% [44, 52]"
    assert F.rate(0.4812, [0.48071, 0.48169]) == "48.12% [48.07, 48.17]"
    # a half-width starting with 1-3 keeps two significant digits (23.0, not 23)
    assert F.rate(0.2447, [0.2296, 0.2604]) == "24.5% [23.0, 26.0]"
    # an upper bound near 0 is not rounded away
    assert F.rate(0.0, [0.0, 0.0013]) == "0.00% [0.00, 0.13]"
    # no interval: three significant digits; no number: n/a
    assert F.rate(0.496) == "49.6%"
    assert F.rate(math.nan, [math.nan, math.nan]) == "n/a"


def test_means_and_differences_take_their_digits_from_the_interval():
    assert F.mean(5.9151, [5.8967, 5.9334]) == "5.915 [5.897, 5.933]"
    assert F.mean(6.7372, [6.6219, 6.8525]) == "6.74 [6.62, 6.85]"
    assert F.mean(45.0644) == "45.06"
    assert F.mean(5.0, [math.nan, math.nan]) == "5.00 [n/a]"
    # differences carry their sign, and rates differ in percentage points
    assert F.diff(-0.0725, [-0.0939, -0.051]) == "-0.072 [-0.094, -0.051]"
    assert F.diff(0.0494, [-0.1184, 0.2172]) == "+0.05 [-0.12, +0.22]"
    assert F.diff(0.0074, [0.0009, 0.014], percent=True) == "+0.7 pp [+0.1, +1.4]"


def test_what_rounds_to_zero_has_no_sign():
    assert F.number(-0.0004, 2, sign=True) == "0.00"
    assert F.diff(-0.0004, [-0.1, 0.1]) == "0.00 [-0.10, +0.10]"


def test_counts_come_with_their_totals_and_speeds_as_rates():
    assert F.count(1357, 100_000, "rounds") == "1,357 of 100,000 rounds (1.36%)"
    assert F.count(0, 3000, "rounds") == "0 of 3,000 rounds (0%)"
    assert F.count(12, None, "rounds") == "12 rounds"
    assert F.speed(99421.6897, "round") == "99,422 rounds/s"
    assert F.speed(54824.2, "match") == "54,824 matches/s"
    assert F.seconds(0.0465) == "0.046 s"
    assert F.seconds(245) == "4 min 05 s"


# --- the declarations ----------------------------------------------------------------------


@pytest.mark.parametrize("unit", ["round", "match"])
@pytest.mark.parametrize("game", sorted(all_games()))
def test_every_figure_and_metric_of_every_game_is_declared(game, unit):
    """Each key of the summary (top level and per seat) and each compared metric has a
    declaration with a known kind, a unit and (for the measured figures) a caption."""
    g = all_games()[game]
    seats = 3 if g.max_seats > 2 else 2
    flag = "--rounds" if unit == "round" else "--matches"
    args = ["simulate", game, "-s", "greedy" if g.max_seats > 2 else "threshold", flag, "200"]
    if g.max_seats > 2:
        args += ["--players", str(seats)]
    r = run(*args, "--seed", "1", "--json")
    assert r.exit_code == 0, r.output
    doc = json.loads(r.stdout)
    decl = fields_for(g, unit)
    keys = {k for k in doc if k not in NOT_FIGURES and not k.endswith("_ci")}
    keys |= {k for k in doc["seats"][0] if k not in ("seat", "player", "reaction") and not k.endswith("_ci")}
    keys |= {m.name for m in g.metrics(unit)}
    missing = sorted(k for k in keys if k not in decl)
    assert not missing, f"{game} {unit}: no declaration for {missing}"
    for k in keys:
        f = decl[k]
        assert isinstance(f, Field) and f.kind in KINDS and f.unit
        if f.kind in ("rate", "mean") and k in {m.name for m in g.metrics(unit)}:
            assert f.better in ("lower", "higher"), f"{game} {unit}: metric {k} has no direction"
    for m in g.metrics(unit):  # a metric and its declaration agree on the direction
        assert (decl[m.name].better == "lower") == m.lower_is_better


def test_declarations_say_unit_and_direction_in_plain_words():
    f = fields_for("spokelse", "round")
    assert f["mean_score"].caption("round") == "points per round, lower is better"
    assert f["win_rate"].caption("round") == "share of rounds won, higher is better"
    assert fields_for("gris-nese", "match")["mean_place"].caption("match") == "place in the match, 1 is best"
    assert COMMON["games_per_s"].caption("match") == "matches per second"
    with pytest.raises(ValueError, match="kind"):
        Field("ratio", "x")


# --- what the commands print ----------------------------------------------------------------


def test_simulate_captions_every_figure_and_shows_rates_as_percentages():
    r = run("simulate", "spokelse", "-s", "threshold", "-s", "expect", "--rounds", "3000", "--seed", "1")
    assert r.exit_code == 0, r.output
    out = r.stdout
    assert "mean_score [95% CI]" in out and "points per round, lower is better" in out
    assert "share of rounds won, higher is better" in out
    assert PERCENT_WITH_CI.search(out), out
    assert not re.search(r"\b0\.\d{4} \[0\.\d", out), "a rate printed as a fraction"
    # the whole run's figures with their meaning; a count out of its total; a readable speed
    assert "share of rounds tied" in out
    assert re.search(r"capped\s+│\s+0 of 3,000 rounds \(0%\)", out), out
    assert re.search(r"3,000 rounds played in [\d.]+ (s|min).*\([\d,]+ rounds/s\)", out), out
    assert "games_per_s" not in out and "elapsed_s" not in out


def test_gris_nese_says_what_the_place_means_and_counts_replays_out_of_all_rounds():
    r = run(
        "simulate", "gris-nese", "-s", "greedy", "--players", "4", "--rounds", "2000",
        "--rule", "unclear_margin=0.05", "--seed", "1",
    )  # fmt: skip
    assert r.exit_code == 0, r.output
    assert re.search(r"replayed\s+│\s+[\d,]+ of 2,000 rounds \(\d+(\.\d+)?%\)", r.stdout), r.stdout
    m = run("simulate", "gris-nese", "-s", "greedy", "--players", "3", "--matches", "200", "--seed", "1")
    assert m.exit_code == 0, m.output
    assert "place in the match, 1 is best" in m.stdout
    assert "share of finished matches won, higher is better" in m.stdout


def test_compare_prints_p_values_below_double_precision_as_a_bound_and_signed_differences():
    r = run(
        "compare", "gris", "-s", "greedy", "-s", "random", "--players", "3", "--matches", "150", "--seed", "1"
    )
    assert r.exit_code == 0, r.output
    out = r.stdout
    assert "< 1e-16" in out
    assert "share of finished matches lost, lower is better" in out
    assert re.search(r"\+\d+(\.\d+)? pp \[\+\d+(\.\d+)?, \+\d+(\.\d+)?\]", out), out
    assert "percentage points" in out
    assert re.search(r"[\d,]+ matches played in .*matches/s", out), out


def test_sweep_captions_its_metric_and_the_differences():
    r = run("sweep", "spokelse", "-s", "threshold:k=2..5/1", "--rounds", "1500", "--seed", "2")
    assert r.exit_code == 0, r.output
    out = r.stdout
    assert "(points per round, lower is better)" in out
    assert re.search(r"[+-]\d\.\d+ \[[+-]\d\.\d+, [+-]\d\.\d+\]", out), out
    assert re.search(r"(lowest observed|best) score: threshold:k=\d", out), out


def test_json_keeps_fractions_at_full_precision():
    r = run("simulate", "spokelse", "-s", "threshold", "--rounds", "2000", "--seed", "3", "--json")
    assert r.exit_code == 0, r.output
    doc = json.loads(r.stdout)
    win = doc["seats"][0]["win_rate"]
    assert 0 < win < 1  # a fraction, not a percentage
    assert win == round(win * 2000) / 2000  # wins / rounds at full precision, not rounded for show
    assert isinstance(doc["games_per_s"], float) and "%" not in r.stdout
    assert doc["capped"] == 0 and isinstance(doc["capped"], int)


# --- the seed hint ----------------------------------------------------------------------


def test_a_drawn_seed_is_announced_after_the_numbers():
    r = run("compare", "spokelse", "-s", "threshold", "-s", "passive", "--rounds", "300")
    assert r.exit_code == 0, r.output
    assert re.search(r"^seed \d+ \(give --seed \d+ to repeat this run\)$", r.stderr, re.M), r.stderr


@pytest.mark.parametrize(
    "args",
    [
        ["simulate", "spokelse", "-s", "threshold:k=banana", "--rounds", "50"],
        ["compare", "spokelse", "-s", "threshold", "-s", "nosuch", "--rounds", "50"],
        ["sweep", "spokelse", "-s", "threshold:k=0..99", "--rounds", "50"],
        ["simulate", "spokelse", "--plugin", str(PLUGINS / "does_not_compile.py"), "-s", "test-does-not-compile",
         "--rounds", "50"],
    ],
)  # fmt: skip
def test_a_failed_run_does_not_suggest_repeating_it(args):
    r = run(*args)
    assert r.exit_code == 2, r.output
    assert "--seed" not in r.stderr and "repeat" not in r.stderr, r.stderr


@pytest.mark.slow
def test_a_run_stopped_by_an_illegal_move_does_not_suggest_repeating_it(tmp_path):
    plugin = tmp_path / "bad_moves.py"
    plugin.write_text(
        "from strategies import strategy\n\n\n"
        '@strategy(game="spokelse", name="test-numbers-bad-moves")\n'
        "def bad_moves(obs, params, rng):\n"
        '    """Answers 9, never a legal answer."""\n'
        "    return 9\n"
    )
    r = run("simulate", "spokelse", "--plugin", str(plugin), "-s", "test-numbers-bad-moves", "--rounds", "50")
    assert r.exit_code == 3, r.output
    assert "returned 9" in r.stderr
    assert "--seed" not in r.stderr, r.stderr
