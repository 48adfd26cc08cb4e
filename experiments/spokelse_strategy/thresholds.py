"""Questions 1 and 2: the threshold sweep (which k plays best, with the jack at ½ and at 11)
and what taking from the discard pile is worth."""

from __future__ import annotations

import numpy as np
import pandas as pd
from statsmodels.stats.multitest import multipletests

import experiments
from experiments.spokelse_strategy.plan import _jack_text, _units
from experiments.spokelse_strategy.steps import _compare_step, _sweep_step
from experiments.spokelse_strategy.threshold_lab import lab, register_lab
from simulator.analysis import leader
from simulator.engine import formatting
from simulator.engine.stats import LEVEL
from simulator.engine.summary import with_interval
from simulator.reporting import pages as words
from simulator.reporting import plots
from strategies.registry import format_value, parse_spec


def _k(player: str) -> str:
    """A threshold spec as the sweep's point: ``threshold:k=2`` → ``k=2``."""
    return player.partition(":")[2] or player


def _best_k_text(setting: str, top: dict, res, n: int, rate: bool, unit_txt: str) -> tuple[str, str]:
    """The leading k of one setting, said only as firmly as the tests allow: (sentence, kind).

    ``top`` is the sweep's :meth:`~simulator.analysis.sweep_result.SweepResult.top`: the k with
    the lowest observed figure and its paired tests against every other k played on the same
    deals (``vs_others``, Holm-corrected).  ``kind`` is ``"best"`` only when every one of them
    favours it; otherwise ``"lowest"`` (the lowest observed, and the k it is not clearly better
    than are named)."""
    what = "loss rate" if rate else "mean score"
    k = _k(top["player"])
    value = words.value_text(top["value"], *top["ci"], unit=unit_txt, percent=rate)
    tests = top.get("vs_others")
    if top.get("best") and tests:
        close = tests[0]
        sentence = (
            f"{setting}: {k} has the lowest {what} of the k tried, {value}, and it is lower than every "
            f"other k played on the same deals (Holm-corrected over {len(tests)} comparisons); the closest, "
            f"{_k(close['other'])}, by {words.amount(close['diff'], *close['diff_ci'], unit=unit_txt, percent=rate)} "
            f"(Holm-corrected {words.p_text(close['p_holm'])}).  {k} was picked as the lowest of the "
            f"{len(tests) + 1} k played (values that play alike count once) on these deals; section 5 "
            "re-tests it on fresh ones."
        )
        return sentence, "best"
    sentence = f"{setting}: {k} is the {leader.standing('lowest', tests, _k)}, {value}; it is not called best"
    close = leader.not_clearly_beaten(tests or [])
    if close:
        c = close[0]
        sentence += (
            f": {k} minus {_k(c['other'])} is "
            f"{formatting.with_interval(c['diff'], c['diff_ci'], scale=100.0 if rate else 1.0, sign=True)} "
            f"{'percentage points' if rate else unit_txt} on the same deals "
            f"(Holm-corrected {words.p_text(c['p_holm'])} over {len(tests)} comparisons)"
        )
    sentence += "."
    base = top.get("vs_baseline")
    if base is not None:
        sentence += "  Against the reference: " + words.difference(
            k, _k(res.baseline), base["diff"], *base["diff_ci"], what=what, unit=unit_txt,
            p_holm=base["p_holm"], percent=rate, n=n, tests=len(res.table) - 1,
            n_unit="rounds" if not rate else "matches",
        )  # fmt: skip
    return sentence, "lowest"


def _k_headline(top: dict, kind: str, unit_txt: str) -> str:
    """The answer to "Which threshold k plays best?" (round play, jack ½) in one line."""
    k = _k(top["player"])
    tests = top.get("vs_others") or []
    if kind == "best":
        close = tests[0]
        return (
            f"{k}: the lowest mean score, lower than every other k tried on the same deals (Holm-corrected "
            f"over {len(tests)} comparisons); the closest, {_k(close['other'])}, scores "
            f"{words.amount(close['diff'], *close['diff_ci'], unit=unit_txt)} more (round play, jack ½)."
        )
    return (
        f"Not settled at this size: {k} is the {leader.standing('lowest', top.get('vs_others'), _k)} "
        "mean score, so no k is called best (round play, jack ½)."
    )


def threshold_sweep(b: experiments.Bundle, cfg: dict, backend: dict) -> dict[tuple[str, float], float]:
    rows = []
    best: dict[tuple[str, float], float] = {}
    text = []
    answers = []
    fig_names = []
    for unit, n_key, metric in _units():
        for jack in cfg["jacks"]:
            n = cfg[n_key]
            res = _sweep_step(
                b,
                f"sweep/{unit}/jack={jack}",
                f"threshold:k={cfg['sweep_k']}",
                backend,
                vs="threshold:k=4",
                seed=b.seed,
                rules={"jack": str(jack)},
                **({"rounds": n} if unit == "round" else {"matches": n}),
            )
            t = res.table.copy()
            t.insert(0, "jack", jack)
            t.insert(0, "unit", unit)
            rows.append(t)
            top = res.summary["top"]  # the leader, tested against every other k while the sweep was played
            best[(unit, jack)] = float(top["point"]["k"])
            info = res.metric_info()
            rate = info["kind"] == "rate"
            unit_txt = "" if rate else "points per round"
            setting = f"{unit.capitalize()} play, {_jack_text(jack)}"
            sentence, kind = _best_k_text(setting, top, res, n, rate, unit_txt)
            text.append(sentence)
            answers.append(sentence)
            if unit == "round" and jack == cfg["jacks"][0]:
                b.headline("Which threshold k plays best?", _k_headline(top, kind, unit_txt))
            name = f"sweep_{unit}_jack{format_value(jack).replace('.', '_')}"
            b.figure(
                name,
                res.plot(
                    title=f"Spøkelse {setting.lower()}: {'loss rate' if rate else 'mean score'} by k against threshold:k=4"
                ),
                caption=(
                    f"Spøkelse {setting.lower()}: threshold's "
                    + ("loss rate (% of matches)" if rate else "mean score (points per round)")
                    + " at each k with its 95% band (top), and its difference to threshold:k=4 on the same "
                    "deals with its 95% band (bottom); lower is better; the ringed point is the best k."
                ),
            )
            fig_names.append(name)
            b.use(*(parse_spec(p, "spokelse") for p in res.table["player"]))
            vr = res.table[f"{metric}_variance_reduction"].dropna()
            if len(vr) and unit == "round" and jack == cfg["jacks"][0]:
                text.append(
                    words.variance_sentence(float(vr.median()), "a k's difference to k=4 (median over k)")
                )
    b.table("sweep", pd.concat(rows, ignore_index=True))
    b.answer += answers
    b.section(
        "1. The threshold k",
        [
            "Every k plays threshold:k=4 twice per deal, once in each seat, on the same deals; "
            "the lower panel is the paired difference to k=4, whose interval is far narrower than "
            "the interval of the figure itself.  Ringed: the lowest k observed.  A k is called best "
            "only when it is lower than every other k played, each paired difference on the same deals "
            "surviving Holm's correction over those comparisons; otherwise it is the lowest observed.",
            *text,
        ],
        tables=["sweep"],
        figures=fig_names,
    )
    return best


def discard_value(b: experiments.Bundle, cfg: dict, backend: dict) -> None:
    register_lab()
    field = lab(4)
    rows = []
    for unit, n_key in (("round", "discard_rounds"), ("match", "discard_matches")):
        for k in cfg["discard_k"]:
            with_pile, without = lab(k), lab(k, discard=0)
            b.use(with_pile, without)
            summary = _compare_step(
                b,
                f"discard/{unit}/k={k}",
                [with_pile, without],
                backend,
                field=field,
                seed=b.seed,
                **({"rounds": cfg[n_key]} if unit == "round" else {"matches": cfg[n_key]}),
            )
            metric = "score" if unit == "round" else "loss"
            r = summary["metrics"][metric]["strategies"][1]
            base = summary["metrics"][metric]["strategies"][0]
            rows.append(
                {
                    "unit": unit,
                    "k": k,
                    "metric": metric,
                    **with_interval(base, metric, "with_pile"),
                    **with_interval(r, metric, "never_pile"),
                    # The value of the pile: what is lost by never taking it.
                    **with_interval(r, "diff", "value"),
                    "p_value": r["p_value"],
                    "variance_reduction": r["variance_reduction"],
                    "deals": cfg[n_key],
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
                n=int(r.deals),
                tests=len(t),
                n_unit="matches" if rate else "rounds",
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
                n=int(r0["deals"]),
                tests=len(t),
                n_unit="rounds",
            )
        )
        k0 = format_value(r0["k"])
        d, lo, hi, p = r0["value"], r0["value_lo"], r0["value_hi"], r0["p_holm"]
        v = words.verdict(d, lo, hi, p, lower_is_better=False)  # a positive value: the pile is worth it
        size = words.amount(d, lo, hi, unit="points per round")
        if v == "better":
            line = (
                f"About {size} for threshold:k={k0}: never taking it scores that much "
                "more, which is worse (round play)."
            )
        elif v == "worse":
            line = (
                f"Nothing: never taking it scores {size} less, which is better, "
                f"for threshold:k={k0} (round play)."
            )
        else:
            line = (
                f"No value detected at this size: never taking it scores no differently from taking it "
                f"for threshold:k={k0} (Holm-corrected {words.p_text(p)}; round play)."
            )
        b.headline("What is taking from the discard pile worth?", line)
    fig = plots.seat_bars(
        [f"k={format_value(r.k)}" for r in t.itertuples()],
        t["value"],
        t["value_lo"],
        t["value_hi"],
        ylabel={
            "round play": "never-take minus take (points per round)",
            "match play": "never-take minus take (loss rate, percentage points)",
        },
        title="What never taking the discard top costs (paired, 95% CI)",
        reference=0.0,
        groups=[f"{u} play" for u in t["unit"]],
        lower_is_better=True,
        percent={"match play": "points"},
    )
    b.figure(
        "discard_value",
        fig,
        caption="What never taking the top of the discard pile costs threshold at each k: never-take "
        "minus take on the same deals, with 95% intervals, in points per round (round play) and in "
        "percentage points of the loss rate (match play); above 0, never taking is worse.",
    )
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
