"""What a trace states before its first move, and how long it may grow.

A trace (``kortsim trace``, :func:`simulator.trace`) opens with a header that says
which game of which run it shows, at what table, under which rule variants and
with which strategy in each seat, so a trace read on its own can be repeated.

A trace can be long: a stalled Gris round is 10,000 pass lines and an abandoned
match a hundred such rounds (more than a million lines).  :func:`cap_lines` keeps
the beginning and the end of the moves and says, in one line in between, how many
lines were left out.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import fields

from simulator.engine.arguments import as_whole
from simulator.games.base import Table
from strategies.registry import format_value

DEFAULT_MAX_LINES = 2000  # lines of moves a trace prints unless told otherwise (0: no cap)
MIN_MAX_LINES = 10  # a smaller cap could not show both the start and the end
MAX_MAX_LINES = 10**7  # about a gigabyte of text; 0 (no cap) is the way to ask for everything
TAIL_LINES = 40  # of a capped trace, how many of its last lines (the end of the game) are kept


def check_max_lines(max_lines: object) -> int:
    """``max_lines`` as an int: 0 (no cap) or :data:`MIN_MAX_LINES` to :data:`MAX_MAX_LINES`."""
    whole = as_whole(max_lines)
    if whole is None:
        raise ValueError(f"--max-lines takes a whole number, not {max_lines!r}")
    max_lines = whole
    if max_lines != 0 and max_lines < MIN_MAX_LINES:
        raise ValueError(f"--max-lines {max_lines}: give 0 (no cap) or at least {MIN_MAX_LINES} lines")
    if max_lines > MAX_MAX_LINES:
        raise ValueError(
            f"--max-lines {max_lines}: at most {MAX_MAX_LINES:,} (10**7) lines; 0 prints every line"
        )
    return max_lines


def _value(v: object) -> str:
    return format_value(v) if isinstance(v, int | float) and not isinstance(v, bool) else str(v)


def rules_line(table: Table) -> str:
    """The rule variants in force, each marked as the default or not."""
    defaults = table.game.rules_type()
    parts = []
    for f in fields(table.rules):
        v = getattr(table.rules, f.name)
        mark = "default" if v == getattr(defaults, f.name) else "not the default"
        parts.append(f"{f.name}={_value(v)} ({mark})")
    return ", ".join(parts) if parts else "no variants"


def reaction_line(profiles: Sequence[tuple[float, float]]) -> str:
    """The seats' reaction profiles (median seconds, shape sigma): the most common one for
    every seat, then the seats that differ from it."""
    common = Counter(profiles).most_common(1)[0][0]
    m, s = common
    text = f"every seat median {m:g} s, sigma {s:g}"
    others = [
        f"seat {i} median {pm:g} s, sigma {ps:g}" for i, (pm, ps) in enumerate(profiles) if (pm, ps) != common
    ]
    return text + (" except " + "; ".join(others) if others else "")


def header(table: Table, players: Sequence, seed: int, game_index: int, unit: str) -> list[str]:
    """The lines a trace opens with: the run, the table, the rules and the seats."""
    g = table.game
    what = "round" if unit == "round" else "match"
    lines = [
        f"Trace of {g.name}, {what} {game_index} of the run with seed {seed} "
        f"({'single rounds' if unit == 'round' else 'whole matches'}; --game {game_index})",
        f"  table: {table.n_seats} players; rules: {rules_line(table)}",
    ]
    if table.reaction:
        lines.append(f"  reaction times (log-normal): {reaction_line(table.reaction)}")
    specs = [getattr(p, "spec", None) or getattr(p, "name", str(p)) for p in players]
    lines.append("  seats: " + ", ".join(f"seat {i} {s}" for i, s in enumerate(specs)))
    return lines


def cap_lines(text: str, max_lines: int) -> str:
    """``text`` with at most ``max_lines`` lines (0: all): its first lines, one line saying
    how many were left out, and its last :data:`TAIL_LINES` lines (the end of the game)."""
    lines = text.split("\n")
    if max_lines == 0 or len(lines) <= max_lines:
        return text
    tail = min(TAIL_LINES, max_lines // 4)
    head = max_lines - tail - 1  # the note takes one line of the allowance
    left_out = len(lines) - head - tail
    note = (
        f"[... {left_out:,} of {len(lines):,} lines left out here (--max-lines {max_lines}; "
        "--max-lines 0 prints them all) ...]"
    )
    return "\n".join([*lines[:head], note, *lines[len(lines) - tail :]])
