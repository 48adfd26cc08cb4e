"""The user-strategy watchdog always names a strategy, and never watches shipped ones."""

from __future__ import annotations

import simulator.games.spokelse.strategies  # noqa: F401  (registers the strategies)
from simulator.kernels.containment import who
from strategies.registry import parse_spec


def test_who_names_shipped_on_demand_strategies_rather_than_none():
    players = [parse_spec("expect", "spokelse"), parse_spec("search", "spokelse")]
    words = who(players)
    assert "search" in words and "expect" in words
    assert "strategies  " not in words  # the old empty name


def test_shipped_only_runs_are_not_watched():
    from simulator.running.runner import BlockRunner

    class Fake:
        kernel = type("K", (), {"user": True})()  # a specialised kernel (search is compiled on demand)
        players = [parse_spec("expect", "spokelse"), parse_spec("search", "spokelse")]

    ctx = BlockRunner._watched(Fake(), 0, 10)
    assert type(ctx).__name__ == "nullcontext"
