"""``simulator.profile``: a designer's page for a game, one per variant and table size.

Every page is played on the same seed, so two variants at one table size meet the same
deals (game indices) and are compared game by game (:mod:`simulator.analysis.profiling.variants`).
What is played for one page:

* ``rounds`` rounds and ``matches`` matches with the table's strategies, with per-game
  records: length, seat roles, rounds that did not finish normally (:mod:`.measures`);
* the skill ladder: ``random``, the game's baseline and its best strategy, each in every
  seat in turn against the baseline, on ``rounds // seats`` (at least ``MIN_SKILL``) of the
  same deals (:mod:`.skill`);
* what memory and care are worth: the best strategy with ``forget`` on a grid and with
  ``slip``, in every seat in turn against itself, on the same deals (:mod:`.memory`);
* the first ``min(matches, STANDINGS_MATCHES)`` matches again, round by round, by the
  reference (:mod:`.matches`).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from simulator.analysis.profiling import matches as match_figures
from simulator.analysis.profiling import measures, memory, skill
from simulator.analysis.profiling.measures import Records
from simulator.api import simulate
from simulator.errors import InputError
from simulator.games.base import Game, Table, rule_items
from simulator.running.records import MAX_RECORDS_IN_MEMORY
from simulator.running.setup import Setup, resolve_game, resolve_seed

ROUNDS = 100_000
MATCHES = 10_000
STANDINGS_MATCHES = 300
MIN_SKILL = 2_000


@dataclass
class Page:
    """One table's profile: the figures (JSON-ready) and the per-game values behind them."""

    label: str
    rules: dict[str, Any]
    n_seats: int
    seats_vary: bool = False  # the game is played at several table sizes
    figures: dict[str, Any] = field(default_factory=dict)
    per_game: dict[str, np.ndarray] = field(default_factory=dict)


@dataclass(frozen=True)
class Plan:
    """What one profile plays: the game, the strategies, the sizes and the seed."""

    game: Game
    strategies: tuple[str, ...]
    rounds: int
    matches: int
    seed: int
    threads: int | None
    ladder: tuple[str, ...]
    baseline: str
    #: where the runs play: ``{"backend": "local" | "dask", "scheduler": ..., "workers": ...}``
    #: (as for :func:`simulator.simulate`; every result is the same wherever it plays)
    where: tuple[tuple[str, Any], ...] = ()

    def skill_rounds(self, n_seats: int) -> int:
        return min(self.rounds, max(MIN_SKILL, self.rounds // n_seats))


def parse_players(players: int | str | Sequence[int] | None, game: Game) -> list[int]:
    """Table sizes: a number, ``"3..8"``, ``"3,5"`` or a list (default: the game's)."""
    if players is None:
        return [game.default_seats]
    if isinstance(players, int) and not isinstance(players, bool):
        return [players]
    if isinstance(players, str):
        text = players.strip()
        m = re.fullmatch(r"(\d+)\s*\.\.\s*(\d+)", text)
        if m:
            lo, hi = int(m.group(1)), int(m.group(2))
            if lo > hi:
                raise InputError(f"--players {text}: the range runs from low to high (e.g. 3..8)")
            return list(range(lo, hi + 1))
        try:
            sizes = [int(p) for p in text.split(",")]
        except ValueError:
            raise InputError(f"--players takes a number, a range A..B or a list A,B, got {text!r}") from None
        return _distinct(sizes)
    sizes = list(players) if isinstance(players, Sequence) else [players]
    if any(isinstance(p, bool) or not isinstance(p, int | np.integer) for p in sizes):
        raise InputError(f"--players takes whole numbers of seats, got {players!r}")
    return _distinct([int(p) for p in sizes])


def _distinct(sizes: list[int]) -> list[int]:
    """``sizes`` unless it is empty or names a table size twice."""
    if not sizes:
        raise InputError("--players: give at least one table size")
    if len(set(sizes)) != len(sizes):
        raise InputError(f"--players {','.join(map(str, sizes))}: a table size is given twice")
    return sizes


def parse_compare_rule(text: str | None) -> tuple[str, list[str]] | None:
    """``"NAME=A,B"``: the rule and its values (two or more)."""
    if text is None:
        return None
    key, eq, values = str(text).partition("=")
    vals = [v.strip() for v in values.split(",")]
    if not eq or not key.strip() or len([v for v in vals if v]) < 2:
        raise InputError(f"--compare-rule takes NAME=A,B (two values or more), got {text!r}")
    if "" in vals:
        raise InputError(f"--compare-rule {key.strip()}: an empty value in {values!r} (values are A,B,...)")
    if len(set(vals)) != len(vals):
        raise InputError(f"--compare-rule {key.strip()}: a value is given twice")
    return key.strip(), vals


def variants(
    game: Game, rules: Mapping[str, Any] | Sequence[Any] | None, compare_rule: str | None
) -> list[dict[str, str]]:
    """The rule sets profiled: ``rules``, once per value of ``compare_rule`` (checked here)."""
    if isinstance(rules, str):  # one NAME=VALUE
        rules = [rules]
    if rules is not None and not isinstance(rules, Mapping | list | tuple):
        raise InputError(f"rules are a mapping {{NAME: VALUE}} or NAME=VALUE strings, not {rules!r}")
    base = (
        rule_items(rules)
        if isinstance(rules, list | tuple)
        else {k: str(v) for k, v in (rules or {}).items()}
    )
    cr = parse_compare_rule(compare_rule)
    sets = [base] if cr is None else [{**base, cr[0]: v} for v in cr[1]]
    if cr is not None and cr[0] in base:
        raise InputError(f"rule {cr[0]} is given both as --rule and as --compare-rule")
    parsed = [game.parse_rules(s) for s in sets]  # a bad rule or value: one line, before playing
    if cr is not None:
        for i, rs in enumerate(parsed):
            if rs in parsed[:i]:
                first = cr[1][parsed.index(rs)]
                raise InputError(f"--compare-rule {cr[0]}: {cr[1][i]} is the same rule as {first}")
    return sets


def label_of(rules: Mapping[str, str], compared: str | None, n_seats: int, sizes: int) -> str:
    """A page's name: the compared rule's value and, when several table sizes are profiled,
    the seats."""
    parts = [f"{compared}={rules[compared]}"] if compared else []
    if sizes > 1:
        parts.append(f"{n_seats} players")
    return ", ".join(parts) or "as played"


def _records(plan: Plan, table: Table, specs: Sequence[str], unit: str, n: int) -> Records:
    kw = {"rounds": n} if unit == "round" else {"matches": n}
    result = simulate(
        plan.game, list(specs), seed=plan.seed, rules=table.rules, players=table.n_seats,
        threads=plan.threads, records=True, **dict(plan.where), **kw,
    )  # fmt: skip
    return Records.of(plan.game, unit, table.n_seats, result.records())


def play_page(
    plan: Plan, rules: dict[str, str], n_seats: int, label: str, say: Callable[[str], None]
) -> Page:
    """Everything one table's page shows (see the module's docstring)."""
    g = plan.game
    table = g.table(rules, n_seats)
    specs = plan.strategies if len(plan.strategies) == n_seats else plan.strategies[:1] * n_seats
    page = Page(label, table.rules_dict(), n_seats, seats_vary=g.min_seats != g.max_seats)
    for unit, n in (("round", plan.rounds), ("match", plan.matches)):
        say(f"{label}: {n:,} {'rounds' if unit == 'round' else 'matches'}")
        rec = _records(plan, table, specs, unit, n)
        for name, fn in (("length", measures.length), ("seats", measures.seats),
                         ("roles", measures.roles), ("irregular", measures.irregular)):  # fmt: skip
            m = fn(rec)
            page.figures.setdefault(unit, {})[name] = m.figures
            page.per_game.update({f"{unit}:{k}": v for k, v in m.per_game.items()})
    n_skill = plan.skill_rounds(n_seats)
    say(f"{label}: skill, {len(plan.ladder)} strategies x {n_seats} seats x {n_skill:,} rounds")
    y, counted = skill.ladder_table(
        lambda s: _records(plan, table, s, "round", n_skill), plan.ladder, plan.baseline, n_seats
    )
    page.figures["skill"], _ = skill.skill(g, "round", y, counted, plan.ladder, plan.seed)
    page.figures["skill"]["rounds"] = n_skill
    page.per_game["skill:primary"] = np.where(counted[:, None], y[g.metrics("round")[0].name], np.nan)
    say(f"{label}: memory and care ({g.best_strategy} forgetting and slipping)")
    page.figures["memory"] = memory.memory(
        g, lambda s: _records(plan, table, s, "round", n_skill), g.best_strategy, n_seats, n_skill
    )
    n_st = min(plan.matches, STANDINGS_MATCHES)
    say(f"{label}: {n_st:,} matches round by round")
    players = Setup.build(
        g, list(specs), matches=1, seed=plan.seed, rules=table.rules, players=n_seats
    ).players
    dyn, per_match = match_figures.dynamics(table, list(players), plan.seed, n_st)
    page.figures["matches"] = dyn
    page.per_game.update({f"dyn:{k}": v for k, v in per_match.items()})
    return page


def make_plan(
    game: str | Game,
    strategies: Sequence[str] | str | None,
    rounds: int | None,
    matches: int | None,
    seed: Any,
    threads: int | None,
    where: Mapping[str, Any] | None = None,
) -> Plan:
    """The checked plan (sizes at least 2: every figure needs an interval)."""
    g = resolve_game(game)
    specs = (
        (g.best_strategy,)
        if strategies is None
        else ((strategies,) if isinstance(strategies, str | int | float) else tuple(strategies))
    )
    if not specs:
        raise InputError("give a strategy (-s SPEC) or none for the game's best")
    if isinstance(strategies, Mapping) or not all(isinstance(x, str) for x in specs):
        raise InputError(f"strategies are spec strings (NAME or NAME:PARAM=VALUE), not {strategies!r}")
    rounds = ROUNDS if rounds is None else rounds
    matches = MATCHES if matches is None else matches
    for name, v in (("--rounds", rounds), ("--matches", matches)):
        if isinstance(v, bool) or not isinstance(v, int | np.integer) or v < 2:
            raise InputError(f"{name} must be a whole number of at least 2 (every figure has an interval)")
        if v > MAX_RECORDS_IN_MEMORY:  # the profile reads every game's record in memory
            raise InputError(f"{name} is at most {MAX_RECORDS_IN_MEMORY:,} for a profile, not {v:,}")
    ladder = ("random", g.baseline_strategy, g.best_strategy)
    ladder = tuple(dict.fromkeys(ladder))  # a game whose baseline is random: no repeat
    placed = tuple((k, v) for k, v in (where or {}).items() if v is not None)
    return Plan(
        g, specs, int(rounds), int(matches), resolve_seed(seed), threads, ladder, g.baseline_strategy, placed
    )
