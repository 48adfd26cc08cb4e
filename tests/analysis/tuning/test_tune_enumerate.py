"""A finite space no larger than the trials is played whole; a point proposed again that
plays nothing new is a repeat and uses up no trial; the result says how much of the space
its best is the best of."""

from __future__ import annotations

import pandas as pd
import pytest

import simulator
from simulator.analysis.tuning import search as search_module
from simulator.analysis.tuning.space import parse_space
from simulator.games import get_game

SMALL = {"vs": "threshold:k=4", "rounds": 4000, "confirm": 4000, "threads": 1}
SPOKELSE = get_game("spokelse")
RULES = SPOKELSE.table(None).rules


def test_the_grid_has_one_point_per_way_of_playing():
    space = parse_space("threshold:k=0..8", SPOKELSE)
    grid = space.grid(RULES)
    # k on halves: 17 values, 9 ways of playing (½ plays as itself: the jack is worth ½; 8 as 7)
    assert [p["k"] for p in grid] == [0.0, 0.5, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0]
    keys = [space.representative(p, RULES) for p in grid]
    assert len(set(keys)) == len(keys)
    two = parse_space("expect:k=0..1,open=10..12", SPOKELSE).grid(RULES)
    assert len(two) == len({tuple(sorted(p.items())) for p in two}) and {p["open"] for p in two} == {
        10,
        11,
        12,
    }
    assert parse_space("expect:patience=1..3", SPOKELSE).grid(RULES) is None  # any real value


def test_a_space_no_larger_than_the_trials_is_played_whole():
    # the case, on fewer deals: 9 ways of playing, 12 trials
    r = simulator.tune("spokelse", "threshold:k=0..8", seed=3, trials=12, **SMALL)
    t = r.trials
    assert sorted(t["plays_as"]) == sorted(
        f"threshold:k={k}" for k in ("0", "0.5", "1", "2", "3", "4", "5", "6", "7")
    )
    assert (t["state"] == "complete").all() and (t["deals"] == r.summary["n"]).all()  # no pruning
    assert not t["repeat"].any() and r.summary["budget"]["trials"] == 9
    assert t["plays_as"].iloc[0] == r.summary["start"]  # the start first, then grid order
    best = t.sort_values(["diff", "trial"]).iloc[0]
    assert r.tuned == best["plays_as"]
    cov = r.summary["iterations"][0]["coverage"]
    assert cov == {
        "points": 9,
        "tried": 9,
        "covered": True,
        "enumerated": True,
        "stopped": None,
        "words": "the best of all 9 distinct values, each played on all the search's deals",
    }


def test_a_larger_space_says_how_much_of_it_was_tried():
    r = simulator.tune("spokelse", "threshold:k=0..8", seed=3, trials=4, **SMALL)
    t = r.trials
    cov = r.summary["iterations"][0]["coverage"]
    tried = t["plays_as"].nunique()
    assert not cov["covered"] and not cov["enumerated"] and cov["points"] == 9 and cov["tried"] == tried
    assert cov["words"] == f"the best of the {tried} values tried (of 9)"
    assert cov["words"] in repr(r)
    assert r.summary["budget"]["trials"] == 4 == len(t) - int(t["repeat"].sum())
    continuous = simulator.tune("spokelse", "expect:patience=1..3", seed=3, trials=2, **SMALL)
    words = continuous.summary["iterations"][0]["coverage"]["words"]
    assert words.endswith("tried (the range is continuous)")


def test_a_repeat_plays_nothing_and_tells_the_sampler_what_was_measured():
    r = simulator.tune("spokelse", "threshold:k=0..13", seed=4, trials=5, **SMALL)
    t = r.trials
    repeats = t[t["repeat"]]
    assert len(repeats), "no point was proposed twice"
    for _, row in repeats.iterrows():
        earlier = t[(t["trial"] < row["trial"]) & (t["plays_as"] == row["plays_as"])]
        assert len(earlier) and row["deals_played"] == 0
        assert row["diff"] == earlier.iloc[-1]["diff"] or row["state"] == "pruned"


def test_a_sampler_that_only_repeats_ends_the_search(monkeypatch):
    monkeypatch.setattr(search_module, "MAX_REPEATS", 1)
    r = simulator.tune("spokelse", "threshold:k=0..13", seed=4, trials=10, **SMALL)
    cov = r.summary["iterations"][0]["coverage"]
    assert cov["stopped"] == "the sampler proposed only points already measured, 1 times in a row"
    assert r.trials["repeat"].iloc[-1] and r.summary["budget"]["trials"] < 10


class _Stop(Exception):
    pass


def test_an_enumeration_resumed_measures_what_an_uninterrupted_one_did(tmp_path):
    whole = simulator.tune("spokelse", "threshold:k=0..8", seed=3, trials=12, **SMALL)
    out = tmp_path / "run"
    seen: list[dict] = []

    def stop_after_four(row: dict) -> None:
        seen.append(row)
        if len(seen) == 4:
            raise _Stop

    with pytest.raises(_Stop):
        simulator.tune(
            "spokelse", "threshold:k=0..8", seed=3, trials=12, out=out, on_trial=stop_after_four, **SMALL
        )
    rest = simulator.tune("spokelse", "threshold:k=0..8", seed=3, trials=12, out=out, resume=True, **SMALL)
    pd.testing.assert_frame_equal(rest.trials, whole.trials)
    assert rest.tuned == whole.tuned
    assert rest.summary["budget"]["deals_played"] == 5 * whole.summary["n"]  # the five not played before
