"""You at the table, as every game's reference plays you: a player named ``you``."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from strategies.registry import PARAM_ROW


@dataclass(kw_only=True)
class HumanPlayer:
    """What a reference reads of your seat's player besides its ``decide``.

    A game's table module adds your console and ``decide`` (keyword-only here, so its own
    fields may come first and without defaults).

    Attributes
    ----------
    name, spec
        How the records and the trace name you.
    params
        Your parameter row: all zeros, so you neither forget nor slip (you do it yourself).
    """

    name: str = "you"
    spec: str = "you"
    params: np.ndarray = field(default_factory=lambda: np.zeros(PARAM_ROW))
