"""The belief plugin of docs/search.md loads, plays every round, and is seeded."""

from pathlib import Path

import simulator
from strategies.plugins import load_plugin

ROOT = Path(__file__).resolve().parents[2]
PLUGIN = str(ROOT / "benchmarks" / "plugins" / "gris_belief.py")
ROUNDS = 3000


def play(spec: str, seed: int) -> dict:
    load_plugin(PLUGIN)
    specs = [spec, "reader", "reader", "reader"]
    result = simulator.simulate(
        "gris", specs, rounds=ROUNDS, seed=seed, players=4, plugins=[PLUGIN], threads=1
    )
    return result.summary


def figures(summary: dict) -> list:
    """What the deals decided: per-seat rates, passes and the round counts."""
    seats = [(s["signal_first_rate"], s["letter_rate"]) for s in summary["seats"]]
    return [summary["finished"], summary["stalled"], summary["mean_passes"], seats]


def test_it_plays_every_round_and_the_same_seed_gives_the_same_figures():
    first = play("belief", 11)
    assert first["finished"] + first["stalled"] == ROUNDS
    assert first["finished"] > 0.99 * ROUNDS
    assert first["seats"][0]["player"].startswith("belief:")
    assert figures(play("belief", 11)) == figures(first)
    assert figures(play("belief", 12)) != figures(first)


def test_without_its_belief_terms_it_is_reader_draw_for_draw():
    # rival = feed = 0 leaves reader's scores; the memory bookkeeping draws nothing.
    plain = figures(play("belief:rival=0,feed=0", 5))
    assert plain == figures(play("reader", 5))
    assert figures(play("belief", 5)) != plain


NESE_PLUGIN = str(ROOT / "benchmarks" / "plugins" / "gris_nese_belief.py")


def nese_seats(spec: str, seed: int) -> list:
    """Per-seat figures of a 4-seat Gris-nese run with ``spec`` in seat 0 and follow elsewhere."""
    result = simulator.simulate(
        "gris-nese", [spec, "follow", "follow", "follow"], rounds=ROUNDS, seed=seed, players=4,
        plugins=[NESE_PLUGIN], threads=1,
    )  # fmt: skip
    return [{k: v for k, v in s.items() if k != "player"} for s in result.summary["seats"]]


def test_the_gris_nese_belief_is_follow_without_its_terms_and_is_seeded():
    load_plugin(NESE_PLUGIN)
    plain = nese_seats("belief:rival=0,feed=0", 5)
    assert plain == nese_seats("follow", 5)
    mine = nese_seats("belief", 5)
    assert mine != plain and mine == nese_seats("belief", 5)
