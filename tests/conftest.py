"""Shared test settings: figures go to a non-interactive backend, no test depends on the clock,
and none on the width of the terminal the suite runs in.

Hypothesis runs without its per-example deadline: the first call of a compiled function
loads machine code from numba's cache, which on a busy machine takes longer than any
deadline a quick example would meet.  Under CI (``CI`` set) the examples are also fixed
(derandomised), so that a run is repeatable; locally they stay random to keep finding cases.
"""

import os

from hypothesis import settings

os.environ.setdefault("MPLBACKEND", "Agg")
# The output's width is the test's to set (``COLUMNS``, ``--width``): pytest-xdist's workers
# start with COLUMNS=80 and LINES=24 in their environment, which would fit every command's
# output to 80 columns in a parallel run only.
os.environ.pop("COLUMNS", None)
os.environ.pop("LINES", None)

settings.register_profile("kortsim", deadline=None)
settings.register_profile("kortsim-ci", deadline=None, derandomize=True, print_blob=True)
settings.load_profile("kortsim-ci" if os.environ.get("CI") else "kortsim")
