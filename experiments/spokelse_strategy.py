"""spokelse-strategy: how to play Spøkelse well, and how much each choice is worth.

1. **Threshold sweep.**  ``threshold:k`` for k over 0..13 against ``threshold:k=4`` on
   the same deals, in round play (mean score) and match play (loss rate), with the
   jack at ½ and at 11 points.
2. **The discard pile.**  ``threshold:k`` against the same rule that never takes the
   discard top (``threshold-lab:discard=0``), both against ``threshold:k=4``: the
   paired difference is what taking from the discard pile is worth.
3. **Which slot to swap into.**  Holding a card worth ``v`` with both a known slot
   worth more and an unknown slot to swap into: put it over the known-highest slot or
   into the unknown one?  For each card value and stage of the round (stock cards
   left) two players that differ only in that choice, in that cell (everywhere else
   ``threshold:k=4``), meet the same deals; the paired difference of their scores is
   the value of choosing the unknown slot there.  A pass of the readable reference
   with an instrumented player counts how often each cell comes up, which turns the
   per-round value into a value per decision.
4. **First-player advantage.**  The same strategy in both seats; in round play seat 0
   starts (the seat figures and the paired seat difference), in match play the first
   dealer is drawn at random and the deal alternates.
5. **The strongest shipped strategy.**  ``expect`` against ``threshold`` at its best
   k from step 1, on fresh deals (a new seed, so the choice of k does not flatter it).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
from numba import njit
from statsmodels.stats.multitest import multipletests

import experiments
from simulator import plots
from simulator import report as words
from simulator.api import simulate
from simulator.compare import compare
from simulator.games.spokelse.observation import (
    HAND_VALUE,
    HIGH,
    HIGH_SLOT,
    PHASE,
    PLACE,
    SOURCE,
    STOCK_LEFT,
    UNKNOWN_SLOT,
)
from simulator.stats import LEVEL
from simulator.sweep import sweep
from strategies.registry import families, format_value, parse_spec, strategy
from strategies.spokelse import threshold_nb

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

# --- an experiment-local strategy: threshold with one choice changed ---------------------

STOCK, DISCARD_PILE = 0, 1
LAB = "threshold-lab"


def _lab(obs, params, rng):
    """threshold:k with one choice changed, for experiments.

    ``discard=0``: never take the discard top.  ``swap=1`` (``2``): holding a card worth
    exactly ``value`` points with ``left_lo..left_hi`` stock cards left, a known slot
    worth more than it and an unknown slot, swap it over the known-highest slot (into
    the first unknown slot).  Everything else is ``threshold:k`` exactly."""
    if obs[PHASE] == SOURCE:
        if params[1] == 0:
            return STOCK
        return threshold_nb(obs, params, rng)
    if params[2] > 0 and obs[PHASE] == PLACE:
        h = obs[HIGH]
        u = obs[UNKNOWN_SLOT]
        c = obs[HAND_VALUE]
        left = obs[STOCK_LEFT]
        if h >= 0 and u >= 0 and c < h and c == params[3] * 2.0 and params[4] <= left <= params[5]:
            return obs[HIGH_SLOT] if params[2] == 1 else u
    return threshold_nb(obs, params, rng)


def register_lab() -> None:
    """Register ``threshold-lab`` for Spøkelse once per process."""
    if LAB in families("spokelse"):
        return
    strategy(
        game="spokelse",
        name=LAB,
        params={
            "k": (4, 0, 13, 0.5),
            "discard": (1, 0, 1, 1),
            "swap": (0, 0, 2, 1),
            "value": (0, 0, 13, 0.5),
            "left_lo": (0, 0, STOCK_CARDS, 1),
            "left_hi": (STOCK_CARDS, 0, STOCK_CARDS, 1),
        },
    )(njit(_lab))


def lab(
    k: float = 4, discard: int = 1, swap: int = 0, value: float = 0, left: tuple[int, int] = (0, STOCK_CARDS)
):
    register_lab()
    spec = f"{LAB}:k={format_value(k)},discard={discard},swap={swap},value={format_value(value)}"
    return parse_spec(f"{spec},left_lo={left[0]},left_hi={left[1]}", "spokelse")


# --- the study ------------------------------------------------------------------------------


def run(
    size: str = "full",
    out_dir: str | Path | None = None,
    seed: int | None = None,
    progress: Callable[[str], None] | None = None,
    **backend: Any,
) -> experiments.ExperimentResult:
    import sys

    b = experiments.start(sys.modules[__name__], size, out_dir, seed)
    cfg = b.cfg
    say = progress or (lambda _msg: None)
    say("threshold sweep")
    best = threshold_sweep(b, cfg, backend)
    say("the discard pile")
    discard_value(b, cfg, backend)
    say("which slot to swap into")
    swap_slot(b, cfg, backend)
    say("first-player advantage")
    first_player(b, cfg, backend)
    say("expect against the best threshold")
    strongest(b, cfg, best, backend)
    return b.finish("sweep")


def _jack_text(jack: float) -> str:
    return "jack ½" if jack == 0.5 else f"jack {format_value(jack)}"


def threshold_sweep(b: experiments.Bundle, cfg: dict, backend: dict) -> dict[tuple[str, float], float]:
    rows = []
    best: dict[tuple[str, float], float] = {}
    text = []
    fig_names = []
    for unit, n_key, metric in (("round", "sweep_rounds", "score"), ("match", "sweep_matches", "loss")):
        for jack in cfg["jacks"]:
            n = cfg[n_key]
            res = sweep(
                "spokelse",
                f"threshold:k={cfg['sweep_k']}",
                vs="threshold:k=4",
                seed=b.seed,
                rules={"jack": str(jack)},
                **({"rounds": n} if unit == "round" else {"matches": n}),
                **backend,
            )
            t = res.table.copy()
            t.insert(0, "jack", jack)
            t.insert(0, "unit", unit)
            rows.append(t)
            top = res.best()
            best[(unit, jack)] = float(top["k"])
            info = res.metric_info()
            rate = info["kind"] == "rate"
            unit_txt = "" if rate else "points per round"
            setting = f"{unit} play, {_jack_text(jack)}"
            text.append(
                words.estimate(
                    f"Best k in {setting}: k={format_value(top['k'])}",
                    "loss rate" if rate else "mean score",
                    top[metric],
                    top[f"{metric}_lo"],
                    top[f"{metric}_hi"],
                    unit=unit_txt,
                    percent=rate,
                )
            )
            if top["player"] != res.baseline:
                text.append(
                    words.difference(
                        top["player"],
                        res.baseline,
                        top[f"{metric}_diff"],
                        top[f"{metric}_diff_lo"],
                        top[f"{metric}_diff_hi"],
                        what="loss rate" if rate else "mean score",
                        unit=unit_txt,
                        lower_is_better=True,
                        p_holm=top[f"{metric}_p_holm"],
                        percent=rate,
                    )
                )
            name = f"sweep_{unit}_jack{format_value(jack).replace('.', '_')}"
            b.figure(
                name,
                res.plot(
                    title=f"Spøkelse {setting}: {'loss rate' if rate else 'mean score'} by k against threshold:k=4"
                ),
            )
            fig_names.append(name)
            b.use(*(parse_spec(p, "spokelse") for p in res.table["player"]))
            vr = res.table[f"{metric}_variance_reduction"].dropna()
            if len(vr) and unit == "round" and jack == cfg["jacks"][0]:
                text.append(
                    words.variance_sentence(float(vr.median()), "a k's difference to k=4 (median over k)")
                )
    table = b.table("sweep", pd.concat(rows, ignore_index=True))
    b.answer += [t for t in text if t.startswith("Best k")]
    b.section(
        "1. The threshold k",
        [
            "Every k plays threshold:k=4 twice per deal, once in each seat, on the same deals; "
            "the lower panel is the paired difference to k=4, whose interval is far narrower than "
            "the interval of the figure itself.  Ringed: the best k.",
            *text,
        ],
        tables=["sweep"],
        figures=fig_names,
    )
    del table
    return best


def discard_value(b: experiments.Bundle, cfg: dict, backend: dict) -> None:
    register_lab()
    field = lab(4)
    rows = []
    for unit, n_key in (("round", "discard_rounds"), ("match", "discard_matches")):
        for k in cfg["discard_k"]:
            with_pile, without = lab(k), lab(k, discard=0)
            b.use(with_pile, without)
            res = compare(
                "spokelse",
                [with_pile, without],
                field_strategy=field,
                seed=b.seed,
                **({"rounds": cfg[n_key]} if unit == "round" else {"matches": cfg[n_key]}),
                **backend,
            )
            metric = "score" if unit == "round" else "loss"
            r = res.summary["metrics"][metric]["strategies"][1]
            base = res.summary["metrics"][metric]["strategies"][0]
            rows.append(
                {
                    "unit": unit,
                    "k": k,
                    "metric": metric,
                    "with_pile": base[metric],
                    "with_pile_lo": base[f"{metric}_ci"][0],
                    "with_pile_hi": base[f"{metric}_ci"][1],
                    "never_pile": r[metric],
                    "never_pile_lo": r[f"{metric}_ci"][0],
                    "never_pile_hi": r[f"{metric}_ci"][1],
                    # The value of the pile: what is lost by never taking it.
                    "value": r["diff"],
                    "value_lo": r["diff_ci"][0],
                    "value_hi": r["diff_ci"][1],
                    "p_value": r["p_value"],
                    "variance_reduction": r["variance_reduction"],
                }
            )
    t = pd.DataFrame(rows)
    t["p_holm"] = multipletests(t["p_value"], alpha=1 - LEVEL, method="holm")[1]
    b.table("discard", t)
    text = []
    for r in t.itertuples():
        rate = r.unit == "match"
        text.append(
            words.difference(
                f"never taking the discard top (k={format_value(r.k)})",
                f"threshold:k={format_value(r.k)}",
                r.value,
                r.value_lo,
                r.value_hi,
                what="loss rate" if rate else "mean score",
                unit="" if rate else "points per round",
                lower_is_better=True,
                p_holm=r.p_holm,
                percent=rate,
            )
        )
    rounds = t[t.unit == "round"]
    if len(rounds):
        r0 = rounds.iloc[int(np.argmin(np.abs(rounds["k"].to_numpy() - 4)))]
        b.answer.append(
            "Taking from the discard pile: "
            + words.difference(
                "never taking it",
                f"threshold:k={format_value(r0['k'])}",
                r0["value"],
                r0["value_lo"],
                r0["value_hi"],
                what="mean score",
                unit="points per round",
                p_holm=r0["p_holm"],
            )
        )
    fig = plots.seat_bars(
        [f"k={format_value(r.k)} ({r.unit})" for r in t.itertuples()],
        t["value"],
        t["value_lo"],
        t["value_hi"],
        ylabel="never-take minus take (points per round; loss rate in match play)",
        title="What never taking the discard top costs (paired, 95% CI)",
        reference=0.0,
        groups=[f"{u} play" for u in t["unit"]],
    )
    b.figure("discard_value", fig)
    b.section(
        "2. The value of taking from the discard pile",
        [
            "threshold:k and the same rule that never takes the discard top (always the stock card) "
            "each play threshold:k=4 in both seats on the same deals.  A positive difference is what "
            "the discard pile is worth to a threshold player (points per round, or loss rate in match play).",
            *text,
        ],
        tables=["discard"],
        figures=["discard_value"],
    )


def _count_cells(values: list[float], bins: list[list[int]], rounds: int, seed: int) -> np.ndarray:
    """Decisions per player and round in each (card value, stage) cell under threshold:k=4,
    counted by the readable reference with an instrumented player."""
    from simulator.games.spokelse import reference
    from simulator.games.spokelse.variants import Rules

    counts = np.zeros((len(values), len(bins)), dtype=np.int64)
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
                if h >= 0 and u >= 0 and c < h and int(c) in index:
                    for j, (lo, hi) in enumerate(bins):
                        if lo <= left <= hi:
                            counts[index[int(c)], j] += 1
            return decide(obs, p, rng)

    players = [Counting(), Counting()]
    for g in range(rounds):
        reference.play_round(Rules(), players, seed=seed, game=g)
    return counts


def swap_slot(b: experiments.Bundle, cfg: dict, backend: dict) -> None:
    register_lab()
    values, bins = cfg["swap_values"], cfg["swap_bins"]
    field = lab(4)
    rows = []
    for v in values:
        for lo, hi in bins:
            known, unknown = lab(4, swap=1, value=v, left=(lo, hi)), lab(4, swap=2, value=v, left=(lo, hi))
            res = compare(
                "spokelse",
                [known, unknown],
                field_strategy=field,
                rounds=cfg["swap_rounds"],
                seed=b.seed,
                **backend,
            )
            r = res.summary["metrics"]["score"]["strategies"][1]
            rows.append(
                {
                    "card_points": v,
                    "stock_left": f"{lo}-{hi}",
                    "left_lo": lo,
                    "left_hi": hi,
                    "unknown_minus_known": r["diff"],
                    "unknown_minus_known_lo": r["diff_ci"][0],
                    "unknown_minus_known_hi": r["diff_ci"][1],
                    "p_value": r["p_value"],
                    "variance_reduction": r["variance_reduction"],
                }
            )
    b.use(field)
    t = pd.DataFrame(rows)
    t["p_holm"] = multipletests(t["p_value"].fillna(1.0), alpha=1 - LEVEL, method="holm")[1]
    t["significant"] = (t["p_holm"] < 1 - LEVEL) & ~(
        (t["unknown_minus_known_lo"] <= 0) & (t["unknown_minus_known_hi"] >= 0)
    )
    counts = _count_cells(values, bins, cfg["count_rounds"], b.seed)
    per_round = counts / (2.0 * cfg["count_rounds"])  # decisions per player and round
    t["decisions_per_round"] = [per_round[values.index(v), j] for v in values for j in range(len(bins))]
    # Identical play on every deal: the choice never came up (or never changed a thing).
    never = (t["unknown_minus_known_lo"] == 0) & (t["unknown_minus_known_hi"] == 0)
    t["came_up"] = ~never
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
    grid = t["unknown_minus_known"].to_numpy().reshape(len(values), len(bins))
    marks = t["significant"].to_numpy().reshape(len(values), len(bins))
    xl = [f"{lo}-{hi}" for lo, hi in bins]
    yl = [format_value(v) for v in values]
    b.figure(
        "swap_per_round",
        plots.heatmap(
            grid,
            xl,
            yl,
            xlabel="stock cards left (the round ends at 0)",
            ylabel="points of the card in hand",
            title="Unknown slot minus known-highest slot: points per round",
            colorbar="points per round (< 0: unknown slot better)",
            marks=marks,
            digits=3,
        ),
    )
    b.figure(
        "swap_per_decision",
        plots.heatmap(
            t["per_decision"].to_numpy().reshape(len(values), len(bins)),
            xl,
            yl,
            xlabel="stock cards left (the round ends at 0)",
            ylabel="points of the card in hand",
            title="Unknown slot minus known-highest slot: points per decision",
            colorbar="points per decision (< 0: unknown slot better)",
            marks=marks,
            digits=2,
        ),
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
    b.answer.append("Which slot to swap into, by stage of the round: " + " ".join(text[1:]))
    b.section(
        "3. Which slot to swap into: known-highest or unknown",
        text,
        tables=["swap"],
        figures=["swap_per_round", "swap_per_decision"],
    )


def first_player(b: experiments.Bundle, cfg: dict, backend: dict) -> None:
    rows = []
    text = []
    figs = []
    hist_series: dict[str, np.ndarray] = {}
    match_series: dict[str, np.ndarray] = {}
    for spec in ("threshold:k=4", "expect"):
        b.use(parse_spec(spec, "spokelse"))
        r = simulate("spokelse", [spec], rounds=cfg["seat_rounds"], seed=b.seed, **backend)
        s = r.summary
        for seat in s["seats"]:
            rows.append(
                {
                    "strategy": spec,
                    "unit": "round",
                    "seat": seat["seat"],
                    "role": "starts" if seat["seat"] == 0 else "deals",
                    "win_rate": seat["win_rate"],
                    "win_rate_lo": seat["win_rate_ci"][0],
                    "win_rate_hi": seat["win_rate_ci"][1],
                    "mean_score": seat["mean_score"],
                    "mean_score_lo": seat["mean_score_ci"][0],
                    "mean_score_hi": seat["mean_score_ci"][1],
                }
            )
        lo, hi = s["mean_score_diff_ci"]
        text.append(
            f"{spec} in both seats, round play: "
            + words.difference(
                "the starting player",
                "the dealer",
                s["mean_score_diff"],
                lo,
                hi,
                what="mean score",
                unit="points per round",
            )
        )
        for seat in (0, 1):
            hist_series[f"{spec}, seat {seat} ({'starts' if seat == 0 else 'deals'})"] = r.histograms[
                f"score_half_seat{seat}"
            ]
        m = simulate("spokelse", [spec], matches=cfg["seat_matches"], seed=b.seed, **backend)
        ms = m.summary
        lo, hi = ms["first_dealer_loss_rate_ci"]
        rows.append(
            {
                "strategy": spec,
                "unit": "match",
                "seat": -1,
                "role": "first dealer",
                "loss_rate": ms["first_dealer_loss_rate"],
                "loss_rate_lo": lo,
                "loss_rate_hi": hi,
                "draw_rate": ms["draw_rate"],
                "mean_rounds": ms["mean_rounds"],
                "mean_rounds_lo": ms["mean_rounds_ci"][0],
                "mean_rounds_hi": ms["mean_rounds_ci"][1],
            }
        )
        if lo <= 0.5 <= hi:
            text.append(
                f"{spec} in both seats, match play: no first-dealer effect detected at this size: the first "
                f"dealer lost {words.pct(ms['first_dealer_loss_rate'])} of matches ({words.ci_text(lo, hi, percent=True)}), "
                f"an interval that covers the fair 50% (draws: {words.pct(ms['draw_rate'])})."
            )
        else:
            side = "more" if lo > 0.5 else "less"
            text.append(
                f"{spec} in both seats, match play: the first dealer loses {side} often than half the time: "
                f"{words.pct(ms['first_dealer_loss_rate'])} of matches ({words.ci_text(lo, hi, percent=True)}; "
                f"draws: {words.pct(ms['draw_rate'])})."
            )
        match_series[spec] = m.histograms["match_rounds"]
    t = b.table("seats", pd.DataFrame(rows))
    rounds = t[t.unit == "round"]
    fig = plots.seat_bars(
        [f"{r.strategy}\nseat {r.seat} ({r.role})" for r in rounds.itertuples()],
        rounds["win_rate"],
        rounds["win_rate_lo"],
        rounds["win_rate_hi"],
        ylabel="round win rate (share of rounds)",
        title="First-player advantage: round win rate by seat (seat 0 starts)",
        groups=list(rounds["strategy"]),
    )
    b.figure("seat_advantage", fig)
    figs.append("seat_advantage")
    b.figure(
        "score_distribution",
        plots.histogram(
            hist_series,
            xlabel="points at the end of the round (jack ½)",
            title="Round scores by seat: distribution",
            scale=0.5,
            ylabel="share of rounds",
        ),
    )
    b.figure(
        "match_length",
        plots.histogram(
            match_series,
            xlabel="rounds in the match (target 21)",
            title="Match length: distribution",
            ylabel="share of matches",
        ),
    )
    figs += ["score_distribution", "match_length"]
    b.answer.append(text[0])
    b.section(
        "4. First-player advantage",
        [
            "The same strategy in both seats.  In round play seat 1 deals and seat 0 starts, so the "
            "paired seat difference on the same deals is the first player's advantage; in match play the "
            "first dealer is drawn at random and the deal alternates.",
            *text,
        ],
        tables=["seats"],
        figures=figs,
    )


def strongest(b: experiments.Bundle, cfg: dict, best: dict, backend: dict) -> None:
    rows = []
    text = []
    fresh = b.seed + 1_000_003  # fresh deals: the best k was chosen on the sweep's deals
    jack = cfg["jacks"][0]
    expect_spec = parse_spec("expect", "spokelse").spec
    for unit, n_key, metric in (("round", "confirm_rounds", "score"), ("match", "confirm_matches", "loss")):
        k = best[(unit, jack)]
        top = f"threshold:k={format_value(k)}"
        cands = [top, *(["threshold:k=4"] if top != "threshold:k=4" else []), expect_spec]
        b.use(*(parse_spec(c, "spokelse") for c in cands))
        res = compare(
            "spokelse",
            cands,
            seed=fresh,
            rules={"jack": str(jack)},
            **({"rounds": cfg[n_key]} if unit == "round" else {"matches": cfg[n_key]}),
            **backend,
        )
        block = res.summary["metrics"][metric]
        for r in block["strategies"]:
            rows.append(
                {
                    "unit": unit,
                    "player": r["player"],
                    "metric": metric,
                    "value": r[metric],
                    "value_lo": r[f"{metric}_ci"][0],
                    "value_hi": r[f"{metric}_ci"][1],
                    "diff_vs_best_k": r.get("diff", 0.0),
                    "diff_vs_best_k_lo": r.get("diff_ci", [0.0, 0.0])[0],
                    "diff_vs_best_k_hi": r.get("diff_ci", [0.0, 0.0])[1],
                    "p_holm": r.get("p_holm", np.nan),
                    "variance_reduction": r.get("variance_reduction") or np.nan,
                }
            )
            if r["player"] == expect_spec:
                rate = metric == "loss"
                sentence = words.difference(
                    expect_spec,
                    top,
                    r["diff"],
                    *r["diff_ci"],
                    what="loss rate" if rate else "mean score",
                    unit="" if rate else "points per round",
                    p_holm=r["p_holm"],
                    percent=rate,
                )
                text.append(f"{unit.capitalize()} play on fresh deals: {sentence}")
                text.append(words.variance_sentence(r.get("variance_reduction"), "expect's difference"))
        if res.summary.get("ranking"):
            order = ", ".join(f"{r['player']}" for r in res.summary["ranking"])
            text.append(f"Bradley–Terry ranking by deals won head to head in {unit} play: {order}.")
    t = b.table("strongest", pd.DataFrame(rows))
    b.answer += [x for x in text if x.startswith(("Round play", "Match play"))]
    sub = t[t["player"] != t.groupby("unit")["player"].transform("first")]
    b.figure(
        "strongest",
        plots.diff_bars(
            [f"{r.player} ({r.unit})" for r in sub.itertuples()],
            sub["diff_vs_best_k"],
            sub["diff_vs_best_k_lo"],
            sub["diff_vs_best_k_hi"],
            xlabel="difference to threshold at its best k (points per round; loss rate in match play)",
            title="Against threshold at its best k, on fresh deals (paired, 95% CI)",
            significant=list(sub["p_holm"] < 1 - LEVEL),
        ),
    )
    b.section(
        "5. The strongest shipped strategy against the best threshold",
        [
            "Every pair plays every deal twice, seats swapped, on deals not used to choose k "
            "(a fresh seed), with threshold at its best k as the baseline.",
            *text,
        ],
        tables=["strongest"],
        figures=["strongest"],
    )
