"""Compile (or load from numba's cache) every shipped kernel, reporting the seconds each took."""

from __future__ import annotations

import time
from dataclasses import replace

from simulator.games import all_games
from simulator.kernels.messages import game_title
from simulator.running.inputs import make_table, resolve_players
from simulator.running.runner import BlockRunner
from strategies.registry import families


def warm() -> list[tuple[str, str, float]]:
    """Play one tiny block of every game's rounds and matches, records too."""
    out = []
    for game in all_games().values():
        fams = families(game.name)
        spec = next(iter(fams))  # any shipped strategy reaches the same builtin kernel
        table = make_table(game)
        players = resolve_players(game, [spec], table.n_seats)
        for unit in ("round", "match"):
            t0 = time.perf_counter()
            runner = BlockRunner(table, players, unit, 0)
            message = f"compiling the {game_title(game)} kernel into numba's cache (once)"
            runner.kernel = replace(runner.kernel, message=message)
            runner.play(0, 1, n_chunks=1)
            runner.records(0, 1, n_chunks=1)
            out.append((game.name, unit, time.perf_counter() - t0))
    return out
