"""The suite's own settings: no test depends on how fast the machine is."""

import os

from hypothesis import settings


def test_hypothesis_examples_have_no_deadline():
    # a first call that loads compiled code may take longer than any deadline on a busy machine
    assert settings().deadline is None


def test_ci_runs_fixed_examples():
    assert settings().derandomize == bool(os.environ.get("CI"))
