"""A tune checked before anything is played: :class:`TunePlan` and :func:`plan_tune`.

Its own module so that the search, the result and the ``--out`` folder can name a plan
without importing the function that plays it (:mod:`simulator.analysis.tuning.api`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from simulator.analysis.tuning import seeds
from simulator.analysis.tuning.space import DEFAULT_TRIALS, Space, parse_space
from simulator.engine.arguments import optional_text, whole
from simulator.errors import InputError
from simulator.games.base import Game, Metric
from simulator.running.setup import MAX_GAMES, SeedLike, Setup, load_plugins, resolve_game, resolve_seed
from strategies.registry import Player, parse_spec

MAX_TRIALS = 10_000
MAX_ITERATE = 20


@dataclass(frozen=True)
class TunePlan:
    """A checked tune, before anything is played."""

    space: Space
    start: Player
    field: Player
    metric: Metric
    search: Setup
    confirm: Setup
    seed: int
    trials: int
    iterate: int


def _metric(g: Game, unit: str, name: str | None) -> Metric:
    metrics = g.metrics(unit)
    if name is None:
        return metrics[0]
    for m in metrics:
        if m.name == name:
            return m
    names = ", ".join(m.name for m in metrics)
    raise InputError(f"unknown metric {name!r} for {g.name} {unit}s (metrics: {names})")


def plan_tune(
    game: str | Game,
    strategy: str,
    *,
    vs: str | None = None,
    rounds: int | None = None,
    matches: int | None = None,
    metric: str | None = None,
    seed: SeedLike | None = None,
    trials: int = DEFAULT_TRIALS,
    confirm: int | None = None,
    iterate: int = 1,
    rules: Mapping[str, Any] | Any = None,
    players: int | None = None,
    reaction: Sequence[Any] | None = None,
    plugins: Sequence[str | Path] = (),
) -> TunePlan:
    """Check every input of a tune (the keywords of :func:`tune`) and say what it plays.

    Raises
    ------
    InputError
        For any bad input (a wrong type, a value out of range), in one line naming the
        argument, before anything is played.
    """
    load_plugins(plugins, game)
    g = resolve_game(game)
    if not isinstance(strategy, str):
        raise InputError(f"the strategy to tune is a spec string (NAME:PARAM=LO..HI), not {strategy!r}")
    if vs is not None and not isinstance(vs, str):
        raise InputError(f"--vs takes a strategy spec string (NAME or NAME:PARAM=VALUE), not {vs!r}")
    metric = optional_text(metric, "metric")
    space = parse_space(strategy, g)
    start = space.player({})
    trials = whole(trials, "--trials", low=1, high=MAX_TRIALS)
    iterate = whole(iterate, "--iterate", low=1, high=MAX_ITERATE)
    chosen = resolve_seed(seed)
    common = {
        "rules": rules,
        "players": players,
        "reaction": reaction,
        "plugins": plugins,
        "fill_seats": False,
    }
    search = Setup.build(g, [start], rounds=rounds, matches=matches, seed=seeds.search_seed(chosen), **common)
    m = _metric(g, search.unit, metric)
    field_player = parse_spec(vs if vs is not None else (g.default_opponent or start.spec), g.name)
    n_confirm = search.n if confirm is None else whole(confirm, "--confirm", low=1, high=MAX_GAMES)
    amount = {"rounds": n_confirm} if search.unit == "round" else {"matches": n_confirm}
    check = Setup.build(g, [start], seed=seeds.confirm_seed(chosen), **amount, **common)
    return TunePlan(space, start, field_player, m, search, check, chosen, trials, iterate)
