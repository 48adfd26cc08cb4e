"""commit-early's report: a figure per game and field, one headline per game, field and
metric (a plain sentence of at most :data:`HEADLINE_WORDS` words), and the longer sentences."""

from __future__ import annotations

import numpy as np
import pandas as pd

import experiments
from experiments.commit_early.analysis import _classify, _flips, _ranges
from experiments.commit_early.plan import LABELS, LOWER_IS_BETTER, _field_name
from simulator.engine.stats import LEVEL
from simulator.reporting import pages as words
from simulator.reporting import plots


def _figure(b: experiments.Bundle, t: pd.DataFrame, game: str, field: str, cfg: dict) -> None:
    sub = t[(t.game == game) & (t.field == field) & (t.player != "greedy")]
    afters = cfg["afters"]
    ns = cfg["players"]
    panels, intervals = [], []
    for metric in ("signal_first", "letter_or_out", "lose_match"):
        m = sub[sub.metric == metric]
        grid = np.full((len(ns), len(afters)), np.nan)
        marks = np.zeros_like(grid, dtype=bool)
        lo, hi = np.full_like(grid, np.nan), np.full_like(grid, np.nan)
        for r in m.itertuples():
            i, j = ns.index(r.players), afters.index(int(r.after))
            grid[i, j] = 100 * r.diff_vs_greedy
            lo[i, j], hi[i, j] = 100 * r.diff_vs_greedy_lo, 100 * r.diff_vs_greedy_hi
            marks[i, j] = r.significant
        panels.append((grid, LABELS[metric], marks))
        intervals.append((lo, hi))
    fig = plots.heatmap_panels(
        panels,
        afters,
        ns,
        xlabel="commit:after (passes before locking)",
        ylabel="players at the table",
        title=f"{game}: commit:after=t minus greedy, against a field of {_field_name(field)}",
        colorbar="difference (percentage points)",
        lower_is_better=[LOWER_IS_BETTER[m] for m in ("signal_first", "letter_or_out", "lose_match")],
        intervals=intervals,
    )
    b.figure(
        f"{game.replace('-', '_')}_field_{'greedy' if field == 'greedy' else 'early'}",
        fig,
        caption=f"{GAME_NAMES.get(game, game)} against a field of {_field_name(field)}: each commit "
        "point (commit:after=t, passes before locking) minus greedy, in percentage points, by table "
        "size, for P(signal first) (higher is better), P(letter or elimination) and P(losing the "
        "match) (lower is better); blue is better than greedy, red worse; pale cells: the 95% "
        "interval includes 0; a star: significant after Holm's correction.",
    )


NOUNS = {
    "signal_first": "of signalling first",
    "letter_or_out": "of letters or eliminations",
    "lose_match": "of lost matches",
}


GAME_NAMES = {"gris": "Gris", "gris-nese": "Gris-nese"}


def _verdicts_by_size(rows: pd.DataFrame, metric: str) -> dict[int, str]:
    """One candidate's verdict against greedy at each table size, in the rows' order.

    Parameters
    ----------
    rows : pd.DataFrame
        The candidate's rows of one field and metric (columns ``players``, ``diff_vs_greedy``
        with its ``_lo``/``_hi`` interval, ``p_holm``).
    metric : str
        The metric, which says whether lower is better.

    Returns
    -------
    dict[int, str]
        Players -> ``better``, ``worse`` or ``none`` (:func:`words.verdict`).
    """
    lower = LOWER_IS_BETTER[metric]
    return {
        int(r.players): words.verdict(
            r.diff_vs_greedy, r.diff_vs_greedy_lo, r.diff_vs_greedy_hi, r.p_holm, lower
        )
        for r in rows.itertuples()
    }


def _field_phrase(rows: pd.DataFrame, metric: str, tests: int = 1) -> tuple[str, str]:
    """How one candidate does against greedy over the table sizes, for one field:
    (kind, phrase) with kind ``better``, ``worse``, ``none`` or ``mixed``."""
    rows = rows.sort_values("players")
    kinds = _verdicts_by_size(rows, metric)
    ns = sorted(kinds)
    sizes = f"{_ranges(ns)} players"
    noun = NOUNS[metric]
    found = set(kinds.values())
    if len(found) == 1 and found != {"none"}:
        kind = found.pop()
        d = rows["diff_vs_greedy"].abs()
        # The interval of the size of the effect: |diff| for worse (lower is better) or better.
        towards = rows["diff_vs_greedy"] > 0
        lo = np.where(towards, rows["diff_vs_greedy_lo"], -rows["diff_vs_greedy_hi"])
        hi = np.where(towards, rows["diff_vs_greedy_hi"], -rows["diff_vs_greedy_lo"])
        every = "at every table size tried" if len(ns) > 1 else "at the table size tried"
        return kind, (
            f"it is {kind} than greedy {every} ({sizes}), by {words.span(d, percent=True)} percentage points {noun} "
            f"(95% intervals from {words.num(100 * float(np.min(lo)), 2)} to {words.num(100 * float(np.max(hi)), 2)})"
        )
    if found == {"none"}:
        # What these sizes could detect, from the paired spread alone: the observed differences
        # are not significant, so no sample size is based on them.
        mdes = [
            words.detectable_effect(r.diff_vs_greedy_lo, r.diff_vs_greedy_hi, int(r.deals), tests=tests)
            for r in rows.itertuples()
        ]
        mdes = [x for x in mdes if x is not None]
        need = (
            f"; at these sizes a true difference of {words.span(mdes, percent=True)} percentage points or more "
            "would usually show (80% power; an estimate from the observed paired spread)"
            if mdes
            else ""
        )
        return "none", (
            f"no difference from greedy is detected at this size at any table size tried ({sizes}; "
            f"differences {words.span(rows['diff_vs_greedy'], percent=True)} percentage points {noun}){need}"
        )
    parts = []
    for kind, say in (("better", "better"), ("worse", "worse"), ("none", "no difference detected")):
        at = [n for n in ns if kinds[n] == kind]
        if at:
            by = ""
            if kind != "none":
                d = rows[rows["players"].isin(at)]["diff_vs_greedy"].abs()
                by = f" (by {words.span(d, percent=True)} percentage points {noun})"
            parts.append(f"{say} at {_ranges(at)} players{by}")
    return "mixed", "it is " + ", ".join(parts)


HEADLINE_WORDS = 35  # a headline is one plain sentence of at most this many words


def _short_phrase(rows: pd.DataFrame, metric: str, tests: int = 1) -> tuple[str, str]:
    """(kind, clause) for a headline: how committing on the deal does against greedy over the
    table sizes, with its direction and unit ("loses more matches ..., by 0.30–2.4 percentage
    points"); the intervals and the sizes needed live in the longer sentences."""
    rows = rows.sort_values("players")
    lower = LOWER_IS_BETTER[metric]
    kinds = _verdicts_by_size(rows, metric)
    found = set(kinds.values())
    every = "at every size" if len(kinds) > 1 else "at the size tried"
    if len(found) == 1 and found != {"none"}:
        kind = found.pop()
        more = "more" if (kind == "worse") == lower else "fewer"
        by = words.span(rows["diff_vs_greedy"].abs(), percent=True)
        return kind, f"loses {more} matches than greedy {every}, by {by} percentage points"
    if found == {"none"}:
        return "none", "shows no detectable difference"
    parts = []
    for kind in ("worse", "better", "none"):
        at = [n for n in sorted(kinds) if kinds[n] == kind]
        if not at:
            continue
        if kind == "none":
            parts.append(f"no detectable difference at {_ranges(at)}")
        else:
            more = "more" if (kind == "worse") == lower else "fewer"
            parts.append(
                f"loses {more} matches than greedy at {_ranges(at)} players"
                if not parts
                else f"{more} at {_ranges(at)}"
            )
    return "mixed", (", ".join(parts[:-1]) + " and " + parts[-1]) if len(parts) > 1 else parts[0]


def _headlines(b: experiments.Bundle, t: pd.DataFrame, cfg: dict) -> None:
    """Per game: is committing on the deal worth it (in lost matches), and where does it flip?

    Each headline is one plain sentence with the direction and unit of what it reports;
    the ranges of the differences, their intervals and the sizes that would detect them
    follow in the answer below the headlines."""
    early = f"commit:after={cfg['afters'][0]}"
    metric = "lose_match"
    summary = []
    for game in cfg["games"]:
        gname = GAME_NAMES.get(game, game)
        shorts, details, flip_text, verdicts = [], [], [], []
        for field in cfg["fields"]:
            rows = t[(t.game == game) & (t.field == field) & (t.metric == metric) & (t.player == early)]
            kind, clause = _short_phrase(rows, metric, tests=len(cfg["afters"]))
            _, phrase = _field_phrase(rows, metric, tests=len(cfg["afters"]))
            who = "greedy players" if field == "greedy" else "early committers"
            shorts.append((who, kind, clause))
            details.append(f"against {who}, {phrase}")
            flips = _flips(rows, metric)
            if flips:
                flip_text.append(
                    f"against {who} between "
                    + " and between ".join(
                        f"{a} and {c} players ({x} below, {y} above)" for a, c, x, y in flips
                    )
                )
            for r in rows.sort_values("players").itertuples():
                v = words.verdict(r.diff_vs_greedy, r.diff_vs_greedy_lo, r.diff_vs_greedy_hi, r.p_holm, True)
                verdicts.append(v)
                summary.append(
                    {
                        "game": game,
                        "field": field,
                        "players": int(r.players),
                        "commit_on_deal_minus_greedy": r.diff_vs_greedy,
                        "commit_on_deal_minus_greedy_lo": r.diff_vs_greedy_lo,
                        "commit_on_deal_minus_greedy_hi": r.diff_vs_greedy_hi,
                        "p_holm": r.p_holm,
                        "verdict": {"better": "better", "worse": "worse", "none": "no difference detected"}[
                            v
                        ],
                        "matches": int(r.deals),
                    }
                )
        seen = set(verdicts)
        if seen == {"none"}:
            word = "Not shown at this size"
        elif "better" not in seen:
            word = "No"  # worse wherever a difference shows
        elif "worse" not in seen:
            word = "Yes"
        else:
            word = "It depends"
        kinds = {k for _, k, _ in shorts}
        both = "against both fields" if len(shorts) > 1 else f"against {shorts[0][0]}"
        if seen == {"none"}:
            answer = (
                f"{word}: no difference from greedy in lost matches is detected at any table size tried, "
                f"{'against either field' if len(shorts) > 1 else both}."
            )
        elif len(kinds) == 1 and kinds <= {"better", "worse"}:
            rows = t[(t.game == game) & (t.metric == metric) & (t.player == early)]
            more = "more" if kinds == {"worse"} else "fewer"
            every = (
                "at every table size tried" if rows["players"].nunique() > 1 else "at the table size tried"
            )
            answer = (
                f"{word}: committing on the deal loses {more} matches than greedy {every}, {both}, by "
                f"{words.span(rows['diff_vs_greedy'].abs(), percent=True)} percentage points."
            )
        else:
            answer = f"{word}: " + "; ".join(f"against {who} it {clause}" for who, _, clause in shorts) + "."
        b.headline(f"{gname}: is committing on the deal ({early}) worth it, in matches lost?", answer)
        b.answer.append(
            f"{gname}, committing on the deal ({early}), lost matches: " + "; ".join(details) + "."
        )
        b.headline(
            f"{gname}: where does committing on the deal flip from better to worse than greedy?",
            ("It flips " + "; ".join(flip_text) + ".")
            if flip_text
            else f"It does not flip within {_ranges(sorted(cfg['players']))} players: no table size tried "
            "is significantly better in one place and significantly worse in another.",
        )
    b.table(
        "summary",
        pd.DataFrame(summary),
        formats={
            "commit_on_deal_minus_greedy": {
                "kind": "diff_pp",
                "head": "commit on the deal minus greedy, pp [95% CI]",
            },
            "p_holm": {"kind": "p", "head": "p (Holm)"},
            "matches": {"kind": "count", "head": "matches"},
        },
    )


def _sentences(b: experiments.Bundle, t: pd.DataFrame, cfg: dict) -> None:
    early = f"commit:after={cfg['afters'][0]}"
    for game in cfg["games"]:
        text = []
        for field in cfg["fields"]:
            for metric in ("lose_match", "letter_or_out", "signal_first"):
                rows = t[(t.game == game) & (t.field == field) & (t.metric == metric) & (t.player == early)]
                rows = rows.sort_values("players")
                cls = _classify(rows)
                better = [n for n, c in cls.items() if c == "better"]
                worse = [n for n, c in cls.items() if c == "worse"]
                none = [n for n, c in cls.items() if c == "none"]
                parts = []
                if better:
                    parts.append(f"better than greedy at {_ranges(better)} players")
                if worse:
                    parts.append(f"worse than greedy at {_ranges(worse)} players")
                if none:
                    parts.append(f"no difference detected at this size at {_ranges(none)} players")
                seq = [cls[n] for n in sorted(cls) if cls[n] != "none"]
                flips = [
                    (a, c)
                    for (a, x), (c, y) in zip(
                        [(n, cls[n]) for n in sorted(cls) if cls[n] != "none"][:-1],
                        [(n, cls[n]) for n in sorted(cls) if cls[n] != "none"][1:],
                    )
                    if x != y
                ]
                flip = (
                    "; it flips between " + " and between ".join(f"{a} and {c} players" for a, c in flips)
                    if flips
                    else ("; no flip within the player counts tried" if len(set(seq)) <= 1 else "")
                )
                sentence = (
                    f"{game}, against {_field_name(field)}, {LABELS[metric]}: committing on the deal "
                    f"({early}): " + "; ".join(parts) + flip + "."
                )
                text.append(sentence)
                # The size of the effect at the largest and smallest table, in words.
                for n in (rows.players.min(), rows.players.max()):
                    r = rows[rows.players == n]
                    if len(r):
                        r = r.iloc[0]
                        text.append(
                            f"At {n} players: "
                            + words.difference(
                                early,
                                "greedy",
                                r.diff_vs_greedy,
                                r.diff_vs_greedy_lo,
                                r.diff_vs_greedy_hi,
                                what=LABELS[metric],
                                lower_is_better=LOWER_IS_BETTER[metric],
                                p_holm=r.p_holm,
                                percent=True,
                                n=int(r.deals),
                                tests=len(cfg["afters"]),
                                n_unit="matches" if metric == "lose_match" else "rounds",
                            )
                        )
                if metric == "lose_match":
                    b.answer.append(sentence)
        # Which commitment point is best for each table size (letter or elimination).
        for field in cfg["fields"]:
            sub = t[(t.game == game) & (t.field == field) & (t.metric == "letter_or_out")]
            best = []
            for n, g in sub.groupby("players"):
                top = g.loc[g["value"].idxmin()]
                tag = (
                    ""
                    if top.player == "greedy" or top.significant
                    else " (not significantly better than greedy)"
                )
                best.append(f"{n}: {top.player}{tag}")
            text.append(
                f"{game}, against {_field_name(field)}: the lowest {LABELS['letter_or_out']} by table size: "
                + "; ".join(best)
                + "."
            )
        figs = [
            f"{game.replace('-', '_')}_field_{'greedy' if f == 'greedy' else 'early'}" for f in cfg["fields"]
        ]
        b.section(
            f"{game}",
            [
                "Each candidate takes one seat against the field, rotated through every seat, on the same "
                "deals; cells show the candidate minus greedy in percentage points (a star: the interval "
                "excludes 0 after Holm's correction).  Signal first is good; a letter, an elimination or a "
                "lost match is bad.",
                *text,
            ],
            tables=[],
            figures=figs,
        )
    vr = t["variance_reduction"].replace([np.inf], np.nan).dropna()
    b.section(
        "All figures",
        [
            words.variance_sentence(float(vr.median()), "a candidate's difference to greedy (median)")
            if len(vr)
            else "",
            "When the field is greedy, greedy in the candidate seat makes the whole table greedy, so its "
            "per-deal figure is the same on every deal (e.g. exactly 1/n letters): pairing cannot reduce "
            "the variance below the candidate's own there.",
        ],
        tables=["summary", "commit"],
    )
    b.notes.append(f"Significance level {LEVEL:.0%}; intervals are 95% normal intervals on per-deal means.")
