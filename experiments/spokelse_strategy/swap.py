"""Question 3: which slot to swap into, per card value and stage of the round, and how often
each such decision comes up (counted by the readable reference)."""

from __future__ import annotations

import numpy as np
import pandas as pd
from statsmodels.stats.multitest import multipletests

import experiments
from experiments.spokelse_strategy.steps import _compare_step
from experiments.spokelse_strategy.threshold_lab import lab, register_lab
from simulator.engine.stats import LEVEL
from simulator.engine.summary import with_interval
from simulator.games.spokelse.observation import HAND_VALUE, HIGH, PHASE, PLACE, STOCK_LEFT, UNKNOWN_SLOT
from simulator.games.spokelse.strategies import threshold_nb
from simulator.reporting import pages as words
from simulator.reporting import plots
from strategies.registry import format_value, parse_spec

SWAP_CAPTION = (
    "Unknown slot minus known-highest slot, in points per {unit}, by the points of the card in hand "
    "and the stock cards left; below 0 (blue) the unknown slot is better, above 0 (red) worse; pale "
    "cells: the 95% interval includes 0; a star: significant after Holm's correction."
)


def _count_cells(values: list[float], bins: list[list[int]], rounds: int, seed: int) -> dict[str, np.ndarray]:
    """Decisions per player and round in each (card value, stage) cell under threshold:k=4,
    counted by the readable reference with an instrumented player: ``cells`` (values × bins),
    and per stage ``placements`` (every placement) and ``open_slot`` (placements made while
    the player still had an unknown slot): why a cell can stay empty."""
    from simulator.games.spokelse import reference
    from simulator.games.spokelse.variants import Rules

    counts = np.zeros((len(values), len(bins)), dtype=np.int64)
    placements = np.zeros(len(bins), dtype=np.int64)
    open_slot = np.zeros(len(bins), dtype=np.int64)
    index = {round(v * 2): i for i, v in enumerate(values)}
    params = parse_spec("threshold:k=4", "spokelse").params
    decide = threshold_nb.py_func

    class Counting:
        name = "threshold:k=4 (counting)"

        def __init__(self) -> None:
            self.params = params

        def decide(self, obs, p, rng):
            if obs[PHASE] == PLACE:
                h, u, c, left = obs[HIGH], obs[UNKNOWN_SLOT], obs[HAND_VALUE], obs[STOCK_LEFT]
                for j, (lo, hi) in enumerate(bins):
                    if lo <= left <= hi:
                        placements[j] += 1
                        open_slot[j] += u >= 0
                if h >= 0 and u >= 0 and c < h and int(c) in index:
                    for j, (lo, hi) in enumerate(bins):
                        if lo <= left <= hi:
                            counts[index[int(c)], j] += 1
            return decide(obs, p, rng)

    players = [Counting(), Counting()]
    for g in range(rounds):
        reference.play_round(Rules(), players, seed=seed, game=g)
    return {"cells": counts, "placements": placements, "open_slot": open_slot}


def swap_slot(b: experiments.Bundle, cfg: dict, backend: dict) -> None:
    register_lab()
    values, bins = cfg["swap_values"], cfg["swap_bins"]
    field = lab(4)
    rows = []
    for v in values:
        for lo, hi in bins:
            known, unknown = lab(4, swap=1, value=v, left=(lo, hi)), lab(4, swap=2, value=v, left=(lo, hi))
            summary = _compare_step(
                b,
                f"swap/value={v}/left={lo}-{hi}",
                [known, unknown],
                backend,
                field=field,
                rounds=cfg["swap_rounds"],
                seed=b.seed,
            )
            r = summary["metrics"]["score"]["strategies"][1]
            rows.append(
                {
                    "card_points": v,
                    "stock_left": f"{lo}-{hi}",
                    "left_lo": lo,
                    "left_hi": hi,
                    **with_interval(r, "diff", "unknown_minus_known"),
                    "p_value": r["p_value"],
                    "variance_reduction": r["variance_reduction"],
                }
            )
    b.use(field)
    t = pd.DataFrame(rows)
    t["p_holm"] = multipletests(t["p_value"].fillna(1.0), alpha=1 - LEVEL, method="holm")[1]
    t["significant"] = [
        words.is_significant(a, z, p)
        for a, z, p in zip(t["unknown_minus_known_lo"], t["unknown_minus_known_hi"], t["p_holm"])
    ]
    counted = b.step("swap/count", lambda _p: _count_cells(values, bins, cfg["count_rounds"], b.seed))
    counts = counted["cells"]
    per_round = counts / (2.0 * cfg["count_rounds"])  # decisions per player and round
    t["decisions_per_round"] = [per_round[values.index(v), j] for v in values for j in range(len(bins))]
    # Identical play on every deal: the choice never came up (or never changed a thing).
    never = (t["unknown_minus_known_lo"] == 0) & (t["unknown_minus_known_hi"] == 0)
    t["came_up"] = ~never
    # Why a cell stays empty: the choice needs an unknown slot still open, and under
    # threshold:k=4 the unknown slots are filled early in the round.
    placed = np.asarray(counted["placements"], dtype=float)
    with np.errstate(divide="ignore", invalid="ignore"):
        open_share = np.where(placed > 0, np.asarray(counted["open_slot"], dtype=float) / placed, np.nan)
    t["open_slot_share"] = [open_share[j] for _ in values for j in range(len(bins))]
    t["open_slot_placements"] = [int(counted["open_slot"][j]) for _ in values for j in range(len(bins))]
    t["placements_counted"] = [int(placed[j]) for _ in values for j in range(len(bins))]
    for c in ("unknown_minus_known", "unknown_minus_known_lo", "unknown_minus_known_hi"):
        t.loc[never, c] = np.nan
    with np.errstate(divide="ignore", invalid="ignore"):
        per_dec = np.where(
            t["decisions_per_round"] > 0, t["unknown_minus_known"] / t["decisions_per_round"], np.nan
        )
    t["per_decision"] = per_dec
    for end in ("lo", "hi"):
        with np.errstate(divide="ignore", invalid="ignore"):
            t[f"per_decision_{end}"] = np.where(
                t["decisions_per_round"] > 0,
                t[f"unknown_minus_known_{end}"] / t["decisions_per_round"],
                np.nan,
            )
    b.table("swap", t)
    marks = t["significant"].to_numpy().reshape(len(values), len(bins))

    def cells(column: str) -> np.ndarray:
        return t[column].to_numpy(dtype=float).reshape(len(values), len(bins))

    xl = [f"{lo}-{hi}" for lo, hi in bins]
    yl = [format_value(v) for v in values]
    # The same map twice: the value of the unknown slot per round and per decision.
    for unit, column, digits in (("round", "unknown_minus_known", 3), ("decision", "per_decision", 2)):
        b.figure(
            f"swap_per_{unit}",
            plots.heatmap(
                t[column].to_numpy().reshape(len(values), len(bins)),
                xl,
                yl,
                xlabel="stock cards left (the round ends at 0)",
                ylabel="points of the card in hand",
                title=f"Unknown slot minus known-highest slot: points per {unit}",
                colorbar=f"points per {unit} (< 0: unknown slot better)",
                marks=marks,
                digits=digits,
                lower_is_better=True,
                lo=cells(f"{column}_lo"),
                hi=cells(f"{column}_hi"),
            ),
            caption=SWAP_CAPTION.format(unit=unit),
        )
    text = [
        "In each cell two players differ only in where a card of that value goes while that many "
        "stock cards are left (both a known slot worth more and an unknown slot being open); "
        "otherwise both play threshold:k=4, and both meet threshold:k=4 in each seat on the same deals. "
        "Negative: the unknown slot gives the lower score.  Stars: the interval excludes 0 after "
        "Holm's correction over the cells.  Per decision = per round ÷ how often the cell comes up "
        "(counted with the readable reference on "
        f"{cfg['count_rounds']:,} rounds; cells that never came up are blank)."
    ]
    for lo, hi in bins:
        sub = t[t["left_lo"] == lo]
        unknown_better = [
            format_value(v)
            for v, s, d in zip(sub.card_points, sub.significant, sub.unknown_minus_known)
            if s and d < 0
        ]
        known_better = [
            format_value(v)
            for v, s, d in zip(sub.card_points, sub.significant, sub.unknown_minus_known)
            if s and d > 0
        ]
        undecided = [
            format_value(v) for v, s, c in zip(sub.card_points, sub.significant, sub.came_up) if c and not s
        ]
        never_seen = [format_value(v) for v, c in zip(sub.card_points, sub.came_up) if not c]
        parts = []
        if unknown_better:
            parts.append(f"the unknown slot is better for card values {', '.join(unknown_better)} (points)")
        if known_better:
            parts.append(
                f"the known-highest slot is better for card values {', '.join(known_better)} (points)"
            )
        if undecided:
            parts.append(f"no difference detected at this size for card values {', '.join(undecided)}")
        if never_seen:
            parts.append(f"the choice never came up at this size for card values {', '.join(never_seen)}")
        text.append(f"With {lo}-{hi} stock cards left: " + "; ".join(parts) + ".")
    why = _why_empty(t, bins, cfg["swap_rounds"], cfg["count_rounds"])
    if why:
        text.append(why)
    b.answer.append("Which slot to swap into, by stage of the round: " + " ".join(text[1:]))
    b.headline("Should a card go over the known-highest slot or into an unknown one?", _swap_headline(t))
    b.section(
        "3. Which slot to swap into: known-highest or unknown",
        text,
        tables=["swap"],
        figures=["swap_per_round", "swap_per_decision"],
    )


def _why_empty(t: pd.DataFrame, bins: list[list[int]], rounds: int, counted: int) -> str:
    """Why the cells that never came up are empty, from the counted placements."""
    never = t[~t["came_up"]]
    if not len(never):
        return ""
    shares = []
    for lo, hi in bins:
        row = t.loc[t["left_lo"] == lo].iloc[0]
        if row["placements_counted"] > 0:
            shares.append(
                f"{words.pct(row['open_slot_share'], 2)} with {lo}-{hi} stock cards left "
                f"({int(row['open_slot_placements']):,} of {int(row['placements_counted']):,})"
            )
    return (
        f"Why {len(never)} of {len(t)} cells are empty: the choice exists only while the player still has "
        "an unknown slot and a known slot worth more than the card in hand.  Under threshold:k=4 the two "
        "unknown slots fill early (a card of at most 4 points goes into one as soon as no known slot is "
        "above 4, and a known slot above 4 is replaced by any lower card), so the share of placements made "
        "with an unknown slot still open falls as the round goes on: "
        + "; ".join(shares)
        + f" (counted on {counted:,} rounds).  High cards need a known slot worth even more, which rule a "
        f"replaces at once.  In those cells the two players played identically on every one of the "
        f"{rounds:,} deals: the choice never came up, and nothing was measured there."
    )


def _swap_headline(t: pd.DataFrame) -> str:
    """Counts of the cells by verdict, and the largest significant effect per decision."""
    came = t[t["came_up"]]
    sig = came[came["significant"]]
    unknown = sig[sig["unknown_minus_known"] < 0]
    known = sig[sig["unknown_minus_known"] > 0]
    never = len(t) - len(came)
    cells = len(t)
    if not len(sig):
        return (
            "Not settled at this size: no cell (card value × stage of the round) shows a difference between "
            "the two slots after Holm's correction"
            + (f"; {never} of {cells} cells never came up." if never else ".")
        )
    top = sig["unknown_minus_known"].abs().max()
    if not len(known):
        lead = "The unknown slot, where a difference shows"
    elif not len(unknown):
        lead = "The known-highest slot, where a difference shows"
    else:
        lead = "It depends on the card and the stage"
    return (
        f"{lead}: the unknown slot scores lower in {len(unknown)} of {cells} cells and the known-highest "
        f"slot in {len(known)}, by up to {words.num(top)} points per round."
    )
