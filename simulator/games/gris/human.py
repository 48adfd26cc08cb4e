"""Human-like Gris players in the kernel: slips and forgetting (docs/human-players.md, Gris).

Every player's parameter row carries ``forget`` and ``slip`` after the strategy's own
values (``strategies.registry.FORGET_AT``, ``SLIP_AT``).  The kernel reads them once per
round (:func:`human_values_nb`) and, only for a seat whose value is above 0, draws from
that seat's decision stream:

* before a decision, ``slip``: one ``uniform()``; below ``slip``, the card passed is
  ``HAND[below(6)]`` and the strategy is not asked (:func:`slip_nb`);
* right after its pass, ``forget``: one ``uniform()`` per remembered unit, forgotten when
  below ``forget``, in this order: the units of ``RECEIVED_SUIT`` suit by suit (♠ ♥ ♦ ♣),
  those of ``PASSED_SUIT`` likewise, then the cards of the seat's claim set in ascending
  code (:func:`forget_turn_nb`).

The claim set of a seat that forgets holds the cards it remembers passing that are away
on a trip it started; a card that comes back to its owner is claimed ("Dette kortet har
jeg hatt før") only if it is in the set (:func:`claimed_nb`).  A seat that does not
forget remembers every card, so its set is never consulted.  The plain-Python twin of
all this is in :mod:`simulator.games.gris.reference_view`.
"""

from __future__ import annotations

import numpy as np
from numba import njit
from numba.cpython.unsafe.numbers import trailing_zeros

from simulator.engine.cards import N_SUITS
from simulator.engine.rng import below_nb, uniform_nb
from simulator.games.gris.observation import HAND, MAX_HAND, PASSED_SUIT, RECEIVED_SUIT
from simulator.games.gris.variants import MAX_SEATS
from strategies.registry import FORGET_AT, SLIP_AT

SLIP_OFFSET = MAX_SEATS  # human[s] is seat s's forget, human[SLIP_OFFSET + s] its slip


@njit(cache=True, inline="always")
def human_values_nb(params, n, human, claims):
    """Read each seat's ``forget`` and ``slip`` from its row of ``params`` (``n`` rows) into
    ``human`` (a row shorter than ``PARAM_ROW`` counts as 0) and empty every claim set; return
    ``(some seat forgets, some seat slips)``."""
    width = params.shape[1]
    forgets = False
    slips = False
    for s in range(n):
        f = params[s, FORGET_AT] if width > FORGET_AT else 0.0
        e = params[s, SLIP_AT] if width > SLIP_AT else 0.0
        human[s] = f
        human[SLIP_OFFSET + s] = e
        claims[s] = 0
        forgets |= f > 0.0
        slips |= e > 0.0
    return forgets, slips


@njit(cache=True, inline="always")
def slip_nb(row, slip, rng):
    """The card a slip passes (a uniformly random one of the six in ``row``'s HAND), or -1
    when the decision is the strategy's.  Draws nothing when ``slip`` is 0."""
    if slip > 0.0 and uniform_nb(rng) < slip:
        return row[HAND + below_nb(rng, MAX_HAND)]
    return np.int64(-1)


@njit(cache=True, inline="always")
def forget_counts_nb(row, start, forget, rng):
    """Each unit of the four counts ``row[start : start + 4]`` is forgotten with
    probability ``forget``: one ``uniform()`` per unit, suit by suit."""
    for s in range(N_SUITS):
        k = row[start + s]
        for _ in range(k):
            if uniform_nb(rng) < forget:
                row[start + s] -= 1


@njit(cache=True, inline="always")
def forget_cards_nb(bits, forget, rng):
    """The bit set ``bits`` with each card forgotten with probability ``forget``: one
    ``uniform()`` per card, in ascending code."""
    kept = bits
    m = bits
    while m != 0:
        c = trailing_zeros(m)
        if uniform_nb(rng) < forget:
            kept ^= np.uint64(1) << np.uint64(c)
        m &= m - np.uint64(1)
    return kept


@njit(cache=True)
def forget_turn_nb(row, owner, claims, human, seat, card, rng):
    """The end of ``seat``'s turn (it has just passed ``card``): when it forgets, the card
    joins its claim set if its trip started with this pass, then every remembered unit
    and card may be forgotten (the order is the module's)."""
    forget = human[seat]
    if forget <= 0.0:
        return
    if owner[card] == seat:  # pass_card_nb made it the owner: a trip of its own began
        claims[seat] |= np.uint64(1) << np.uint64(card)
    forget_counts_nb(row, RECEIVED_SUIT, forget, rng)
    forget_counts_nb(row, PASSED_SUIT, forget, rng)
    claims[seat] = forget_cards_nb(claims[seat], forget, rng)


@njit(cache=True, inline="always")
def claimed_nb(claims, human, seat, card):
    """``card`` reaches ``seat``: would ``seat`` claim it, if it is its owner?  True when
    the seat never forgets, else when the card is in its claim set, which it leaves (the
    card is back: in hand, or under the stock)."""
    if human[seat] <= 0.0:
        return True
    b = np.uint64(1) << np.uint64(card)
    held = claims[seat] & b
    claims[seat] ^= held
    return held != 0
