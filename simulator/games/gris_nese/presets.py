"""Named parameter sets of Gris-nese strategies, by table size: ``-s follow@6``.

Found with ``kortsim tune gris-nese --players N -s follow --vs greedy --rounds 400000
--trials 40 --confirm 1000000 --seed 11`` (metric ``eliminated``, lower is better;
docs/tune.md gives the figures).  At 3 seats ``spent`` and ``stick`` carry weight 0 (three
ranks in play, see ``follow``'s description), so ``follow@3`` keeps their defaults and plays
exactly as the tuned point.  A preset is only a shorter spec: no default changes.
"""

from strategies.registry import register_preset

GAME = "gris-nese"
_WHY = "tuned against greedy at {n} seats (eliminated per round; docs/tune.md)"

register_preset(GAME, "follow", "3", {"follow": 0.04348819403386717}, _WHY.format(n=3))
register_preset(
    GAME,
    "follow",
    "4",
    {"follow": 0.9391170623144005, "spent": -3.3188382976786666, "stick": 1.6909264583666337},
    _WHY.format(n=4),
)
register_preset(GAME, "follow", "6", {}, _WHY.format(n=6) + "; the defaults stay best")
