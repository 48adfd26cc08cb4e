"""A helper module of ``reads_a_limit.py`` whose constant comes from the environment at import."""

import os

#: Numba freezes this value into the compiled strategy: it must be part of the cache key.
LIMIT = int(os.environ.get("KORTSIM_TEST_LIMIT", "0"))
