"""The profile's tables (pandas), one per section, from its JSON summary.

Every estimate is a row with ``value``, ``lo`` and ``hi`` (the 95% interval) and ``n``
(the games it rests on); the ``page`` column names the variant and table size.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pandas as pd

if TYPE_CHECKING:
    from simulator.analysis.profiling import Profile

UNITS = ("round", "match")


def _est(e: dict[str, Any]) -> dict[str, Any]:
    return {"value": e["value"], "lo": e["ci"][0], "hi": e["ci"][1], "n": e["n"]}


def _length(pages: list[dict]) -> tuple[list[dict], list[dict]]:
    rows, hist = [], []
    for p in pages:
        for u in UNITS:
            ln = p[u].get("length")
            if not ln:
                continue
            q = {k: ln[k] for k in ("p10", "median", "p90", "max")}
            rows.append({"page": p["label"], "per": u, "unit": ln["unit"], **_est(ln["mean"]), **q})
            for v, c in zip(ln["histogram"]["value"], ln["histogram"]["games"], strict=True):
                hist.append({"page": p["label"], "per": u, "unit": ln["unit"], "length": v, "games": c})
    return rows, hist


def _roles(pages: list[dict]) -> tuple[list[dict], list[dict], list[dict]]:
    roles, seats, irregular = [], [], []
    for p in pages:
        for u in UNITS:
            r = p[u]["roles"]
            for role in r["roles"]:
                roles.append({"page": p["label"], "per": u, "role": role["role"], "metric": r["metric"],
                              "unit": r["unit"], "positive": "favours the role",
                              **_est(role["advantage"])})  # fmt: skip
            for s in p[u]["seats"]["seats"]:
                seats.append(
                    {"page": p["label"], "per": u, "seat": s["seat"], "metric": s["metric"], **_est(s)}
                )
            for it in p[u]["irregular"]["items"]:
                irregular.append({"page": p["label"], "per": u, "what": it["words"], "kind": it["kind"],
                                  "total": it["total"], **_est(it)})  # fmt: skip
    return roles, seats, irregular


def _skill(pages: list[dict]) -> tuple[list[dict], list[dict]]:
    diffs, shares = [], []
    for p in pages:
        s = p["skill"]
        for d in s["differences"]:
            diffs.append({"page": p["label"], "metric": d["metric"], "strategy": d["strategy"],
                          "against": d["against"], "unit": d["unit"], "better": d["better"],
                          **_est(d["difference"])})  # fmt: skip
        for group in [{"strategies": s["shares"]["ladder"], **s["shares"]}, *s["pairs"]]:
            for part in ("strategy", "deal", "rest"):
                shares.append({"page": p["label"], "strategies": " vs ".join(group["strategies"]),
                               "part": part, **_est(group[part])})  # fmt: skip
    return diffs, shares


def _memory(pages: list[dict]) -> list[dict]:
    rows = []
    for p in pages:
        mem = p.get("memory")
        if not mem:
            continue
        base = {"page": p["label"], "strategy": mem["strategy"], "metric": mem["metric"], "unit": mem["unit"]}
        for r in mem["forget"]:
            rows.append({**base, "measure": "cost of forgetting", "forget": r["forget"], "slip": 0.0,
                         "spec": r["spec"], **_est(r["cost"])})  # fmt: skip
        slip = mem.get("slip")
        if slip:
            for key, words in (("cost_per_round", "cost of slipping, per round"),
                               ("cost_per_slip", "cost of one slip")):  # fmt: skip
                rows.append({**base, "measure": words, "forget": 0.0, "slip": slip["slip"],
                             "spec": slip["spec"], **_est(slip[key])})  # fmt: skip
    return rows


def _matches(pages: list[dict]) -> list[dict]:
    rows = []
    for p in pages:
        m = p.get("matches") or {}
        if not m:
            continue
        for key, words in (("lead_changes", "lead changes per match"),
                           ("any_lead_change", "share of matches where the lead changes"),
                           ("behind_after_first_round_wins", "share of players behind after round 1 who win")):  # fmt: skip
            rows.append({"page": p["label"], "measure": words, **_est(m[key])})
        rows.append(
            {"page": p["label"], "measure": f"margin ({m['margin']['unit']})", **_est(m["margin"]["mean"])}
        )
    return rows


def _differences(diffs: list[dict]) -> list[dict]:
    rows = []
    for d in diffs:
        for r in d["measures"]:
            rows.append({"variant": d["variant"], "against": d["against"], "measure": r["measure"],
                         "unit": r["unit"], **_est(r["difference"])})  # fmt: skip
        for part, e in (d.get("skill_shares") or {}).items():
            rows.append({"variant": d["variant"], "against": d["against"],
                         "measure": f"{part} share of the variance", "unit": "share (difference)", **_est(e)})  # fmt: skip
    return rows


def frames(profile: Profile) -> dict[str, pd.DataFrame]:
    """``headlines``, ``length``, ``length_histogram``, ``roles``, ``seats``, ``irregular``,
    ``skill``, ``skill_shares``, ``matches``, ``memory`` (positive cost: worse) and (with variants) ``differences``."""
    pages = profile.summary["pages"]
    length, hist = _length(pages)
    roles, seats, irregular = _roles(pages)
    diffs, shares = _skill(pages)
    out = {
        "headlines": pd.DataFrame([{"question": h.question, "answer": h.answer} for h in profile.headlines]),
        "length": pd.DataFrame(length),
        "length_histogram": pd.DataFrame(hist),
        "roles": pd.DataFrame(roles),
        "seats": pd.DataFrame(seats),
        "irregular": pd.DataFrame(irregular),
        "skill": pd.DataFrame(diffs),
        "skill_shares": pd.DataFrame(shares),
        "matches": pd.DataFrame(_matches(pages)),
        "memory": pd.DataFrame(_memory(pages)),
    }
    if profile.summary["differences"]:
        out["differences"] = pd.DataFrame(_differences(profile.summary["differences"]))
    return out
