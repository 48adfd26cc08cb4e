"""The errors kortsim raises for what a user gave it; importable from every layer.

Each message is one clear line for the user.  The command line prints it and exits with a
non-zero code; the Python API raises it.  Nothing here imports anything of kortsim.
"""

from __future__ import annotations


class InputError(ValueError):
    """Input that cannot be used; its message is one clear line for the user."""


class SpecError(ValueError):
    """A strategy spec or plugin that cannot be used; the message is one clear line."""


class IllegalMove(ValueError):
    """A strategy answered with an action the rules do not allow, in a readable reference
    game; its message is one line naming the strategy, the seat and the decision."""


class StrategyError(RuntimeError):
    """A strategy broke the rules (an illegal action); the message names it."""


__all__ = ["IllegalMove", "InputError", "SpecError", "StrategyError"]
