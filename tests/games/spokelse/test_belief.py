"""The belief model reads only the player's view, is a pure function of its stream, and
learns from the opponent's choices (simulator/games/spokelse/belief.py)."""

from __future__ import annotations

import numpy as np
import pytest

import simulator.games.spokelse.strategies  # noqa: F401  (registers the strategies)
from simulator.games.spokelse.belief import (
    OPP_HIDDEN,
    PART_SIZE,
    belief_nb,
    view_of_log_nb,
)
from simulator.games.spokelse.calibration import normalised_nb, place_means_nb
from simulator.games.spokelse.kernel import trace_round_nb
from simulator.games.spokelse.observation import OBS_SIZE
from simulator.games.spokelse.variants import Rules
from strategies.registry import parse_spec

TUNED = parse_spec("expect:k=1,patience=2.8417279406896636,pile=0.5,open=26", "spokelse")
VALUES = Rules().values_half()
NO_OBS, NO_SEEN = np.empty((0, OBS_SIZE), np.int64), np.empty(0, np.uint64)
CARD_VALUE = np.array([VALUES[c % 13] for c in range(52)], dtype=np.int64)


def _round(seed: int, game: int):
    sids = np.array([3, 3], dtype=np.int64)
    params = np.vstack([TUNED.params, TUNED.params])
    log = np.zeros((400, 6), dtype=np.int64)
    _, _, turns, _, err = trace_round_nb(
        sids, params, VALUES, 0, np.zeros(2, np.int64), seed, game, 0, 1, log
    )
    assert err == 0
    return log, turns


def _deal_of(seed: int, game: int, me: int) -> np.ndarray:
    from simulator.engine.rng import DEAL, stream_key
    from simulator.games.spokelse.rules import deal_nb

    rng = np.zeros(3, np.uint64)
    rng[0] = stream_key(seed, game, DEAL, 0, 0)
    deck, slot, ghost = np.empty(52, np.int64), np.empty((2, 4), np.int64), np.empty(2, np.int64)
    deal_nb(rng, deck, slot, ghost, 1)
    return np.array([me, 1, slot[me, 0], slot[me, 1], deck[10]], dtype=np.int64), deck, slot, ghost


def _belief(deal, hist, t, seed=7, n=64, infer=1, eps=0.02):
    rng = np.array([seed], dtype=np.uint64)
    parts = np.empty((n, PART_SIZE), np.int64)
    logw = np.empty(n)
    hidden = np.empty(8, np.int64)
    n_stock = belief_nb(
        deal,
        hist,
        t,
        -1,
        0,
        3,
        TUNED.params,
        eps,
        infer,
        CARD_VALUE,
        rng,
        parts,
        logw,
        hidden,
        NO_OBS,
        NO_SEEN,
    )
    return n_stock, parts, logw, hidden, rng[0]


def test_the_belief_reads_only_the_view():
    """Permuting every card the player cannot see (in the log it is made from: the
    opponent's hidden draws, then the view) leaves the particles, the weights and the
    stream state unchanged."""
    log, turns = _round(3, 5)
    deal, *_ = _deal_of(3, 5, 0)
    t = turns - turns % 2 - 2  # a SOURCE decision of seat 0 late in the round
    hist = np.zeros((400, 5), np.int64)
    view_of_log_nb(0, log, t, hist)
    n_stock, parts, logw, hidden, state = _belief(deal, hist, t)
    assert n_stock >= 0
    rng = np.random.default_rng(0)
    for _ in range(3):
        scrambled = log.copy()
        hidden_rows = [r for r in range(t) if log[r, 1] == 1 and log[r, 2] == 0 and log[r, 4] < 4]
        assert hidden_rows, "the opponent swapped no stock card in: a weak test round"
        scrambled[hidden_rows, 3] = rng.permutation(log[hidden_rows, 3])  # hidden draws, permuted
        scrambled[hidden_rows, 3] = rng.integers(0, 52, len(hidden_rows))  # ... or anything at all
        hist2 = np.zeros((400, 5), np.int64)
        view_of_log_nb(0, scrambled, t, hist2)
        n2, parts2, logw2, hidden2, state2 = _belief(deal, hist2, t)
        assert n2 == n_stock and state2 == state
        assert (
            np.array_equal(parts2, parts) and np.array_equal(logw2, logw) and np.array_equal(hidden2, hidden)
        )


def test_particles_are_a_pure_function_of_the_stream():
    log, turns = _round(4, 2)
    deal, *_ = _deal_of(4, 2, 1)
    t = turns - turns % 2 - 1  # a decision of seat 1
    hist = np.zeros((400, 5), np.int64)
    view_of_log_nb(1, log, t, hist)
    a = _belief(deal, hist, t, seed=11)
    b = _belief(deal, hist, t, seed=11)
    c = _belief(deal, hist, t, seed=12)
    assert np.array_equal(a[1], b[1]) and np.array_equal(a[2], b[2]) and a[4] == b[4]
    assert not np.array_equal(a[1], c[1])


def test_particles_are_consistent_with_the_view():
    """Every particle puts each card once, the known cards where the player saw them."""
    log, _turns = _round(5, 9)
    deal, _deck, _slot, _ghost = _deal_of(5, 9, 0)
    t = 20
    hist = np.zeros((400, 5), np.int64)
    view_of_log_nb(0, log, t, hist)
    n_stock, parts, _, hidden, _ = _belief(deal, hist, t)
    draws = int((hist[:t, 1] == 0).sum())
    assert n_stock == 41 - draws
    for row in parts:
        cards = row[: 10 + n_stock]
        assert len(set(cards.tolist())) == len(cards)
        assert row[0] == deal[2] or hidden[0] == 0  # slot 0 known unless swapped (then known too)


@pytest.mark.parametrize("game", [1, 6])
def test_inference_puts_low_cards_in_the_opponents_hidden_slots(game):
    """The opponent (the model itself) keeps low cards: the inferred mean of its hidden
    slots is lower than the uniform deal's, and nearer the cards really there."""
    log, turns = _round(8, game)
    deal, _deck, _slot, _ghost = _deal_of(8, game, 0)
    t = turns - turns % 2 - 4
    hist = np.zeros((400, 5), np.int64)
    view_of_log_nb(0, log, t, hist)
    means = {}
    for infer in (0, 1):
        n_stock, parts, logw, hidden, _ = _belief(deal, hist, t, n=400, infer=infer)
        w, ess = normalised_nb(logw)
        out = np.empty(4)
        place_means_nb(parts, w, n_stock, hidden, CARD_VALUE, out)
        means[infer] = out[OPP_HIDDEN]
        if infer:
            assert ess > 10  # eps keeps the particle set from collapsing
    assert means[1] < means[0] - 2.0  # half points
