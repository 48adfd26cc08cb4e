"""Each experiment's tiny run, made once per test session and shared by the test files here,
with every figure it saved (the matplotlib figures themselves, for checks of their text)."""

from collections.abc import Callable
from unittest import mock

import pytest

import experiments
from simulator.reporting import plots


def recording_saves(into: list) -> mock._patch:
    """A patch of :func:`plots.save` that appends each ``(stem, figure)`` to ``into``."""
    save = plots.save

    def record(fig, out_dir, stem):
        into.append((stem, fig))
        return save(fig, out_dir, stem)

    return mock.patch.object(plots, "save", record)


@pytest.fixture(scope="session")
def _tiny_runs(tmp_path_factory) -> Callable[[str], tuple[experiments.ExperimentResult, list]]:
    cache: dict[str, tuple[experiments.ExperimentResult, list]] = {}

    def get(name: str) -> tuple[experiments.ExperimentResult, list]:
        if name not in cache:
            figs: list = []
            with recording_saves(figs):
                res = experiments.run(name, size="tiny", out_dir=tmp_path_factory.mktemp(name))
            cache[name] = (res, figs)
        return cache[name]

    return get


@pytest.fixture(scope="session")
def tiny_results(_tiny_runs) -> Callable[[str], experiments.ExperimentResult]:
    """``tiny_results(name)``: experiment ``name`` run at its tiny size into a fresh folder."""
    return lambda name: _tiny_runs(name)[0]


@pytest.fixture(scope="session")
def tiny_figures(_tiny_runs) -> Callable[[str], list]:
    """``tiny_figures(name)``: ``(stem, matplotlib figure)`` of every figure that run saved."""
    return lambda name: _tiny_runs(name)[1]


@pytest.fixture(scope="session")
def tiny_profile(tmp_path_factory):
    """``kortsim profile``'s report with a compared rule: (paths written, figures saved)."""
    import simulator

    prof = simulator.profile("spokelse", compare_rule="jack=0.5,11", rounds=2000, matches=40, seed=2)
    figs: list = []
    with recording_saves(figs):
        paths = prof.write(tmp_path_factory.mktemp("profile"))
    return prof, paths, figs
