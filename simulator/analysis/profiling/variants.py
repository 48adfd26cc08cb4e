"""Two variants side by side: paired differences, game by game, on the same deals.

Two pages at one table size were played on the same seed, so game ``i`` of one is dealt as
game ``i`` of the other (the shuffle, the reaction times and the random streams do not
depend on the rules).  Each difference is the mean over games of the per-game difference
``variant − reference`` with its normal interval; the skill shares' differences are
bootstrapped on the same resampled deals for both (:func:`simulator.analysis.profiling.skill.variance_shares`).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from simulator.analysis.profiling.core import Page
from simulator.analysis.profiling.intervals import mean_of
from simulator.analysis.profiling.skill import variance_shares


def measure_words(page: Page, key: str) -> tuple[str, str, float]:
    """What a per-game key of a page measures: words, unit of the difference, and the factor
    that turns the stored value into that unit."""
    unit, _, name = key.partition(":")
    games = f"per {unit}" if unit in ("round", "match") else "per match"
    f = page.figures.get(unit, {})
    if name == "length":
        return f"length of a {unit}", f"{f['length']['unit']} {games}", 1.0
    if name.startswith("role"):
        role = f["roles"]["roles"][int(name[4:])]["role"]
        unit = f["roles"]["unit"]
        return f"advantage of {role}", unit, 1.0
    if name.startswith("irregular:"):
        col = name.partition(":")[2]
        item = next(i for i in f["irregular"]["items"] if i["column"] == col)
        if item["kind"] == "rate":
            return item["words"], "percentage points", 100.0
        return item["words"], games, 1.0
    dyn = {
        "lead_changes": ("lead changes", "per match", 1.0),
        "behind_wins": ("the player behind after round 1 wins", "percentage points", 100.0),
        "margin": (
            "margin at the end of a match",
            page.figures["matches"].get("margin", {}).get("unit", ""),
            1.0,
        ),
    }
    return dyn[name]


def differences(page: Page, ref: Page, seed: int) -> dict[str, Any]:
    """Every measure of ``page`` minus the same of ``ref`` (same table size, same deals)."""
    rows = []
    for key, x in page.per_game.items():
        if key not in ref.per_game or x.ndim != 1:
            continue
        y = ref.per_game[key]
        if x.shape != y.shape:
            continue
        words, unit, factor = measure_words(page, key)
        rows.append({"key": key, "measure": words, "unit": unit, "difference": mean_of(factor * (x - y))})
    a, b = page.per_game.get("skill:primary"), ref.per_game.get("skill:primary")
    shares = None
    if a is not None and b is not None and a.shape == b.shape:
        both = np.isfinite(a).all(axis=1) & np.isfinite(b).all(axis=1)
        shares = variance_shares(a[both], seed, other=b[both])["difference"]
    return {"variant": page.label, "against": ref.label, "measures": rows, "skill_shares": shares}
