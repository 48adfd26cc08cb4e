"""What commit-early asks and plays: its name, sizes and seeds, the metrics of each game and
unit, and one comparison per game, field, table size and unit."""

from __future__ import annotations

from typing import Any

import experiments

NAME = "commit-early"


VERSION = "1"


TITLE = "Gris and Gris-nese: committing early to a target"


QUESTION = (
    "How do P(signal first), P(letter or elimination) and P(losing the match) change with "
    "commit:after, for 3-8 players, against greedy players and against early committers? "
    "Is committing early worth it, and where does it flip?"
)


CONFIG: dict[str, dict[str, Any]] = {
    "tiny": {
        "seed": 5,
        "games": ["gris", "gris-nese"],
        "players": [3, 5, 8],
        "afters": [0, 2],
        "fields": ["greedy", "commit:after=0"],
        "rounds": 300,
        "matches": 30,
    },
    "quick": {
        "seed": 5,
        "games": ["gris", "gris-nese"],
        "players": [3, 4, 5, 6, 7, 8],
        "afters": [0, 1, 2, 3, 5, 8],
        "fields": ["greedy", "commit:after=0"],
        "rounds": 12_000,
        "matches": 1_200,
    },
    "full": {
        "seed": 5,
        "games": ["gris", "gris-nese"],
        "players": [3, 4, 5, 6, 7, 8],
        "afters": [0, 1, 2, 3, 4, 5, 6, 8, 12],
        "fields": ["greedy", "commit:after=0"],
        "rounds": 400_000,
        "matches": 40_000,
    },
}


# (game, unit) -> [(metric in the game, name here, flip sign: the metric is 1 - ours)]
METRICS = {
    ("gris", "round"): [("signal_first", "signal_first", False), ("letter", "letter_or_out", False)],
    ("gris", "match"): [("loss", "lose_match", False)],
    ("gris-nese", "round"): [("signal", "signal_first", False), ("eliminated", "letter_or_out", False)],
    ("gris-nese", "match"): [("win", "lose_match", True)],
}


LABELS = {
    "signal_first": "P(signal first)",
    "letter_or_out": "P(letter or elimination)",
    "lose_match": "P(losing the match)",
}


LOWER_IS_BETTER = {"signal_first": False, "letter_or_out": True, "lose_match": True}


def _field_name(field: str) -> str:
    return "greedy" if field == "greedy" else "early committers"


def _candidates(cfg: dict) -> list[str]:
    return ["greedy", *(f"commit:after={t}" for t in cfg["afters"])]


MATCH_COST = 5.0  # a match costs about five rounds' play


def plan(cfg: dict) -> list[experiments.Step]:
    """One comparison per game, field, table size and unit (rounds, then matches)."""
    k = len(_candidates(cfg))
    steps = []
    for game in cfg["games"]:
        for field in cfg["fields"]:
            for n in cfg["players"]:
                for unit, count in (("round", cfg["rounds"]), ("match", cfg["matches"])):
                    steps.append(
                        experiments.Step(
                            f"{game}/{field}/{n}p/{unit}",
                            count,
                            k * n * (MATCH_COST if unit == "match" else 1.0),
                            f"{game}, {n} players, field {field}: {count:,} {unit}{'es' if unit == 'match' else 's'}",
                        )
                    )
    return steps
