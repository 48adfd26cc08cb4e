"""reaction-vs-cards: in Gris-nese, how much faster must a player react to make up for
worse card play?

The field is greedy with the default reaction profile (median 0.8 s, σ 0.35).  The
focal player takes one seat, rotated through every seat on the same deals, with a card
strategy S and its own reaction median m (σ unchanged); its reaction profile follows
it round the table.  The baseline is a greedy focal player at 0.8 s, i.e. an
ordinary seat.  Because every seat's reaction time is drawn as ``m · exp(σ z)`` from
its own stream, every grid point meets the same deals *and* the same reaction draws,
so the paired differences are sharp.

For each S the paired difference d(m) = P(elimination | S, m) − P(elimination | greedy,
0.8 s) grows with m.  The **break-even median** m* is where d crosses 0 (linear
interpolation between grid points).  Its 95% interval is the set of medians at which
the pointwise 95% interval of d still covers 0: from where the upper bound crosses 0 to
where the lower bound does (interpolated the same way).  A strategy better than greedy
at the cards has m* above 0.8 s: how much slower it may be.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

import experiments
from simulator.analysis.compare import compare, label
from simulator.engine.reaction import DEFAULT_MEDIAN, DEFAULT_SIGMA
from simulator.engine.summary import with_interval
from simulator.reporting import pages as words
from simulator.reporting import plots
from strategies.registry import parse_spec

NAME = "reaction-vs-cards"
VERSION = "1"
TITLE = "Gris-nese: reaction speed against card play"
QUESTION = (
    "In Gris-nese, how much faster must a player react to make up for a worse card strategy "
    "(and how much slower may a better one be) before its elimination rate equals an ordinary greedy player's?"
)

CONFIG: dict[str, dict[str, Any]] = {
    "tiny": {
        "seed": 3,
        "players": 5,
        "strategies": ["random", "commit:after=0", "follow"],
        "medians": [0.5, 0.65, 0.8, 0.95],
        "rounds": 400,
    },
    "quick": {
        "seed": 3,
        "players": 5,
        "strategies": ["random", "commit:after=0", "greedy", "follow"],
        "medians": [0.4, 0.5, 0.55, 0.6, 0.65, 0.7, 0.75, 0.8, 0.85, 0.9, 1.0, 1.1],
        "rounds": 60_000,
    },
    "full": {
        "seed": 3,
        "players": 5,
        "strategies": ["random", "commit:after=0", "greedy", "follow"],
        "medians": [0.3, 0.4, 0.45, 0.5, 0.55, 0.6, 0.65, 0.7, 0.75, 0.8, 0.85, 0.9, 1.0, 1.1, 1.25],
        "rounds": 400_000,
    },
}


def crossing(x: np.ndarray, y: np.ndarray) -> float | None:
    """The first x (ascending) where y, linear between points, reaches 0 from below or above;
    None if y keeps one sign on the grid."""
    x, y = np.asarray(x, dtype=float), np.asarray(y, dtype=float)
    o = np.argsort(x)
    x, y = x[o], y[o]
    for i in range(len(x)):
        if y[i] == 0:
            return float(x[i])
        if i + 1 < len(x) and np.sign(y[i]) != np.sign(y[i + 1]) and y[i + 1] != 0:
            return float(x[i] + (x[i + 1] - x[i]) * (0 - y[i]) / (y[i + 1] - y[i]))
    return None


def break_even(m: np.ndarray, d: np.ndarray, lo: np.ndarray, hi: np.ndarray) -> dict[str, Any]:
    """The break-even median and its interval (see the module docstring)."""
    est = crossing(m, d)
    # d rises with m: the upper bound reaches 0 first (the low end), the lower bound last.
    low_end = crossing(m, hi)
    high_end = crossing(m, lo)
    grid_lo, grid_hi = float(np.min(m)), float(np.max(m))
    return {
        "break_even": est,
        "break_even_lo": low_end,
        "break_even_hi": high_end,
        # Where a bound never crosses on the grid, the interval runs past the grid's end.
        "lo_open": low_end is None,
        "hi_open": high_end is None,
        "grid": [grid_lo, grid_hi],
    }


def _grid(cfg: dict) -> tuple[Any, list, list, list, list]:
    """The baseline and the focal players: every strategy at every median (the baseline once)."""
    sigma = DEFAULT_SIGMA
    base = parse_spec("greedy", "gris-nese")
    specs = [parse_spec(s, "gris-nese") for s in cfg["strategies"]]
    cands, reactions, keys = [base], [None], [("greedy", DEFAULT_MEDIAN)]
    for p in specs:
        for m in cfg["medians"]:
            if p.spec == base.spec and m == DEFAULT_MEDIAN:
                continue  # that is the baseline itself
            cands.append(p)
            reactions.append((m, sigma))
            keys.append((p.spec, m))
    return base, specs, cands, reactions, keys


def plan(cfg: dict) -> list[experiments.Step]:
    """One comparison: every focal player in every seat on the same deals."""
    n_cands = 1 + len(cfg["strategies"]) * len(cfg["medians"])
    return [
        experiments.Step(
            "grid",
            cfg["rounds"],
            n_cands * cfg["players"],
            f"{n_cands} focal players × {cfg['players']} seats on {cfg['rounds']:,} deals",
        )
    ]


@experiments.study_run
def run(b: experiments.Bundle, backend: dict[str, Any]) -> experiments.ExperimentResult:
    cfg = b.cfg
    sigma = DEFAULT_SIGMA
    base, specs, cands, reactions, keys = _grid(cfg)
    b.use(base, *specs)
    s = b.step(
        "grid",
        lambda p: (
            compare(
                "gris-nese",
                cands,
                field=base,
                baseline=label(base.spec, None),
                rounds=cfg["rounds"],
                players=cfg["players"],
                reactions=reactions,
                seed=b.seed,
                progress=p,
                **backend,
            ).summary
        ),
    )
    rows = []
    for (spec, m), r in zip(keys, s["metrics"]["eliminated"]["strategies"]):
        rows.append(
            {
                "strategy": spec,
                "median_s": m,
                "player": r["player"],
                **with_interval(r, "eliminated"),
                "diff": r.get("diff", 0.0),
                "diff_lo": r.get("diff_ci", [0.0, 0.0])[0],
                "diff_hi": r.get("diff_ci", [0.0, 0.0])[1],
                "p_holm": r.get("p_holm", np.nan),
                "variance_reduction": r.get("variance_reduction") or np.nan,
            }
        )
    t = pd.DataFrame(rows)
    # The baseline is also the greedy point at 0.8 s of the greedy line.
    if "greedy" in [p.spec for p in specs]:
        t.loc[0, "strategy"] = "greedy"
    else:
        t.loc[0, "strategy"] = "greedy (baseline)"
    b.table("grid", t)
    base_rate = float(t.loc[0, "eliminated"])
    lines = t[t.strategy.isin([p.spec for p in specs])]
    even_rows, text = [], []
    for p in specs:
        g = lines[lines.strategy == p.spec].sort_values("median_s")
        be = break_even(
            g.median_s.to_numpy(), g["diff"].to_numpy(), g.diff_lo.to_numpy(), g.diff_hi.to_numpy()
        )
        even_rows.append({"strategy": p.spec, **{k: v for k, v in be.items() if k != "grid"}})
        text.append(_sentence(p.spec, be))
        b.headline(
            f"{p.spec}: how fast must it react to be eliminated as often as an ordinary greedy seat?",
            _headline(be, g["diff"].to_numpy()),
        )
    even = b.table("break_even", pd.DataFrame(even_rows))
    b.answer += text
    fig = plots.metric_vs_param(
        lines.median_s,
        lines.eliminated,
        lines.eliminated_lo,
        lines.eliminated_hi,
        groups=list(lines.strategy),
        xlabel="focal player's reaction median (seconds)",
        ylabel="elimination rate (% of rounds)",
        title=f"Gris-nese, {cfg['players']} players: elimination by reaction speed and card strategy",
        reference=base_rate,
        reference_label=f"greedy at {DEFAULT_MEDIAN:g} s (an ordinary seat)",
        lower_is_better=True,
        percent=True,
    )
    b.figure(
        "elimination_by_reaction",
        fig,
        caption="The focal player's elimination rate (% of rounds) against its reaction median "
        "(seconds), one line per card strategy, with 95% bands; dashed: greedy at "
        f"{DEFAULT_MEDIAN:g} s (an ordinary seat); lower is better.",
    )
    fig = plots.sweep_panels(
        lines.median_s,
        lines.eliminated,
        lines.eliminated_lo,
        lines.eliminated_hi,
        lines["diff"],
        lines.diff_lo,
        lines.diff_hi,
        groups=list(lines.strategy),
        xlabel="focal player's reaction median (seconds)",
        ylabel="elimination rate (% of rounds)",
        title="Break-even: where the paired difference to an ordinary seat crosses 0",
        baseline=f"greedy @{DEFAULT_MEDIAN:g}s",
        lower_is_better=True,
        percent=True,
    )
    ax = fig.axes[1]
    for i, r in enumerate(even.itertuples()):
        if r.break_even is not None and np.isfinite(r.break_even):
            ax.axvline(r.break_even, color=plots.colour(i), ls=":", lw=1.2)
    b.figure(
        "break_even",
        fig,
        caption="Top: the focal player's elimination rate (% of rounds) against its reaction median "
        f"(seconds). Bottom: its difference to greedy at {DEFAULT_MEDIAN:g} s on the same deals, in "
        "percentage points; both with 95% bands. Dotted: where a strategy's difference crosses 0 "
        "(its break-even); lower is better.",
    )
    b.section(
        "Elimination rate over reaction median × card strategy",
        [
            f"{cfg['players']} players; the field plays greedy at the default reaction "
            f"(median {DEFAULT_MEDIAN:g} s, σ {sigma:g}); the focal player sits in every seat in turn on "
            f"{s['n']:,} deals ({s['deals_used']:,} counted; stalled and replayed rounds enter no figure).",
            _base_sentence(base_rate, t.loc[0, "eliminated_lo"], t.loc[0, "eliminated_hi"], cfg["players"]),
            words.variance_sentence(
                float(t["variance_reduction"].dropna().median())
                if t["variance_reduction"].notna().any()
                else None,
                "a grid point's difference to the ordinary seat (median)",
            ),
        ],
        tables=["grid"],
        figures=["elimination_by_reaction"],
    )
    b.section("Break-even reaction median", text, tables=["break_even"], figures=["break_even"])
    return b.finish("grid")


def _covers_field_median(be: dict) -> bool:
    """Whether the break-even's 95% interval is closed on the grid and holds the field's
    reaction median (then no difference from greedy card play is detected).

    Parameters
    ----------
    be : dict
        A strategy's break-even (:func:`break_even`).
    """
    return (
        not be["lo_open"]
        and not be["hi_open"]
        and be["break_even_lo"] <= DEFAULT_MEDIAN <= be["break_even_hi"]
    )


def _base_sentence(rate: float, lo: float, hi: float, players: int) -> str:
    """The ordinary seat's elimination rate; with the whole table greedy it is exactly 1/players."""
    if words.zero_width(lo, hi):
        return (
            f"An ordinary greedy seat is eliminated in exactly {words.pct(rate)} of rounds, with no "
            f"interval: when every seat plays greedy at the same speed, the seat rotated round the "
            f"table is eliminated in exactly one round in {players} on every deal."
        )
    return (
        f"An ordinary greedy seat is eliminated in {words.pct(rate)} of rounds "
        f"({words.ci_text(lo, hi, percent=True)})."
    )


def _headline(be: dict, diffs: Any = None) -> str:
    """The break-even in one plain line; ``diffs`` (the paired differences on the grid) says
    on which side of an ordinary seat a strategy without a break-even stays."""
    lo_grid, hi_grid = be["grid"]
    est = be["break_even"]
    if est is None:
        d = np.asarray(diffs if diffs is not None else [], dtype=float)
        d = d[np.isfinite(d)]
        side = (
            "more often than"
            if len(d) and (d > 0).all()
            else "less often than"
            if len(d) and (d < 0).all()
            else "about as often as"
        )
        return (
            f"Not on the grid tried ({lo_grid:g}-{hi_grid:g} s): it is eliminated {side} an ordinary greedy "
            "seat at every reaction median tried."
        )
    lo = f"{be['break_even_lo']:.3g}" if not be["lo_open"] else f"below {lo_grid:g}"
    hi = f"{be['break_even_hi']:.3g}" if not be["hi_open"] else f"above {hi_grid:g}"
    interval = f"95% interval {lo} to {hi} s"
    if _covers_field_median(be):
        return (
            f"As fast as the field: no difference from greedy card play detected at this size "
            f"(break-even median {est:.3g} s, {interval}, which covers the field's {DEFAULT_MEDIAN:g} s)."
        )
    faster = 1 - est / DEFAULT_MEDIAN
    if faster >= 0:
        return f"{words.pct(faster, 2)} faster than the field: a reaction median of {est:.3g} s ({interval})."
    return f"It may be {words.pct(-faster, 2)} slower than the field: a reaction median of {est:.3g} s ({interval})."


def _sentence(spec: str, be: dict) -> str:
    lo_grid, hi_grid = be["grid"]
    est = be["break_even"]
    if est is None:
        return (
            f"{spec}: no break-even on the grid {lo_grid:g}-{hi_grid:g} s: its difference to an ordinary "
            f"greedy seat keeps one sign over the whole grid."
        )
    lo = f"{be['break_even_lo']:.3g} s" if not be["lo_open"] else f"below {lo_grid:g} s"
    hi = f"{be['break_even_hi']:.3g} s" if not be["hi_open"] else f"above {hi_grid:g} s"
    faster = 1 - est / DEFAULT_MEDIAN
    if _covers_field_median(be):
        return (
            f"{spec}: break-even at a reaction median of {est:.3g} s (95% interval {lo} to {hi}), an "
            f"interval that covers the field's {DEFAULT_MEDIAN:g} s: no difference from greedy card play "
            f"detected at this size."
        )
    if faster >= 0:
        speed = f"a reaction median {words.pct(faster)} faster than the field's {DEFAULT_MEDIAN:g} s"
    else:
        speed = f"a reaction median up to {words.pct(-faster)} slower than the field's {DEFAULT_MEDIAN:g} s"
    return (
        f"{spec}: break-even at a reaction median of {est:.3g} s (95% interval {lo} to {hi}), i.e. "
        f"{speed} gives the same elimination rate as an ordinary greedy seat."
    )
