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
from dataclasses import dataclass
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


@dataclass(frozen=True)
class Plan:
    """A calibration's settings as the kernel takes them, and its chunks of rounds: picklable,
    so that a Dask worker plays chunks of the same run (:func:`play_chunk`)."""

    sids: np.ndarray
    params: np.ndarray
    values: np.ndarray
    m_sid: int
    m_par: np.ndarray
    eps: float
    infer: int
    particles: int
    seed: int
    rounds: int
    specs: tuple[str, str, str]

    @property
    def chunks(self) -> int:
        """How many chunks the rounds are played in (fixed by ``rounds``, so the sums are)."""
        return max(1, min(64, self.rounds // 50))

    def bounds(self, c: int) -> tuple[int, int]:
        """Chunk ``c``'s rounds ``[g0, g1)``."""
        return c * self.rounds // self.chunks, (c + 1) * self.rounds // self.chunks


def plan(
    player: str, opponent: str, model: str, rounds: int, seed: int, particles: int, eps: float, infer: bool
) -> Plan:
    """The checked plan of a calibration (one line for a strategy it cannot play)."""
    p_sid, p_par, p_spec = _shipped(player, "player")
    o_sid, o_par, o_spec = _shipped(opponent, "opponent")
    m_sid, m_par, m_spec = _shipped(model, "model")
    if parse_spec(model, "spokelse").human:
        raise InputError(f"model {model!r}: the belief's model plays the plain strategy; forget and slip "
                         "are not modelled (eps stands for an opponent who strays from it)")  # fmt: skip
    sids = np.array([p_sid, o_sid], dtype=np.int64)
    return Plan(sids, np.vstack([p_par, o_par]), Rules().values_half(), m_sid, m_par, float(eps), int(infer),
                int(particles), int(seed), int(rounds), (p_spec, o_spec, m_spec))  # fmt: skip


def play_chunk(p: Plan, c: int) -> tuple[np.ndarray, np.ndarray]:
    """Chunk ``c``'s sums ``[stock, place, field]`` and its rounds' points (half points) per seat."""
    g0, g1 = p.bounds(c)
    acc = np.zeros((STOCK_SIZES, len(PLACE_NAMES), ACC_FIELDS))
    scores = np.zeros((g1 - g0, 2), dtype=np.int64)
    calibrate_chunk_nb(p.sids, p.params, p.values, p.m_sid, p.m_par, p.eps, p.infer, p.particles, p.seed,
                       g0, g1, acc, scores)  # fmt: skip
    return acc, scores


def outcome(p: Plan, parts: list[tuple[np.ndarray, np.ndarray]], seconds: float) -> dict[str, Any]:
    """What :func:`play` returns, from every chunk's part in chunk order."""
    acc = np.zeros((STOCK_SIZES, len(PLACE_NAMES), ACC_FIELDS))
    for a, _ in parts:  # chunk sums in a fixed order: the same for any thread count or backend
        acc += a
    if acc[0, 0, 0] < 0:
        raise RuntimeError("calibrate: the belief found a view impossible (a bug)")
    scores = np.concatenate([s for _, s in parts])
    return {"acc": acc, "scores": scores, "seconds": seconds, "specs": p.specs, "places": PLACE_NAMES}


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
    """Play the rounds on ``threads`` threads; ``acc`` [stock, place, field] holds the sums,
    ``scores`` each round's points (half points) per seat, ``specs`` the three canonical specs."""
    p = plan(player, opponent, model, rounds, seed, particles, eps, infer)
    t0 = time.perf_counter()
    with ThreadPoolExecutor(max(1, threads)) as pool:
        parts = list(pool.map(lambda c: play_chunk(p, c), range(p.chunks)))
    return outcome(p, parts, time.perf_counter() - t0)


__all__ = ["STOCK_SIZES", "Plan", "outcome", "plan", "play", "play_chunk"]
