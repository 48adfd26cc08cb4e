"""What spokelse-strategy asks and plays: its name, sizes and seeds, and every step in order."""

from __future__ import annotations

from typing import Any

import experiments
from strategies.registry import format_value

NAME = "spokelse-strategy"


VERSION = "1"


TITLE = "Spøkelse: the threshold rule, the discard pile, the slot to swap into, the first player"


QUESTION = (
    "Which threshold k plays best, what is taking from the discard pile worth, should a card go "
    "over the known-highest slot or into an unknown one, does the first player have an advantage, "
    "and how does the strongest shipped strategy compare?"
)


STOCK_CARDS = 41  # RULES.md §3: the stock holds 41 cards after the deal


CONFIG: dict[str, dict[str, Any]] = {
    "tiny": {
        "seed": 11,
        "sweep_k": "0..13/1",
        "jacks": [0.5, 11],
        "sweep_rounds": 1500,
        "sweep_matches": 150,
        "discard_k": [2, 4],
        "discard_rounds": 1500,
        "discard_matches": 150,
        "swap_values": [1, 3, 6, 10],
        "swap_bins": [[21, 40], [0, 20]],
        "swap_rounds": 600,
        "count_rounds": 60,
        "seat_rounds": 4000,
        "seat_matches": 300,
        "confirm_rounds": 1500,
        "confirm_matches": 150,
    },
    "quick": {
        "seed": 11,
        "sweep_k": "0..13",
        "jacks": [0.5, 11],
        "sweep_rounds": 60_000,
        "sweep_matches": 8_000,
        "discard_k": [1, 2, 4, 6],
        "discard_rounds": 100_000,
        "discard_matches": 10_000,
        "swap_values": [0, 0.5, 1, 2, 3, 4, 5, 6, 7, 9, 10, 12],
        "swap_bins": [[31, 40], [21, 30], [11, 20], [0, 10]],
        "swap_rounds": 20_000,
        "count_rounds": 2_000,
        "seat_rounds": 400_000,
        "seat_matches": 40_000,
        "confirm_rounds": 100_000,
        "confirm_matches": 10_000,
    },
    "full": {
        "seed": 11,
        "sweep_k": "0..13",
        "jacks": [0.5, 11],
        "sweep_rounds": 1_000_000,
        "sweep_matches": 150_000,
        "discard_k": [1, 2, 3, 4, 5, 6],
        "discard_rounds": 2_000_000,
        "discard_matches": 200_000,
        "swap_values": [0, 0.5, 1, 2, 3, 4, 5, 6, 7, 9, 10, 12],
        "swap_bins": [[31, 40], [21, 30], [11, 20], [0, 10]],
        "swap_rounds": 400_000,
        "count_rounds": 20_000,
        "seat_rounds": 5_000_000,
        "seat_matches": 500_000,
        "confirm_rounds": 2_000_000,
        "confirm_matches": 200_000,
    },
}


MATCH_COST = 4.0  # a match to 21 costs about four rounds' play


REFERENCE_COST = 400.0  # a round of the readable reference costs about this many kernel rounds


def _sweep_points(cfg: dict) -> int:
    from simulator.analysis.sweep import parse_sweep

    return len(parse_sweep(f"threshold:k={cfg['sweep_k']}", "spokelse").points())


def _units() -> tuple[tuple[str, str, str], ...]:
    return (("round", "sweep_rounds", "score"), ("match", "sweep_matches", "loss"))


def plan(cfg: dict) -> list[experiments.Step]:
    """Every simulation and comparison the study makes, in order."""
    S = experiments.Step
    cost = {"round": 1.0, "match": MATCH_COST}
    steps = []
    points = _sweep_points(cfg)
    for unit, n_key, _ in _units():
        for jack in cfg["jacks"]:
            steps.append(
                S(
                    f"sweep/{unit}/jack={jack}",
                    cfg[n_key],
                    2 * points * cost[unit],
                    f"threshold sweep, {unit} play, {_jack_text(jack)}",
                )
            )
    for unit, n_key in (("round", "discard_rounds"), ("match", "discard_matches")):
        for k in cfg["discard_k"]:
            steps.append(
                S(
                    f"discard/{unit}/k={k}",
                    cfg[n_key],
                    4 * cost[unit],
                    f"the discard pile, {unit} play, k={k}",
                )
            )
    for v in cfg["swap_values"]:
        for lo, hi in cfg["swap_bins"]:
            steps.append(
                S(
                    f"swap/value={v}/left={lo}-{hi}",
                    cfg["swap_rounds"],
                    4.0,
                    f"which slot: a {format_value(v)} with {lo}-{hi} stock cards left",
                )
            )
    steps.append(S("swap/count", cfg["count_rounds"], REFERENCE_COST, "counting the swap decisions"))
    for spec in ("threshold:k=4", "expect"):
        steps.append(S(f"seats/{spec}/round", cfg["seat_rounds"], 1.0, f"first player, {spec}, rounds"))
        steps.append(
            S(f"seats/{spec}/match", cfg["seat_matches"], MATCH_COST, f"first player, {spec}, matches")
        )
    for unit, n_key in (("round", "confirm_rounds"), ("match", "confirm_matches")):
        steps.append(
            S(
                f"strongest/{unit}",
                cfg[n_key],
                6 * cost[unit],
                f"expect against the leading threshold, {unit} play",
            )
        )
    return steps


def _jack_text(jack: float) -> str:
    return "jack ½" if jack == 0.5 else f"jack {format_value(jack)}"
