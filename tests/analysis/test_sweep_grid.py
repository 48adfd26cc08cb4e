"""Sweeps play each distinct point once: values that play identically share one result."""

import json

import numpy as np
import pytest
from typer.testing import CliRunner

from simulator.analysis.compare import compare
from simulator.analysis.sweep import parse_sweep, sweep
from simulator.cli import app
from simulator.games.spokelse.variants import Rules
from strategies.registry import families

runner = CliRunner()

# Per point: everything that comes from playing it (p-values are Holm-corrected over the
# points played, so they depend on how many there are, not on the point itself).
PLAYED_COLUMNS = ["score", "score_lo", "score_hi", "score_diff", "score_diff_lo", "score_diff_hi"]
ALL_K = [i / 2 for i in range(27)]  # threshold:k=0..13 on its grid of ½


def _by_player(summary: dict, metric: str) -> dict[str, dict]:
    return {r["player"]: r for r in summary["metrics"][metric]["strategies"]}


def test_threshold_k_declares_that_it_plays_as_the_card_value_below_it():
    k = families("spokelse")["threshold"].params[0]
    half = Rules()
    assert [k.representative(v, half) for v in (0, 0.5, 1, 1.5, 4, 4.5, 7.5, 8, 8.5, 11, 13)] == [
        0,
        0.5,
        1,
        1,
        4,
        4,
        7,
        7,
        7,
        10,
        13,
    ]
    # With the jack at 11 there is no card worth ½, and one worth 11.
    eleven = Rules(jack=11)
    assert [k.representative(v, eleven) for v in (0.5, 1, 8, 11, 11.5)] == [0, 1, 7, 11, 11]
    # 13 distinct thresholds among the 27 values of 0..13 in either rule.
    for rules in (half, eleven):
        assert len({k.representative(v, rules) for v in ALL_K}) == 13
    # A parameter that declares nothing plays as itself.
    patience = families("spokelse")["expect"].params[1]
    assert patience.effective is None and patience.representative(1.25) == 1.25


@pytest.mark.parametrize(
    ("jack", "unit"), [(0.5, {"rounds": 1500}), (11, {"rounds": 1500}), (0.5, {"matches": 150})]
)
def test_values_with_one_representative_really_play_identically(jack, unit):
    """Every k of 0..13 played side by side on the same seed: each k's figures equal, to
    the last bit, those of the value it is declared to play as."""
    rules = Rules(jack=jack)
    k = families("spokelse")["threshold"].params[0]
    specs = [f"threshold:k={v:g}" for v in ALL_K]
    res = compare(
        "spokelse",
        specs,
        field="threshold:k=4",
        baseline="threshold:k=4",
        seed=11,
        rules={"jack": jack},
        **unit,
    )
    metric = next(iter(res.summary["metrics"]))
    rows = _by_player(res.summary, metric)
    distinct = set()
    for v, spec in zip(ALL_K, specs):
        rep = f"threshold:k={k.representative(v, rules):g}"
        mine, theirs = rows[spec], rows[rep]
        assert mine[metric] == theirs[metric], (spec, rep)
        assert mine[f"{metric}_ci"] == theirs[f"{metric}_ci"], (spec, rep)
        if "diff" in mine and "diff" in theirs:
            assert mine["diff"] == theirs["diff"] and mine["diff_ci"] == theirs["diff_ci"], (spec, rep)
        distinct.add(mine[metric])
    # The representatives themselves do play differently (the grid is not too coarse).
    reps = {f"threshold:k={k.representative(v, rules):g}" for v in ALL_K}
    assert len({rows[s][metric] for s in reps}) >= 10


def test_expect_k_and_pile_share_results_as_declared():
    fam = families("spokelse")["expect"]
    k, pile = fam.params[0], fam.params[2]
    pairs = [
        ("expect:k=1.5", "expect:k=1"),
        ("expect:k=8", "expect:k=7"),
        ("expect:pile=1.5", "expect:pile=1"),
    ]
    assert k.representative(1.5) == 1 and k.representative(8) == 7 and pile.representative(1.5) == 1
    specs = list(dict.fromkeys(s for pair in pairs for s in pair))
    res = compare("spokelse", specs, field="threshold:k=4", rounds=1200, seed=4)
    rows = _by_player(res.summary, "score")
    canon = {s: fam.player(**_values(s)).spec for s in specs}
    for a, b in pairs:
        assert rows[canon[a]]["score"] == rows[canon[b]]["score"]
        assert rows[canon[a]]["score_ci"] == rows[canon[b]]["score_ci"]


def _values(spec: str) -> dict[str, float]:
    body = spec.partition(":")[2]
    return {kv.split("=")[0]: float(kv.split("=")[1]) for kv in body.split(",") if kv}


def test_sweep_of_0_to_13_plays_only_the_distinct_values():
    r = sweep("spokelse", "threshold:k=0..13", vs="threshold:k=4", rounds=1500, seed=3)
    t = r.table
    assert list(t["k"]) == ALL_K  # every requested point is reported
    assert r.summary["points_requested"] == 27 and r.summary["points_played"] == 13
    assert len(r.comparison.summary["metrics"]["score"]["strategies"]) == 13
    assert int((~t["shared"]).sum()) == 13
    shared = {row["player"]: row["plays_as"] for row in t.to_dict("records") if row["shared"]}
    assert shared["threshold:k=1.5"] == "threshold:k=1"
    assert shared["threshold:k=8"] == "threshold:k=7" and shared["threshold:k=11.5"] == "threshold:k=10"
    assert "threshold:k=0.5" not in shared  # the jack is worth ½
    by_player = t.set_index("player")
    for point, played in shared.items():
        assert list(by_player.loc[point, PLAYED_COLUMNS]) == list(by_player.loc[played, PLAYED_COLUMNS])
    note = r.shared_note()
    assert note.startswith("13 of 27 points played") and "k=1.5 plays as k=1;" in note
    # The same seed without the grouping: every point played, and each of them equals the
    # row the grouped sweep reports for it, exactly.
    full = compare(
        "spokelse",
        [f"threshold:k={v:g}" for v in ALL_K],
        field="threshold:k=4",
        baseline="threshold:k=4",
        rounds=1500,
        seed=3,
    )
    rows = _by_player(full.summary, "score")
    for row in t.to_dict("records"):
        own = rows[row["player"]]
        assert row["score"] == own["score"] and [row["score_lo"], row["score_hi"]] == own["score_ci"]
        if "diff" in own:
            assert row["score_diff"] == own["diff"]
            assert [row["score_diff_lo"], row["score_diff_hi"]] == own["diff_ci"]
    # The best point is a played one.
    assert not bool(r.best()["shared"])
    # The figure zooms to the informative range: k=0 (about 14.5 points) is a note at the
    # edge, not the scale; shared points are drawn hollow.
    top = r.plot().axes[0]
    assert top.get_ylim()[1] < 8 and any("k=0: 14" in t.get_text() for t in top.texts)
    assert any(ln.get_markerfacecolor() == "white" for ln in top.get_lines())


def test_sweep_groups_under_the_rules_in_force():
    r = sweep("spokelse", "threshold:k=0|0.5|1", vs="threshold:k=4", rounds=300, seed=1, rules={"jack": 11})
    assert list(r.table["plays_as"]) == ["threshold:k=0", "threshold:k=0", "threshold:k=1"]
    r = sweep("spokelse", "threshold:k=0|0.5|1", vs="threshold:k=4", rounds=300, seed=1)
    assert not r.table["shared"].any() and r.shared_note() is None


def test_a_group_is_played_by_its_representative_or_else_its_first_point():
    sw = parse_sweep("threshold:k=1.5|8|8.5|1", "spokelse")
    points = sw.points()
    idx = sw.plays_as(points, Rules())
    # k=1 is requested, so it plays for 1.5; 7 is not, so 8 (the first) plays for 8.5.
    assert [points[i]["k"] for i in idx] == [1, 8, 8, 1]


def test_a_shared_baseline_is_replaced_by_the_point_played_for_it():
    r = sweep(
        "spokelse", "threshold:k=4..5", vs="threshold:k=4", baseline="threshold:k=4.5", rounds=300, seed=2
    )
    assert r.baseline == "threshold:k=4"
    row = r.table.set_index("player").loc["threshold:k=4.5"]
    assert row["score_diff"] == 0 and bool(row["shared"])


def test_sweep_command_marks_shared_points_and_json_lists_them():
    args = [
        "sweep",
        "spokelse",
        "-s",
        "threshold:k=3..5",
        "--vs",
        "threshold:k=4",
        "--rounds",
        "400",
        "--seed",
        "1",
    ]
    res = runner.invoke(app, args)
    assert res.exit_code == 0, res.output
    assert "3.5 (shared)" in res.stdout and "4.5 (shared)" in res.stdout
    assert "3 of 5 points played" in res.stdout and "k=3.5 plays as k=3" in res.stdout
    res = runner.invoke(app, [*args, "--json"])
    doc = json.loads(res.stdout)
    assert doc["points_requested"] == 5 and doc["points_played"] == 3
    assert {"point": "threshold:k=4.5", "plays_as": "threshold:k=4"} in doc["shared"]
    assert len(doc["table"]) == 5 and [row["shared"] for row in doc["table"]] == [
        False,
        True,
        False,
        True,
        False,
    ]
    scores = {row["player"]: row["score"] for row in doc["table"]}
    assert scores["threshold:k=3.5"] == scores["threshold:k=3"] and np.isfinite(scores["threshold:k=5"])
