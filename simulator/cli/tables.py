"""Tables that fit the width they are printed at (:mod:`simulator.cli.width`).

A table is first laid out as it reads best, every figure with its interval on one line;
when that is wider than the console, the interval goes under its value
(:func:`stacked`) and long names wrap inside their cells; when even that is too wide, the
figure columns are shared out over several tables with the same leading columns
(:func:`fitted_tables`).  Figures never wrap inside a number: their columns are
``no_wrap`` and the words around them wrap instead.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, TypeVar

if TYPE_CHECKING:
    from rich.console import Console
    from rich.table import Table

K = TypeVar("K")

#: wider than any terminal: a table's natural width is measured against it
_UNBOUNDED = 100_000


def natural_width(console: Console, table: Table) -> int:
    """How wide ``table`` is when nothing in it wraps (borders and padding included)."""
    from rich.measure import Measurement

    return Measurement.get(console, console.options.update_width(_UNBOUNDED), table).maximum


def fits(console: Console, table: Table) -> bool:
    """Whether ``table`` is printed at ``console``'s width without wrapping a cell."""
    return natural_width(console, table) <= console.width


def stacked(text: str) -> str:
    """A figure with its interval as two lines, the interval under the value:
    ``6.34 [6.30, 6.38]`` becomes ``6.34`` over ``[6.30, 6.38]``; other text is kept."""
    head, sep, rest = text.partition(" [")
    return f"{head}\n[{rest}" if sep else text


def name_width(console: Console) -> int:
    """The widest a column of names (strategy specs) is made when a table must narrow:
    a third of the width, so that the figures keep the rest."""
    return max(16, console.width // 3)


def fitted_table(console: Console, build: Callable[[bool], Table]) -> Table:
    """``build(False)`` (every figure on one line) when it fits, else ``build(True)`` (the
    narrow layout: intervals under their values, names wrapped)."""
    wide = build(False)
    return wide if fits(console, wide) else build(True)


def fitted_tables(
    console: Console, build: Callable[[Sequence[K], bool], Table], keys: Sequence[K]
) -> list[Table]:
    """One table of every column in ``keys`` if it fits (:func:`fitted_table`); else the
    narrow layout with ``keys`` shared out, in order, over as few tables as fit.

    ``build(keys, narrow)`` makes a table of the leading columns and those of ``keys``."""
    keys = list(keys)
    whole = fitted_table(console, lambda narrow: build(keys, narrow))
    if fits(console, whole) or len(keys) < 2:
        return [whole]
    groups: list[list[K]] = []
    for k in keys:
        if groups and fits(console, build([*groups[-1], k], True)):
            groups[-1].append(k)
        else:
            groups.append([k])
    return [build(g, True) for g in groups]


def print_tables(console: Console, parts: Sequence[Table], title: str = "", caption: str = "") -> None:
    """Print ``parts`` with ``title`` above the first and ``caption`` below the last: inside
    the table when it is as wide as their lines (as rich lays them out), else as text lines of
    their own, which wrap at the console's width rather than the table's."""
    from rich.cells import cell_len

    def inside(text: str, table: Table) -> bool:
        return max((cell_len(line) for line in text.splitlines()), default=0) <= natural_width(console, table)

    if title and inside(title, parts[0]):
        parts[0].title, parts[0].title_justify = title, "left"
    elif title:
        console.print(title, markup=False)
    if caption and inside(caption, parts[-1]):
        parts[-1].caption, parts[-1].caption_justify = caption, "left"
    for t in parts:
        console.print(t)
    if caption and not parts[-1].caption:
        console.print(caption, markup=False)


def print_points(console: Console, lines: Sequence[str], mark: str = "•") -> None:
    """``lines`` as a list, each after ``mark``: when the output is fitted to a reader's
    width a line wraps under its own first word; otherwise each stays one line."""
    if not getattr(console, "fitted", True):
        for line in lines:
            console.print(f"{mark} {line}", markup=False)
        return
    from rich.table import Table

    grid = Table.grid(padding=(0, 1, 0, 0))
    grid.add_column(no_wrap=True)
    grid.add_column(overflow="fold")
    for line in lines:
        grid.add_row(mark, line)
    console.print(grid)


def print_indented(console: Console, text: str, indent: int = 4) -> None:
    """``text`` as a paragraph ``indent`` spaces in: when the output is fitted to a reader's
    width every wrapped line keeps the indent; otherwise it is one line, as it always was."""
    if not getattr(console, "fitted", True):
        console.print(" " * indent + text, markup=False)
        return
    from rich.padding import Padding
    from rich.text import Text

    console.print(Padding(Text(text), (0, 0, 0, indent), expand=False))


__all__ = [
    "fits",
    "fitted_table",
    "fitted_tables",
    "name_width",
    "natural_width",
    "print_points",
    "print_tables",
    "stacked",
]
