"""A profile played on a Dask cluster gives the figures of one played on this machine."""

from __future__ import annotations

import json

import pytest
from distributed import LocalCluster

import simulator

pytestmark = pytest.mark.slow


def _figures(profile: simulator.Profile) -> str:
    summary = dict(profile.summary)
    summary.pop("provenance", None)
    return json.dumps(summary, sort_keys=True, default=str)


def test_a_profile_on_a_local_cluster_has_the_figures_of_a_local_one():
    kw = {"rounds": 300, "matches": 12, "seed": 5, "players": 3}
    local = simulator.profile("gris-nese", **kw)
    with LocalCluster(n_workers=1, threads_per_worker=1, processes=False, dashboard_address=None) as cluster:
        remote = simulator.profile("gris-nese", backend="dask", scheduler=cluster.scheduler_address, **kw)
        played_there = len(cluster.scheduler.transition_log)
    assert played_there > 0  # the blocks really went to the cluster
    assert _figures(remote) == _figures(local)
    assert [h.answer for h in remote.headlines] == [h.answer for h in local.headlines]


def test_the_profile_command_takes_the_backend_options():
    from typer.testing import CliRunner

    from simulator.cli import app

    r = CliRunner().invoke(app, ["profile", "--help"], terminal_width=200)
    assert r.exit_code == 0, r.output
    assert all(flag in r.output for flag in ("--backend", "--scheduler", "--workers")), r.output
    r = CliRunner().invoke(app, ["profile", "spokelse", "--backend", "cluster"])
    assert r.exit_code == 2 and "error:" in r.output
