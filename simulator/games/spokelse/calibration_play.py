"""Spøkelse's side of ``simulator.calibrate``: real rounds played with the belief beside them.

:func:`play` plays ``rounds`` rounds between a player and an opponent (shipped strategies,
by their builtin ids) with the compiled calibration kernel (``calibration.py``): before each of
the player's decisions the belief predicts the mean card value of every place the player cannot
see, and the cards really there are summed beside it, per stock size and place.  The analysis
(rows, judgement, figure) is :mod:`simulator.analysis.calibrate`, which finds this module
through ``Game.calibration_module``.
"""

from __future__ import annotations

import time
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import numpy as np

from simulator.errors import InputError
from simulator.games.spokelse.belief import PLACE_NAMES
from simulator.games.spokelse.calibration import ACC_FIELDS, calibrate_chunk_nb
from simulator.games.spokelse.variants import Rules
from strategies.registry import parse_spec

#: stock sizes a decision can see (0 to 41: RULES.md §3, the deal and the first discard out)
STOCK_SIZES = 42


def _shipped(spec: str, what: str) -> tuple[int, np.ndarray, str]:
    player = parse_spec(spec, "spokelse")
    sid = player.family.builtin_id
    if sid is None:
        raise InputError(f"{what} {spec!r}: calibration plays shipped strategies with a builtin id "
                         "(passive, random, threshold, expect)")  # fmt: skip
    return sid, player.params, player.spec


def play(
    player: str,
    opponent: str,
    model: str,
    rounds: int,
    seed: int,
    particles: int,
    eps: float,
    infer: bool,
    threads: int,
) -> dict[str, Any]:
    """Play the rounds; ``acc`` [stock, place, field] holds the sums, ``scores`` each round's
    points (half points) per seat, ``specs`` the three canonical specs."""
    p_sid, p_par, p_spec = _shipped(player, "player")
    o_sid, o_par, o_spec = _shipped(opponent, "opponent")
    m_sid, m_par, m_spec = _shipped(model, "model")
    if parse_spec(model, "spokelse").human:
        raise InputError(f"model {model!r}: the belief's model plays the plain strategy; forget and slip "
                         "are not modelled (eps stands for an opponent who strays from it)")  # fmt: skip
    sids = np.array([p_sid, o_sid], dtype=np.int64)
    params = np.vstack([p_par, o_par])
    values = Rules().values_half()
    n_chunks = max(1, min(64, rounds // 50))
    accs = np.zeros((n_chunks, STOCK_SIZES, len(PLACE_NAMES), ACC_FIELDS))
    scores = np.zeros((rounds, 2), dtype=np.int64)
    bounds = [(c * rounds // n_chunks, (c + 1) * rounds // n_chunks) for c in range(n_chunks)]

    def chunk(c: int) -> None:
        g0, g1 = bounds[c]
        calibrate_chunk_nb(sids, params, values, m_sid, m_par, eps, int(infer), particles, seed, g0, g1,
                           accs[c], scores[g0:g1])  # fmt: skip

    t0 = time.perf_counter()
    with ThreadPoolExecutor(max(1, threads)) as pool:
        list(pool.map(chunk, range(n_chunks)))
    seconds = time.perf_counter() - t0
    acc = accs.sum(axis=0)  # chunk sums in a fixed order: the same for any thread count
    if acc[0, 0, 0] < 0:
        raise RuntimeError("calibrate: the belief found a view impossible (a bug)")
    return {"acc": acc, "scores": scores, "seconds": seconds, "specs": (p_spec, o_spec, m_spec),
            "places": PLACE_NAMES}  # fmt: skip


__all__ = ["STOCK_SIZES", "play"]
