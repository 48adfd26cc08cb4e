"""``kortsim advise`` on the belief: every legal action played out on worlds drawn from
the belief model given the round so far (docs/search.md, "kortsim advise").

:func:`belief_evaluate_nb` is the belief search's decision (belief_search.py) with every
world played: ``samples`` particles from the player's view of the round (its history,
:mod:`~simulator.games.spokelse.history`), weighted by the likelihood of the opponent's
observed choices under a model, resampled by weight, each made a world and every legal
action played out in it by ``expect`` in both seats.  :func:`belief_exact` is the exact
own score when the stock holds 0 or 1 card: given a particle, the cards that steered
nobody's choice (own unknown slots, the ghosts, the stock, the opponent's slots it never
looked at) are a uniform deal of what the particle leaves, so the end-of-round sum of
advise_exact.py holds per particle, and the particles' weights average it.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from simulator.errors import InputError
from simulator.games.spokelse.advise_exact import exact_scores
from simulator.games.spokelse.belief import P_THEIRS, PART_SIZE, belief_nb
from simulator.games.spokelse.belief_search import B_EPS, B_SID, _play_all_nb, resample_nb
from simulator.games.spokelse.history import History
from simulator.games.spokelse.ladder import BELIEF_DEFAULTS
from simulator.games.spokelse.observation import FROM_DISCARD, HAND, OBS_SIZE, PHASE, PLACE
from simulator.games.spokelse.position import Position
from simulator.games.spokelse.search import base_params_nb
from simulator.games.spokelse.search_worlds import legal_nb
from strategies.registry import parse_spec

EPS = BELIEF_DEFAULTS["eps"]  # the belief search's: the best calibrated (docs/search.md, "Belief")


@njit(cache=True)
def belief_evaluate_nb(obs, seen_me, pile, n_pile, deal, hist, n_turns, params, bparams, mparams, card_value,
                       rng, own, opp, legal, parts, logw, hidden):  # fmt: skip
    """Play every legal action out on ``own.shape[1]`` worlds resampled from as many
    particles of the belief; ``own``, ``opp`` and ``legal`` as search.py's
    :func:`evaluate_nb`, ``parts``, ``logw`` and ``hidden`` as belief.py's
    :func:`belief_nb` fills them (the particles before resampling).  Returns the stock
    size, or -1 when the view is impossible (then nothing is drawn from ``rng``)."""
    n = own.shape[1]
    base = base_params_nb(params)
    oobs = np.empty((n, OBS_SIZE), np.int64)
    oseen = np.empty(n, np.uint64)
    hand = obs[HAND] if obs[PHASE] == PLACE else -1
    n_stock = belief_nb(deal, hist, n_turns, hand, obs[FROM_DISCARD], np.int64(bparams[B_SID]), mparams,
                        bparams[B_EPS], np.int64(1), card_value, rng, parts, logw, hidden, oobs, oseen)  # fmt: skip
    legal_nb(obs, legal)
    if n_stock < 0:
        return n_stock
    at = np.empty(n, np.int64)
    resample_nb(logw, rng, at)
    _play_all_nb(at, parts, oobs, oseen, obs, seen_me, pile, n_pile, n_stock, hidden, card_value, base, rng,
                 own, opp, legal, 0, n)  # fmt: skip
    return n_stock


def new_particles(n: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The arrays :func:`belief_evaluate_nb` fills: particles, log weights, hidden slots."""
    return np.empty((n, PART_SIZE), np.int64), np.empty(n), np.empty(8, np.int64)


def weights(logw: np.ndarray) -> tuple[np.ndarray, float]:
    """Normalised weights and the effective sample size (particles)."""
    w = np.exp(logw - logw.max())
    w /= w.sum()
    return w, float(1.0 / (w * w).sum())


def weighted_mean_ci(x: np.ndarray, w: np.ndarray) -> tuple[float, tuple[float, float]]:
    """Weighted mean and 95% interval (the self-normalised importance estimate's
    delta-method standard error)."""
    m = float(w @ x)
    half = 1.96 * math.sqrt(float((w * w) @ ((x - m) ** 2)))
    return m, (m - half, m + half)


def belief_exact(
    pos: Position, parts: np.ndarray, logw: np.ndarray, hidden: np.ndarray, n_stock: int
) -> dict[int, np.ndarray] | None:
    """Each legal action's exact own final score (half points) in each particle, or None
    when the stock holds more than one card.  The pool of a particle is its cards in the
    places nobody chose: own unknown slots, the opponent's never-looked-at slots, the
    ghosts and the stock (belief.py's ``hidden`` codes 1 and 2)."""
    if pos.stock > 1:
        return None
    values = pos.rules.values_half()
    cols = [i for i in range(4) if hidden[i]] + [P_THEIRS + i for i in range(4) if hidden[4 + i] == 2]
    cols += [8, 9, *range(10, 10 + n_stock)]  # the ghosts and the stock
    cache: dict[tuple[int, ...], dict[int, float]] = {}
    out: dict[int, np.ndarray] = {}
    for j in range(parts.shape[0]):
        pool = tuple(sorted(int(values[parts[j, c] % 13]) for c in cols))
        if pool not in cache:
            cache[pool] = exact_scores(pos, list(pool))
        for a, v in cache[pool].items():
            out.setdefault(a, np.empty(parts.shape[0]))[j] = v
    return out


def on_belief(
    pos: Position,
    history: History,
    obs: np.ndarray,
    params: np.ndarray,
    model: str,
    rng: np.ndarray,
    own: np.ndarray,
    opp: np.ndarray,
    legal: np.ndarray,
    parts: np.ndarray,
    logw: np.ndarray,
    hidden: np.ndarray,
) -> int:
    """:func:`belief_evaluate_nb` on the position ``history`` led to (``obs``, its
    observation), the belief's model ``model`` (a shipped strategy's spec) at eps
    :data:`EPS`; returns the stock size.

    Raises
    ------
    InputError
        When the history and the position cannot both hold (one line)."""
    m = parse_spec(model, "spokelse")
    deal, hist, pile, bits = history.arrays()
    if pos.from_discard:
        pile = pile[:-1]  # the card in hand came off it
    if pos.hand >= 0:
        bits |= np.uint64(1) << np.uint64(pos.hand)
    card_value = pos.rules.values_half()[np.arange(52) % 13]
    bparams = np.array([float(m.family.builtin_id), EPS, 1.0])
    n_stock = belief_evaluate_nb(obs, bits, pile, len(pile), deal, hist, len(history.turns), params, bparams,
                                 m.params, card_value, rng, own, opp, legal, parts, logw, hidden)  # fmt: skip
    if n_stock < 0:
        raise InputError("the history cannot lead to this position: the cards do not add up")
    return int(n_stock)


__all__ = [
    "EPS",
    "belief_evaluate_nb",
    "belief_exact",
    "new_particles",
    "on_belief",
    "weighted_mean_ci",
    "weights",
]
