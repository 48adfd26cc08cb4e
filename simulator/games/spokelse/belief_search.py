"""``search`` on the belief: determinised Monte Carlo search whose worlds are drawn from
the belief model (belief.py) rather than dealt uniformly (docs/search.md, "Belief search").

At a decision the belief gives ``samples`` weighted particles from the player's view of
the round; they are resampled by weight (systematic resampling, one uniform draw), each
becomes a world (the particle's cards, the real discard pile, the player's own
observation and, from the particle's replay, exactly what the opponent would have seen
in it), and every legal action is played out in every world with ``expect`` in both
seats, as ``search`` does (search.py: the same playouts, the two stages, the ``z`` test
against ``expect``'s own answer).

A strategy in the kernel sees only its observation, not the round's history, so this
player runs in the round loop of :mod:`~simulator.games.spokelse.duel`, which keeps
the player's view; ``clairvoyant_decide_nb`` is the same playouts on the real cards
(a bound, not a legal player).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from simulator.engine.rng import uniform_nb
from simulator.games.spokelse.belief import P_GHOST, P_MINE, P_STOCK, P_THEIRS, PART_SIZE, belief_nb
from simulator.games.spokelse.expect import expect_play_nb
from simulator.games.spokelse.observation import (
    DISCARD_TOP,
    FROM_DISCARD,
    HAND,
    OBS_SIZE,
    PHASE,
    PLACE,
    SEAT,
    SOURCE,
)
from simulator.games.spokelse.search import (
    _any_better_nb,
    base_params_nb,
    choose_nb,
    play_out_nb,
    score_actions_nb,
    score_of_nb,
)
from simulator.games.spokelse.search_worlds import (
    N_ACTIONS,
    P_SAMPLES,
    STOCK,
    copy_world_nb,
    legal_nb,
    new_world_nb,
)

# The belief's settings (bparams): the model's builtin id, eps, 1 to infer (0: uniform)
B_SID, B_EPS, B_INFER = 0, 1, 2


@njit(cache=True)
def world_of_particle_nb(part, oobs, oseen, obs, seen_me, pile, n_pile, n_stock, hidden, rng, world):
    """A search world (search.py's :func:`new_world_nb` arrays) from one particle.

    The cards that steered nobody's choice (own unknown slots, the opponent's slots it
    never looked at, both ghosts, the stock) are dealt afresh from the particle's own
    (``rng``): they are uniform given the rest, and resampling repeats particles, whose
    copies would otherwise be the same world twice and make the paired test too bold."""
    wobs, seen, slot, ghost, stock, wpile, counts = world
    me = obs[SEAT]
    op = 1 - me
    for f in range(OBS_SIZE):
        wobs[me, f] = obs[f]
        wobs[op, f] = oobs[f]
    seen[me], seen[op] = seen_me, oseen
    for i in range(4):
        slot[me, i] = part[P_MINE + i]
        slot[op, i] = part[P_THEIRS + i]
    ghost[me], ghost[op] = part[P_GHOST], part[P_GHOST + 1]
    for i in range(n_stock):
        stock[i] = part[P_STOCK + i]
    for i in range(n_pile):
        wpile[i] = pile[i]
    counts[0], counts[1], counts[2] = n_stock, n_pile, 0
    free = np.empty(52, np.int64)
    k = 0
    for i in range(4):
        if hidden[i] != 0:
            free[k] = slot[me, i]
            k += 1
        if hidden[4 + i] == 2:
            free[k] = slot[op, i]
            k += 1
    free[k], free[k + 1] = ghost[0], ghost[1]
    k += 2
    for i in range(n_stock):
        free[k + i] = stock[i]
    k += n_stock
    for i in range(k - 1, 0, -1):
        j = np.int64(uniform_nb(rng) * (i + 1))
        free[i], free[j] = free[j], free[i]
    k = 0
    for i in range(4):
        if hidden[i] != 0:
            slot[me, i] = free[k]
            k += 1
        if hidden[4 + i] == 2:
            slot[op, i] = free[k]
            k += 1
    ghost[0], ghost[1] = free[k], free[k + 1]
    k += 2
    for i in range(n_stock):
        stock[i] = free[k + i]


@njit(cache=True)
def _play_all_nb(worlds_at, parts, oobs, oseen, obs, seen_me, pile, n_pile, n_stock, hidden, card_value,
                 base, rng, own, opp, legal, s0, s1):  # fmt: skip
    me = obs[SEAT]
    world = new_world_nb()
    scratch = new_world_nb()
    for s in range(s0, s1):
        j = worlds_at[s]
        world_of_particle_nb(
            parts[j], oobs[j], oseen[j], obs, seen_me, pile, n_pile, n_stock, hidden, rng, world
        )
        score_actions_nb(world, scratch, me, legal, card_value, base, rng, own, opp, s)


@njit(cache=True)
def resample_nb(logw, rng, at):
    """``at[s]``: the particle world ``s`` is made of, by systematic resampling on the
    weights ``exp(logw)`` (one uniform draw), in shuffled order (so that a first stage of
    the worlds is not the low-numbered particles only)."""
    n = at.shape[0]
    w = np.exp(logw - logw.max())
    w /= w.sum()
    u = uniform_nb(rng)
    j, cum = 0, w[0]
    for s in range(n):
        x = (s + u) / n
        while cum < x and j < n - 1:
            j += 1
            cum += w[j]
        at[s] = j
    for i in range(n - 1, 0, -1):
        k = np.int64(uniform_nb(rng) * (i + 1))
        at[i], at[k] = at[k], at[i]


@njit(cache=True)
def belief_decide_nb(obs, seen_me, pile, n_pile, deal, hist, n_turns, params, bparams, mparams, card_value,
                     rng):  # fmt: skip
    """The belief-search player's answer (``params`` in ``search``'s layout; ``bparams``
    the belief's settings, ``mparams`` its model's parameters)."""
    if obs[PHASE] == SOURCE and obs[DISCARD_TOP] < 0:
        return np.int64(STOCK)
    base = base_params_nb(params)
    n = max(np.int64(params[P_SAMPLES]), 1)
    parts = np.empty((n, PART_SIZE), np.int64)
    logw = np.empty(n)
    hidden = np.empty(8, np.int64)
    oobs = np.empty((n, OBS_SIZE), np.int64)
    oseen = np.empty(n, np.uint64)
    hand = obs[HAND] if obs[PHASE] == PLACE else -1
    n_stock = belief_nb(deal, hist, n_turns, hand, obs[FROM_DISCARD], np.int64(bparams[B_SID]), mparams,
                        bparams[B_EPS], np.int64(bparams[B_INFER]), card_value, rng, parts, logw, hidden,
                        oobs, oseen)  # fmt: skip
    if n_stock < 0:
        return np.int64(expect_play_nb(obs, base, rng))
    at = np.empty(n, np.int64)
    resample_nb(logw, rng, at)
    own = np.empty((N_ACTIONS, n), np.int64)
    opp = np.empty((N_ACTIONS, n), np.int64)
    legal = np.empty(N_ACTIONS, np.int64)
    legal_nb(obs, legal)
    first = min(n, max(n // 4, 8))
    _play_all_nb(at, parts, oobs, oseen, obs, seen_me, pile, n_pile, n_stock, hidden, card_value, base,
                 rng, own, opp, legal, 0, first)  # fmt: skip
    if first < n:
        if not _any_better_nb(obs, params, rng, own[:, :first], opp[:, :first], legal):
            return np.int64(expect_play_nb(obs, base, rng))
        _play_all_nb(at, parts, oobs, oseen, obs, seen_me, pile, n_pile, n_stock, hidden, card_value, base,
                     rng, own, opp, legal, first, n)  # fmt: skip
    return choose_nb(obs, params, rng, own, opp, legal, n)


@njit(cache=True)
def clairvoyant_decide_nb(obs_both, seen, slot, ghost, deck, top, pile, n_pile, me, params, card_value, rng):
    """The same playouts on the real cards (one world: ``expect`` is deterministic), the
    best action by own final score; a bound on what the look-ahead can give."""
    base = base_params_nb(params)
    obs = obs_both[me]
    if obs[PHASE] == SOURCE and obs[DISCARD_TOP] < 0:
        return np.int64(STOCK)
    legal = np.empty(N_ACTIONS, np.int64)
    legal_nb(obs, legal)
    world = new_world_nb()
    wobs, wseen, wslot, wghost, stock, wpile, counts = world
    for k in range(2):
        for f in range(OBS_SIZE):
            wobs[k, f] = obs_both[k, f]
        wseen[k] = seen[k]
        wghost[k] = ghost[k]
        for i in range(4):
            wslot[k, i] = slot[k, i]
    for i in range(top, 52):
        stock[i - top] = deck[i]
    for i in range(n_pile):
        wpile[i] = pile[i]
    counts[0], counts[1], counts[2] = 52 - top, n_pile, 0
    scratch = new_world_nb()
    value = np.zeros(N_ACTIONS, np.int64)
    for a in range(N_ACTIONS):
        if legal[a] == 0:
            continue
        copy_world_nb(world, scratch)
        play_out_nb(scratch, me, a, card_value, base, rng)
        value[a] = score_of_nb(scratch, me, card_value)
    best = np.int64(expect_play_nb(obs, base, rng))  # expect's answer unless another is strictly better
    for a in range(N_ACTIONS):
        if legal[a] == 1 and value[a] < value[best]:
            best = np.int64(a)
    return best
