"""Counts with their totals, the stalled/replayed/abandoned/capped rates of every game with
intervals, captions that explain values the rules fix, singular and plural, the reaction
profile in words, and a README JSON table that lists exactly what ``--json`` prints."""

import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from simulator import simulate
from simulator.cli import app
from simulator.engine import formatting as F
from simulator.engine.fields import COMMON
from simulator.games import fields_for

runner = CliRunner()
README = Path(__file__).resolve().parents[2] / "README.md"

# One small run per game and unit (the last two: the tables of the review's own commands).
RUNS = {
    ("spokelse", "round"): ["-s", "threshold", "-s", "expect", "--rounds", "600"],
    ("spokelse", "match"): ["-s", "threshold", "-s", "expect", "--matches", "200"],
    ("gris", "round"): ["-s", "greedy", "--players", "4", "--rounds", "2000"],
    ("gris", "match"): ["-s", "greedy", "--players", "4", "--matches", "300"],
    ("gris-nese", "round"): ["-s", "greedy", "--players", "4", "--rounds", "600", "--rule", "unclear_margin=0.05"],
    ("gris-nese", "match"): [
        "--players", "5", "-s", "follow", "-s", "greedy", "-s", "greedy", "-s", "greedy", "-s", "greedy",
        "--matches", "300", "--rule", "unclear_margin=0.05",
    ],
}  # fmt: skip
GAME_NAMES = {"Spøkelse": "spokelse", "Gris": "gris", "Gris-nese": "gris-nese"}

# The rates each game/unit now has, with the count and the total each is out of.
RATES = {
    ("spokelse", "round"): {"capped_rate": ("capped", "n")},
    ("spokelse", "match"): {"capped_rate": ("capped", "rounds_played")},
    ("gris", "round"): {"stalled_rate": ("stalled", "n")},
    ("gris", "match"): {"stalled_rate": ("stalled", "rounds_played"), "abandoned_rate": ("abandoned", "n")},
    ("gris-nese", "round"): {"stalled_rate": ("stalled", "n"), "replayed_rate": ("replayed", "n")},
    ("gris-nese", "match"): {
        "stalled_rate": ("stalled", "rounds_played"),
        "replayed_rate": ("replayed", "rounds_played"),
        "abandoned_rate": ("abandoned", "n"),
    },
}


def run(*args: str):
    return runner.invoke(app, list(args))


@pytest.fixture(scope="module")
def outputs():
    """``(json document, printed tables)`` of every run in RUNS, same seed."""
    got = {}
    for (game, _unit), args in RUNS.items():
        j = run("simulate", game, *args, "--seed", "3", "--json")
        assert j.exit_code == 0, j.output
        t = run("simulate", game, *args, "--seed", "3")
        assert t.exit_code == 0, t.output
        got[(game, _unit)] = (json.loads(j.stdout), t.stdout)
    return got


def whole_run_row(out: str, key: str) -> str:
    """The value and meaning cells of ``key``'s row in the whole-run table, the lines a
    wrapped cell continues on joined (``"0 of 1,500 rounds (0%) | replayed rounds ..."``)."""
    rows: dict[str, list[list[str]]] = {}
    last = None
    for line in out.splitlines():
        if not line.startswith("│"):
            last = None
            continue
        cells = [c.strip() for c in line.strip("│").split("│")]
        if cells[0]:
            last = cells[0]
            rows[last] = [[c] for c in cells[1:]]
        elif last is not None:
            for part, c in zip(rows[last], cells[1:], strict=False):
                part.append(c)
    assert key in rows, f"no row {key!r} in:\n{out}"
    return " | ".join(" ".join(p for p in parts if p) for parts in rows[key])


# --- counts with their totals ------------------------------------------------------------


@pytest.mark.parametrize("key", sorted(RUNS), ids=lambda k: "-".join(k))
def test_every_count_prints_out_of_its_total(outputs, key):
    game, unit = key
    doc, out = outputs[key]
    decl = fields_for(game, unit)
    counts = [k for k in doc if k in decl and decl[k].kind == "count"]
    totals = {decl[k].of for k in decl if decl[k].of}
    assert counts
    for k in counts:
        f = decl[k]
        if f.of is None:  # a count with no total is itself the total of others
            assert k in totals, f"{game} {unit}: count {k} has no total"
            continue
        total = doc[f.of]
        row = whole_run_row(out, k)
        shown = F.count(doc[k], total, f.unit_text(unit))
        assert re.search(r"[\d,]+ of [\d,]+ (rounds?|matches|match) \(\d", shown), shown
        assert shown in row, f"{game} {unit}: {k} printed as {row!r}, not {shown!r}"


def test_the_reviews_match_tables_count_stalled_and_replayed_rounds_out_of_those_played(outputs):
    doc, out = outputs[("gris-nese", "match")]
    played = doc["rounds_played"]
    # every deal of a finished match: counted rounds (always players - 2) plus the re-deals
    finished = doc["n"] - doc["abandoned"]
    assert played == round(doc["mean_rounds"] * finished) + doc["stalled"] + doc["replayed"]
    assert doc["replayed"] > 0  # unclear_margin=0.05 replays some rounds
    assert f"of {played:,} rounds (" in whole_run_row(out, "replayed")
    assert f"of {played:,} rounds (" in whole_run_row(out, "stalled")
    gdoc, gout = outputs[("gris", "match")]
    gfinished = gdoc["n"] - gdoc["abandoned"]
    assert gdoc["rounds_played"] == round(gdoc["mean_rounds"] * gfinished) + gdoc["stalled"]
    assert re.search(rf"0 of {gdoc['rounds_played']:,} rounds \(0%\)", whole_run_row(gout, "stalled"))


# --- the rates, even across games ------------------------------------------------------------


@pytest.mark.parametrize("key", sorted(RATES), ids=lambda k: "-".join(k))
def test_stalled_replayed_abandoned_and_capped_rates_have_intervals(outputs, key):
    doc, out = outputs[key]
    for rate, (count, total) in RATES[key].items():
        assert rate in doc and f"{rate}_ci" in doc, f"{key}: no {rate}"
        lo, hi = doc[f"{rate}_ci"]
        assert doc[rate] == pytest.approx(doc[count] / doc[total])
        assert 0 <= lo <= doc[rate] <= hi <= 1 and hi > lo
        assert re.search(r"\d+(\.\d+)?% \[\d+(\.\d+)?, \d+(\.\d+)?\]", whole_run_row(out, rate))
    # a figure declared for every rate
    decl = fields_for(*key)
    assert all(decl[r].kind == "rate" for r in RATES[key])


def test_spokelse_first_dealer_rate_has_its_interval(outputs):
    doc, _ = outputs[("spokelse", "match")]
    for seat in doc["seats"]:
        lo, hi = seat["first_dealer_rate_ci"]
        assert lo < seat["first_dealer_rate"] < hi
    assert sum(s["first_dealer_rate"] for s in doc["seats"]) == pytest.approx(1.0)


def test_mean_turns_says_plainly_that_it_has_no_interval(outputs):
    """The kernel sums the turns but not their squares (rules.R_TURNS only), so no interval
    can be computed without changing the jitted code; the tables and README say so."""
    from simulator.games.spokelse import rules as R

    assert not any(name.startswith("R_TURNS") and name != "R_TURNS" for name in dir(R))
    doc, out = outputs[("spokelse", "round")]
    assert "mean_turns" in doc and "mean_turns_ci" not in doc
    assert "no interval" in whole_run_row(out, "mean_turns")
    section = README.read_text(encoding="utf-8").split("## JSON fields", 1)[1]
    assert re.search(r"`mean_turns`.*\*\*no interval\*\*", section)


# --- captions for what the rules fix -------------------------------------------------------------


def test_gris_six_card_seat_is_never_dealt_complete_and_the_caption_says_so(outputs):
    doc, out = outputs[("gris", "round")]
    rates = [s["dealt_complete_rate"] for s in doc["seats"]]
    assert rates[0] == 0 and sum(rates[1:]) > 0  # seat 0 holds six cards in round play
    caption = next(line for line in out.splitlines() if line.startswith("dealt_complete_rate:"))
    assert "always 0 for seat 0" in caption and "six cards" in caption and "not applicable" in caption


def test_gris_nese_win_rates_sum_to_200_percent_and_the_caption_says_so(outputs):
    doc, out = outputs[("gris-nese", "match")]
    assert sum(s["win_rate"] for s in doc["seats"]) == pytest.approx(2.0)
    caption = next(line for line in out.splitlines() if line.startswith("win_rate:"))
    assert "two players win each match" in caption and "200%" in caption


def test_a_zero_width_interval_is_explained(outputs):
    doc, out = outputs[("gris-nese", "match")]
    assert doc["mean_rounds"] == 3 and doc["mean_rounds_ci"] == [3, 3]  # 5 players: always n - 2
    row = whole_run_row(out, "mean_rounds")
    assert "3.00 [3.00, 3.00] (the same in every match)" in row
    assert "always players − 2: every counted round removes one player" in row
    # generic: any mean whose interval has no width says so; one with width does not
    f = fields_for("spokelse", "match")["mean_rounds"]
    assert F.figure(f, 4.0, [4.0, 4.0], "match", {}) == "4.00 [4.00, 4.00] (the same in every match)"
    assert F.figure(f, 4.0, [3.9, 4.1], "match", {}) == "4.00 [3.90, 4.10]"


# --- singular and plural --------------------------------------------------------------------------


def test_plural_agrees_with_the_number():
    assert F.plural(1, "round") == "1 round"
    assert F.plural(2000, "round") == "2,000 rounds"
    assert F.plural(0, "match") == "0 matches"
    assert F.plural(1, "matches") == "1 match"
    assert F.noun(1, "stalled rounds") == "stalled round"
    assert F.count(0, 1, "rounds") == "0 of 1 round (0%)"
    assert F.count(1, None, "matches") == "1 match"
    assert F.count(3, 1000, "rounds") == "3 of 1,000 rounds (0.3%)"


def test_one_round_reads_in_the_singular_in_python_and_in_the_cli():
    r = simulate("spokelse", ["threshold", "expect"], rounds=1, seed=1)
    assert repr(r).splitlines()[0] == "<kortsim Result> spokelse: 1 round, seed 1"
    assert "1 rounds" not in repr(r) and "1 rounds" not in r._repr_html_()
    assert "spokelse: 1 round, seed 1." in r._repr_html_()
    c = run("simulate", "spokelse", "-s", "threshold", "-s", "expect", "--rounds", "1", "--seed", "1")
    assert c.exit_code == 0, c.output
    assert "0 of 1 round (0%)" in whole_run_row(c.stdout, "capped")
    assert " 1 rounds" not in c.stdout


# --- the reaction profile ---------------------------------------------------------------------


def test_the_reaction_profile_reads_in_words():
    profile = {"median_s": 0.8, "sigma": 0.35}
    assert F.reaction(profile) == "0.80 s median, σ 0.35"
    assert F.figure(COMMON["reaction"], profile, None, "round", {}) == "0.80 s median, σ 0.35"
    assert F.reaction({"median_s": 1.25, "sigma": 0.1}) == "1.25 s median, σ 0.10"


# --- the README's table lists exactly what --json prints ----------------------------------------


def readme_table() -> dict[tuple[str, str, str], set[str]]:
    """``(game, unit, level) -> documented field names`` from the README's JSON table
    (level ``top`` or ``seat``)."""
    section = README.read_text(encoding="utf-8").split("## JSON fields", 1)[1].split("\n## ", 1)[0]
    rows = [line for line in section.splitlines() if line.startswith("| `")]
    assert rows, "no JSON table in the README"
    table: dict[tuple[str, str, str], set[str]] = {}
    for line in rows:
        cells = [c.strip() for c in line.strip("|").split("|")]
        names = re.findall(r"`([a-z_0-9]+)`", cells[0])
        where = cells[1]
        level = "seat" if "per seat" in where else "top"
        place = where.replace(", per seat", "").replace("per seat", "").strip()
        if place == "all":
            games, units = list(GAME_NAMES.values()), ["round", "match"]
        elif place == "Gris games":
            games, units = ["gris", "gris-nese"], ["round", "match"]
        else:
            title, kind = place.rsplit(" ", 1)
            games, units = [GAME_NAMES[title]], [{"rounds": "round", "matches": "match"}[kind]]
        for g in games:
            for u in units:
                table.setdefault((g, u, level), set()).update(names)
    return table


def printed_keys(doc: dict, level: str) -> set[str]:
    d = doc if level == "top" else doc["seats"][0]
    keys = set(d)
    for k in list(keys):
        if k.endswith("_ci"):
            assert k[:-3] in keys, f"{k} without {k[:-3]}"
            keys.discard(k)  # documented by the rule "every rate and mean x has x_ci"
    return keys


@pytest.mark.parametrize("key", sorted(RUNS), ids=lambda k: "-".join(k))
def test_readme_json_table_lists_exactly_what_json_prints(outputs, key):
    doc, _ = outputs[key]
    table = readme_table()
    for level in ("top", "seat"):
        printed = printed_keys(doc, level)
        documented = table.get((*key, level), set())
        assert printed - documented == set(), f"{key} {level}: printed, not in README"
        assert documented - printed == set(), f"{key} {level}: in README, not printed"
    # every rate and mean printed has its interval, but mean_turns (the README says why)
    for d in (doc, *doc["seats"]):
        for k in d:
            if (k.endswith("_rate") or k.startswith("mean_")) and not k.endswith("_ci"):
                assert f"{k}_ci" in d or k == "mean_turns", f"{key}: {k} has no interval"
