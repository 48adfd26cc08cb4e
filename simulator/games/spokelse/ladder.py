"""The search ladder: each player against tuned ``expect`` on the same deals, both seats.

``ladder(["random", "expect", "belief:samples=64"], deals=2000, seed=7)`` plays every
deal twice per player (:mod:`~simulator.games.spokelse.duel`), once in each seat, and
reports the player's points per round less tuned ``expect``'s (lower is better) with a
95% interval over deals, and the rounds per second.  Players are shipped strategy specs
(``search`` is the kernel's uniform-deal search, bit for bit), ``belief[:samples=..,
margin=..,z=..,eps=..]`` the belief search, and ``clairvoyant`` the bound (it sees the
cards).
"""

from __future__ import annotations

import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field

import numpy as np

from simulator.games import InputError

TUNED_EXPECT = "expect:k=1,patience=2.8417279406896636,pile=0.5,open=26"
BELIEF_DEFAULTS = {"samples": 64.0, "margin": 0.0, "z": 2.0, "eps": 0.005}


@dataclass
class Rung:
    """One player's result: points per round less the opponent's (tuned ``expect`` unless
    another was named; lower is better)."""

    player: str
    diff: float
    low: float
    high: float
    deals: int
    rounds_per_second: float
    worse: int
    better: int
    opponent: str = TUNED_EXPECT
    #: points per round less the opponent's, per deal (both seats averaged): for pairing rungs
    per_deal: np.ndarray = field(default_factory=lambda: np.zeros(0), repr=False, compare=False)


def _player(spec: str) -> tuple[int, int, np.ndarray, np.ndarray]:
    """(kind, builtin id, params, belief settings) of a ladder spec."""
    import simulator.games.spokelse.strategies  # noqa: F401
    from simulator.games.spokelse.duel import BELIEF, BUILTIN, CLAIRVOYANT, SEARCH
    from strategies.registry import PARAM_ROW, parse_spec

    tuned = parse_spec(TUNED_EXPECT, "spokelse").params
    name, _, body = spec.partition(":")
    if name in ("belief", "clairvoyant"):
        values = dict(BELIEF_DEFAULTS)
        for item in filter(None, body.split(",")):
            key, _, raw = item.partition("=")
            if key not in values:
                raise InputError(f"{spec}: unknown parameter {key!r} (parameters: {', '.join(values)})")
            try:
                values[key] = float(raw)
            except ValueError:
                raise InputError(f"{spec}: {key}={raw!r} is not a number") from None
        p = np.zeros(PARAM_ROW)  # search's layout; forget and slip 0 (the belief search remembers)
        p[0], p[1], p[2:6], p[6], p[7] = values["samples"], values["margin"], tuned[:4], 13, values["z"]
        b = np.array([3.0, values["eps"], 1.0])  # the model: tuned expect (builtin id 3)
        return (BELIEF if name == "belief" else CLAIRVOYANT), 0, p, b
    player = parse_spec(spec, "spokelse")
    if player.family.name == "search":
        return SEARCH, 0, player.params, np.zeros(3)
    if player.family.builtin_id is None:
        raise InputError(f"{spec}: the ladder plays shipped strategies, belief and clairvoyant")
    return BUILTIN, player.family.builtin_id, player.params, np.zeros(3)


def ladder(
    players: list[str], *, deals: int = 2000, seed: int = 0, threads: int = 2, opponent: str = TUNED_EXPECT
) -> list[Rung]:
    """Each of ``players`` against ``opponent`` (tuned expect by default; any shipped
    strategy, human-like ones included: ``expect:forget=0.1,slip=0.05``) on deals
    ``[0, deals)``, both seats.  The belief search's model of its opponent stays tuned
    expect whoever the opponent is.

    Returns one :class:`Rung` per player (points per round less the opponent's, 95%
    interval over deals; ``better``/``worse``: deals on which the player did better or
    worse over its two rounds; ``per_deal``: the values the interval rests on, so that two
    rungs pair deal by deal)."""
    from simulator.games.spokelse.duel import duel_chunk_nb
    from simulator.games.spokelse.variants import Rules
    from strategies.registry import parse_spec

    if not 2 <= deals <= 10_000_000:
        raise InputError(f"ladder: deals takes 2 to 10000000, got {deals}")
    model = parse_spec(TUNED_EXPECT, "spokelse")
    opp = parse_spec(opponent, "spokelse")
    if opp.family.builtin_id is None:
        raise InputError(
            f"ladder: the opponent is a shipped strategy compiled into the kernel, not {opponent}"
        )
    values = Rules().values_half()
    rungs = []
    for spec in players:
        kind, psid, pp, bp = _player(spec)
        scores = np.zeros((deals, 2, 2), dtype=np.int64)
        n_chunks = max(1, min(64, deals // 10))
        bounds = [(c * deals // n_chunks, (c + 1) * deals // n_chunks) for c in range(n_chunks)]

        def chunk(c: int, kind=kind, psid=psid, pp=pp, bp=bp, scores=scores, bounds=bounds) -> None:
            g0, g1 = bounds[c]
            duel_chunk_nb(kind, psid, pp, bp, model.params, opp.family.builtin_id, opp.params, values, seed,
                          g0, g1, scores[g0:g1])  # fmt: skip

        t0 = time.perf_counter()
        with ThreadPoolExecutor(max(1, threads)) as pool:
            list(pool.map(chunk, range(n_chunks)))
        dt = time.perf_counter() - t0
        d = (scores[:, :, 0] - scores[:, :, 1]).mean(axis=1) / 2.0  # points per round, per deal
        half = 1.96 * d.std(ddof=1) / np.sqrt(deals)
        rungs.append(
            Rung(
                spec,
                float(d.mean()),
                float(d.mean() - half),
                float(d.mean() + half),
                deals,
                2 * deals / dt,
                int((d > 0).sum()),
                int((d < 0).sum()),
                opp.spec,
                d,
            )
        )
    return rungs


def ladder_lines(rungs: list[Rung]) -> list[str]:
    """A table within 80 columns: points per round less the opponent's, lower is better."""
    against = "tuned expect" if not rungs or rungs[0].opponent == TUNED_EXPECT else rungs[0].opponent
    lines = [f"player − {against}, points per round (lower is better), 95% CI"]
    for r in rungs:
        name = r.player if len(r.player) <= 30 else r.player[:29] + "…"
        lines.append(
            f"{name:<30} {r.diff:+.3f} [{r.low:+.3f}, {r.high:+.3f}] {r.rounds_per_second:8.1f} rounds/s"
        )
    return lines


__all__ = ["TUNED_EXPECT", "Rung", "ladder", "ladder_lines"]
