"""The ladder's commands (docs/search.md) at a tiny size, and its pairing."""

from __future__ import annotations

import json
import runpy
import sys
from pathlib import Path

import numpy as np

from simulator.games.spokelse.ladder import ladder

BENCH = Path(__file__).parents[3] / "benchmarks" / "ladder_spokelse.py"


def test_tuned_expect_against_itself_is_level_on_every_deal():
    (rung,) = ladder(["expect:k=1,patience=2.8417279406896636,pile=0.5,open=26"], deals=20, seed=3, threads=1)
    assert rung.diff == 0.0 and rung.better == rung.worse == 0


def test_the_result_does_not_depend_on_the_thread_count():
    a = ladder(["threshold:k=4", "search:samples=8"], deals=12, seed=4, threads=1)
    b = ladder(["threshold:k=4", "search:samples=8"], deals=12, seed=4, threads=2)
    assert [r.diff for r in a] == [r.diff for r in b]


def test_the_ladder_command_runs_every_rung(capsys, monkeypatch):
    players = ["random", "threshold:k=4", "expect", "search:samples=8", "belief:samples=8", "clairvoyant"]
    argv = ["--deals", "2", "--seed", "5", "--threads", "1", "--json"]
    for p in players:
        argv += ["--player", p]
    monkeypatch.setattr(sys, "argv", [str(BENCH), *argv])
    runpy.run_path(str(BENCH), run_name="__main__")
    rungs = json.loads(capsys.readouterr().out)
    assert [r["player"] for r in rungs] == players
    assert all(np.isfinite(r["diff"]) for r in rungs)
