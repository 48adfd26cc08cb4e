"""Play N rounds of one game's compiled kernel on one thread, after a warm-up, for a profiler.

Run it under a counting profiler twice with two values of N; the difference of the counts
over the difference of N is the cost of one round, free of start-up and compile time:

    NUMBA_NUM_THREADS=1 valgrind --tool=callgrind --callgrind-out-file=cg.%p \\
        python benchmarks/profile_kernel.py gris 20000

It prints the rounds played and the mean passes per round (so a count per round can be
divided by the passes).  Games: gris (4 seats), gris-nese (5), spokelse; ``--players``
changes the seat count, ``--strategy`` the strategy on every seat (default greedy,
threshold:k=4 for spokelse).
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from simulator.games import get_game


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("game", choices=["gris", "gris-nese", "spokelse"])
    ap.add_argument("rounds", type=int)
    ap.add_argument("--players", type=int, default=0)
    ap.add_argument("--strategy", default="")
    ap.add_argument("--matches", action="store_true", help="play matches instead of rounds")
    a = ap.parse_args()
    from simulator.api import make_table, resolve_players
    from simulator.running.runner import BlockRunner

    game = get_game(a.game)
    n = a.players or {"gris": 4, "gris-nese": 5, "spokelse": 2}[a.game]
    strat = a.strategy or ("threshold:k=4" if a.game == "spokelse" else "greedy")
    unit = "match" if a.matches else "round"
    table = make_table(game, players=n)
    runner = BlockRunner(table, resolve_players(game, [strat], n), unit, 1)
    runner.play(0, 1000, n_chunks=1)  # warm-up: compile or load, first touch
    t0 = time.process_time()
    agg = runner.play(1000, a.rounds, n_chunks=1)
    cpu = time.process_time() - t0
    print(
        f"{a.game} players={n} {unit}s={a.rounds} aggregate_sum={int(np.sum(agg))} "
        f"cpu_s={cpu:.3f} ns_per_{unit}={1e9 * cpu / a.rounds:.0f}"
    )


if __name__ == "__main__":
    main()
