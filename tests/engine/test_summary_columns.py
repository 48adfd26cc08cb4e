"""simulator/engine/summary.py: a summary's figure as the three columns of a table."""

from __future__ import annotations

import pytest

from simulator.engine.summary import with_interval


def test_a_figure_becomes_its_value_and_interval_ends_in_that_order() -> None:
    figures = {"win_rate": 0.25, "win_rate_ci": [0.2, 0.3], "other": 1}
    assert list(with_interval(figures, "win_rate").items()) == [
        ("win_rate", 0.25),
        ("win_rate_lo", 0.2),
        ("win_rate_hi", 0.3),
    ]
    assert with_interval(figures, "win_rate", "value") == {"value": 0.25, "value_lo": 0.2, "value_hi": 0.3}


def test_a_figure_without_an_interval_is_refused() -> None:
    with pytest.raises(KeyError, match="other_ci"):
        with_interval({"other": 1}, "other")
