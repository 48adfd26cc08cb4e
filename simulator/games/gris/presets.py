"""Named parameter sets of Gris strategies, by table size: ``-s reader@6``.

Found with ``kortsim tune gris --players N -s reader --vs greedy --rounds 400000 --trials 40
--confirm 1000000 --seed 11`` (metric ``letter``, lower is better; docs/tune.md gives the
figures).  At 3 and 4 seats no candidate beat the defaults, so ``reader@3`` and ``reader@4``
are the defaults; at 6 seats the defaults do worse than greedy and the tuned values beat
both on fresh deals.  A preset is only a shorter spec: no default changes.
"""

from strategies.registry import register_preset

GAME = "gris"
_WHY = "tuned against greedy at {n} seats (letter per round; docs/tune.md)"

register_preset(GAME, "reader", "3", {}, _WHY.format(n=3) + "; the defaults stay best")
register_preset(GAME, "reader", "4", {}, _WHY.format(n=4) + "; the defaults stay best")
register_preset(
    GAME,
    "reader",
    "6",
    {
        "flow": 0.7832216136485703,
        "spent": 0.35715511427580715,
        "stick": 0.02478017974905014,
        "hold": 1,
        "patience": 141,
    },
    _WHY.format(n=6),
)
