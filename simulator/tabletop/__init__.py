"""Play against the bots at the table: ``kortsim play`` and :func:`play`.

A match of Spøkelse, Gris or Gris-nese with you in seat 0 and the shipped strategies in
the other seats, played by each game's readable reference with the engine's random
streams (the same seed, the same deals; the bots play as in ``simulate``):

* :mod:`~simulator.tabletop.console`: the terminal (and a scripted stand-in for tests);
* :mod:`~simulator.tabletop.session`: one sitting, from the checked input to the advice
  and the reaction times;
* :mod:`~simulator.tabletop.outcome`: what a sitting produces;
* :mod:`~simulator.tabletop.passing`: what the games where cards are passed share (the
  card prompt, the advisor in your seat, the timed signal).

Each game plays at the table in its own folder, ``simulator/games/<game>/tabletop.py``
(named by ``Game.tabletop_module``), over its readable reference.

Imports: the console, outcome and passing modules use only ``simulator.errors``,
``simulator.engine`` and the strategy registry (the games' table modules are written over
them); the session (loaded on first use of :func:`play`) uses ``simulator.running`` too.
"""

from __future__ import annotations

from typing import Any

from simulator.tabletop.console import Left, Scripted, Terminal
from simulator.tabletop.outcome import Outcome, Reactions


def __getattr__(name: str) -> Any:
    if name == "play":  # the session runs games: loaded when it is asked for, not with the console
        from simulator.tabletop.session import play

        return play
    raise AttributeError(f"module 'simulator.tabletop' has no attribute {name!r}")


__all__ = ["Left", "Outcome", "Reactions", "Scripted", "Terminal", "play"]
