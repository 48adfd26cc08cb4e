"""One wording for an illegal move, whether a run or a trace finds it.

A strategy that answers with an action the rules do not allow stops a run
(``kortsim simulate``, :func:`simulator.simulate`) or a trace (``kortsim trace``,
:func:`simulator.trace`) with one line.  The readable reference games
(``simulator/games/*/reference.py``) build that line with the functions below (and a
game's own wording, e.g. ``simulator/games/spokelse/illegal.py``); a
run, whose compiled kernel keeps only a few numbers about the move, replays the
game in the reference implementation to say the same words
(:func:`simulator.running.runner.describe_illegal`).  The line names the strategy and its seat, what it
returned, the decision in words, what was legal (and the rule that made the
answer illegal), the turn or pass as the observation counts it, and the game
of the run and its seed::

    strategy 'bad' (seat 0) returned 4 when placing its card, on turn 1 (TURN=0): a card
    taken from the discard pile must be placed (legal: 0-3, the slot to put it in), in round 0
    of the run with seed 1
"""

from __future__ import annotations

import operator
from collections.abc import Sequence


def shown(value: object) -> str:
    """What a strategy returned, as people read it: an integer (or integer enum member) as
    its number, anything else as its ``repr``."""
    if isinstance(value, bool):
        return repr(value)
    try:
        return str(operator.index(value))  # type: ignore[arg-type]
    except TypeError:
        return repr(value)


def where(unit: str, game_index: int, seed: int) -> str:
    """Which game of which run: ``in round 3 of the run with seed 7``."""
    what = "round" if unit == "round" else "match"
    return f"in {what} {game_index} of the run with seed {seed}"


def line(strategy: str, seat: int, value: object, doing: str, when: str, why: str) -> str:
    """The body of the line (everything but :func:`where`)."""
    return f"strategy {strategy!r} (seat {seat}) returned {shown(value)} when {doing}, on {when}: {why}"


def not_held(
    strategy: str, seat: int, value: object, card: str | None, doing: str, when: str, hand: Sequence[str] = ()
) -> str:
    """Gris and Gris-nese: a card the strategy does not hold (``card`` is its name, None when
    the answer is not a card code at all)."""
    what = f"{card}, a card it does not hold" if card is not None else "not a card code (0-51)"
    held = f"; its hand: {' '.join(hand)}" if hand else ""
    return line(strategy, seat, value, doing, when, what + held)


__all__ = ["line", "not_held", "shown", "where"]
