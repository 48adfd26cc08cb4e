"""The Holm correction of comparisons gives statsmodels' doubles, bit for bit."""

import numpy as np
import pytest
from statsmodels.stats.multitest import multipletests

from simulator.analysis.compare_stats import holm
from simulator.engine.stats import LEVEL


@pytest.mark.parametrize("n", [1, 2, 3, 5, 12])
def test_holm_is_statsmodels_holm(n):
    gen = np.random.default_rng(n)
    for trial in range(30):  # statsmodels collects garbage on every call: a few dozen
        p = gen.uniform(0, 0.2, n) if trial % 2 else gen.choice([0.001, 0.01, 0.02, 0.5, 1.0], n)
        reject, corrected = holm(list(p), 1 - LEVEL)
        want_reject, want, _, _ = multipletests(list(p), alpha=1 - LEVEL, method="holm")
        assert reject.tolist() == want_reject.tolist()
        assert corrected.tolist() == want.tolist()  # the same doubles, not merely close
