"""simulator.tune: finds a planted optimum, is a pure function of the seed, resumes where it
stopped, stays on each parameter's grid and never pays twice for points that play alike."""

import itertools
from pathlib import Path

import pandas as pd
import pytest

import simulator
from simulator.errors import InputError

PLANTED = str(Path(__file__).parents[2] / "plugins" / "tune_planted.py")
SMALL = {"vs": "threshold:k=4", "rounds": 4000, "confirm": 4000, "threads": 1}


def test_finds_the_planted_optimum():
    r = simulator.tune("spokelse", "tune-planted:a=0..20", plugins=[PLANTED], seed=3, trials=24, **SMALL)
    assert r.tuned == "tune-planted:a=13"
    conf = r.summary["confirmation"]
    assert conf["vs_start"]["diff_ci"][1] < 0  # better than a=5 on fresh deals
    assert "better than its starting parameters" in conf["vs_start"]["sentence"]
    assert "points per round" in conf["vs_start"]["sentence"]


def test_same_seed_same_result():
    a = simulator.tune("spokelse", "threshold:k=0..13", seed=9, trials=8, **SMALL)
    b = simulator.tune("spokelse", "threshold:k=0..13", seed=9, trials=8, **SMALL)
    pd.testing.assert_frame_equal(a.trials, b.trials)
    assert a.summary["confirmation"]["vs_start"] == b.summary["confirmation"]["vs_start"]
    assert a.tuned == b.tuned


def test_resume_continues_rather_than_restarts(tmp_path):
    whole = simulator.tune("spokelse", "threshold:k=0..13", seed=4, trials=10, **SMALL)
    out = tmp_path / "run"
    first = simulator.tune("spokelse", "threshold:k=0..13", seed=4, trials=5, out=out, **SMALL)
    # five trials count; proposals of points already measured are kept but not counted
    assert first.summary["budget"]["trials"] == 5 == int((~first.trials["repeat"]).sum())
    rest = simulator.tune("spokelse", "threshold:k=0..13", seed=4, trials=10, out=out, resume=True, **SMALL)
    # The resumed search proposes and measures what the uninterrupted one did ...
    pd.testing.assert_frame_equal(rest.trials, whole.trials)
    # ... without playing the first five trials again, nor the starting parameters.
    played_after = rest.summary["budget"]["deals_played"]
    assert played_after == int(whole.trials["deals_played"].iloc[len(first.trials) :].sum())
    assert played_after < whole.summary["budget"]["deals_played"]
    for name in ("tune.json", "trials.parquet", "study.journal", "figures/tune.png"):
        assert (out / name).exists()
    assert len(pd.read_parquet(out / "trials.parquet")) == len(whole.trials)
    assert whole.summary["budget"]["trials"] == 10


def test_a_folder_holding_a_tune_needs_resume_and_the_same_settings(tmp_path):
    out = tmp_path / "run"
    simulator.tune("spokelse", "threshold:k=0..13", seed=4, trials=2, out=out, **SMALL)
    with pytest.raises(InputError, match=r"already holds a tune \(settings.json\); add --resume"):
        simulator.tune("spokelse", "threshold:k=0..13", seed=4, trials=2, out=out, **SMALL)
    with pytest.raises(InputError, match="its vs is 'threshold:k=4', not 'threshold:k=2'"):
        opts = {**SMALL, "vs": "threshold:k=2"}
        simulator.tune("spokelse", "threshold:k=0..13", seed=4, trials=3, out=out, resume=True, **opts)


def test_grid_respected_and_alike_points_paid_once():
    r = simulator.tune("spokelse", "expect:k=0..4,open=10..41", seed=2, trials=14, **SMALL)
    t = r.trials
    assert ((t["k"] * 2) % 1 == 0).all() and ((t["open"] % 1) == 0).all()
    assert t["k"].between(0, 4).all() and t["open"].between(10, 41).all()
    # Every point (by what it plays as) is paid for once: its deals played add up to the
    # most deals any of its trials reached, and a trial served from the cache played none.
    for point, group in t.groupby("plays_as"):
        paid = group["deals_played"].sum()
        assert paid == (0 if point == r.summary["start"] else group["deals"].max())
    assert (t.loc[t["cached"], "deals_played"] == 0).all()
    budget = r.summary["budget"]
    # The starting point was played once, before the search: its trial plays nothing.
    assert t["deals_played"].iloc[0] == 0 and t["spec"].iloc[0] == r.summary["start"]
    assert budget["deals_played"] == r.summary["n"] + t["deals_played"].sum()


def test_threshold_k_in_halves_reuses_the_whole_values():
    # 15 ways of playing (0, ½, 1, ..., 13) and fewer trials: the sampler searches, and proposes halves
    r = simulator.tune("spokelse", "threshold:k=0..13", seed=1, trials=12, **SMALL)
    t = r.trials
    halves = t[((t["k"] % 1) != 0) & (t["k"] != 0.5)]  # the jack is worth ½: k=0.5 plays as itself
    assert len(halves), "the search proposed no half value"
    assert (halves["plays_as"] != halves["spec"]).all()
    # a half whose whole value was measured before plays nothing and is a repeat, not a trial
    assert t["repeat"].any()
    assert (t.loc[t["repeat"], "deals_played"] == 0).all()
    assert r.summary["budget"]["trials"] == 12 == len(t) - int(t["repeat"].sum())


def test_iterate_reports_whether_the_winners_settle():
    r = simulator.tune("spokelse", "threshold:k=0..13", seed=1, trials=10, iterate=3, **SMALL)
    its = r.summary["iterations"]
    assert 1 <= len(its) <= 3
    for prev, nxt in itertools.pairwise(its):
        assert nxt["field"] == prev["winner"] and nxt["start"] == prev["winner"]
    if len(its) < 3:
        assert r.summary["settled"]["kind"] in ("fixed point", "cycle")


def test_metric_direction_comes_from_the_game():
    r = simulator.tune("spokelse", "threshold:k=0..13", metric="win", seed=1, trials=4, **SMALL)
    assert r.summary["metric"] == {
        "name": "win",
        "doc": r.summary["metric"]["doc"],
        "lower_is_better": False,
        "kind": "rate",
    }
    with pytest.raises(InputError, match="unknown metric 'loss' for spokelse rounds"):
        simulator.tune("spokelse", "threshold:k=0..13", metric="loss", seed=1, trials=4, **SMALL)
