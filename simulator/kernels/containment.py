"""Containment of users' strategies: what a strategy from a plugin file may do, and how a
run ends when it does something else.

A user's strategy (one registered with ``@strategy``, not shipped with kortsim) runs
inside a compiled game kernel, where a mistake would otherwise crash, hang or silently
corrupt the run.  So, for user strategies only (shipped strategies run unchanged, at
full speed):

* **Bounds.** Its function, and every function of users' code it reaches (helpers of
  its own file, closures, helpers of other local modules: :mod:`simulator.kernels.reach`),
  is compiled again with numba's ``boundscheck=True``.  The arrays it receives have
  exactly the shape of its own rows (``obs``: the game's observation size, ``params``:
  the parameter row, ``rng``: one stream cell), so reading or writing past them is an
  ``IndexError``, never a look at another seat's data or a crash.  A strategy that calls
  itself (directly or through helpers) is refused: compiled recursion has no bound on
  its depth, and too deep a one crashes the process.
* **Read-only inputs.** ``obs`` and ``params`` are passed read-only: a strategy that
  assigns into them does not compile (one line says so).  Its own observation is kept
  by the game between decisions; writing into it would make ``simulate`` and ``trace``
  disagree.  The exception is the ``MEMORY`` slots of the games that have them (Gris,
  Gris-nese): they belong to the strategy, as to the shipped ones.  A strategy that
  assigns into ``obs`` there gets it writable; every other entry is checked unchanged
  after each of its decisions (against a copy on the stack: the generated dispatcher of
  :mod:`simulator.kernels.dispatch`), and an assignment there stops the run with one line.
* **Exceptions.** The game's dispatcher (:mod:`simulator.kernels.specialise`) calls it inside a
  nopython ``try``/``except``: an exception (an ``IndexError`` from the bounds check, a
  ``ZeroDivisionError``, one it raises itself) becomes the answer :data:`RAISED`, which
  every kernel refuses as an illegal action and writes into its error row.  The run
  then replays that game in the readable reference implementation to name the
  exception and the decision (:mod:`simulator.kernels.raised`).
* **Time.** A watchdog thread stops a call that runs too long, and honours Ctrl-C
  (:mod:`simulator.kernels.watchdog`), in ``simulate`` (per block of games) and in
  ``trace`` (per decision).
* **Randomness.** A strategy that draws from Python's ``random`` module or numpy's
  global generator (in its own code or any helper it reaches) would break "same seed,
  same result"; it is refused before it runs (:mod:`simulator.kernels.randomness`).
"""

from __future__ import annotations

from typing import Any

from numba import types
from numba.extending import intrinsic

from simulator.engine.numba_internals import Dispatcher, impl_ret_borrowed
from simulator.errors import SpecError
from simulator.kernels.randomness import global_random_use
from simulator.kernels.reach import checked_copy, globals_used
from simulator.kernels.watchdog import (
    BLOCK_LIMIT_ENV,
    DEFAULT_BLOCK_LIMIT,
    EXIT_INTERRUPTED,
    EXIT_STRATEGY,
    INTERRUPT_GRACE,
    block_limit,
    watched,
    who,
)
from strategies.registry import Family

#: The answer the dispatcher gives for a user strategy that raised an exception (or
#: assigned outside its memory slots): no game accepts it (every kernel writes it into
#: its error row's answer column).
RAISED = -0x7FFF_FFFF_FFFF_FF00
#: The column of every game's error row that holds the strategy's answer.
ANSWER_COLUMN = 4

#: The argument types a user strategy is compiled for: read-only observation and
#: parameters, the seat's writable random stream cell.
SIGNATURE = (
    types.Array(types.int64, 1, "C", readonly=True),
    types.Array(types.float64, 1, "C", readonly=True),
    types.uint64[::1],
)
#: The same for a strategy that keeps something in its memory slots: its observation is
#: writable, and checked unchanged outside them after each decision.
MEMORY_SIGNATURE = (types.int64[::1], SIGNATURE[1], SIGNATURE[2])

_CHECKED: dict[int, tuple[Any, Dispatcher]] = {}
#: The memory slots ``[start, stop)`` of each checked dispatcher compiled to write them.
_MEMORY: dict[int, tuple[int, int]] = {}
_SIZES: dict[int, int] = {}


@intrinsic
def readonly(typingctx, arr):
    """The same array, typed read-only (no copy): assigning into it does not compile."""
    if not isinstance(arr, types.Array):
        return None
    ro = arr.copy(readonly=True)

    def codegen(context, builder, sig, args):
        return impl_ret_borrowed(context, builder, sig.return_type, args[0])

    return ro(arr), codegen


def _game_memory(game: str) -> tuple[int, int] | None:
    """The ``MEMORY`` slots of ``game``'s observation, or None when it has none."""
    layout = _layout(game)
    if "memory" not in layout:
        return None
    s = layout.slice("memory")
    return s.start, s.stop


def _layout(game: str) -> Any:
    from simulator.games import get_game

    return get_game(game).observation


def obs_size(checked: Any) -> int:
    """The size of the observation a checked strategy that writes its memory slots sees."""
    return _SIZES[id(checked)]


def memory_span(checked: Any) -> tuple[int, int] | None:
    """The memory slots ``(start, stop)`` a checked strategy writes (its observation is
    writable, the rest checked unchanged), or None when it runs on a read-only one."""
    return _MEMORY.get(id(checked))


def checked_decide(family: Family) -> Dispatcher:
    """The user strategy's function as it runs in a kernel: bounds-checked (with every
    function of users' code it reaches), compiled for read-only ``obs`` and ``params``
    (:data:`SIGNATURE`), or, when it assigns into ``obs`` in a game with memory slots,
    for a copy of it (:data:`MEMORY_SIGNATURE`); one line when it cannot run.

    Raises
    ------
    SpecError
        When it draws from a global random generator, calls itself, or does not compile
        in this form (it assigns into ``params``, for example).
    """
    decide = family.decide
    known = _CHECKED.get(id(decide))
    if known is not None and known[0] is decide:
        return known[1]
    from strategies.checks import _code, _where, essential

    file, first = _code(family)
    drawn = global_random_use(decide)
    if drawn is not None:
        raise SpecError(
            f"strategy {family.name!r} ({file}:{first}) draws from {drawn}, which breaks "
            "'same seed, same result'; draw from its own stream, the rng argument "
            "(simulator.engine.rng.below_nb(rng, n), uniform_nb(rng))"
        )
    try:
        checked = checked_copy(decide)
    except SpecError as exc:
        raise SpecError(f"strategy {family.name!r} ({file}:{first}) {exc}") from None
    try:
        try:
            checked.compile(SIGNATURE)
        except Exception as exc:
            memory = _game_memory(family.game)
            if memory is None or not _assigns_readonly(str(exc)):
                raise
            checked.compile(MEMORY_SIGNATURE)  # its memory slots are its own
            _MEMORY[id(checked)] = memory
            _SIZES[id(checked)] = _layout(family.game).size()
    except Exception as exc:  # numba's compiler errors, in one line
        details = str(exc)
        where_file, line = _where(exc, details, file, first)
        if _assigns_readonly(details):
            slots = " (only its MEMORY slots are its own)" if _game_memory(family.game) else ""
            reason = f"it assigns into obs or params, which are read-only{slots} (work on a copy: obs.copy())"
        else:
            reason = essential(details) if details.strip() else type(exc).__name__
        raise SpecError(f"strategy {family.name!r} ({where_file}:{line}) cannot run: {reason}") from None
    _CHECKED[id(decide)] = (decide, checked)
    return checked


def _assigns_readonly(details: str) -> bool:
    return "readonly array" in details and "setitem" in details


_globals_used = globals_used  # the name simulator.kernels.specialise used

__all__ = [
    "ANSWER_COLUMN",
    "BLOCK_LIMIT_ENV",
    "DEFAULT_BLOCK_LIMIT",
    "EXIT_INTERRUPTED",
    "EXIT_STRATEGY",
    "INTERRUPT_GRACE",
    "MEMORY_SIGNATURE",
    "RAISED",
    "SIGNATURE",
    "block_limit",
    "checked_decide",
    "global_random_use",
    "memory_span",
    "obs_size",
    "readonly",
    "watched",
    "who",
]
