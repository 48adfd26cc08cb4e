"""One line, before numba compiles, saying what is compiled and why.

Compiling a game kernel takes tens of seconds; loading it from numba's on-disk
cache takes about a second.  Numba broadcasts a ``numba:compile`` event when a
dispatcher really compiles (a cache hit broadcasts none), so kortsim listens for
that event around the first call of a kernel and says, once, what is being
compiled and why, before the compiler starts.

The line goes to the ``kortsim`` logger at level INFO.  When logging is not
configured at all (a plain script, a notebook) it is written to stderr
instead, so it is seen there too; silence it with
``logging.getLogger("kortsim").setLevel(logging.WARNING)``.  The command
line sends it to stderr, never to stdout.
"""

from __future__ import annotations

import logging
import sys
import threading
from collections.abc import Hashable, Iterator, Sequence
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import TYPE_CHECKING

from simulator.engine.numba_internals import event

if TYPE_CHECKING:
    from simulator.games.base import Game
    from strategies.registry import Player

logger = logging.getLogger("kortsim")
if logger.level == logging.NOTSET:
    logger.setLevel(logging.INFO)

_ROOT = Path(__file__).resolve().parents[2]
_PACKAGES = tuple(_ROOT / name for name in ("simulator", "strategies", "experiments"))
_SAID: set[Hashable] = set()
_LOCK = threading.Lock()


def say(message: str) -> None:
    """Send ``message`` to the ``kortsim`` logger, or to stderr when logging is not set up.

    Parameters
    ----------
    message : str
        One line of text.
    """
    if logger.hasHandlers():
        logger.info(message)
    elif logger.isEnabledFor(logging.INFO) and sys.stderr is not None:
        with suppress(OSError, ValueError):  # stderr closed: the line is only a courtesy
            print(message, file=sys.stderr, flush=True)


class _OnFirstCompile(event.Listener):
    """Says its message when the first compile starts (at most once per ``key``)."""

    def __init__(self, message: str, key: Hashable) -> None:
        self.message = message
        self.key = key

    def on_start(self, event: event.Event) -> None:
        with _LOCK:
            if self.key in _SAID:
                return
            _SAID.add(self.key)
        say(self.message)

    def on_end(self, event: event.Event) -> None:
        pass


@contextmanager
def announced(message: str, key: Hashable | None = None) -> Iterator[None]:
    """Within this block, say ``message`` before numba starts compiling, if it does.

    Parameters
    ----------
    message : str
        What is compiled and why, e.g. ``"compiling the Gris kernel (first run only)"``.
    key : hashable, optional
        The message is said at most once per process for each key (default: the
        message itself), so the several dispatchers behind one kernel give one line.

    Yields
    ------
    None
    """
    key = message if key is None else key
    if key in _SAID:
        yield
        return
    with event.install_listener("numba:compile", _OnFirstCompile(message, key)):
        yield


def game_title(game: Game) -> str:
    """The game's name as people write it: ``"Spøkelse"``, ``"Gris-nese"``."""
    return game.title.split(":")[0].split(" (")[0].strip()


def kernel_message(game: Game, players: Sequence[Player], builtin: bool) -> str:
    """What compiling the kernel for ``players`` means, in one line.

    Parameters
    ----------
    game : Game
        The game whose kernel is compiled.
    players : sequence of Player
        The players of the run (one per seat).
    builtin : bool
        True for the cached kernel of the shipped strategies; False for a kernel
        compiled around strategies from outside the package (kept in the on-disk
        cache when their source files can be fingerprinted, else for this process).

    Returns
    -------
    str
    """
    title = game_title(game)
    if builtin:
        return f"compiling the {title} kernel (first run only; `kortsim warm` does this ahead)"
    own = []
    for p in players:
        f = p.family
        if f.builtin_id is None and f not in own:  # users' and on-demand ones
            own.append(f)
    names = ", ".join(f.name if f.on_demand else f"{f.name} from {Path(f.origin).name}" for f in own)
    if all(f.on_demand for f in own):  # shipped, compiled for the runs that play it
        word = "strategy" if len(own) == 1 else "strategies"
        return (
            f"compiling the shipped {word} {names} with the {title} kernel (first run only; about a minute)"
        )
    plugin = any(not set(_PACKAGES) & set(Path(f.origin).resolve().parents) for f in own)
    from simulator.kernels.specialise import cacheable

    if cacheable([f.decide for f in own]):  # kept in the on-disk cache (simulator/kernels/specialise.py)
        file = "file" if len({f.origin for f in own}) == 1 else "files"
        why = f"first run of this version of the {file} only"
    else:
        why = "every run with a plugin" if plugin else "every run that uses it"
    word = "strategy" if len(own) == 1 else "strategies"
    return f"compiling {word} {names} with the {title} kernel ({why})"


def trace_message(game: Game, players: Sequence[Player]) -> str:
    """What compiling the strategies of a trace means, in one line."""
    names = ", ".join(dict.fromkeys(p.family.name for p in players))
    user = any(p.family.user for p in players)
    why = "every run with a plugin" if user else "first run only"
    return f"compiling {names} for the {game_title(game)} trace ({why})"
