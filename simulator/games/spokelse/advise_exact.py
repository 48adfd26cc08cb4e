"""Exact advice at the end of a Spøkelse round: the stock holds 0 or 1 card.

With one card or none left, the player's own final score no longer depends on anybody's
later play: after its placement only the opponent moves, and the round ends (RULES.md
§3).  Its expected final score is then an exact sum over the cards the unknown places
can hold.  Under the uniform deal each unknown place (an own unknown slot, the ghost, the
stock card) holds a uniform draw from the unseen cards, without replacement, so each
holds the pool's mean value, and, once a drawn card of value ``v`` is known, the mean of
the rest.  After drawing, the player is taken to place the card as well as possible.
"""

from __future__ import annotations

from simulator.games.spokelse.observation import PLACE, SOURCE, UNSEEN
from simulator.games.spokelse.position import Position, position_obs
from simulator.games.spokelse.search_worlds import THROW

DRAW, TAKE = 0, 1


def pool_values(pos: Position) -> list[int]:
    """The values (half points) of the cards the player cannot place, one per card."""
    obs = position_obs(pos)
    values = pos.rules.values_half()
    return [int(values[r]) for r in range(13) for _ in range(int(obs[UNSEEN + r]))]


def _placed(row_values: list[int | None], card: int, b: int, rest_mean: float) -> float:
    """Own expected final score when ``card`` goes into slot ``b`` (or is thrown, b=4):
    the known slots plus the unknown ones and the ghost at ``rest_mean`` each."""
    row = list(row_values)
    if b < 4:
        row[b] = card
    return sum(v for v in row if v is not None) + (sum(v is None for v in row) + 1) * rest_mean


def exact_scores(pos: Position, pool: list[int] | None = None) -> dict[int, float] | None:
    """Each legal action's exact expected own final score (half points), or None when
    the stock holds more than one card (then playouts are needed).  ``pool``: the values
    of the cards dealt uniformly to the unknown places (default: every card the player
    cannot place, :func:`pool_values`; the belief passes a particle's)."""
    if pos.stock > 1:
        return None
    values = pos.rules.values_half()
    row = [None if c < 0 else int(values[c % 13]) for c in pos.row]
    pool = pool_values(pos) if pool is None else pool
    n, total = len(pool), sum(pool)
    if pos.phase == PLACE:
        hand = int(values[pos.hand % 13])
        actions = range(4) if pos.from_discard else range(5)
        return {b: _placed(row, hand, b, total / n) for b in actions}
    assert pos.phase == SOURCE and pos.stock == 1
    d = int(values[pos.discard % 13])
    out = {TAKE: min(_placed(row, d, b, total / n) for b in range(4))}
    drawn = 0.0
    for v in pool:  # the stock card, each of the unseen cards alike
        rest = (total - v) / (n - 1)
        drawn += min(_placed(row, v, b, rest) for b in (0, 1, 2, 3, THROW))
    out[DRAW] = drawn / n
    return out
