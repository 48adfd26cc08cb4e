"""The Spøkelse search ladder: each player against tuned expect on the same deals.

    python benchmarks/ladder_spokelse.py --deals 4000 --seed 31
    python benchmarks/ladder_spokelse.py --deals 500 --seed 32 --player search --player belief
    python benchmarks/ladder_spokelse.py --deals 1000 --seed 33 --opponent expect:forget=0.1,slip=0.05

Every deal is played twice per player, once in each seat (simulator/games/spokelse/duel.py);
it prints points per round less tuned expect's (lower is better) with a 95% interval over
deals, and rounds per second.  The figures are recorded in docs/search.md.
"""

from __future__ import annotations

import argparse
import json

from simulator.games.spokelse.ladder import TUNED_EXPECT, ladder, ladder_lines

DEFAULT = [
    "random",
    "threshold:k=4",
    "expect",
    "expect:k=1,patience=2.8417279406896636,pile=0.5,open=26",
    "search",
    "belief",
    "clairvoyant",
]


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=500)
    ap.add_argument("--seed", type=int, default=31)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--player", action="append", help="a player spec (repeat); default: the ladder")
    ap.add_argument("--opponent", default=TUNED_EXPECT, help="the opponent (default: tuned expect)")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    rungs = ladder(
        args.player or DEFAULT, deals=args.deals, seed=args.seed, threads=args.threads, opponent=args.opponent
    )
    if args.json:
        print(json.dumps([{k: v for k, v in r.__dict__.items() if k != "per_deal"} for r in rungs], indent=1))
    else:
        print("\n".join(ladder_lines(rungs)))


if __name__ == "__main__":
    main()
