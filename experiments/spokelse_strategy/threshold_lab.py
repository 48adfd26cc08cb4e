"""An experiment-local strategy, ``threshold-lab``: ``threshold:k`` with one choice changed
(never take the discard top, or swap a card of one value into a chosen slot)."""

from __future__ import annotations

from numba import njit

from experiments.spokelse_strategy.plan import STOCK_CARDS
from simulator.games.spokelse.observation import (
    HAND_VALUE,
    HIGH,
    HIGH_SLOT,
    PHASE,
    PLACE,
    SOURCE,
    STOCK_LEFT,
    UNKNOWN_SLOT,
)
from simulator.games.spokelse.strategies import threshold_nb
from strategies.registry import families, format_value, parse_spec, strategy

STOCK, DISCARD_PILE = 0, 1


LAB = "threshold-lab"


def _lab(obs, params, rng):
    """threshold:k with one choice changed, for experiments.

    ``discard=0``: never take the discard top.  ``swap=1`` (``2``): holding a card worth
    exactly ``value`` points with ``left_lo..left_hi`` stock cards left, a known slot
    worth more than it and an unknown slot, swap it over the known-highest slot (into
    the first unknown slot).  Everything else is ``threshold:k`` exactly."""
    if obs[PHASE] == SOURCE:
        if params[1] == 0:
            return STOCK
        return threshold_nb(obs, params, rng)
    if params[2] > 0 and obs[PHASE] == PLACE:
        h = obs[HIGH]
        u = obs[UNKNOWN_SLOT]
        c = obs[HAND_VALUE]
        left = obs[STOCK_LEFT]
        if h >= 0 and u >= 0 and c < h and c == params[3] * 2.0 and params[4] <= left <= params[5]:
            return obs[HIGH_SLOT] if params[2] == 1 else u
    return threshold_nb(obs, params, rng)


def register_lab() -> None:
    """Register ``threshold-lab`` for Spøkelse once per process."""
    if LAB in families("spokelse"):
        return
    strategy(
        game="spokelse",
        name=LAB,
        params={
            "k": (4, 0, 13, 0.5),
            "discard": (1, 0, 1, 1),
            "swap": (0, 0, 2, 1),
            "value": (0, 0, 13, 0.5),
            "left_lo": (0, 0, STOCK_CARDS, 1),
            "left_hi": (STOCK_CARDS, 0, STOCK_CARDS, 1),
        },
    )(njit(_lab))


def lab(
    k: float = 4, discard: int = 1, swap: int = 0, value: float = 0, left: tuple[int, int] = (0, STOCK_CARDS)
):
    register_lab()
    spec = f"{LAB}:k={format_value(k)},discard={discard},swap={swap},value={format_value(value)}"
    return parse_spec(f"{spec},left_lo={left[0]},left_hi={left[1]}", "spokelse")
