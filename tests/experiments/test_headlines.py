"""The experiments' headlines from constructed numbers: a best k whose Holm-corrected p is
0.21 is "not settled", never "does better"; committing early is called worse only where
the corrected test says so, with the range of the differences and their intervals."""

from types import SimpleNamespace

import pandas as pd

import experiments
from experiments.commit_early import report as commit_early_report
from experiments.spokelse_strategy import thresholds


def _top(p_holm: float) -> pd.Series:
    return pd.Series(
        {
            "k": 2.0,
            "player": "threshold:k=2",
            "score": 6.76,
            "score_lo": 6.61,
            "score_hi": 6.90,
            "score_diff": -0.05,
            "score_diff_lo": -0.09,
            "score_diff_hi": -0.01,
            "score_p_holm": p_holm,
        }
    )


def test_a_best_k_with_corrected_p_021_is_not_settled():
    res = SimpleNamespace(baseline="threshold:k=4", table=pd.DataFrame({"k": range(14)}))
    text, kind = thresholds._best_k_text(
        "Round play, jack ½", _top(0.21), res, 1500, "score", False, "points per round"
    )
    assert kind == "none"
    assert "not settled at this size" in text and "No difference detected at this size" in text
    assert "does better" not in text and "plays best" not in text
    assert "rounds would be needed" in text and "an estimate" in text
    text, kind = thresholds._best_k_text(
        "Round play, jack ½", _top(0.003), res, 1500, "score", False, "points per round"
    )
    assert kind == "better" and "better than threshold:k=4 by 0.0500 points per round" in text
    assert "tested against k=4 only" in text or "against k=4 only" in text


def _rows(diffs, los, his, ps, players=(3, 4, 5)):
    return pd.DataFrame(
        {
            "players": list(players),
            "metric": "lose_match",
            "diff_vs_greedy": diffs,
            "diff_vs_greedy_lo": los,
            "diff_vs_greedy_hi": his,
            "p_holm": ps,
            "deals": 2000,
        }
    )


def test_worse_everywhere_is_said_with_its_range():
    rows = _rows([0.003, 0.012, 0.024], [0.001, 0.006, 0.016], [0.005, 0.018, 0.030], [0.01, 0.001, 1e-9])
    kind, phrase = commit_early_report._field_phrase(rows, "lose_match")
    assert kind == "worse"
    assert phrase == (
        "it is worse than greedy at every table size tried (3-5 players), by 0.30–2.4 percentage points "
        "of lost matches (95% intervals from 0.10 to 3.0)"
    )


def test_an_uncorrected_interval_alone_names_no_loser():
    # Every interval excludes 0, but the corrected p at 4 players is 0.21.
    rows = _rows([0.003, 0.012, 0.024], [0.001, 0.006, 0.016], [0.005, 0.018, 0.030], [0.01, 0.21, 1e-9])
    kind, phrase = commit_early_report._field_phrase(rows, "lose_match")
    assert kind == "mixed" and "no difference detected at 4 players" in phrase
    rows = _rows([0.003, 0.01, 0.02], [0.001, 0.002, 0.004], [0.005, 0.018, 0.036], [0.3, 0.21, 0.4])
    kind, phrase = commit_early_report._field_phrase(rows, "lose_match")
    assert kind == "none" and "no difference from greedy is detected at this size" in phrase
    assert "detecting differences this size would take about" in phrase and "(an estimate)" in phrase


def test_the_commit_headline_says_no_when_worse_everywhere():
    rows = []
    for field in ("greedy", "commit:after=0"):
        t = _rows([0.003, 0.012, 0.024], [0.001, 0.006, 0.016], [0.005, 0.018, 0.030], [0.01, 0.001, 1e-9])
        t["game"], t["field"], t["player"] = "gris", field, "commit:after=0"
        rows.append(t)
    b = SimpleNamespace(headlines=[], tables={}, answer=[])
    b.headline = lambda q, a: b.headlines.append((q, a))
    b.table = lambda name, df: b.tables.setdefault(name, df)
    commit_early_report._headlines(
        b,
        pd.concat(rows),
        {"games": ["gris"], "afters": [0], "players": [3, 4, 5], "fields": ["greedy", "commit:after=0"]},
    )
    (q1, a1), (q2, a2) = b.headlines
    assert q2.startswith("Gris: where does")
    assert q1 == "Gris: is committing on the deal (commit:after=0) worth it, in matches lost?"
    assert a1.startswith(
        "No: committing on the deal loses more matches than greedy at every table size tried"
    )
    assert b.answer[0].startswith(
        "Gris, committing on the deal (commit:after=0), lost matches: against greedy players, "
        "it is worse than greedy at every table size tried"
    )
    assert a2.startswith("It does not flip")
    assert list(b.tables["summary"]["verdict"]) == ["worse"] * 6


def test_every_experiment_has_a_plan():
    for name in experiments.EXPERIMENTS:
        for size in experiments.SIZES:
            steps = experiments.plan(name, size)
            assert steps and len({s.key for s in steps}) == len(steps)
