"""``simulator.profile``: a designer's page for a game and its variants (docs/profile.md).

::

    p = simulator.profile("spokelse", compare_rule="jack=0.5,11", seed=7)
    p.headlines          # plain-words findings, each with its 95% interval
    p.summary            # the JSON document (``kortsim profile --json``)
    p.frames["roles"]    # pandas tables, one per section
    p.write("runs/profile")  # Parquet tables, figures, report.html
"""

from __future__ import annotations

import platform
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pandas as pd

from simulator.analysis.profiling import core, headlines
from simulator.analysis.profiling.core import Page
from simulator.analysis.profiling.variants import differences
from simulator.engine.arguments import callback
from simulator.errors import InputError
from simulator.games.base import Game
from simulator.reporting.pages import Headline
from simulator.running.results import SCHEMA_VERSION, dumps_json, package_version, plain
from simulator.running.results import provenance as make_provenance
from simulator.running.setup import SeedLike, Setup
from strategies.registry import parse_spec


@dataclass(repr=False, eq=False)
class Profile:
    """A profile: one :class:`Page` per variant and table size, their paired differences,
    and the headlines.  ``summary`` is JSON-ready; ``frames`` are its tables."""

    summary: dict[str, Any]
    pages: list[Page] = field(default_factory=list)
    headlines: list[Headline] = field(default_factory=list)

    @property
    def frames(self) -> dict[str, pd.DataFrame]:
        from simulator.analysis.profiling.tables import frames

        return frames(self)

    def to_json(self, indent: int | None = 2) -> str:
        return dumps_json(self.summary, indent=indent)

    def write(self, out_dir: str | Path) -> dict[str, Path]:
        """Write the results folder: Parquet tables, figures (PNG and SVG), report.html."""
        from simulator.analysis.profiling.page import write

        return write(self, out_dir)

    def __repr__(self) -> str:
        lines = [f"profile of {self.summary['game']}: {len(self.pages)} page(s), seed {self.summary['seed']}"]
        lines += [f"- {h.answer}" for h in self.headlines]
        return "\n".join(lines)


def profile(
    game: str | Game,
    strategies: Sequence[str] | str | None = None,
    *,
    players: int | str | Sequence[int] | None = None,
    rules: Mapping[str, Any] | Sequence[Any] | None = None,
    compare_rule: str | None = None,
    rounds: int | None = None,
    matches: int | None = None,
    seed: SeedLike | None = None,
    threads: int | None = None,
    progress: Callable[[str], None] | None = None,
    backend: str = "local",
    scheduler: str | None = None,
    workers: int | None = None,
) -> Profile:
    """A designer's profile of ``game``: length, seat advantage, skill, matches, irregular
    rounds, per variant and table size, every figure with a 95% interval.

    Parameters
    ----------
    game : str or Game
        A game id (``kortsim games``) or a :class:`Game`.
    strategies : str or sequence of str, optional
        The table's strategies: one for every seat or one per seat (default: the game's best
        shipped strategy in every seat).  Skill is measured with the game's own ladder
        (``random``, the canonical baseline, the best), whatever is given here.
    players : int, str or sequence of int, optional
        Table sizes: ``5``, ``"3..8"``, ``"3,5"`` (default: the game's).
    rules : mapping or sequence, optional
        Rule variants, as for :func:`simulator.simulate`.
    compare_rule : str, optional
        ``"NAME=A,B"``: a page per value, side by side, with paired differences on the same deals.
    rounds, matches : int, optional
        Rounds and matches per page (defaults ``core.ROUNDS``, ``core.MATCHES``).
    seed : int or numpy.random.SeedSequence, optional
        The seed of every run (drawn and recorded when None).
    threads : int, optional
        Threads for the kernels.
    progress : callable, optional
        Called with a line before each stage.
    backend, scheduler, workers : optional
        Where the runs play, as for :func:`simulator.simulate` (``backend="dask"`` with a
        scheduler address or a LocalCluster of ``workers``); the figures are the same wherever
        they play.  The matches followed round by round play on this machine.

    Returns
    -------
    Profile

    Raises
    ------
    InputError
        For bad input (a wrong type, a value out of range), in one line naming the argument,
        before anything is played.
    """
    callback(progress, "progress")
    where = {"backend": backend, "scheduler": scheduler, "workers": workers}
    plan = core.make_plan(game, strategies, rounds, matches, seed, threads, where)
    g = plan.game
    sizes = core.parse_players(players, g)
    for n in sizes:
        g.table(None, n)  # a table size the game cannot seat: one line, before playing
        if len(plan.strategies) not in (1, n):
            raise InputError(
                f"give one strategy for every seat or one per seat ({n} seats), not {len(plan.strategies)}"
            )
    sets = core.variants(g, rules, compare_rule)
    for n in sizes:  # the strategies, checked as simulate checks them, before anything is played
        Setup.build(g, list(plan.strategies), rounds=2, seed=plan.seed, rules=sets[0], players=n)
    compared = core.parse_compare_rule(compare_rule)
    say = progress or (lambda _line: None)
    pages, diffs = [], []
    for n in sizes:
        row = []
        for rs in sets:
            label = core.label_of(rs, compared[0] if compared else None, n, len(sizes))
            row.append(core.play_page(plan, rs, n, label, say))
        pages += row
        diffs += [differences(p, row[0], plan.seed) for p in row[1:]]
    return _assemble(plan, pages, diffs, compared[0] if compared else None)


def _assemble(plan: core.Plan, pages: list[Page], diffs: list[dict], compared: str | None) -> Profile:
    g = plan.game
    many = len(pages) > 1
    title = g.title.split(":")[0].split(" (")[0]
    heads: list[Headline] = []
    for p in pages:
        heads += headlines.role_lines(p, title, many)
    for p in pages:
        heads += headlines.skill_lines(p, title, many)[-1:]
    heads += headlines.skill_lines(pages[0], title, many)[:-1]
    for p in pages:
        heads += headlines.memory_lines(p, title, many)
    heads += headlines.length_lines(pages[0], title, many)
    heads += headlines.match_lines(pages[0], title, many)
    heads += headlines.irregular_lines(pages[0], title, many)
    for d in diffs:
        heads += headlines.variant_lines(d, compared)
    summary = {
        "schema_version": SCHEMA_VERSION,
        "kortsim": package_version(),
        "game": g.name,
        "seed": plan.seed,
        "rounds": plan.rounds,
        "matches": plan.matches,
        "strategies": list(plan.strategies),
        "ladder": list(plan.ladder),
        "field": plan.baseline,
        "compared_rule": compared,
        "headlines": [h.answer for h in heads],
        "pages": [{"label": p.label, "rules": p.rules, "players": p.n_seats, **p.figures} for p in pages],
        "differences": diffs,
        "kind": "profile",
        "provenance": _provenance(plan),
    }
    return Profile(plain(summary), pages, heads)


def _provenance(plan: core.Plan) -> dict[str, Any]:
    """Versions and the strategies' source hashes (each page's rules are in ``pages``)."""
    specs = dict.fromkeys([*plan.strategies, *plan.ladder, plan.baseline])
    players = [parse_spec(s, plan.game.name) for s in specs]
    return make_provenance(plan.seed, {}, players, {"kind": "profile", "machine": platform.machine()})


__all__ = ["Page", "Profile", "profile"]
