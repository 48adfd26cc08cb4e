"""How wide the output of ``kortsim`` is: the reader's terminal, or what was asked.

The width is decided each time something is printed, in this order:

1. ``kortsim --width N COMMAND ...`` (the root option), for this command;
2. the ``COLUMNS`` environment variable (``COLUMNS=80 kortsim ...``), as rich reads it;
3. the terminal's own width, when the output goes to a terminal;
4. :data:`WIDE` columns otherwise (a pipe or a file), the layout scripts read.

In the first three cases the output is *fitted*: tables wrap their long cells and text
wraps between words, so that no line is wider than the width.  Output that is not fitted
keeps every text line whole, as it always was.
"""

from __future__ import annotations

import os
from typing import IO, Any

from rich.console import Console, ConsoleDimensions

#: the width of output that goes to no terminal and asked for none
WIDE = 140
#: the narrowest width ``--width`` takes (the tables are laid out for 80 columns and more)
NARROWEST = 40

_asked: dict[str, int | None] = {"width": None}


def ask_width(width: int | None) -> None:
    """Print at ``width`` columns from now on (None: decide as the module says)."""
    _asked["width"] = width


def width_for(file: IO[str] | Any) -> tuple[int, bool]:
    """The width to print ``file`` at, and whether it is fitted to a reader (see the module)."""
    if _asked["width"] is not None:
        return _asked["width"], True
    columns = os.environ.get("COLUMNS", "")
    if columns.isdigit() and int(columns) > 0:
        return int(columns), True
    try:
        if file.isatty():
            return os.get_terminal_size(file.fileno()).columns or 80, True
    except (AttributeError, ValueError, OSError):  # a stream without a terminal behind it
        pass
    return WIDE, False


class FittedConsole(Console):
    """A rich console whose width is :func:`width_for` its stream at each print.

    Text wraps between words when the output is fitted (``soft_wrap`` off), and is kept
    whole otherwise; a ``soft_wrap`` given to :meth:`print` wins."""

    @property
    def size(self) -> ConsoleDimensions:
        width, _ = width_for(self.file)
        return ConsoleDimensions(width, super().size.height)

    @size.setter
    def size(self, new_size: tuple[int, int]) -> None:
        Console.size.fset(self, new_size)  # type: ignore[attr-defined]

    @property
    def fitted(self) -> bool:
        """Whether the output is fitted to a reader's width (a terminal, or asked for)."""
        return width_for(self.file)[1]

    def print(self, *objects: Any, soft_wrap: bool | None = None, **options: Any) -> None:
        if soft_wrap is None:
            soft_wrap = not self.fitted
        super().print(*objects, soft_wrap=soft_wrap, **options)


__all__ = ["NARROWEST", "WIDE", "FittedConsole", "ask_width", "width_for"]
