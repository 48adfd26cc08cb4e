"""Exact advice at the end of a round (advise_exact.py) against a brute-force count."""

from __future__ import annotations

from itertools import permutations

import pytest

import simulator
from simulator.engine.cards import N_CARDS, name
from simulator.games.spokelse.advise import Position
from simulator.games.spokelse.advise_exact import DRAW, TAKE, exact_scores
from simulator.games.spokelse.variants import Rules

VALUES = Rules().values_half()
ROW = (0 * 13 + 2, 1 * 13 + 12, -1, -1)  # ♠3 ♦K ? ?
HAND, DISCARD = 2 * 13 + 7, 3 * 13 + 11  # ♥8, ♣Q


def _seen(k: int) -> tuple[int, ...]:
    taken = {c for c in ROW if c >= 0} | {HAND, DISCARD}
    return tuple(c for c in range(N_CARDS) if c not in taken)[:k]


def _pool(pos: Position) -> list[int]:
    shown = {c for c in (*pos.row, *pos.opp, pos.hand, pos.discard, *pos.seen) if c >= 0}
    return [c for c in range(N_CARDS) if c not in shown]


def _score(row: list[int], ghost: int) -> int:
    return sum(VALUES[c % 13] for c in row) + VALUES[ghost % 13]


def _brute_place(pos: Position, card: int, b: int, pool: list[int]) -> float:
    """Mean own score over every ordering of pool cards into the unknown slots and the ghost."""
    unknown = [i for i in range(4) if pos.row[i] < 0]
    total, count = 0, 0
    for cards in permutations(pool, len(unknown) + 1):
        row = list(pos.row)
        for i, c in zip(unknown, cards):
            row[i] = c
        if b < 4:
            row[b] = card
        total += _score(row, cards[-1])
        count += 1
    return total / count


def test_place_with_the_stock_empty_matches_brute_force():
    pos = Position(row=ROW, stock=0, hand=HAND, discard=DISCARD, seen=_seen(36))
    exact = exact_scores(pos)
    pool = _pool(pos)
    assert len(pool) == 12
    for b in range(5):
        assert exact[b] == pytest.approx(_brute_place(pos, HAND, b, pool), abs=1e-9)


def test_source_with_one_stock_card_matches_brute_force():
    pos = Position(row=ROW, stock=1, discard=DISCARD, seen=_seen(37))
    exact = exact_scores(pos)
    pool = _pool(pos)
    take = min(_brute_place(pos, DISCARD, b, pool) for b in range(4))
    draw = 0.0
    for c in pool:  # the stock card; the player then places it knowing it, not the rest
        rest = [x for x in pool if x != c]
        draw += min(_brute_place(pos, c, b, rest) for b in range(5))
    draw /= len(pool)
    assert exact[TAKE] == pytest.approx(take, abs=1e-9)
    assert exact[DRAW] == pytest.approx(draw, abs=1e-9)


def test_more_stock_needs_playouts():
    assert exact_scores(Position(row=ROW, stock=2, hand=HAND, discard=DISCARD)) is None


def test_advise_reports_exact_scores_at_the_end():
    advice = simulator.advise(
        "spokelse", row="♠3 ♦K ? ?", hand=name(HAND), discard=name(DISCARD), stock=0, samples=50, seed=2
    )
    assert advice.exact
    pos = Position(row=ROW, stock=0, hand=HAND, discard=DISCARD)
    exact = exact_scores(pos)
    for o in advice.options:
        assert o.score == pytest.approx(exact[o.action] / 2) and o.score_ci == (o.score, o.score)
