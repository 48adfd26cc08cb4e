"""The Python API: ``simulate``, ``run`` and ``trace``.  The CLI is a thin layer over these.

The run path itself is :mod:`simulator.running.simulate`; the checks of what is played,
:mod:`simulator.running.setup`.  Their names stay importable from here."""

from __future__ import annotations

import threading
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from simulator.engine.arguments import refuse
from simulator.errors import InputError, SpecError
from simulator.games import Game
from simulator.kernels.messages import announced, trace_message
from simulator.running.checkpoint import RunInterrupted, stored_seed
from simulator.running.results import Result
from simulator.running.setup import (  # the checks live there; these names stay importable from here
    MAX_GAME_INDEX,
    MAX_GAMES,
    MAX_SEED,
    UNITS,
    Execution,
    SeedLike,
    Setup,
    check_block_size,
    check_game_index,
    make_table,
    resolve_game,
    resolve_players,
    resolve_seed,
    resolve_unit,
    seed_provenance,
)
from simulator.running.simulate import make_result, mark_partial, run
from strategies.checks import StrategyCompileError
from strategies.registry import Player


def simulate(
    game: str | Game,
    strategies: Sequence[str | Player] | str,
    *,
    rounds: int | None = None,
    matches: int | None = None,
    seed: SeedLike | None = None,
    rules: Mapping[str, Any] | Any = None,
    players: int | None = None,
    reaction: Sequence[Any] | None = None,
    threads: int | None = None,
    block_size: int | None = None,
    plugins: Sequence[str] = (),
    progress: Callable[[int], None] | None = None,
    backend: str = "local",
    scheduler: str | None = None,
    workers: int | None = None,
    out: str | Path | None = None,
    resume: bool = False,
    records: bool = False,
    stop: threading.Event | None = None,
    connect_timeout: float | None = None,
) -> Result:
    """Play ``rounds`` deals or ``matches`` matches and return their figures.

    ``strategies`` are specs such as ``"threshold:k=4"`` (or :class:`Player`
    objects): one for every seat, or one per seat in seat order.  ``rules``
    maps variant names to values (``{"jack": "11"}``), lists them
    (``["jack=11"]``; a rule named twice is refused) or is the game's Rules
    object.  A user strategy that numba cannot compile raises
    :class:`StrategyCompileError` (one line; numba's message in ``details``).
    The result depends only on the arguments and ``seed`` (a fresh one
    is drawn and recorded when it is None), never on ``threads``,
    ``block_size`` (default: sized so that a block takes about a quarter of a
    second) or the backend.

    ``backend="dask"`` plays the blocks on a Dask cluster: the one at
    ``scheduler`` (an address or a scheduler file; default: Dask's configured
    ``scheduler-address``), else a LocalCluster of ``workers`` processes
    (``simulator/running/backends.py``).  A scheduler that does not answer within
    ``connect_timeout`` seconds (default 10), or that has no worker within as
    long again, is an :class:`InputError`.

    ``out`` makes the run resumable: finished blocks are persisted in that folder
    as they complete and ``summary.parquet`` is written there at the end
    (``simulator/running/checkpoint.py``).  Setting ``stop`` (or Ctrl-C in the main
    thread, with or without ``out``) ends the run after the blocks in flight,
    writes the figures of the finished games and raises :class:`RunInterrupted`,
    whose ``result`` says ``"partial": True`` and ``"n_planned"`` in its summary
    (a finished run says ``"partial": False``).  A run in ``out`` that ends in an
    error is marked failed there, and a new run in ``out`` replaces it.  ``resume=True`` continues
    the run in ``out`` (its seed is used when ``seed`` is None) or extends it to
    more games; other settings must be the same.  ``records=True`` also writes one
    row per game to ``out/records/`` (``simulator/running/records.py``); without ``out`` it
    keeps them in memory, for at most ``MAX_RECORDS_IN_MEMORY`` (1,000,000) games.
    Either way ``result.records()`` returns them, ``result.records(long=True)`` one
    row per game and seat.

    ``seed`` is an ``int`` from 0 to 2**63 - 1, a numpy integer or a
    ``numpy.random.SeedSequence`` (mapped to an integer seed as
    :func:`resolve_seed` says; the integer is what the summary records, the
    sequence's entropy and spawn key go to the provenance).  Every input is checked
    by :mod:`simulator.running.setup`, as for ``compare`` and ``sweep``; :func:`run` plays it.

    Raises
    ------
    InputError
        For an argument of the wrong type or out of its range (one line naming it:
        ``strategies takes strategy specs (str) or Player objects, not int 1``), checked by
        :mod:`simulator.engine.arguments` and :mod:`simulator.running.inputs` before anything
        is played.
    SpecError
        For a strategy spec or plugin file that cannot be read.
    StrategyCompileError
        For a user strategy numba cannot compile.
    RunInterrupted
        When ``stop`` is set or Ctrl-C ends the run early (its ``result`` holds the finished games).
    """
    if stop is not None and not isinstance(stop, threading.Event):
        raise refuse("stop", "a threading.Event (or None)", stop)
    execution = Execution.build(
        threads=threads, block_size=block_size, backend=backend, scheduler=scheduler, workers=workers,
        connect_timeout=connect_timeout, out=out, resume=resume, records=records, progress=progress,
    )  # fmt: skip
    if resume and seed is None:
        seed = stored_seed(out)  # type: ignore[arg-type]
    setup = Setup.build(
        game, strategies, rounds=rounds, matches=matches, seed=seed, rules=rules, players=players,
        reaction=reaction, plugins=plugins,
    )  # fmt: skip
    return run(setup, execution, stop=stop)


def trace(
    game: str | Game,
    strategies: Sequence[str | Player] | str,
    *,
    seed: SeedLike,
    game_index: int = 0,
    unit: str = "round",
    rules: Mapping[str, Any] | Any = None,
    players: int | None = None,
    reaction: Sequence[Any] | None = None,
    plugins: Sequence[str] = (),
    max_lines: int = 2000,
) -> str:
    """Game ``game_index`` of the run with this seed, move by move, as text.

    Parameters
    ----------
    game, strategies, seed, rules, players, reaction, plugins
        As for :func:`simulate`; ``seed`` is required (a trace shows a game of a seeded run).
    game_index
        Which game of the run, counting from 0: ``0 <= game_index < 2**63``.
    unit
        ``"round"`` (round ``game_index`` of ``--rounds``) or ``"match"``.
    max_lines
        At most this many lines of moves (default 2000; 0 for all): the start and the end
        of the game are kept and one line says how many were left out.  The header (the
        run, table size, rule variants and the strategy in each seat) is always shown.

    Raises
    ------
    InputError
        For bad input (a wrong type, a value out of range), in one line naming the argument.
    simulator.running.runner.StrategyError
        When a strategy makes an illegal move; the message names it, its seat and the decision.
    """
    from simulator.errors import IllegalMove, StrategyError
    from simulator.games.illegal import where
    from simulator.kernels.raised import trapping_players, watching
    from simulator.running.tracing import cap_lines, check_max_lines, header

    if unit not in UNITS:
        raise InputError("unit must be 'round' or 'match'")
    if seed is None:
        raise InputError("a trace needs a seed (--seed N): it shows one game of a seeded run, to replay")
    # What is played is checked as simulate checks it, in the same order and with the same lines.
    setup = Setup.build(
        game, strategies, rounds=1 if unit == "round" else None, matches=1 if unit == "match" else None,
        seed=seed, rules=rules, players=players, reaction=reaction, plugins=plugins,
    )  # fmt: skip
    game_index = check_game_index(game_index)
    try:
        max_lines = check_max_lines(max_lines)
    except ValueError as exc:
        raise InputError(str(exc)) from None
    g, table, seat_players, seed = setup.game, setup.table, list(setup.players), setup.seed
    # User strategies run bounds-checked, as in a run (simulator/kernels/containment.py).
    contained = trapping_players(seat_players)
    try:
        with announced(trace_message(g, seat_players)), watching(contained):
            body = g.trace(table, contained, seed, game_index, unit)
    except IllegalMove as exc:
        raise StrategyError(f"{exc}, {where(unit, game_index, seed)}") from None
    lines = header(table, seat_players, seed, game_index, unit)
    return "\n".join([*lines, "", cap_lines(body, max_lines)])


__all__ = [
    "MAX_GAMES",
    "MAX_GAME_INDEX",
    "MAX_SEED",
    "Execution",
    "InputError",
    "RunInterrupted",
    "SeedLike",
    "Setup",
    "SpecError",
    "StrategyCompileError",
    "check_block_size",
    "make_result",
    "make_table",
    "mark_partial",
    "resolve_game",
    "resolve_players",
    "resolve_seed",
    "resolve_unit",
    "run",
    "seed_provenance",
    "simulate",
    "trace",
]
