"""Questions 4 and 5: the first player's advantage, and the strongest shipped strategy
against the leading threshold (the k lowest in section 1) on fresh deals."""

from __future__ import annotations

import numpy as np
import pandas as pd

import experiments
from experiments.spokelse_strategy.steps import _compare_step, _simulate_step
from simulator.engine.summary import with_interval
from simulator.reporting import pages as words
from simulator.reporting import plots
from strategies.registry import format_value, parse_spec


def first_player(b: experiments.Bundle, cfg: dict, backend: dict) -> None:
    rows = []
    text = []
    figs = []
    hist_series: dict[str, np.ndarray] = {}
    match_series: dict[str, np.ndarray] = {}
    seat_diffs: list[tuple[str, float, float, float]] = []
    for spec in ("threshold:k=4", "expect"):
        b.use(parse_spec(spec, "spokelse"))
        r = _simulate_step(b, f"seats/{spec}/round", spec, backend, rounds=cfg["seat_rounds"])
        s = r["summary"]
        for seat in s["seats"]:
            rows.append(
                {
                    "strategy": spec,
                    "unit": "round",
                    "seat": seat["seat"],
                    "role": "starts" if seat["seat"] == 0 else "deals",
                    **with_interval(seat, "win_rate"),
                    **with_interval(seat, "mean_score"),
                }
            )
        lo, hi = s["mean_score_diff_ci"]
        seat_diffs.append((spec, s["mean_score_diff"], lo, hi))
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
                n=cfg["seat_rounds"],
                n_unit="rounds",
            )
        )
        for seat in (0, 1):
            hist_series[f"{spec}, seat {seat} ({'starts' if seat == 0 else 'deals'})"] = r["histograms"][
                f"score_half_seat{seat}"
            ]
        m = _simulate_step(b, f"seats/{spec}/match", spec, backend, matches=cfg["seat_matches"])
        ms = m["summary"]
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
                **with_interval(ms, "mean_rounds"),
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
        match_series[spec] = m["histograms"]["match_rounds"]
    t = b.table("seats", pd.DataFrame(rows))
    rounds = t[t.unit == "round"]
    fig = plots.seat_bars(
        [f"{r.strategy}\nseat {r.seat} ({r.role})" for r in rounds.itertuples()],
        rounds["win_rate"],
        rounds["win_rate_lo"],
        rounds["win_rate_hi"],
        ylabel="round win rate (% of rounds)",
        title="First-player advantage: round win rate by seat (seat 0 starts)",
        groups=list(rounds["strategy"]),
        lower_is_better=False,
        percent=True,
    )
    b.figure(
        "seat_advantage",
        fig,
        caption="Round win rate (% of rounds) of each seat, per strategy, with 95% intervals; seat 0 "
        "starts; higher is better for the seat.",
    )
    figs.append("seat_advantage")
    b.figure(
        "score_distribution",
        plots.histogram(
            hist_series,
            xlabel="points at the end of the round (jack ½)",
            title="Round scores by seat: distribution",
            scale=0.5,
            ylabel="share of rounds",
            lower_is_better=True,
        ),
        caption="How many points each seat holds at the end of a round (share of rounds, %, at each "
        "score), one line per seat; fewer points are better.",
    )
    b.figure(
        "match_length",
        plots.histogram(
            match_series,
            xlabel="rounds in the match (target 21)",
            title="Match length: distribution",
            ylabel="share of matches",
        ),
        caption="How many rounds a match to 21 points lasts (share of matches, %, at each length); "
        "neither way is better.",
    )
    figs += ["score_distribution", "match_length"]
    b.answer.append(text[0])
    spec, d, lo, hi = seat_diffs[0]
    v = words.verdict(d, lo, hi, None, lower_is_better=True)
    size = words.amount(d, lo, hi, unit="points per round")
    if v == "better":
        line = (
            f"Yes: the starting player scores {size} less than the dealer, "
            f"which is better ({spec} in both seats, round play)."
        )
    elif v == "worse":
        line = (
            f"No, the dealer has it: the starting player scores {size} more, "
            f"which is worse ({spec} in both seats, round play)."
        )
    else:
        line = (
            f"No advantage detected at this size: the starting player scores no differently from the "
            f"dealer ({spec} in both seats, round play)."
        )
    b.headline("Does the first player have an advantage?", line)
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
    fresh = b.seed + 1_000_003  # fresh deals: the leading k was chosen on the sweep's deals
    jack = cfg["jacks"][0]
    expect_spec = parse_spec("expect", "spokelse").spec
    for unit, n_key, metric in (("round", "confirm_rounds", "score"), ("match", "confirm_matches", "loss")):
        k = best[(unit, jack)]
        top = f"threshold:k={format_value(k)}"
        cands = [top, *(["threshold:k=4"] if top != "threshold:k=4" else []), expect_spec]
        b.use(*(parse_spec(c, "spokelse") for c in cands))
        summary = _compare_step(
            b,
            f"strongest/{unit}",
            cands,
            backend,
            seed=fresh,
            rules={"jack": str(jack)},
            **({"rounds": cfg[n_key]} if unit == "round" else {"matches": cfg[n_key]}),
        )
        block = summary["metrics"][metric]
        for r in block["strategies"]:
            rows.append(
                {
                    "unit": unit,
                    "player": r["player"],
                    "metric": metric,
                    **with_interval(r, metric, "value"),
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
                    n=cfg[n_key],
                    tests=len(cands) - 1,
                    n_unit="matches" if rate else "rounds",
                )
                text.append(f"{unit.capitalize()} play on fresh deals: {sentence}")
                if unit == "round":
                    d, (lo, hi) = r["diff"], r["diff_ci"]
                    v = words.verdict(d, lo, hi, r["p_holm"], lower_is_better=True)
                    size = words.amount(d, lo, hi, unit="points per round")
                    if v == "better":
                        line = (
                            f"expect is better: it scores {size} less than {top} on fresh deals (round play)."
                        )
                    elif v == "worse":
                        line = f"{top} is better: expect scores {size} more on fresh deals (round play)."
                    else:
                        line = (
                            f"No difference detected at this size: expect scores no differently from {top} "
                            f"on fresh deals (Holm-corrected {words.p_text(r['p_holm'])}; round play)."
                        )
                    b.headline(
                        "How does the strongest shipped strategy (expect) do against the leading threshold?",
                        line,
                    )
                text.append(words.variance_sentence(r.get("variance_reduction"), "expect's difference"))
        if summary.get("ranking"):
            order = ", ".join(f"{r['player']}" for r in summary["ranking"])
            text.append(f"Bradley–Terry ranking by deals won head to head in {unit} play: {order}.")
    t = b.table("strongest", pd.DataFrame(rows))
    b.answer += [x for x in text if x.startswith(("Round play", "Match play"))]
    sub = t[t["player"] != t.groupby("unit")["player"].transform("first")]
    b.figure(
        "strongest",
        plots.diff_bars(
            list(sub["player"]),
            sub["diff_vs_best_k"],
            sub["diff_vs_best_k_lo"],
            sub["diff_vs_best_k_hi"],
            groups=[f"{u} play" for u in sub["unit"]],
            xlabel={
                "round play": "difference to threshold at its leading k (points per round)",
                "match play": "difference to threshold at its leading k in loss rate",
            },
            lower_is_better=True,
            percent={"match play": True},
            title="Against threshold at its leading k, on fresh deals (paired, 95% CI)",
            significant=[
                words.is_significant(a, z, p)
                for a, z, p in zip(sub["diff_vs_best_k_lo"], sub["diff_vs_best_k_hi"], sub["p_holm"])
            ],
        ),
        caption="Each other strategy minus threshold at its leading k, on fresh deals, with 95% "
        "intervals, in points per round (round play) and in percentage points of the loss rate "
        "(match play); below 0 is better than threshold; filled: significant after Holm's correction.",
    )
    b.section(
        "5. The strongest shipped strategy against the leading threshold",
        [
            "Every pair plays every deal twice, seats swapped, on deals not used to choose k "
            "(a fresh seed), with threshold at its leading k (the lowest observed in section 1) as the baseline.",
            *text,
        ],
        tables=["strongest"],
        figures=["strongest"],
    )
