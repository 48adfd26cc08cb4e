"""Users' strategies in the readable reference games (``trace``, and the replay that
names what went wrong in a run): each runs its bounds-checked function on copies of its
inputs, under the watchdog, and an exception it raises becomes one line naming it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import replace
from typing import Any

import numpy as np

from simulator.errors import IllegalMove
from simulator.kernels.containment import checked_decide, memory_span
from simulator.kernels.watchdog import Pulse, watched
from simulator.kernels.watchdog import who as who_of
from strategies.registry import Player


class StrategyRaised(IllegalMove):
    """A user strategy raised an exception in a readable reference game; the message is
    one line naming it, its seat, its decision and the exception."""


def trapping_players(players: Sequence[Player]) -> list[Player]:
    """The players for a readable reference game: each user strategy runs its
    bounds-checked function on read-only copies of its inputs (its memory slots, where the
    game has them, are written back), within the time limit of :mod:`simulator.kernels.watchdog`,
    and an exception it raises becomes :class:`StrategyRaised` naming it, its seat and its
    decision."""
    out = []
    pulse = Pulse()
    for seat, player in enumerate(players):
        if not player.family.user:
            out.append(player)
            continue
        out.append(replace(player, family=replace(player.family, decide=_trap(player, seat, pulse))))
    return out


@contextmanager
def watching(contained: Sequence[Player]) -> Iterator[None]:
    """Around a reference game of :func:`trapping_players`'s players: one watchdog for the
    whole game, timing each user decision (a thread per decision would cost more than the
    decision); nothing to watch when no seat holds a user strategy."""
    pulses = {id(p): p for p in (getattr(q.family.decide, "pulse", None) for q in contained) if p is not None}
    if not pulses:
        yield
        return
    (pulse,) = pulses.values()
    with watched(who_of(contained), 0, 1, pulse=pulse):
        yield


def _trap(player: Player, seat: int, pulse: Pulse) -> Callable:
    checked = checked_decide(player.family)
    span = memory_span(checked)
    count = [0]
    who = f"strategy {player.spec!r} (seat {seat})"

    def decide(obs: np.ndarray, params: np.ndarray, rng: np.ndarray) -> Any:
        count[0] += 1
        own = np.array(obs, dtype=np.int64)
        params = np.array(params, dtype=np.float64)
        params.setflags(write=False)
        if span is None:
            own.setflags(write=False)
        pulse.begin(who, f"at its decision {count[0]}")
        try:
            answer = checked(own, params, rng)
        except Exception as exc:  # the user's code: name it in one line
            raise StrategyRaised(_raised_line(player, seat, count[0], exc)) from None
        finally:
            pulse.end()
        if span is not None:
            lo, hi = span
            wrote = [j for j in range(len(own)) if not lo <= j < hi and own[j] != obs[j]]
            if wrote:
                raise StrategyRaised(
                    f"{who} assigned into obs[{wrote[0]}], which is read-only (its own memory is "
                    f"obs[{lo}:{hi}]), at its decision {count[0]}"
                )
            obs[lo:hi] = own[lo:hi]
        return answer

    decide.pulse = pulse  # type: ignore[attr-defined]
    return decide


def _raised_line(player: Player, seat: int, decision: int, exc: BaseException) -> str:
    text = " ".join(str(exc).split())
    what = f"{type(exc).__name__}: {text}" if text else type(exc).__name__
    hint = ""
    if isinstance(exc, IndexError):
        hint = " (a strategy may index only its own observation, params and rng)"
    return f"strategy {player.spec!r} (seat {seat}) raised {what}{hint} at its decision {decision}"


def describe_raised(
    game: Any, table: Any, players: Sequence[Player], seed: int, unit: str, err: np.ndarray
) -> str:
    """One line for an error row whose answer is :data:`~simulator.kernels.containment.RAISED`:
    the game is replayed in the reference implementation to name the exception and the decision."""
    index, seat = int(err[1]), int(err[2])
    where = f"in {unit} {index} of the run with seed {seed}"
    try:
        game.trace(table, trapping_players(players), seed, index, unit)
    except StrategyRaised as exc:
        return f"{exc}, {where}"
    except Exception:  # the replay is only for the words; fall back to what the row says
        pass
    return f"strategy {players[seat].spec!r} (seat {seat}) raised an exception {where}"
