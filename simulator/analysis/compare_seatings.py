"""Who sits where in a comparison: the design of seatings played on every deal, the field
player, the baseline, and each candidate's own reaction profile carried to its seat."""

from __future__ import annotations

import warnings
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import Any

import numpy as np

from simulator.engine.arguments import conforms, refuse
from simulator.engine.reaction_file import parse_profile
from simulator.errors import InputError
from simulator.games.base import Game, Table
from strategies.registry import Player, parse_spec

FIELD = -1  # a seat taken by the field player in a seating


@dataclass(frozen=True)
class Design:
    """The seatings played on every deal: ``seatings[s, seat]`` = candidate index or FIELD."""

    seatings: np.ndarray
    description: str


def make_design(n_seats: int, n_candidates: int, has_field: bool) -> Design:
    k = n_candidates
    rows: list[list[int]] = []
    if n_seats == 2 and has_field:
        for c in range(k):
            rows += [[c, FIELD], [FIELD, c]]
        text = "each candidate plays the field on every deal, once in each seat"
    elif n_seats == 2:
        if k < 2:
            raise InputError("compare needs two strategies, or one and a --field to play against")
        for i, j in combinations(range(k), 2):
            rows += [[i, j], [j, i]]
        text = "every pair of candidates plays every deal twice, seats swapped"
    elif k == n_seats and not has_field:
        for r in range(n_seats):
            rows.append([(seat + r) % n_seats for seat in range(n_seats)])
        text = f"all {k} candidates at the table, rotated through every seat on every deal"
    else:
        for c in range(k):
            for seat in range(n_seats):
                row = [FIELD] * n_seats
                row[seat] = c
                rows.append(row)
        text = "each candidate in one seat against the field, rotated through every seat on every deal"
    return Design(np.array(rows, dtype=np.int64), text)


def _field_keyword(field: str | Player | None, field_strategy: str | Player | None) -> str | Player | None:
    """``field=``, or its deprecated old name ``field_strategy=`` (with a warning)."""
    if field_strategy is None:
        return field
    warnings.warn(
        "compare(field_strategy=...) is deprecated; use field=... (the CLI's --field)",
        DeprecationWarning,
        stacklevel=3,
    )
    if field is not None and field != field_strategy:
        raise InputError("give field= only (field_strategy= is its old name), not both")
    return field_strategy


def _field_player(g: Game, table: Table, fld: str | Player | None, k: int) -> Player | None:
    """The player filling the other seats: the one given, else the game's
    ``default_opponent`` (unless the candidates fill the table), else None."""
    if fld is None and g.default_opponent is not None and k != table.n_seats:
        fld = g.default_opponent
    if fld is None:
        return None
    player = parse_spec(fld, g.name) if isinstance(fld, str) else fld
    if player.family.game != g.name:
        raise InputError(f"field strategy {player.spec!r} is for {player.family.game}, not {g.name}")
    return player


def _baseline_index(g: Game, baseline: str | Player | None, specs: list[str]) -> int:
    """The index of the baseline among the candidates' names (default: the first)."""
    if baseline is None:
        return 0
    if isinstance(baseline, str) and baseline in specs:
        bspec = baseline
    else:
        bspec = parse_spec(baseline, g.name).spec if isinstance(baseline, str) else baseline.spec
    if bspec in specs:
        return specs.index(bspec)
    copies = [i for i, name in enumerate(specs) if unnumbered(name) == bspec]
    if not copies:
        raise InputError(f"the baseline {bspec!r} must be one of the compared strategies")
    return copies[0]  # a strategy given more than once: its first copy (or name one: "spec #2")


def candidate_profiles(
    g: Game, table: Table, reactions: Sequence[Any] | None, k: int
) -> list[tuple[float, float] | None]:
    """Each candidate's own reaction profile, or None where it keeps the seat's."""
    if reactions is None:
        return [None] * k
    if not g.uses_reaction:
        raise InputError(f"{g.name} has no reaction model; reactions are for the Gris games")
    if isinstance(reactions, str | Mapping) or not isinstance(reactions, Sequence):
        raise refuse("reactions", "a list with a reaction profile (or None) per strategy", reactions)
    if len(reactions) != k:
        raise InputError(f"{len(reactions)} reaction profiles for {k} strategies: give one for each")
    out: list[tuple[float, float] | None] = []
    for r in reactions:
        if r is None:
            out.append(None)
        elif isinstance(r, str):
            out.append(parse_profile(r))
        elif conforms(r, tuple[float, float]):
            out.append(parse_profile(f"{float(r[0])},{float(r[1])}"))
        else:
            raise refuse("reactions", "profiles 'MEDIAN[,SIGMA]', pairs (median, sigma) or None", r)
    return out


def label(spec: str, profile: tuple[float, float] | None) -> str:
    """A candidate's name in tables: its spec, and its reaction median when it has its own."""
    return spec if profile is None else f"{spec} @{profile[0]:g}s"


# A strategy compared more than once (an A/A comparison) is told apart by its position among
# its copies: ``threshold:k=4 #1``, ``threshold:k=4 #2``.
COPY_MARK = " #"


def position_labels(names: Sequence[str]) -> list[str]:
    """The candidates' names, each one that repeats numbered by its position among its copies
    (``["a", "a", "b"]`` gives ``["a #1", "a #2", "b"]``); names that do not repeat are kept."""
    counts = {n: names.count(n) for n in names}
    seen: dict[str, int] = {}
    out = []
    for n in names:
        if counts[n] == 1:
            out.append(n)
            continue
        seen[n] = seen.get(n, 0) + 1
        out.append(f"{n}{COPY_MARK}{seen[n]}")
    return out


def copy_salts(names: Sequence[str]) -> list[int]:
    """Each candidate's position among the candidates of its name, from 0: the copy salt
    that gives each later copy of a repeated strategy decision streams of its own
    (``["a", "a", "b", "a"]`` gives ``[0, 1, 0, 2]``; docs/random-streams.md)."""
    seen: dict[str, int] = {}
    out = []
    for n in names:
        out.append(seen.get(n, 0))
        seen[n] = out[-1] + 1
    return out


def unnumbered(name: str) -> str:
    """A candidate's name without its copy number: ``threshold:k=4 #2`` gives ``threshold:k=4``."""
    head, mark, tail = name.rpartition(COPY_MARK)
    return head if mark and tail.isdigit() else name


def copies_of_one(a: str, b: str) -> bool:
    """True when two candidates' names are copies of one strategy (an A/A pair)."""
    return a != b and unnumbered(a) == unnumbered(b) and unnumbered(a) != a


def seating_table(
    g: Game, table: Table, row: np.ndarray, profiles: Sequence[tuple[float, float] | None]
) -> Table:
    """The table of one seating: a candidate with its own reaction profile brings it to its seat."""
    if all(p is None for p in profiles):
        return table
    seat_prof = list(table.reaction)
    for seat, c in enumerate(row):
        if c != FIELD and profiles[c] is not None:
            seat_prof[seat] = profiles[c]
    return Table(g, table.rules, table.n_seats, tuple(seat_prof))
