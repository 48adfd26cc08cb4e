"""Human-like Spøkelse players, compiled: forgetting and slips (docs/human-players.md).

Every loop that plays Spøkelse turns (``kernel.py``, and the calibration and duel loops
through ``round_steps.py``) takes these pieces from here, so that they all play the same
rules with the same draws as the reference (``reference_human.py``):

* :func:`forget_nb` at the start of a turn, when the player's ``forget`` is above 0: each
  card it knows but cannot see now (its ``seen`` bit set, not the discard top), in
  ascending card code, is forgotten when a uniform draw is below ``forget``;
* :func:`slips_nb` before each decision, when its ``slip`` is above 0: one uniform draw;
  below ``slip`` the decision is :func:`random_source_nb` or :func:`random_place_nb`
  (the draws of the ``random`` strategy) and the strategy is not asked.  A card a slip
  took from the discard pile is placed by :func:`random_place_nb` with no draw for a slip
  (the strategy may have no legal place for a card it would never take).

The callers also show both players a card that becomes the discard top again when the
card over it is taken (a no-op unless one of them had forgotten it).

All draws come from the seat's own decision stream and happen only when the value is
above 0 (the callers test it first), so a plain player draws exactly what it drew before.
The functions are inlined by LLVM (``forceinline``) like the strategies, so a kernel's
views pass through them without reference counting.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from simulator.engine.rng import below_nb, uniform_nb
from simulator.games.spokelse.observation import (
    HIGH,
    HIGH_SLOT,
    OPP_SLOT,
    SLOT,
    SLOT_VALUE,
    UNKNOWN_SLOT,
    UNSEEN,
)
from strategies.registry import FORGET_AT, SLIP_AT

STOCK = 0


@njit(cache=True, inline="always")
def human_of_nb(params, seat, n_params):
    """``(forget, slip)`` of ``seat``'s row of ``params`` (``n_params`` wide); a row too
    short to hold them (a strategy's own parameters only) is a plain player: ``(0, 0)``."""
    forget = params[seat, FORGET_AT] if n_params > FORGET_AT else 0.0
    slip = params[seat, SLIP_AT] if n_params > SLIP_AT else 0.0
    return forget, slip


@njit(cache=True, inline="always")
def human_of_row_nb(row):
    """``(forget, slip)`` of one parameter row, ``(0, 0)`` when it is too short to hold them."""
    n = row.shape[0]
    return (row[FORGET_AT] if n > FORGET_AT else 0.0), (row[SLIP_AT] if n > SLIP_AT else 0.0)


@njit(cache=True, forceinline=True)
def forget_nb(obs, seen, p, top, forget, rng):
    """Seat ``p`` forgets each card it knows but cannot see now with probability ``forget``.

    The cards are those of ``seen[p]`` except ``top`` (the discard top, -1 for none), in
    ascending card code, one ``uniform()`` draw from ``rng`` each.  A forgotten card loses
    its ``seen`` bit and counts as unseen of its rank again; in ``p``'s own row its slot
    becomes unknown, in the opponent's row its public slot is shown as -1 again; a card
    under the discard top needs nothing more.  HIGH, HIGH_SLOT and UNKNOWN_SLOT are those
    of the row as it is then."""
    bits = seen[p]
    if top >= 0:
        bits &= ~(np.uint64(1) << np.uint64(top))
    for c in range(52):
        bit = np.uint64(1) << np.uint64(c)
        if (bits & bit) == 0 or uniform_nb(rng) >= forget:
            continue
        seen[p] &= ~bit
        obs[p, UNSEEN + c % 13] += 1
        for i in range(4):
            if obs[p, SLOT + i] == c:
                obs[p, SLOT + i] = -1
                obs[p, SLOT_VALUE + i] = -1
            if obs[p, OPP_SLOT + i] == c:
                obs[p, OPP_SLOT + i] = -1
    h, h_slot, u = -1, -1, -1
    for i in range(4):
        v = obs[p, SLOT_VALUE + i]
        if v < 0:
            if u < 0:
                u = i
        elif v > h:
            h, h_slot = v, i
    obs[p, HIGH] = h
    obs[p, HIGH_SLOT] = h_slot
    obs[p, UNKNOWN_SLOT] = u


@njit(cache=True, forceinline=True)
def slips_nb(slip, rng):
    """One ``uniform()`` draw: True when it is below ``slip`` (the decision is a slip).
    Call it only when ``slip`` is above 0."""
    return uniform_nb(rng) < slip


@njit(cache=True, forceinline=True)
def random_source_nb(has_pile, rng):
    """A uniformly random legal source: the stock when the discard pile is empty (no draw),
    else ``below(2)`` (0 the stock, 1 the discard pile)."""
    if not has_pile:
        return np.int64(STOCK)
    return below_nb(rng, 2)


@njit(cache=True, forceinline=True)
def random_place_nb(from_discard, rng):
    """A uniformly random legal placement: ``below(4)`` (a slot) for a card from the discard
    pile, ``below(5)`` (a slot, or 4 = throw it away) for a stock card."""
    if from_discard:
        return below_nb(rng, 4)
    return below_nb(rng, 5)


__all__ = [
    "forget_nb",
    "human_of_nb",
    "human_of_row_nb",
    "random_place_nb",
    "random_source_nb",
    "slips_nb",
]
