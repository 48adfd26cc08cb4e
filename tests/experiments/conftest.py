"""Each experiment's tiny run, made once per test session and shared by the test files here."""

from collections.abc import Callable

import pytest

import experiments


@pytest.fixture(scope="session")
def tiny_results(tmp_path_factory) -> Callable[[str], experiments.ExperimentResult]:
    """``tiny_results(name)``: experiment ``name`` run at its tiny size into a fresh folder."""
    cache: dict[str, experiments.ExperimentResult] = {}

    def get(name: str) -> experiments.ExperimentResult:
        if name not in cache:
            cache[name] = experiments.run(name, size="tiny", out_dir=tmp_path_factory.mktemp(name))
        return cache[name]

    return get
