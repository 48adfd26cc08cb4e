"""Shared test settings: figures go to a non-interactive backend, and no test depends on the clock.

Hypothesis runs without its per-example deadline: the first call of a compiled function
loads machine code from numba's cache, which on a busy machine takes longer than any
deadline a quick example would meet.  Under CI (``CI`` set) the examples are also fixed
(derandomised), so that a run is repeatable; locally they stay random to keep finding cases.
"""

import os

from hypothesis import settings

os.environ.setdefault("MPLBACKEND", "Agg")

settings.register_profile("kortsim", deadline=None)
settings.register_profile("kortsim-ci", deadline=None, derandomize=True, print_blob=True)
settings.load_profile("kortsim-ci" if os.environ.get("CI") else "kortsim")
