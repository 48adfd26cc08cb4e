"""What the games' trace and conformance hooks share (:meth:`simulator.games.base.Game.trace`,
:meth:`~simulator.games.base.Game.moves`): a unit played and written out by a game's
reference, and the arrays of a round traced by its kernel."""

from __future__ import annotations

from collections.abc import Sequence
from types import ModuleType
from typing import Any

import numpy as np


def reference_trace(
    reference: ModuleType, rules: Any, players: Sequence, seed: int, game_index: int, unit: str, **play: Any
) -> str:
    """Game ``game_index`` of a seeded run, played and formatted by the game's reference.

    Parameters
    ----------
    reference
        The game's reference module: ``play_round``, ``play_match``, ``format_round`` and
        ``format_match``.
    rules, players, seed, game_index
        What the reference plays with; the players' specs name the seats.
    unit
        ``"round"`` or ``"match"``.
    **play
        Further keywords of ``play_round`` and ``play_match`` (the reaction profiles).

    Returns
    -------
    str
        The reference's readable record of the round or the match.
    """
    names = [p.spec for p in players]
    if unit == "round":
        rec = reference.play_round(rules, players, seed=seed, game=game_index, **play)
        return reference.format_round(rec, names=names)
    rec = reference.play_match(rules, players, seed=seed, game=game_index, **play)
    return reference.format_match(rec, names=names)


def strategy_arrays(players: Sequence) -> tuple[np.ndarray, np.ndarray]:
    """The shipped strategies' ids and parameter rows, one per seat, as a traced kernel round takes them.

    Returns
    -------
    sids : numpy.ndarray of int64
        Each seat's built-in strategy id.
    params : numpy.ndarray of float64, shape (seats, row)
        Each seat's parameter row.
    """
    sids = np.array([p.family.builtin_id for p in players], np.int64)
    params = np.stack([p.params for p in players]).astype(np.float64)
    return sids, params


def log_moves(log: np.ndarray, n: int) -> list[tuple[int, ...]]:
    """The first ``n`` rows of a kernel's move log, each a tuple of ints (:meth:`Game.moves`)."""
    return [tuple(int(x) for x in row) for row in log[:n]]
