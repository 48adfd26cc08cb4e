"""The profile's results folder: Parquet tables, figures (PNG and SVG) and a self-contained
HTML report that opens with the headlines, written with :mod:`simulator.reporting.pages`."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from simulator.analysis.profiling.charts import CAPTIONS, all_charts
from simulator.analysis.profiling.tables import frames
from simulator.reporting import pages as rpt
from simulator.reporting import plots

if TYPE_CHECKING:
    from simulator.analysis.profiling import Profile

METHOD_NOTES = (
    "Every figure has a 95% interval: normal intervals for means and paired differences "
    "(the mean of the per-game differences), Wilson intervals for rates, percentile "
    "bootstrap intervals over deals for the variance shares.",
    "Seat advantage: per game, the role's seat's outcome against the mean of the other "
    "seats', signed so that a positive value favours the role.",
    "Skill: random, the canonical baseline and the best shipped strategy each take every "
    "seat in turn against the baseline elsewhere, on the same deals. The variance of the "
    "outcome over deals × strategies is split as in a two-way analysis of variance: which "
    "strategy plays, the deal (its cards, reaction times and random streams, which every "
    "strategy meets alike), and the rest (how differently one deal turns out for different "
    "strategies). Each share is estimated without bias (omega squared), so a share can be "
    "slightly below 0 when the true share is 0.",
    "Memory and care: the best strategy with forget on a grid, and with slip = 0.1, takes "
    "every seat in turn against its plain self elsewhere, on the same deals as the plain "
    "strategy; a cost is the paired difference of the primary outcome (positive: worse). "
    "The cost of one slip is the cost per round over the slips per round (0.1 times the "
    "seat's decisions), a ratio of means with the delta method's interval.",
    "Matches round by round: the readable reference replays the run's first matches from "
    "the same random streams. The lead is held by the one seat with the best standing; it "
    "changes when another seat takes it.",
    "Variants are played on the same seed: the same deals, reaction times and random "
    "streams, so their differences are paired game by game.",
)


def _sections(names: set[str], has_diff: bool) -> list[rpt.Section]:
    secs = [
        rpt.Section(
            "Length",
            ["How long rounds and matches last."],
            ["length"],
            [n for n in ("round length", "match length") if n in names],
        ),
        rpt.Section(
            "Seat and order advantage",
            ["Who starts or deals, in the game's own terms."],
            ["roles", "seats"],
            [n for n in ("seat advantage",) if n in names],
        ),
        rpt.Section(
            "Skill against luck",
            ["The best shipped strategy against random and the baseline, and what decides a round."],
            ["skill", "skill_shares"],
            ["skill: paired differences", "skill: variance shares"],
        ),
        rpt.Section(
            "Memory and care",
            [
                "The best shipped strategy forgetting (each remembered card, each turn, with the "
                "chance shown) or slipping (a random legal decision instead of its own), against "
                "itself, on the same deals. A positive cost is worse."
            ],
            ["memory"],
            [n for n in ("memory and care",) if n in names],
        ),
        rpt.Section(
            "Matches",
            ["Lead changes, comebacks and close finishes."],
            ["matches"],
            [n for n in ("match finishes",) if n in names],
        ),
        rpt.Section("Stalls, replays, caps and abandoned matches", [], ["irregular"], []),
    ]
    if has_diff:
        secs.append(rpt.Section("Variants side by side", ["Paired differences on the same deals."],
                                ["differences"], []))  # fmt: skip
    return secs


def build(profile: Profile, out_dir: str | Path) -> rpt.Report:
    """The report of ``profile``, its figures saved under ``out_dir/figures``."""
    out = Path(out_dir)
    s = profile.summary
    figures = {}
    for name, fig in all_charts(s).items():
        stem = name.replace(":", "").replace(" ", "_")
        figures[name] = plots.save(fig, out / "figures", stem)["png"]
    tables = frames(profile)
    prov = {
        k: s[k] for k in ("game", "seed", "rounds", "matches", "strategies", "ladder", "field", "kortsim")
    }
    return rpt.Report(
        title=f"Profile of {s['game']}" + (f", {s['compared_rule']} compared" if s["compared_rule"] else ""),
        headlines=list(profile.headlines),
        sections=_sections(set(figures), "differences" in tables),
        tables=tables,
        figures=figures,
        captions={n: CAPTIONS[n] for n in figures},
        provenance=prov,
        notes=list(METHOD_NOTES),
    )


def write(profile: Profile, out_dir: str | Path) -> dict[str, Path]:
    """Write the folder: ``summary.parquet`` (the seat roles), ``tables/*.parquet``,
    ``figures/``, ``report.html``, ``report.md``, ``report.json`` and ``profile.json``."""
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    paths = rpt.write(build(profile, out), out, summary_table="roles")
    (out / "profile.json").write_text(profile.to_json())
    paths["profile"] = out / "profile.json"
    return paths
