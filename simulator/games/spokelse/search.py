"""The ``search`` player's compiled core: sampled worlds and playouts (docs/search.md).

At a decision, :func:`evaluate_nb` deals ``samples`` worlds consistent with the
observation alone (:func:`sample_world_nb`), plays every legal action out to the end of
the round in each world with ``expect`` in both seats (:func:`play_out_nb`), and
records both final scores.  The same worlds serve every action (common random numbers).
:func:`search_decide_nb` plays a quarter of the worlds first and the rest only when some
action did better than ``expect``'s answer on those; :func:`choose_nb` keeps ``expect``'s own answer unless another action has a lower mean
objective by more than ``z`` standard errors; ``advise`` reads the same arrays for its
intervals.

A world is the player's position with the cards it cannot place dealt uniformly:

* ``obs[UNSEEN + r]`` counts the cards of rank ``r`` whose place the player does not
  know.  They go, shuffled, to its unknown slots, the opponent's hidden slots (those
  not in ``OPP_SLOT``), the two ghosts and the stock, in that order.  Only ranks score
  and only ranks reach the strategies, so each rank's cards get the card codes of that
  rank that the observation does not show.
* Every other card of a rank (four less the unseen and the shown ones) lies under the
  discard top, whose order the observation does not hold: it is dealt in random order.

The opponent's knowledge is rebuilt from what is public, with two approximations.  It
has had ``(TURN + 1) // 2`` turns; it is taken to have filled one of its hidden slots
per turn (slots 2 and 3 first, which it did not look at when dealt), and to know those,
its slots 0 and 1 (every player looks at them at the deal) and its public slots.  A
slot it filled gets a card worth at most ``low`` points when one is left (``low=13``,
the default: any card, so the deal is uniform).  None of the player's own slots is
public to it: the observation does not say which of them came from the pile.  It has
seen every card on the discard pile and under it, its known slots, and a card the
player has just taken from the pile.

Randomness: only the seat's own stream ``rng`` (docs/random-streams.md), in a fixed
order, so a game stays a pure function of its seed.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from simulator.engine.unmanaged import address, float64_at, int64_at, uint64_at, unmanaged_row
from simulator.games.spokelse.expect import expect_in_order_nb, expect_play_nb, value_order_nb
from simulator.games.spokelse.observation import (
    DISCARD_TOP,
    DISCARD_VALUE,
    FROM_DISCARD,
    HAND,
    HAND_VALUE,
    OBS_SIZE,
    OPP_SLOT,
    PHASE,
    PLACE,
    SEAT,
    SLOT,
    SOURCE,
    STOCK_LEFT,
    TURN,
    UNSEEN,
    VALUE,
)
from simulator.games.spokelse.search_worlds import (
    N_ACTIONS,
    P_BASE,
    P_LOW,
    P_MARGIN,
    P_SAMPLES,
    P_Z,
    STOCK,
    copy_world_nb,
    legal_nb,
    new_world_nb,
    sample_world_nb,
    slot_summaries_nb,
    split_cards_nb,
)
from simulator.games.spokelse.variants import TURN_CAP


@njit(cache=True, inline="always")
def _show_discard_top_nb(wobs, p, pile, n_pile, card_value):
    """Set ``p``'s view of the discard top (card and value) from the pile's ``n_pile``
    cards, -1 for both when the pile is empty.

    Parameters
    ----------
    wobs : np.ndarray
        The world's observations (one row a seat), written in place.
    p : int
        The seat whose view is set.
    pile : np.ndarray
        The discard pile, bottom first.
    n_pile : int
        The number of cards on the pile.
    card_value : np.ndarray
        Each card's value (half points).
    """
    if n_pile > 0:
        d = pile[n_pile - 1]
        wobs[p, DISCARD_TOP] = d
        wobs[p, DISCARD_VALUE] = card_value[d]
    else:
        wobs[p, DISCARD_TOP] = -1
        wobs[p, DISCARD_VALUE] = -1


@njit(cache=True, inline="always")
def _source_obs_nb(world, p, turns, card_value):
    """``p``'s observation at the start of its turn (the fields the kernel sets then)."""
    wobs, counts, pile = world[0], world[6], world[5]
    wobs[p, PHASE] = SOURCE
    wobs[p, HAND] = -1
    wobs[p, HAND_VALUE] = -1
    wobs[p, FROM_DISCARD] = 0
    _show_discard_top_nb(wobs, p, pile, counts[1], card_value)
    wobs[p, STOCK_LEFT] = counts[0] - counts[2]
    wobs[p, TURN] = turns


@njit(cache=True, inline="always")
def _take_nb(world, p, a, card_value):
    """``p`` takes the stock card (``a`` = STOCK) or the discard top; returns
    ``(card, from_discard)`` with ``p``'s observation in the PLACE phase."""
    wobs, seen, stock, pile, counts = world[0], world[1], world[4], world[5], world[6]
    if a == STOCK:
        c = stock[counts[2]]
        counts[2] += 1
        fd = 0
        bit = np.uint64(1) << np.uint64(c)
        if (seen[p] & bit) == 0:
            wobs[p, UNSEEN + c % 13] -= 1
            seen[p] |= bit
        wobs[p, STOCK_LEFT] = counts[0] - counts[2]
    else:
        counts[1] -= 1
        c = pile[counts[1]]
        fd = 1
        _show_discard_top_nb(wobs, p, pile, counts[1], card_value)
    wobs[p, PHASE] = PLACE
    wobs[p, HAND] = c
    wobs[p, HAND_VALUE] = card_value[c]
    wobs[p, FROM_DISCARD] = fd
    return c, fd


@njit(cache=True, inline="always")
def _place_nb(world, p, c, fd, b, card_value):
    """``p`` swaps ``c`` into slot ``b`` (0-3) or throws it (THROW); the card out goes
    face up on the pile, seen by both."""
    wobs, seen, slot, pile, counts = world[0], world[1], world[2], world[5], world[6]
    if b < 4:
        out = slot[p, b]
        slot[p, b] = c
        wobs[p, SLOT + b] = c
        slot_summaries_nb(wobs[p], card_value)
        wobs[1 - p, OPP_SLOT + b] = c if fd == 1 else -1
    else:
        out = c
    pile[counts[1]] = out
    counts[1] += 1
    bit = np.uint64(1) << np.uint64(out)
    for s in range(2):
        if (seen[s] & bit) == 0:
            wobs[s, UNSEEN + out % 13] -= 1
            seen[s] |= bit


@njit(cache=True, inline="always")
def world_at_nb(world):
    """The addresses of a world's arrays (:func:`new_world_nb`'s order)."""
    return (
        address(world[0]),
        address(world[1]),
        address(world[2]),
        address(world[3]),
        address(world[4]),
        address(world[5]),
        address(world[6]),
    )


@njit(cache=True)
def play_out_nb(world, me, first, card_value, base, rng):
    """Play ``world`` to the end of the round: ``me`` answers the pending decision with
    ``first``, then ``expect`` (parameters ``base``) plays both seats (RULES.md §3: the
    round ends with the turn that draws the last stock card, or at the turn cap).

    The turns are played by :func:`_play_out_at_nb` on views made from the arrays'
    addresses, as the kernel's round is (round.py): the views have no owner, so the turn
    loop counts no references (passing the world's arrays to a helper costs two atomic
    operations per array and call, more than the rest of a turn).  The caller's arrays
    stay alive for the call."""
    _play_out_at_nb(world_at_nb(world), me, first, address(card_value), address(base), base.shape[0])


@njit(cache=True)
def _play_out_at_nb(at, me, first, card_value_at, base_at, n_base):
    """:func:`play_out_nb` on the arrays at the addresses ``at`` (a world), ``card_value_at``
    and ``base_at`` (``n_base`` parameters).  ``expect`` draws nothing, so the stream is
    not needed; its decisions are :func:`expect_in_order_nb`'s, the ranks sorted by
    value once for the playout."""
    world = (
        int64_at(at[0], (2, OBS_SIZE)),
        uint64_at(at[1], (2,)),
        int64_at(at[2], (2, 4)),
        int64_at(at[3], (2,)),
        int64_at(at[4], (52,)),
        int64_at(at[5], (52,)),
        int64_at(at[6], (3,)),
    )
    card_value = int64_at(card_value_at, (52,))
    base = float64_at(base_at, (n_base,))
    wobs, counts = world[0], world[6]
    rows = (unmanaged_row(wobs, 0), unmanaged_row(wobs, 1))
    order = np.empty(13, np.int64)  # the ranks by value, the same for both seats all round
    value_order_nb(rows[me], order)
    turns = wobs[me, TURN]
    if wobs[me, PHASE] == SOURCE:
        c, fd = _take_nb(world, me, first, card_value)
        b = expect_in_order_nb(rows[me], base, order)
    else:
        c, fd = wobs[me, HAND], wobs[me, FROM_DISCARD]
        b = first
    _place_nb(world, me, c, fd, b, card_value)
    turns += 1
    p = me
    while counts[2] < counts[0] and turns < TURN_CAP:
        p = 1 - p
        _source_obs_nb(world, p, turns, card_value)
        a = expect_in_order_nb(rows[p], base, order)
        c, fd = _take_nb(world, p, a, card_value)
        b = expect_in_order_nb(rows[p], base, order)
        _place_nb(world, p, c, fd, b, card_value)
        turns += 1


@njit(cache=True)
def score_of_nb(world, seat, card_value):
    """RULES.md §3: ``seat``'s four slots plus its ghost, in half points."""
    slot, ghost = world[2], world[3]
    s = card_value[ghost[seat]]
    for i in range(4):
        s += card_value[slot[seat, i]]
    return s


@njit(cache=True)
def base_params_nb(params):
    """``expect``'s parameters inside ``search``'s (params[P_BASE:P_BASE + 4])."""
    base = np.zeros(params.shape[0], np.float64)
    for i in range(4):
        base[i] = params[P_BASE + i]
    return base


@njit(cache=True)
def score_actions_nb(world, scratch, me, legal, card_value, base, rng, own, opp, s):
    """Play every legal action of ``me`` out from ``world`` (each on a fresh copy in
    ``scratch``) and record both final scores in column ``s``.

    Parameters
    ----------
    world, scratch : tuple
        The world to play from (left as it is) and the one each playout runs in.
    me : int
        The seat choosing.
    legal : np.ndarray
        1 for each legal action (:func:`legal_nb`).
    card_value : np.ndarray
        Each card's value (half points).
    base : np.ndarray
        The playout strategy's parameters (:func:`base_params_nb`).
    rng : np.ndarray
        The random stream the playouts draw from, in action order.
    own, opp : np.ndarray
        ``[action, world]``: ``me``'s and the opponent's final scores (half points).
    s : int
        The column (world) written.
    """
    for a in range(N_ACTIONS):
        if legal[a] == 0:
            continue
        copy_world_nb(world, scratch)
        play_out_nb(scratch, me, a, card_value, base, rng)
        own[a, s] = score_of_nb(scratch, me, card_value)
        opp[a, s] = score_of_nb(scratch, 1 - me, card_value)


@njit(cache=True)
def evaluate_nb(obs, params, rng, own, opp, legal):
    """Play every legal action out on ``own.shape[1]`` sampled worlds.

    ``own[a, s]`` and ``opp[a, s]`` receive the player's and the opponent's final scores
    (half points) after action ``a`` in world ``s``; ``legal`` the legal actions
    (:func:`legal_nb`).  Returns the number of worlds, or -1 when the observation is
    impossible (then nothing is drawn from ``rng``)."""
    n = own.shape[1]
    low = np.int64(round(params[P_LOW] * 2.0))  # half points
    base = base_params_nb(params)
    card_value = np.empty(52, np.int64)
    for c in range(52):
        card_value[c] = obs[VALUE + c % 13]
    legal_nb(obs, legal)
    pool = np.empty(52, np.int64)
    under = np.empty(52, np.int64)
    n_pool, n_under = split_cards_nb(obs, pool, under)
    if n_pool < 0 or (obs[PHASE] == SOURCE and obs[STOCK_LEFT] <= 0):
        return -1
    me = obs[SEAT]
    knows = np.empty(4, np.int64)
    world = new_world_nb()
    scratch = new_world_nb()
    for s in range(n):
        sample_world_nb(obs, rng, card_value, low, pool, under, n_pool, n_under, world, knows)
        score_actions_nb(world, scratch, me, legal, card_value, base, rng, own, opp, s)
    return n


@njit(cache=True)
def search_decide_nb(obs, params, rng):
    """``search``'s answer (:func:`choose_nb` on :func:`evaluate_nb`'s worlds).

    The worlds are played in two stages: the first quarter (at least 8 worlds), and the
    rest only if on those some action did better than ``expect``'s own answer (a lower
    mean objective); otherwise it plays ``expect``'s answer.  A SOURCE decision with an
    empty discard pile has one answer (the stock) and draws nothing; an impossible
    observation gets ``expect``'s answer."""
    if obs[PHASE] == SOURCE and obs[DISCARD_TOP] < 0:
        return np.int64(STOCK)
    n = max(np.int64(params[P_SAMPLES]), 1)
    own = np.empty((N_ACTIONS, n), np.int64)
    opp = np.empty((N_ACTIONS, n), np.int64)
    legal = np.empty(N_ACTIONS, np.int64)
    first = min(n, max(n // 4, 8))
    if evaluate_nb(obs, params, rng, own[:, :first], opp[:, :first], legal) < 0:
        return np.int64(expect_play_nb(obs, base_params_nb(params), rng))
    if first < n:
        if not _any_better_nb(obs, params, rng, own[:, :first], opp[:, :first], legal):
            return np.int64(expect_play_nb(obs, base_params_nb(params), rng))
        evaluate_nb(obs, params, rng, own[:, first:], opp[:, first:], legal)
    return choose_nb(obs, params, rng, own, opp, legal, n)


@njit(cache=True)
def _any_better_nb(obs, params, rng, own, opp, legal):
    """True when some legal action has a lower mean objective than ``expect``'s answer."""
    margin = np.int64(params[P_MARGIN])
    base = np.int64(expect_play_nb(obs, base_params_nb(params), rng))
    for a in range(N_ACTIONS):
        if legal[a] == 1 and a != base:
            mean, _ = _paired_nb(own, opp, a, base, own.shape[1], margin)
            if mean < 0.0:
                return True
    return False


@njit(cache=True)
def choose_nb(obs, params, rng, own, opp, legal, n):
    """The action :func:`search_decide_nb` takes on :func:`evaluate_nb`'s ``n`` worlds.

    ``expect``'s own answer unless another action is better on these worlds by more than
    ``params[P_Z]`` standard errors of the paired difference: with common random numbers,
    actions the playouts repair alike tie exactly, and among near-equal actions the noise
    alone would pick one that ``expect``'s choice beats (the winner's curse)."""
    margin = np.int64(params[P_MARGIN])
    z = params[P_Z]
    base = np.int64(expect_play_nb(obs, base_params_nb(params), rng))
    best, best_v = base, np.float64(0.0)
    for a in range(N_ACTIONS):
        if legal[a] == 0 or a == base:
            continue
        mean, se = _paired_nb(own, opp, a, base, n, margin)
        if mean < best_v and mean + z * se < 0.0:
            best, best_v = np.int64(a), mean
    return best


@njit(cache=True)
def _paired_nb(own, opp, a, b, n, margin):
    """Mean and standard error of action ``a``'s objective less action ``b``'s over the
    worlds (half points; below zero ``a`` is better)."""
    s1, s2 = 0.0, 0.0
    for s in range(n):
        d = np.float64((own[a, s] - margin * opp[a, s]) - (own[b, s] - margin * opp[b, s]))
        s1 += d
        s2 += d * d
    mean = s1 / n
    if n < 2:
        return mean, 0.0
    var = max(s2 / n - mean * mean, 0.0) * n / (n - 1)
    return mean, np.sqrt(var / n)
