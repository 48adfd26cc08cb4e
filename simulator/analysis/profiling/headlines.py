"""The profile's plain-words headlines: one sentence per finding, numbers with intervals.

A direction ("is worth", "better", "more often") is claimed only when the 95% interval
excludes 0; otherwise the sentence says the difference is not clear and gives the interval.
"""

from __future__ import annotations

from typing import Any

from simulator.analysis.profiling.core import Page
from simulator.analysis.profiling.intervals import excludes_zero
from simulator.reporting.pages import Headline, quantities, rate_bound_text


def amount(est: dict[str, Any], unit: str = "", percent: bool = False, sign: bool = False) -> str:
    """``0.08 [0.07, 0.09] points per round`` (digits as the interval supports)."""
    lo, hi = est["ci"]
    scale = 100.0 if percent else 1.0
    v, a, b = quantities([est["value"], lo, hi], lo, hi, scale=scale, sign=sign)
    pc = "%" if percent else ""
    return f"{v}{pc} [{a}{pc}, {b}{pc}]" + (f" {unit}" if unit else "")


def magnitude(est: dict[str, Any], unit: str) -> str:
    """The size of a signed estimate without its sign: ``0.08 [0.07, 0.09] unit``."""
    if est["value"] >= 0:
        return amount(est, unit)
    lo, hi = est["ci"]
    return amount({**est, "value": -est["value"], "ci": [-hi, -lo]}, unit)


def where(page: Page, title: str, many: bool) -> str:
    """Where a figure holds: the game, and the page's variant and table size when they vary."""
    parts = [page.label] if many else []
    if page.seats_vary and "players" not in page.label:
        parts.append(f"{page.n_seats} players")
    return f"{title} ({', '.join(parts)})" if parts else title


def role_unit(roles: dict[str, Any]) -> str:
    """The unit of a seat role's advantage: ``points per round``, or for a rate
    ``percentage points of the win rate``."""
    if roles["unit"] == "percentage points":
        return f"percentage points of the {roles['metric']} rate"
    return roles["unit"]


def role_lines(page: Page, title: str, many: bool) -> list[Headline]:
    out = []
    r = page.figures["round"]["roles"]
    for role in r["roles"]:
        est, unit = role["advantage"], role_unit(r)
        subject = role["role"][0].upper() + role["role"][1:]
        if excludes_zero(est):
            verb = "is worth" if est["value"] > 0 else "costs"
            text = f"{subject} {verb} {magnitude(est, unit)} in {where(page, title, many)}."
        else:
            text = (
                f"{subject} makes no clear difference in {where(page, title, many)}: "
                f"{amount(est, unit, sign=True)} (positive: in favour of {role['role']})."
            )
        out.append(Headline(f"Is {role['role']} an advantage?", text))
    return out


def skill_lines(page: Page, title: str, many: bool) -> list[Headline]:
    s = page.figures["skill"]
    out = []
    primary = s["shares"]["metric"]
    for d in s["differences"]:
        if d["metric"] != primary:
            continue
        est = d["difference"]
        good = est["value"] < 0 if d["better"] == "lower" else est["value"] > 0
        what = f"of the {primary} rate" if d["unit"] == "percentage points" else f"in {primary}"
        if excludes_zero(est):
            word = "better" if good else "worse"
            text = (
                f"{d['strategy']} does {word} than {d['against']} by {magnitude(est, d['unit'])} {what} "
                f"in {where(page, title, many)}."
            )
        else:
            text = (
                f"{d['strategy']} and {d['against']} do not differ clearly in {where(page, title, many)}: "
                f"{d['strategy']} − {d['against']} {amount(est, d['unit'], sign=True)} {what} "
                f"({d['better']} is better)."
            )
        out.append(Headline(f"How much better is {d['strategy']} than {d['against']}?", text))
    sh, top = s["shares"], s["pairs"][-1]
    a, b = top["strategies"]
    text = (
        f"Between {a} and {b}, which of the two plays explains {share(top['strategy'])} of the variance "
        f"of a round's outcome ({primary}) in {where(page, title, many)}, and the deal (its cards and every "
        f"random draw of it) {share(top['deal'])}.  The share depends on the strategies compared: "
        f"across {', '.join(sh['ladder'])} the strategy explains {share(sh['strategy'])}."
    )
    out.append(Headline("How much does skill matter against luck?", text))
    return out


def share(est: dict[str, Any]) -> str:
    """A share of variance in words: ``12.3% [11.1%, 13.5%]``, or ``an amount
    indistinguishable from 0% (at most 0.4%)`` when its interval reaches 0."""
    lo, hi = est["ci"]
    if not lo > 0:
        top = amount({**est, "value": hi, "ci": [0.0, hi]}, percent=True).split(" [")[0]
        return f"an amount indistinguishable from 0% (at most {top})"
    return amount(est, percent=True)


def length_lines(page: Page, title: str, many: bool) -> list[Headline]:
    out = []
    for unit in ("round", "match"):
        ln = page.figures[unit].get("length")
        if not ln:
            continue
        plural = "rounds" if unit == "round" else "matches"
        spread = (
            f"at least 80% of {plural} take {_n(ln['p10'])}"
            if ln["p10"] == ln["p90"]
            else f"80% of {plural} take {_n(ln['p10'])} to {_n(ln['p90'])}"
        )
        text = f"A {unit} lasts {amount(ln['mean'], ln['unit'])} on average in {where(page, title, many)}; {spread}."
        out.append(Headline(f"How long is a {unit}?", text))
    return out


def _n(x: float) -> str:
    return f"{x:g}"


def irregular_lines(page: Page, title: str, many: bool) -> list[Headline]:
    """Rounds that did not finish normally, in round play (RULES.md §6)."""
    parts = []
    for it in page.figures["round"]["irregular"]["items"]:
        if it["kind"] != "rate":
            continue
        if it["total"] == 0:
            parts.append(f"{it['words']}: none ({rate_bound_text(0, it['n'])})")
        else:
            parts.append(f"{it['words']}: {amount(it, percent=True)}")
    if not parts:
        return []
    return [
        Headline(
            "Do rounds stall, replay or hit a cap?",
            f"In {where(page, title, many)}, " + "; ".join(parts) + ".",
        )
    ]


def match_lines(page: Page, title: str, many: bool) -> list[Headline]:
    m = page.figures.get("matches")
    if not m:
        return []
    text = (
        f"In {where(page, title, many)} the lead changes hands in {amount(m['any_lead_change'], percent=True)} "
        f"of matches, and the player behind after the first round still wins "
        f"{amount(m['behind_after_first_round_wins'], percent=True)} of the time."
    )
    return [Headline("Do matches turn around?", text)]


def variant_lines(diff: dict[str, Any], compared: str | None) -> list[Headline]:
    """The variant's differences that matter to a designer: skill share, length, the roles."""
    out = []
    v, ref = diff["variant"], diff["against"]
    sh = diff.get("skill_shares")
    if sh:
        est = sh["strategy"]
        if excludes_zero(est):
            word = "larger" if est["value"] > 0 else "smaller"
            text = (
                f"With {v}, the share of the variance of a round's outcome that the strategies explain is "
                f"{word} than with {ref}: it changes by {share_points(est)} on the same deals."
            )
        elif same(est):
            text = (
                f"With {v}, the strategies explain the same share of the variance as with {ref}: "
                "they play every deal both count alike."
            )
        else:
            text = (
                f"With {v}, the share of the variance the strategies explain changes by {share_points(est)} "
                f"against {ref} on the same deals: not clearly different from 0."
            )
        out.append(Headline(f"Does {compared or 'the variant'} change how much skill matters?", text))
    for row in diff["measures"]:
        changed = excludes_zero(row["difference"])
        if row["key"] not in ("round:length", "round:role0") and not (
            changed and (row["key"] == "match:length" or "irregular:" in row["key"])
        ):
            continue
        est = row["difference"]
        if same(est):
            text = f"With {v} instead of {ref}, the {row['measure']} is the same on every deal both count."
        else:
            clear = "" if excludes_zero(est) else " (not clearly different from 0)"
            text = f"With {v} instead of {ref}, the {row['measure']} changes by {amount(est, row['unit'], sign=True)}{clear}."
        out.append(Headline(f"What does {v} change in the {row['measure']}?", text))
    return out


def share_points(est: dict[str, Any]) -> str:
    """A difference of shares in percentage points: ``+2.1 [1.5, 2.7] percentage points``."""
    return amount(est, percent=True, sign=True).replace("%", "") + " percentage points"


def same(est: dict[str, Any]) -> bool:
    """A paired difference that is exactly 0 on every game (an interval of zero width at 0)."""
    lo, hi = est["ci"]
    return est["value"] == 0 and lo == 0 and hi == 0


def memory_lines(page: Page, title: str, many: bool) -> list[Headline]:
    """What forgetting one card in ten each turn costs, and what one careless move costs."""
    mem = page.figures.get("memory")
    if not mem:
        return []
    out = []
    unit, pc, who = mem["unit"], mem["percent"], mem["strategy"]
    of = f" of the {mem['metric']} rate" if pc else ""
    row = next(r for r in mem["forget"] if r["forget"] == 0.1)
    est = row["cost"]
    if same(est):
        text = (
            f"Forgetting one card in ten each turn changes nothing in {where(page, title, many)}: {who} "
            "plays every deal the same (it does not use what it would forget)."
        )
    elif excludes_zero(est):
        verb = "costs" if est["value"] > 0 else "gains"
        text = (
            f"Forgetting one card in ten each turn {verb} {magnitude(est, unit)}{of} in "
            f"{where(page, title, many)} ({who} against itself, on the same deals)."
        )
    else:
        text = (
            f"Forgetting one card in ten each turn makes no clear difference in {where(page, title, many)}: "
            f"{amount(est, unit, sign=True)}{of} ({who} against itself; positive: worse)."
        )
    out.append(Headline("What is a good memory worth?", text))
    slip = mem.get("slip")
    if slip:
        est = slip["cost_per_slip"]
        per = unit.replace(" per round", "")
        if excludes_zero(est):
            verb = "costs" if est["value"] > 0 else "gains"
            text = (
                f"One careless move (a random legal decision instead of {who}'s) {verb} "
                f"{magnitude(est, per)}{of} in {where(page, title, many)}; at one decision in ten, "
                f"{amount(slip['cost_per_round'], unit, sign=True)}{of}."
            )
        else:
            text = (
                f"One careless move makes no clear difference in {where(page, title, many)}: "
                f"{amount(est, per, sign=True)}{of} per slip (positive: worse)."
            )
        out.append(Headline("What does one careless move cost?", text))
    return out
