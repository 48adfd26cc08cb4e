"""The Python API: results, determinism, known values, errors."""

import json

import numba
import pytest

import simulator
from simulator import InputError, SpecError, simulate
from simulator.running.results import Result


def strip_timing(result: Result) -> str:
    return json.dumps(result.without_timing(), sort_keys=True)


def test_passive_scores_the_average_of_five_random_cards():
    """RULES.md §5: passive keeps the dealt row, 5 x 72.5/13 = 27.885 points.
    The per-round sd of five cards (without replacement) is about 9.2 points, so with
    100,000 rounds the standard error is about 0.03; we allow 4 standard errors."""
    r = simulate("spokelse", "passive", rounds=100_000, seed=11)
    for seat in r.summary["seats"]:
        assert abs(seat["mean_score"] - 5 * 72.5 / 13) < 0.12
        lo, hi = seat["mean_score_ci"]
        assert lo < seat["mean_score"] < hi
    assert r.summary["capped"] == 0


def test_jack_eleven_raises_the_passive_average():
    r = simulate("spokelse", "passive", rounds=50_000, seed=2, rules={"jack": "11"})
    expected = 5 * (72.5 - 0.5 + 11) / 13
    assert abs(r.summary["seats"][0]["mean_score"] - expected) < 0.2
    assert r.summary["rules"] == {"jack": 11, "target": 21}


@pytest.mark.slow
def test_same_seed_same_numbers_for_any_threads_and_block_size():
    runs = []
    for threads, block in ((1, 1 << 16), (2, 1 << 16), (2, 777), (1, 5000)):
        numba.set_num_threads(threads)
        runs.append(
            strip_timing(
                simulate("spokelse", ["threshold:k=4", "random"], rounds=30_000, seed=5, block_size=block)
            )
        )
        runs.append(
            strip_timing(
                simulate("spokelse", ["expect", "threshold:k=3"], matches=3_000, seed=5, block_size=block)
            )
        )
    numba.set_num_threads(numba.config.NUMBA_NUM_THREADS)
    assert all(r == runs[0] for r in runs[0::2])
    assert all(r == runs[1] for r in runs[1::2])


def test_changing_one_seat_leaves_the_deal_and_other_streams_alone():
    """Common random numbers: seat 0 passive scores its dealt row whatever seat 1 plays...
    unless seat 1's play changes the cards seat 0 can see; passive never takes them, so its
    score is a function of the deal alone."""
    a = simulate("spokelse", ["passive", "random"], rounds=5_000, seed=9)
    b = simulate("spokelse", ["passive", "threshold:k=6"], rounds=5_000, seed=9)
    assert a.summary["seats"][0]["mean_score"] == b.summary["seats"][0]["mean_score"]


def test_result_tables_and_parquet_round_trip(tmp_path):
    r = simulate("spokelse", ["threshold:k=4", "passive"], matches=2_000, seed=3)
    assert list(r.seats["player"]) == ["threshold:k=4", "passive"]
    assert {"loss_rate", "loss_rate_lo", "loss_rate_hi"} <= set(r.seats.columns)
    path = r.write(tmp_path / "out")
    back = Result.read(path)
    assert back.summary == json.loads(r.to_json())
    assert back.provenance["seed"] == 3
    assert back.provenance["strategies"][0]["spec"] == "threshold:k=4"
    assert len(back.provenance["strategies"][0]["source_sha256"]) == 16
    assert "numba" in back.provenance and "numpy" in back.provenance


def test_without_seed_a_seed_is_drawn_and_recorded():
    r = simulate("spokelse", "passive", rounds=100)
    assert isinstance(r.summary["seed"], int)
    again = simulate("spokelse", "passive", rounds=100, seed=r.summary["seed"])
    assert strip_timing(again) == strip_timing(r)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"strategies": "threshold:k=banana", "rounds": 10}, "not a number"),
        ({"strategies": "threshold:k=-3", "rounds": 10}, "outside"),
        ({"strategies": "threshold:k=0.3", "rounds": 10}, "multiple of 0.5"),
        ({"strategies": "threshold:q=1", "rounds": 10}, "unknown parameter"),
        ({"strategies": "nosuch", "rounds": 10}, "unknown strategy"),
        ({"strategies": ["passive"] * 3, "rounds": 10}, "3 strategies for 2 seats"),
        ({"strategies": "passive", "rounds": 0}, "positive"),
        ({"strategies": "passive", "rounds": -5}, "positive"),
        ({"strategies": "passive"}, "exactly one of"),
        ({"strategies": "passive", "rounds": 5, "matches": 5}, "exactly one of"),
        ({"strategies": "passive", "rounds": 5, "rules": {"jack": "12"}}, "0.5"),
        ({"strategies": "passive", "rounds": 5, "rules": {"joker": "1"}}, "unknown rule"),
        ({"strategies": "passive", "rounds": 5, "rules": {"target": "x"}}, "whole number"),
        ({"strategies": "passive", "rounds": 5, "players": 3}, "exactly 2 players"),
    ],
)
def test_bad_input_is_one_clear_error(kwargs, message):
    strategies = kwargs.pop("strategies")
    with pytest.raises((InputError, SpecError), match=message):
        simulate("spokelse", strategies, **kwargs)


def test_unknown_game():
    with pytest.raises(InputError, match="unknown game"):
        simulator.simulate("poker", "x", rounds=1)
