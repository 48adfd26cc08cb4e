"""The profile's figures, in the house style of :mod:`simulator.reporting.plots`: every axis labelled
with its unit, every estimate with its 95% interval, one colour per page (variant and
table size) throughout."""

from __future__ import annotations

from typing import Any

import numpy as np
from matplotlib.figure import Figure
from matplotlib.ticker import MaxNLocator

from simulator.reporting import plots

PART_COLOURS = {"strategy": plots.PALETTE[0], "deal": plots.PALETTE[4], "rest": "#BBBBBB"}
PART_WORDS = {"strategy": "which strategy plays", "deal": "the deal", "rest": "deal × strategy"}


def _pages(summary: dict[str, Any]) -> list[dict[str, Any]]:
    return summary["pages"]


def _long_tailed(pages: list[dict[str, Any]], unit: str) -> bool:
    """Whether lengths spread over more than a factor of 4 (then a survival curve on a log
    scale reads better than a histogram)."""
    return any(p[unit]["length"]["p90"] > 4 * max(p[unit]["length"]["median"], 1.0) for p in pages)


def length_chart(summary: dict[str, Any], unit: str) -> Figure | None:
    """The distribution of the length of a round (or match), one line per page, with the
    mean and its interval in the legend: a histogram, or for long tails the share of games
    still going after each length (log scale)."""
    pages = [p for p in _pages(summary) if p[unit].get("length")]
    if not pages:
        return None
    fig, axes = plots.new_figure(size=(6.2, 3.6))
    ax = axes[0, 0]
    words = pages[0][unit]["length"]["unit"]
    plural = "rounds" if unit == "round" else "matches"
    tail = _long_tailed(pages, unit)
    top, low = 0.0, float("inf")
    for i, p in enumerate(pages):
        ln = p[unit]["length"]
        v, c = (
            np.array(ln["histogram"]["value"], dtype=float),
            np.array(ln["histogram"]["games"], dtype=float),
        )
        if v.size:
            top, low = (
                max(top, ln["p90"], float(v[np.searchsorted(np.cumsum(c) / c.sum(), 0.99)])),
                min(low, ln["p10"]),
            )
        m, (lo, hi) = ln["mean"]["value"], ln["mean"]["ci"]
        label = f"{p['label']}: mean {m:.3g} [{lo:.3g}, {hi:.3g}]"
        if tail:
            still = 100 * (1 - np.cumsum(c) / c.sum() + c / c.sum())  # share lasting at least v
            ax.step(np.maximum(v, 1), still, where="post", color=plots.colour(i), label=label)
        else:
            w = 0.8 / len(pages)
            x = v + (i - (len(pages) - 1) / 2) * w
            ax.bar(x, 100 * c / c.sum(), width=w, color=plots.colour(i), label=label)
        ax.axvspan(lo, hi, color=plots.colour(i), alpha=plots.BAND_ALPHA)
    if tail:
        ax.set_xscale("log")
        ax.set_ylabel(f"share of {plural} lasting at least x (%)")
        ax.set_xlabel(f"{words} per {unit} ({words}, log scale)")
    else:
        ax.set_xlim(left=max(low - 2.0, 0.0), right=top + 2.0)
        ax.set_ylabel(f"share of {plural} (%)")
        ax.set_xlabel(f"{words} per {unit} ({words})")
    ax.set_ylim(bottom=0)
    ax.set_title(f"How long a {unit} lasts (shaded: the mean's 95% interval)")
    ax.legend(loc="upper right", fontsize=8.5)
    return fig


def _forest(ax, rows: list[tuple[str, dict[str, Any], int]], xlabel: str, labels: dict[int, str]) -> None:
    """Points with 95% whiskers, one row each (coloured by page), a line at 0."""
    ys = np.arange(len(rows))[::-1]
    shown: set[int] = set()
    for y, (_, est, colour) in zip(ys, rows, strict=True):
        lo, hi = est["ci"]
        label = labels.get(colour) if colour not in shown else None
        shown.add(colour)
        ax.errorbar([est["value"]], [y], xerr=[[est["value"] - lo], [hi - est["value"]]],
                    fmt="o", color=plots.colour(colour), capsize=3, label=label)  # fmt: skip
    ax.axvline(0, color=plots.NEUTRAL, linewidth=0.8)
    ax.set_yticks(ys, [plots._wrap(r[0], 26) for r in rows])
    ax.set_ylim(ys.min() - 0.6, ys.max() + 0.6)
    ax.set_xlabel(xlabel)
    if len(labels) > 1:
        ax.legend(loc="best")


def roles_chart(summary: dict[str, Any]) -> Figure | None:
    """The advantage of each seat role (round play, then match play), per page."""
    pages = _pages(summary)
    units = [u for u in ("round", "match") if any(p[u]["roles"]["roles"] for p in pages)]
    if not units:
        return None
    n_rows = sum(max(len(p[u]["roles"]["roles"]) for p in pages) * len(pages) for u in units)
    sizes = [p["players"] for p in pages]
    if len(pages) >= 3 and len(set(sizes)) == len(pages):
        return _roles_by_size(pages, units)
    fig, axes = plots.new_figure(len(units), 1, size=(6.2, 1.6 * len(units) + 0.35 * n_rows))
    labels = {i: p["label"] for i, p in enumerate(pages)}
    for ax, u in zip(axes[:, 0], units, strict=True):
        rows = [
            (role["role"], role["advantage"], i)
            for i, p in enumerate(pages)
            for role in p[u]["roles"]["roles"]
        ]
        r = pages[0][u]["roles"]
        unit = (
            r["unit"] if r["unit"] != "percentage points" else f"percentage points of the {r['metric']} rate"
        )
        _forest(ax, rows, f"advantage ({unit})\nfavours the seat →", labels)
        ax.set_title(f"Seat advantage in {u} play (95% intervals)")
    return fig


def _role_unit(r: dict[str, Any]) -> str:
    return r["unit"] if r["unit"] != "percentage points" else f"percentage points of the {r['metric']} rate"


def _roles_by_size(pages: list[dict[str, Any]], units: list[str]) -> Figure:
    """One line per role across the table sizes, with 95% whiskers (many sizes, one variant)."""
    fig, axes = plots.new_figure(len(units), 1, size=(6.2, 3.4 * len(units)))
    x = np.array([p["players"] for p in pages])
    for ax, u in zip(axes[:, 0], units, strict=True):
        for j, role in enumerate(pages[0][u]["roles"]["roles"]):
            ests = [p[u]["roles"]["roles"][j]["advantage"] for p in pages]
            v = np.array([e["value"] for e in ests])
            lo, hi = np.array([e["ci"][0] for e in ests]), np.array([e["ci"][1] for e in ests])
            ax.errorbar(x + (j - 0.5) * 0.08, v, yerr=[v - lo, hi - v], fmt="o-", capsize=3,
                        color=plots.colour(j), label=role["role"])  # fmt: skip
        ax.axhline(0, color=plots.NEUTRAL, linewidth=0.8)
        ax.set_xticks(x)
        ax.set_xlabel("players at the table (players)")
        ax.set_ylabel(
            plots._wrap(f"advantage ({_role_unit(pages[0][u]['roles'])})", 34) + "\nfavours the seat →"
        )
        ax.set_title(f"Seat advantage in {u} play, by table size (95% intervals)")
        ax.legend(loc="best", fontsize=8.5)
    return fig


def shares_chart(summary: dict[str, Any]) -> Figure:
    """Stacked bars: the variance of the primary outcome split into strategy, deal and the
    rest, for the whole ladder and each pair of it, per page; whiskers on the strategy share."""
    rows = []
    pages = _pages(summary)
    for p in pages:
        s = p["skill"]
        groups = [{"strategies": s["shares"]["ladder"], **s["shares"]}, *s["pairs"]]
        if len(pages) > 2:  # many pages: the whole ladder and the baseline against the best
            groups = [groups[0], groups[-1]]
        for g in groups:
            rows.append((f"{' / '.join(g['strategies'])}\n({p['label']})", g))
    fig, axes = plots.new_figure(size=(6.2, 1.4 + 0.5 * len(rows)))
    ax = axes[0, 0]
    ys = np.arange(len(rows))[::-1]
    for y, (_, g) in zip(ys, rows, strict=True):
        left = 0.0
        for part in ("strategy", "deal", "rest"):
            w = max(100 * g[part]["value"], 0.0)
            ax.barh(y, w, left=left, color=PART_COLOURS[part], height=0.7,
                    label=PART_WORDS[part] if y == ys[0] else None)  # fmt: skip
            left += w
        lo, hi = (100 * x for x in g["strategy"]["ci"])
        v = 100 * g["strategy"]["value"]
        ax.errorbar([max(v, 0.0)], [y], xerr=[[max(v - lo, 0)], [max(hi - v, 0)]], fmt="none",
                    color="black", capsize=3)  # fmt: skip
    ax.set_yticks(ys, [r[0] for r in rows], fontsize=8.5)
    ax.set_xlim(0, 100)
    metric = _pages(summary)[0]["skill"]["shares"]["metric"]
    ax.set_xlabel(f"share of the variance of the {metric} per round (%)")
    ax.set_title("What decides a round (whiskers: 95% interval)")
    fig.legend(loc="outside upper center", ncol=3)
    return fig


def skill_chart(summary: dict[str, Any]) -> Figure:
    """The best strategy's paired difference to each other ladder strategy, per page (one
    panel per opponent: the sizes differ by orders of magnitude)."""
    pages = _pages(summary)
    metric = pages[0]["skill"]["shares"]["metric"]
    against = [d["against"] for d in pages[0]["skill"]["differences"] if d["metric"] == metric]
    fig, axes = plots.new_figure(len(against), 1, size=(6.2, (1.7 + 0.35 * len(pages)) * len(against)))
    for ax, other in zip(axes[:, 0], against, strict=True):
        rows = []
        for i, p in enumerate(pages):
            d = next(x for x in p["skill"]["differences"] if x["metric"] == metric and x["against"] == other)
            rows.append((p["label"], d["difference"], i))
        lower = d["better"] == "lower"
        _forest(
            ax, rows, plots.axis_label(f"{d['strategy']} minus {other}, {metric} ({d['unit']})", lower), {}
        )
        ax.set_title(f"{d['strategy']} against {other}, on the same deals (95% intervals)")
    return fig


def memory_chart(summary: dict[str, Any]) -> Figure | None:
    """The cost of forgetting against ``forget`` (one curve per page), and below it the cost of
    one slip per page, each with its 95% interval, on the same deals as the plain strategy."""
    pages = [p for p in _pages(summary) if p.get("memory")]
    if not pages:
        return None
    mem0 = pages[0]["memory"]
    slips = [p for p in pages if p["memory"].get("slip")]
    fig, axes = plots.new_figure(
        2 if slips else 1, 1, size=(6.2, 3.4 + (1.3 + 0.35 * len(slips) if slips else 0))
    )
    ax = axes[0, 0]
    unit = mem0["unit"] + (f" of the {mem0['metric']} rate" if mem0["percent"] else "")
    grid = [r["forget"] for r in mem0["forget"]]
    x = np.arange(len(grid))
    for i, p in enumerate(pages):
        rows = p["memory"]["forget"]
        v = np.array([r["cost"]["value"] for r in rows])
        lo, hi = np.array([r["cost"]["ci"][0] for r in rows]), np.array([r["cost"]["ci"][1] for r in rows])
        shift = (i - (len(pages) - 1) / 2) * 0.06
        ax.errorbar(x + shift, v, yerr=[v - lo, hi - v], fmt="o-", capsize=3, color=plots.colour(i),
                    label=p["label"])  # fmt: skip
    ax.axhline(0, color=plots.NEUTRAL, linewidth=0.8)
    ax.set_xticks(x, [f"{g:g}" for g in grid])
    ax.set_xlabel("forget (the chance of forgetting each remembered card, each turn)")
    ax.set_ylabel(plots._wrap(f"cost ({unit})", 34) + "\nhigher is worse ↑")
    ax.set_title(f"What forgetting costs {mem0['strategy']} (95% intervals)")
    if len(pages) > 1:
        ax.legend(loc="upper left", fontsize=8.5)
    if slips:
        per = unit.replace(" per round", "")
        rows = [(p["label"], p["memory"]["slip"]["cost_per_slip"], i) for i, p in enumerate(slips)]
        _forest(axes[1, 0], rows, f"cost of one careless move ({per} per slip)\nworse →", {})
        axes[1, 0].set_title("What one careless move costs (95% intervals)")
    return fig


def margin_chart(summary: dict[str, Any]) -> Figure | None:
    """How close matches finish: the distribution of the margin at the end, per page."""
    pages = [p for p in _pages(summary) if p.get("matches")]
    if not pages:
        return None
    fig, axes = plots.new_figure(size=(6.2, 3.6))
    ax = axes[0, 0]
    k = len(pages)
    for i, p in enumerate(pages):
        h = p["matches"]["margin_histogram"]
        v = np.floor(np.array(h["value"], dtype=float))  # whole units: half points join the point below
        c = np.array(h["matches"], dtype=float)
        bins = np.unique(v)
        share = np.array([c[v == b].sum() for b in bins]) * 100 / c.sum()
        width = 0.8 / k
        ax.bar(bins + (i - (k - 1) / 2) * width, share, width=width, color=plots.colour(i),
               label=f"{p['label']} ({p['matches']['matches']} matches)")  # fmt: skip
    # whole margins only, and no more labels than fit side by side (at most about a dozen)
    ax.xaxis.set_major_locator(MaxNLocator(nbins=12, integer=True))
    unit = pages[0]["matches"]["margin"]["unit"]
    ax.set_xlabel(plots.balanced_wrap(f"margin at the end of a match ({unit}, in whole units)", 70))
    ax.set_ylabel("share of matches (%)")
    ax.set_title("How close matches finish")
    ax.legend(loc="upper right")
    return fig


#: What each figure of the profile shows, in words: units and which way is better.
CAPTIONS = {
    "round length": "How long a round lasts (x axis, in the unit it names): the share of rounds (%) at "
    "each length, one colour per variant; shaded: the mean's 95% interval; neither way is better.",
    "match length": "How long a match lasts (x axis, in the unit it names): the share of matches (%) at "
    "each length, one colour per variant; shaded: the mean's 95% interval; neither way is better.",
    "seat advantage": "The advantage of each seat role, in round play and in match play (in the unit "
    "on each axis), with 95% intervals; to the right of 0 the role is favoured.",
    "skill: paired differences": "The best strategy minus each other strategy of the ladder, on the "
    "same deals, with 95% intervals; each axis names its unit and which way is better.",
    "skill: variance shares": "The share of the variance of a round's outcome (%) that comes from "
    "which strategy plays, from the deal, and from the two together, with a 95% interval on the "
    "strategy's share; the larger the strategy's share, the more skill decides.",
    "memory and care": "What forgetting costs the best strategy, at each chance of forgetting a "
    "remembered card each turn, and what one careless move costs, on the same deals, with 95% "
    "intervals; above 0 is worse.",
    "match finishes": "The margin between the two match totals at the end of a match (whole points): "
    "the share of matches (%) at each margin, one colour per variant; a small margin is a close finish.",
}


def all_charts(summary: dict[str, Any]) -> dict[str, Figure]:
    """Every figure of the report, by name (a figure with nothing to show is left out)."""
    figs = {
        "round length": length_chart(summary, "round"),
        "match length": length_chart(summary, "match"),
        "seat advantage": roles_chart(summary),
        "skill: paired differences": skill_chart(summary),
        "skill: variance shares": shares_chart(summary),
        "memory and care": memory_chart(summary),
        "match finishes": margin_chart(summary),
    }
    return {k: v for k, v in figs.items() if v is not None}
