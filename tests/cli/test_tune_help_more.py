"""``--trials`` counts the trials of each iteration, and the help says so."""

from typer.testing import CliRunner

import simulator
from simulator.cli.app import app


def test_help_says_trials_are_per_iteration():
    r = CliRunner().invoke(app, ["tune", "--help"], terminal_width=200)
    assert r.exit_code == 0
    assert "Trials per iteration" in r.output


def test_each_iteration_finishes_its_own_trials():
    res = simulator.tune("spokelse", "threshold:k=0..6", rounds=400, trials=3, iterate=2, seed=9, threads=1)
    per = res.trials[~res.trials["repeat"]].groupby("iteration").size()  # repeats do not count
    assert len(per) == len(res.summary["iterations"]) == 2
    assert (per == 3).all()
