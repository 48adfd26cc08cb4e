"""The report of a plain run (``kortsim simulate --out``): a headline per seat, the seat
differences in words, one histogram figure per kind."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path

import numpy as np

from simulator.reporting.page_model import Headline, Report, Section
from simulator.reporting.sentences import ci_text, difference, estimate, num, partial_text, pct, verdict

# Histogram name prefix -> (x label, scale, title).
HISTOGRAM_AXES = {
    "score_half": ("points at the end of the round", 0.5, "Round scores"),
    "match_rounds": ("rounds in the match", 1.0, "Match length"),
    "match_deals": ("deals in the match", 1.0, "Match length"),
    "passes": ("passes in the round", 1.0, "Round length"),
    "letters": ("letters at the end of the match", 1.0, "Letters held"),
}


def histogram_axes(name: str) -> tuple[str, float, str]:
    for prefix, axes in HISTOGRAM_AXES.items():
        if name.startswith(prefix):
            return axes
    return (name, 1.0, name)


def histogram_figures(
    histograms: Mapping[str, np.ndarray], players: Sequence[str], out_dir: Path, stem: str = ""
) -> dict[str, Path]:
    """One figure per kind of histogram (the seats of one kind share a figure)."""
    from simulator.reporting import plots

    groups: dict[str, dict[str, np.ndarray]] = {}
    for name, h in histograms.items():
        base, _, seat = name.rpartition("_seat")
        if base and seat.isdigit():
            s = int(seat)
            who = players[s] if s < len(players) else ""
            groups.setdefault(base, {})[f"seat {s}" + (f" ({who})" if who else "")] = np.asarray(h)
        else:
            groups.setdefault(name, {})["all games"] = np.asarray(h)
    out = {}
    for base, series in groups.items():
        xlabel, scale, title = histogram_axes(base)
        fig = plots.histogram(series, xlabel=xlabel, title=f"{title}: distribution", scale=scale)
        name = f"{stem}{base}"
        out[name] = plots.save(fig, out_dir / "figures", name)["png"]
    return out


UNITS = {"mean_score": "points per round"}  # summary key -> unit of a figure that is not a rate


def _metric_words(key: str) -> tuple[str, bool]:
    """A summary key in words, and whether it is a rate (said in percent)."""
    rate = key.endswith("_rate")
    return key.replace("_", " "), rate


def from_result(result, out_dir: Path) -> Report:
    """A report for a folder written by ``kortsim simulate --out``: headline, seats, histograms."""
    s = result.summary
    players = [seat["player"] for seat in s["seats"]]
    unit = s["unit"] + ("es" if s["unit"] == "match" else "s")
    figures = histogram_figures(result.histograms, players, Path(out_dir))
    seats = result.seats
    top = result.table
    answer = []
    firsts = []
    for seat in s["seats"]:
        for key, v in seat.items():
            if f"{key}_ci" in seat and isinstance(v, int | float):
                lo, hi = seat[f"{key}_ci"]
                what, rate = _metric_words(key)
                fu = UNITS.get(key, "")
                answer.append(
                    estimate(
                        f"Seat {seat['seat']} ({seat['player']})",
                        what,
                        v,
                        lo,
                        hi,
                        unit=fu,
                        percent=rate,
                        n=s["n"],
                    )
                )
                f = pct if rate else num
                firsts.append(
                    (
                        what + (f", {fu}" if fu else ""),
                        f"seat {seat['seat']} ({seat['player']}) {f(v)} [{f(lo)}, {f(hi)}]",
                    )
                )
                break
    headlines = []
    if firsts:
        what = firsts[0][0]
        headlines.append(
            Headline(f"How did each seat do ({what}, 95% CI)?", "; ".join(text for _, text in firsts) + ".")
        )
    for key, v in s.items():
        if key.endswith("diff") and f"{key}_ci" in s:
            lo, hi = s[f"{key}_ci"]
            what = key.replace("_", " ").replace(" diff", "")
            fu = UNITS.get(key.removesuffix("_diff"), "")
            sentence = difference(
                "seat 0", "seat 1", v, lo, hi, what=what, unit=fu, lower_is_better=True, n=s["n"]
            )
            answer.append(sentence)
            word = {
                "better": "Seat 0 does better",
                "worse": "Seat 1 does better",
                "none": "No difference detected at this size",
            }[verdict(v, lo, hi, None, True)]
            headlines.append(
                Headline(
                    f"Do seat 0 and seat 1 differ in {what}?",
                    f"{word}: seat 0 minus seat 1 is {num(v)}{' ' + fu if fu else ''} ({ci_text(lo, hi)}; lower is better).",
                )
            )
    return Report(
        title=f"{s['game']}: {s['n']:,} {unit} of {', '.join(dict.fromkeys(players))}",
        answer=answer,
        sections=[
            Section("Per seat", tables=["seats"]),
            Section("Whole run", tables=["run"]),
            Section("Distributions", figures=list(figures)),
        ],
        tables={"seats": seats, "run": top},
        figures=figures,
        provenance=result.provenance,
        headlines=headlines,
        partial=partial_text({**result.provenance, "unit": s["unit"]}),
    )
