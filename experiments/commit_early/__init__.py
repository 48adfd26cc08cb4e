"""commit-early: is committing early to a suit (Gris) or a rank (Gris-nese) worth it?

``commit:after=t`` plays greedy until its t-th pass (pass step), then keeps its target
for the rest of the round (RULES.md §5); t = 0 commits on the hand as dealt and a large
t is greedy.  For 3 to 8 players, against a field of greedy players and against a
field of early committers (``commit:after=0``), every candidate (greedy and
``commit:after=t``) takes one seat against the field, rotated through every seat on the
same deals, and is compared with greedy on those deals:

* **P(signal first)**: Gris, the player completed five of a suit first; Gris-nese,
  the player held four of a kind when the round ended (round play);
* **P(letter or elimination)**: Gris, got the letter; Gris-nese, was the last to
  touch the nose and left (round play);
* **P(losing the match)**: Gris, ended with G-R-I-S; Gris-nese, was not one of the two
  joint winners (match play).

Differences are against greedy on the same deals, with 95% intervals and p-values
Holm-corrected over the candidates of each comparison.  "Where it flips": the player
counts at which committing on the deal goes from significantly better to
significantly worse than greedy (or back).

The plan is in :mod:`.plan`, the tables drawn from the comparisons in :mod:`.analysis`,
the figures, headlines and sentences in :mod:`.report`; :func:`run` plays the comparisons.
"""

from __future__ import annotations

from typing import Any

import pandas as pd

import experiments
from experiments.commit_early.analysis import _rows
from experiments.commit_early.plan import (
    CONFIG,
    LABELS,
    LOWER_IS_BETTER,
    MATCH_COST,
    METRICS,
    NAME,
    QUESTION,
    TITLE,
    VERSION,
    _candidates,
    plan,
)
from experiments.commit_early.report import GAME_NAMES, HEADLINE_WORDS, NOUNS, _figure, _headlines, _sentences
from simulator.analysis.compare import compare
from strategies.registry import parse_spec


@experiments.study_run
def run(b: experiments.Bundle, backend: dict[str, Any]) -> experiments.ExperimentResult:
    cfg = b.cfg
    rows = []
    cands = _candidates(cfg)
    for game in cfg["games"]:
        b.use(*(parse_spec(c, game) for c in cands))
        for field in cfg["fields"]:
            for n in cfg["players"]:
                for unit, count in (("round", cfg["rounds"]), ("match", cfg["matches"])):
                    summary = b.step(
                        f"{game}/{field}/{n}p/{unit}",
                        lambda p, game=game, field=field, n=n, unit=unit, count=count: (
                            compare(
                                game,
                                cands,
                                field=field,
                                baseline="greedy",
                                players=n,
                                seed=b.seed,
                                progress=p,
                                **({"rounds": count} if unit == "round" else {"matches": count}),
                                **backend,
                            ).summary
                        ),
                    )
                    rows += _rows(game, field, n, unit, summary)
    t = b.table("commit", pd.DataFrame(rows), formats=COMMIT_FORMATS)
    for game in cfg["games"]:
        for field in cfg["fields"]:
            _figure(b, t, game, field, cfg)
    _headlines(b, t, cfg)
    _sentences(b, t, cfg)
    return b.finish("commit")


#: How the commit table reads: rates in %, differences to greedy in percentage points (as
#: the report's sentences say them), each unit in its column's head.
COMMIT_FORMATS = {
    "value": {"kind": "rate", "head": "rate, % [95% CI]"},
    "diff_vs_greedy": {"kind": "diff_pp", "head": "minus greedy, pp [95% CI]"},
    "p_holm": {"kind": "p", "head": "p (Holm)"},
    "variance_reduction": {"kind": "factor", "head": "variance reduction (×)"},
    "deals": {"kind": "count", "head": "deals"},
}


# What the experiment runner reads (name, sizes, plan, run) and what other code uses.
__all__ = [
    "CONFIG",
    "GAME_NAMES",
    "HEADLINE_WORDS",
    "LABELS",
    "LOWER_IS_BETTER",
    "MATCH_COST",
    "METRICS",
    "NAME",
    "NOUNS",
    "QUESTION",
    "TITLE",
    "VERSION",
    "compare",
    "plan",
    "run",
]
