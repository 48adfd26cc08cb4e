"""What the hidden cards probably are: Spøkelse's belief model (docs/search.md, "Belief").

A player who has seen a round so far knows where most cards are: its known slots, every
card thrown face up, the cards taken from the pile.  The rest (the *pool*) lie in four
kinds of place: the stock, the opponent's hidden slots, the two ghosts and its own
unknown slots.  Under a uniform deal every assignment of the pool to those places is
equally likely, and the stock, the ghosts and one's own unknown slots stay exactly so:
nobody has chosen what lies there.  The opponent's hidden slots are different: they
hold the cards it chose to keep.

:func:`belief_nb` weighs that in by *policy-based inference*: it samples particles
(complete assignments of the pool) and weights each by the likelihood, under a model
of the opponent (a shipped strategy and its parameters), of every choice the opponent
was seen to make: where it took its card from, whether it threw the card it drew, which
slot it changed.  The sampling is sequential: the cards the opponent looked at when
dealt (its slots 0 and 1) are drawn uniformly from the pool at the start, and each
stock card it swapped into a slot unseen is drawn, at that turn, from the pool in
proportion to how well it explains the slot chosen (the locally best proposal); the
particle's weight is the product of those normalising sums and of the likelihood of
every other observed choice.  A deterministic model gives a choice probability 1 or 0;
``eps`` softens it to ``1 - eps`` and ``eps`` so that no set of particles collapses
(an opponent who is not the model then only lowers the weights, docs/search.md).

The input is the player's own view of the round (:func:`view_of_log_nb`): never a
hidden card.  Randomness comes only from the ``rng`` handed in, in a fixed order, so the
particles are a pure function of it and of the view.

Layouts
-------
``deal`` (int64[5]): the player's seat, the dealer, its slot 0 and slot 1 cards, the
first discard.  ``hist`` (int64[T, 5]), one row per finished turn: seat, source (0 stock,
1 discard pile), the card taken (-1 when the player cannot know it: the opponent drew it
and swapped it into a slot), the placement (0-3 a slot, 4 thrown), the card put face up.
A particle (``parts[i]``): own slots 0-3, the opponent's slots 0-3, own ghost, the
opponent's ghost, then the stock from its top down.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from simulator.engine.rng import below_nb, uniform_nb
from simulator.games.spokelse import observation as ob
from simulator.games.spokelse.search_worlds import slot_summaries_nb
from simulator.games.spokelse.strategies import decide_builtin_nb

# Particle columns.
P_MINE, P_THEIRS, P_GHOST, P_STOCK = 0, 4, 8, 10
PART_SIZE = P_STOCK + 41
# Places, as calibration reports them.
STOCK_PLACE, OPP_HIDDEN, GHOST, OWN_UNKNOWN = 0, 1, 2, 3
PLACE_NAMES = ("stock", "opponent_hidden", "ghost", "own_unknown")
H_SEAT, H_SOURCE, H_TAKEN, H_PLACE, H_OUT = 0, 1, 2, 3, 4
HIST_FIELDS = 5


@njit(cache=True)
def view_of_log_nb(me, log, n_turns, hist):
    """The rows of ``hist`` that ``me`` sees of a kernel turn log (turn, seat, source,
    taken, place, discarded): the card the opponent drew and swapped in is hidden."""
    for t in range(n_turns):
        p, a, c, b, out = log[t, 1], log[t, 2], log[t, 3], log[t, 4], log[t, 5]
        hist[t, H_SEAT], hist[t, H_SOURCE], hist[t, H_PLACE], hist[t, H_OUT] = p, a, b, out
        hidden = p != me and a == 0 and b < 4
        hist[t, H_TAKEN] = -1 if hidden else c


@njit(cache=True)
def _bit(c):
    return np.uint64(1) << np.uint64(c)


@njit(cache=True)
def atoms_nb(deal, hist, n_turns, hand, atom_card, slot_atom):
    """The deterministic part of the inference: which card sat in each slot when.

    Every card ever put in a slot is an *atom*: atoms 0-3 the player's dealt slots, 4-7
    the opponent's, then one per turn (8 + t, the card placed at turn t).  ``atom_card``
    receives each atom's card when the player knows it (it saw it placed, or saw it come
    out later) and -1 otherwise; ``slot_atom[s, i]`` the atom in seat ``s``'s slot ``i``
    now.  Returns the pool (a bit per card the player cannot place), or 0 when the view
    is impossible."""
    me = deal[0]
    op = 1 - me
    for a in range(atom_card.shape[0]):
        atom_card[a] = -1
    atom_card[me * 4 + 0], atom_card[me * 4 + 1] = deal[2], deal[3]
    for s in range(2):
        for i in range(4):
            slot_atom[s, i] = s * 4 + i
    known = _bit(deal[2]) | _bit(deal[3]) | _bit(deal[4])
    for t in range(n_turns):
        p, c, b, out = hist[t, H_SEAT], hist[t, H_TAKEN], hist[t, H_PLACE], hist[t, H_OUT]
        if p != me and p != op:
            return np.uint64(0)
        if c >= 0:
            known |= _bit(c)
        known |= _bit(out)
        if b < 4:
            prev = slot_atom[p, b]
            if atom_card[prev] >= 0 and atom_card[prev] != out:
                return np.uint64(0)
            atom_card[prev] = out
            atom_card[8 + t] = c
            slot_atom[p, b] = 8 + t
        elif c >= 0 and c != out:
            return np.uint64(0)
    if hand >= 0:
        known |= _bit(hand)
    full = (np.uint64(1) << np.uint64(52)) - np.uint64(1)
    return full & ~known


@njit(cache=True)
def _pool_list_nb(pool_bits, pool):
    n = 0
    for c in range(52):
        if (pool_bits >> np.uint64(c)) & np.uint64(1):
            pool[n] = c
            n += 1
    return n


@njit(cache=True)
def _take_nb(pool, n, k):
    """Remove and return ``pool[k]`` (the last card moves into its place)."""
    c = pool[k]
    pool[k] = pool[n - 1]
    pool[n - 1] = c
    return c


@njit(cache=True)
def _lik(ok, eps):
    return np.log(1.0 - eps) if ok else np.log(eps)


@njit(cache=True)
def _init_opp_obs_nb(o, op, card_value, c0, c1, first):
    for f in range(ob.OBS_SIZE):
        o[f] = -1
    o[ob.SEAT] = op
    o[ob.MY_TOTAL], o[ob.OPP_TOTAL], o[ob.TARGET] = 0, 0, 0  # round play: the totals are not modelled
    for r in range(13):
        o[ob.VALUE + r] = card_value[r]
        o[ob.UNSEEN + r] = 4
    seen = np.uint64(0)
    for c in (c0, c1, first):
        if (seen & _bit(c)) == 0:
            o[ob.UNSEEN + c % 13] -= 1
            seen |= _bit(c)
    o[ob.SLOT + 0], o[ob.SLOT + 1] = c0, c1
    slot_summaries_nb(o, card_value)
    return seen


@njit(cache=True)
def particle_nb(deal, hist, n_turns, sid, params, eps, infer, card_value, atom_card0, slot_atom,
                pool0, n_pool0, rng, part, o, pool, atom_card, mrng):  # fmt: skip
    """One particle into ``part``, and the opponent's observation in it into ``o``; returns
    the opponent's ``seen`` bits and the particle's log weight (0.0 when ``infer`` is 0:
    the uniform deal, nothing inferred; the round is replayed all the same, so that ``o``
    is what the opponent would see in that world)."""
    me = deal[0]
    op = 1 - me
    n = n_pool0
    for i in range(n):
        pool[i] = pool0[i]
    for a in range(atom_card0.shape[0]):
        atom_card[a] = atom_card0[a]
    logw = 0.0
    # The replay runs with infer 0 too: it rebuilds what the opponent saw, for the search.
    # The opponent's slots 0 and 1 as dealt: it looked at them, so they steer its play.
    for i in range(2):
        if atom_card[op * 4 + i] < 0:
            atom_card[op * 4 + i] = _take_nb(pool, n, below_nb(rng, n))
            n -= 1
    seen = _init_opp_obs_nb(o, op, card_value, atom_card[op * 4], atom_card[op * 4 + 1], deal[4])
    pile = np.empty(52, np.int64)
    pile[0] = deal[4]
    n_pile = 1
    top = 11
    counts = np.zeros(13, np.int64)
    for t in range(n_turns):
        p, a, c, b, out = hist[t, 0], hist[t, 1], hist[t, 2], hist[t, 3], hist[t, 4]
        if p == op:
            o[ob.PHASE], o[ob.HAND], o[ob.HAND_VALUE], o[ob.FROM_DISCARD] = ob.SOURCE, -1, -1, 0
            d = pile[n_pile - 1] if n_pile > 0 else -1
            o[ob.DISCARD_TOP] = d
            o[ob.DISCARD_VALUE] = card_value[d] if d >= 0 else -1
            o[ob.STOCK_LEFT] = 52 - top
            o[ob.TURN] = t
            if infer != 0:
                logw += _lik(decide_builtin_nb(sid, o, params, mrng) == a, eps)
        if a == 0:
            top += 1
        else:
            n_pile -= 1
            d = pile[n_pile - 1] if n_pile > 0 else -1
            if p == op:
                o[ob.DISCARD_TOP] = d
                o[ob.DISCARD_VALUE] = card_value[d] if d >= 0 else -1
        if p == op:
            if a == 0:
                o[ob.STOCK_LEFT] = 52 - top
            o[ob.PHASE], o[ob.FROM_DISCARD] = ob.PLACE, a
            card = c if c >= 0 else atom_card[8 + t]
            sampled = card < 0
            if sampled:
                # The drawn card went unseen into slot b: draw it in proportion to how
                # well it explains b (each rank tried once: only ranks reach the model).
                for r in range(13):
                    counts[r] = 0
                for k in range(n):
                    counts[pool[k] % 13] += 1
                total = 0.0
                q = np.zeros(13, np.float64)
                for r in range(13):
                    if counts[r] == 0:
                        continue
                    o[ob.HAND], o[ob.HAND_VALUE] = r, card_value[r]
                    o[ob.UNSEEN + r] -= 1
                    ok = infer == 0 or decide_builtin_nb(sid, o, params, mrng) == b
                    o[ob.UNSEEN + r] += 1
                    q[r] = counts[r] * ((1.0 - eps) if ok else eps)
                    total += q[r]
                if infer != 0:
                    logw += np.log(total / n)
                x = uniform_nb(rng) * total
                pick = 12
                for r in range(13):
                    if q[r] > 0.0:
                        if x < q[r]:
                            pick = r
                            break
                        x -= q[r]
                m = int(below_nb(rng, counts[pick]))
                for k in range(n):
                    if pool[k] % 13 == pick:
                        if m == 0:
                            card = _take_nb(pool, n, k)
                            n -= 1
                            break
                        m -= 1
                atom_card[8 + t] = card
            if a == 0 and (seen & _bit(card)) == 0:
                o[ob.UNSEEN + card % 13] -= 1
                seen |= _bit(card)
            o[ob.HAND], o[ob.HAND_VALUE] = card, card_value[card]
            if not sampled and infer != 0:
                # a card the player knows: its choice is a plain likelihood term
                logw += _lik(decide_builtin_nb(sid, o, params, mrng) == b, eps)
            if b < 4:
                o[ob.SLOT + b] = card
                slot_summaries_nb(o, card_value)
        elif b < 4:
            o[ob.OPP_SLOT + b] = c if a == 1 else -1
        pile[n_pile] = out
        n_pile += 1
        if (seen & _bit(out)) == 0:
            o[ob.UNSEEN + out % 13] -= 1
            seen |= _bit(out)
    # Everything else is a uniform deal of what is left of the pool.
    for i in range(n - 1, 0, -1):
        j = below_nb(rng, i + 1)
        pool[i], pool[j] = pool[j], pool[i]
    k = 0
    for s in range(2):
        col = P_MINE if s == me else P_THEIRS
        for i in range(4):
            c = atom_card[slot_atom[s, i]]
            if c < 0:
                c = pool[k]
                k += 1
            part[col + i] = c
    part[P_GHOST] = pool[k]
    part[P_GHOST + 1] = pool[k + 1]
    k += 2
    for i in range(P_STOCK, PART_SIZE):
        part[i] = -1
    for i in range(n - k):
        part[P_STOCK + i] = pool[k + i]
    return seen, logw


@njit(cache=True)
def belief_nb(deal, hist, n_turns, hand, hand_fd, sid, params, eps, infer, card_value, rng, parts, logw,
              hidden, oobs, oseen):  # fmt: skip
    """Fill ``parts`` (one particle per row) and their log weights ``logw``.

    ``hand`` is the card the player holds now (-1 at a SOURCE decision), ``hand_fd`` 1 if
    it came from the discard pile; ``oobs[i]`` and ``oseen[i]`` receive the opponent's
    observation and ``seen`` bits in particle ``i`` (rows may be fewer than particles:
    then only the first are kept); ``hidden`` receives 1 for each own slot (0-3) and
    opponent slot (4-7) whose card the player does not know (2 for an opponent's slot the
    opponent does not know either); ``sid`` and
    ``params`` the opponent model (a shipped strategy's builtin id and parameters);
    ``infer`` 0 deals the pool uniformly (no inference).  Returns the stock size, or -1
    when the view is impossible (then nothing is drawn from ``rng``)."""
    n_atoms = 8 + n_turns
    atom_card0 = np.empty(n_atoms, np.int64)
    slot_atom = np.empty((2, 4), np.int64)
    bits = atoms_nb(deal, hist, n_turns, hand, atom_card0, slot_atom)
    pool0 = np.empty(52, np.int64)
    n_pool = _pool_list_nb(bits, pool0)
    places = 2
    me = deal[0]
    for s in range(2):
        for i in range(4):
            h = atom_card0[slot_atom[s, i]] < 0
            # 2: an opponent's slot it never looked at (dealt unseen, never swapped): its card
            # steered nothing, so it is as free as the stock's
            free = s != me and i >= 2 and slot_atom[s, i] == s * 4 + i
            hidden[(0 if s == me else 4) + i] = (2 if free else 1) if h else 0
            places += h
    n_stock = n_pool - places
    draws = 0
    for t in range(n_turns):
        draws += hist[t, H_SOURCE] == 0
    if bits == 0 or n_stock != 41 - draws - (1 if hand >= 0 and hand_fd == 0 else 0):
        return -1
    pool = np.empty(52, np.int64)
    atom_card = np.empty(n_atoms, np.int64)
    o = np.empty(ob.OBS_SIZE, np.int64)
    keep = oobs.shape[0]
    mrng = np.empty(1, np.uint64)
    for i in range(parts.shape[0]):
        mrng[0] = rng[0] ^ np.uint64(0x9E3779B97F4A7C15)  # the model's own draws (random models)
        seen, logw[i] = particle_nb(deal, hist, n_turns, sid, params, eps, infer, card_value, atom_card0,
                                    slot_atom, pool0, n_pool, rng, parts[i], o, pool, atom_card, mrng)  # fmt: skip
        if i < keep:
            oobs[i, :] = o
            oseen[i] = seen
    return n_stock
