"""Shared test settings: figures go to a non-interactive backend, no test depends on the clock,
and none on the width of the terminal the suite runs in.

Hypothesis runs without its per-example deadline: the first call of a compiled function
loads machine code from numba's cache, which on a busy machine takes longer than any
deadline a quick example would meet.  Under CI (``CI`` set) the examples are also fixed
(derandomised), so that a run is repeatable; locally they stay random to keep finding cases.
"""

import contextlib
import os
from pathlib import Path

import pytest
from hypothesis import settings

os.environ.setdefault("MPLBACKEND", "Agg")
# The output's width is the test's to set (``COLUMNS``, ``--width``): pytest-xdist's workers
# start with COLUMNS=80 and LINES=24 in their environment, which would fit every command's
# output to 80 columns in a parallel run only.  GNU readline, once imported (pytest's
# debugger imports it), also writes the terminal's COLUMNS and LINES into the process's
# environment behind ``os.environ``'s back wherever TERM is set, and subprocesses inherit
# them: imported first, then both are removed from the environment itself too.
with contextlib.suppress(ImportError):
    import readline  # noqa: F401
for _name in ("COLUMNS", "LINES"):
    os.environ.pop(_name, None)
    os.unsetenv(_name)

settings.register_profile("kortsim", deadline=None)
settings.register_profile("kortsim-ci", deadline=None, derandomize=True, print_blob=True)
settings.load_profile("kortsim-ci" if os.environ.get("CI") else "kortsim")


@pytest.fixture(scope="session")
def heatmap_pixels():
    """tests/reporting/heatmap_pixels.py: reading a drawn heatmap's cells back (a helper module
    of the tests, loaded by path: the test folders are not packages)."""
    import importlib.util

    path = Path(__file__).resolve().parent / "reporting" / "heatmap_pixels.py"
    spec = importlib.util.spec_from_file_location("kortsim_test_heatmap_pixels", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module
