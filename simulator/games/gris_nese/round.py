"""Gris-nese's compiled round: the deal, the pass steps, the signal and the reactions (RULES.md §2, §4).

It calls the strategies through the hook ``decide_nb`` (docs/kernels.md).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from simulator.engine.rng import (
    DEAL,
    DECIDE,
    REACT,
    lognormal_at_nb,
    row_salt_nb,
    salted_nb,
    shuffle_with_nb,
    stream_base_nb,
    stream_key_at_nb,
)
from simulator.engine.unmanaged import address, float64_at, int64_at, uint64_at
from simulator.games.gris_nese.human import human_turn_nb, plays_human_nb
from simulator.games.gris_nese.observation import HAND, HAND_SIZE, OBS_SIZE
from simulator.games.gris_nese.rules import (
    ERR_SIZE,
    LOG_FIELDS,
    MAX_SEATS,
    deal_nb,
    find_card_nb,
    loser_nb,
    pass_step_nb,
    signallers_nb,
    unclear_nb,
)
from simulator.games.gris_nese.strategies import decide_builtin_nb as decide_nb


@njit(cache=True, inline="always")
def round_at_nb(sids, params, medians, sigmas, ws, err, log):
    """The addresses of everything :func:`play_round_nb` plays with, in its order, then 1
    if a seat forgets or slips (docs/human-players.md), else 0: read once per chunk.

    The caller keeps the arrays alive while play_round_nb runs (a chunk's workspace and
    the block's arguments); all of them are C-contiguous."""
    return (
        address(sids),
        address(params),
        address(medians),
        address(sigmas),
        address(err),
        address(log),
        address(ws[0]),  # obs
        address(ws[1]),  # perm
        address(ws[2]),  # slot
        address(ws[3]),  # outs
        address(ws[4]),  # sig
        address(ws[5]),  # times
        address(ws[6]),  # rng
        address(ws[7]),  # seats
        address(ws[8]),  # the shuffle's draws
        np.int64(plays_human_nb(params)),  # docs/human-players.md: somebody forgets or slips
    )


@njit(cache=True)
def play_round_nb(at, m, stall_cap, margin, width, log_rows, seed, game, deal):
    """Play one deal among the ``m`` players ``seats[:m]`` (original seats, ring order).

    ``at`` holds the addresses of the arrays (:func:`round_at_nb`): the strategy ids and
    their parameters (``width`` per seat), each seat's reaction median and sigma, the error
    row, the log (``log_rows`` rows) and the workspace (:func:`workspace_nb`).  The arrays
    are made here from the addresses, with constant shapes where the layout fixes them, so
    the compiler knows they have no owner and emits no reference counting for them.

    Returns ``(events, passes, stalled, replayed, loser, signallers)``: ``loser`` is the
    ring position that leaves (-1 if stalled or replayed).  The signallers and touch
    times are left in the workspace (``ws[4]``, ``ws[5]``, ring order).  On an illegal
    card ``err`` is filled and the round stops (the caller checks ``err[0]``).  Rows of
    ``log`` (if it has any) receive each card laid down: step, seat, card.

    A seat whose parameter row has ``forget`` or ``slip`` above 0 forgets and slips
    (docs/human-players.md, :mod:`simulator.games.gris_nese.human`) before its strategy is
    asked; at a table of plain players (``at[15]`` is 0) none of that is reached or drawn.
    """
    sids = int64_at(at[0], (MAX_SEATS,))
    medians = float64_at(at[2], (MAX_SEATS,))
    sigmas = float64_at(at[3], (MAX_SEATS,))
    err = int64_at(at[4], (ERR_SIZE,))
    log = int64_at(at[5], (log_rows, LOG_FIELDS))
    obs = int64_at(at[6], (MAX_SEATS, OBS_SIZE))
    perm = int64_at(at[7], (HAND_SIZE * MAX_SEATS,))
    slot = int64_at(at[8], (MAX_SEATS,))
    outs = int64_at(at[9], (MAX_SEATS,))
    sig = int64_at(at[10], (MAX_SEATS,))
    times = float64_at(at[11], (MAX_SEATS,))
    rng = uint64_at(at[12], (MAX_SEATS + 2,))
    seats = int64_at(at[13], (MAX_SEATS,))
    params_at, obs_at, rng_at = at[1], at[6], at[12]
    base = stream_base_nb(seed, game)  # docs/random-streams.md: every stream of this game from it
    rng[0] = stream_key_at_nb(base, DEAL, deal, 0)
    for i in range(m):  # docs/random-streams.md: a copy's salt moves its stream (0: as keyed)
        salt = row_salt_nb(float64_at(params_at + seats[i] * (width * 8), (width,)), width)
        rng[1 + i] = salted_nb(stream_key_at_nb(base, DECIDE, deal, seats[i]), salt)
    # The draws of the shuffle do not depend on the deck: made first, several at a time.
    shuffle_with_nb(
        uint64_at(rng_at, (1,)), int64_at(at[7], (HAND_SIZE * m,)), int64_at(at[14], (HAND_SIZE * m,))
    )
    deal_nb(obs, perm, m, seats)
    # RULES.md §2: hands are checked after the deal and after every pass step.
    n_sig = signallers_nb(obs, m, sig)
    human = at[15] != 0  # a table where nobody forgets or slips never takes that path
    passes = 0
    events = 0
    while n_sig == 0:
        if passes >= stall_cap:  # RULES.md §2: stall guard, nobody leaves
            for i in range(m):
                times[i] = np.nan
            return events, passes, 1, 0, -1, 0
        # Everyone chooses on the hand as it was before the step (simultaneous).
        for i in range(m):
            s = seats[i]
            obs_i = int64_at(obs_at + i * (OBS_SIZE * 8), (OBS_SIZE,))
            params_i = float64_at(params_at + s * (width * 8), (width,))
            rng_i = uint64_at(rng_at + (1 + i) * 8, (1,))
            j = np.int64(-1)
            if human:  # it forgets, then the slot of the card it slipped, or -1
                j = human_turn_nb(obs_i, params_i, rng_i)
            if j < 0:
                a = decide_nb(sids[s], obs_i, params_i, rng_i)
                j = find_card_nb(obs, i, a)
                if j < 0:  # a card it does not hold: the run stops (err, one line)
                    err[0], err[1], err[2], err[3] = 1, game, s, deal
                    err[4], err[5], err[6] = a, passes, sids[s]
                    return events, passes, 0, 0, -1, 0
                outs[i] = a
            else:
                outs[i] = obs[i, HAND + j]
            slot[i] = j
            if events < log_rows:
                log[events, 0], log[events, 1], log[events, 2] = passes, s, outs[i]
            events += 1
        n_sig = pass_step_nb(obs, m, slot, outs, sig)
        passes += 1
    # RULES.md §4 (simulator/engine/reaction.py): every seat draws its reaction from its own REACT
    # stream; signallers touch at it, the others that long after the first touch.
    first = np.inf
    for i in range(m):
        s = seats[i]
        t = lognormal_at_nb(stream_key_at_nb(base, REACT, deal, s), medians[s], sigmas[s])
        times[i] = t
        t = t if sig[i] else np.inf  # the first touch is a signaller's
        first = t if t < first else first
    for i in range(m):
        if not sig[i]:
            times[i] += first
    if unclear_nb(times, m, margin):  # RULES.md §2 house rule: replayed, nobody leaves
        return events, passes, 0, 1, -1, n_sig
    return events, passes, 0, 0, loser_nb(times, m), n_sig
