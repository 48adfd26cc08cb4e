"""Gris-nese's human-like players in the kernel: ``forget`` and ``slip`` (docs/human-players.md).

What a Gris-nese player knows but cannot see is the round's history in its observation:
the cards of each group received from the right (``RECEIVED_GROUP``) and passed on
(``PASSED_GROUP``).  At each of its turns, before it picks, a player with ``forget`` P > 0
forgets each card of that history with probability P; a player with ``slip`` E > 0 then
lays down a uniformly random card of its four with probability E, and its strategy is not
asked.  ``INCOMING`` is never forgotten: at every turn the card it names is in the hand.

Every draw comes from the seat's own DECIDE stream, in the order docs/random-streams.md
gives (section Gris-nese), and only when the value is above 0: a plain player draws
nothing here, so it plays bit-identically to the strategy alone.  The readable reference
plays the same rule (:mod:`simulator.games.gris_nese.reference_human`).
"""

from __future__ import annotations

from numba import njit

from simulator.engine.rng import below_nb, uniform_nb
from simulator.games.gris_nese.observation import HAND_SIZE, N_PLAYERS, PASSED_GROUP, RECEIVED_GROUP
from strategies.registry import FORGET_AT, SLIP_AT


@njit(cache=True, inline="always")
def plays_human_nb(params):
    """True when a seat of the table forgets or slips (``params``: one row per seat).  Read
    once for a whole chunk of games, so that a table of plain players never reaches
    :func:`human_turn_nb`.  A row too narrow to reach ``SLIP_AT`` holds no ``forget`` or
    ``slip``: it plays plain (and nothing past its end is read)."""
    if params.shape[1] <= SLIP_AT:
        return False
    return (params[:, FORGET_AT] > 0.0).any() or (params[:, SLIP_AT] > 0.0).any()


@njit(cache=True, inline="always")
def kept_nb(count, p, rng):
    """How many of ``count`` remembered cards are kept: one ``uniform()`` per card, a card
    forgotten when its draw is below ``p``."""
    kept = 0
    for _ in range(count):
        kept += uniform_nb(rng) >= p
    return kept


@njit(cache=True)
def forget_history_nb(obs, p, rng):
    """Forget each card of the round's history with probability ``p``: the groups in play in
    group order, first the cards received (``RECEIVED_GROUP``), then those passed."""
    m = obs[N_PLAYERS]
    for g in range(m):
        obs[RECEIVED_GROUP + g] = kept_nb(obs[RECEIVED_GROUP + g], p, rng)
    for g in range(m):
        obs[PASSED_GROUP + g] = kept_nb(obs[PASSED_GROUP + g], p, rng)


@njit(cache=True)
def human_turn_nb(obs, row, rng):
    """The start of a turn of the player whose observation is ``obs`` and parameter row
    ``row`` (``PARAM_ROW`` wide): it forgets (``forget`` > 0), then may slip (``slip`` > 0).

    Returns the slot (0-3, the hand in ascending code) of the card it slipped, or -1 when
    its strategy is to be asked."""
    forget, slip = row[FORGET_AT], row[SLIP_AT]
    if forget > 0.0:
        forget_history_nb(obs, forget, rng)
    if slip > 0.0 and uniform_nb(rng) < slip:
        return below_nb(rng, HAND_SIZE)
    return -1
