"""``simulator.tune``: search a strategy's parameters against a field on common deals.

See :mod:`simulator.analysis.tuning` for what a tune does, :mod:`simulator.analysis.tuning.search` for the
optimiser and why, and :mod:`simulator.analysis.tuning.confirm` for the confirmation.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

import optuna
from optuna.trial import TrialState

from simulator.analysis.tuning import storage
from simulator.analysis.tuning.confirm import confirm as play_confirmation
from simulator.analysis.tuning.evaluate import Evaluator
from simulator.analysis.tuning.plan import MAX_ITERATE, MAX_TRIALS, TunePlan, plan_tune
from simulator.analysis.tuning.result import TuneResult, build_summary, trials_frame, write_outputs
from simulator.analysis.tuning.search import Search, make_pruner
from simulator.analysis.tuning.space import DEFAULT_TRIALS
from simulator.engine.arguments import callback, flag, optional_path
from simulator.errors import InputError
from simulator.games.base import Game
from simulator.running.backends import one_client
from simulator.running.claim import resume_seed
from simulator.running.setup import Execution, SeedLike
from strategies.registry import Player, parse_spec


def _study(plan: TunePlan, out: Path | None, iteration: int, start: Player) -> optuna.Study:
    direction = "minimize" if plan.metric.lower_is_better else "maximize"
    store = storage.journal(out) if out is not None else optuna.storages.InMemoryStorage()
    name = f"iteration-{iteration}"
    exists = out is not None and name in optuna.get_all_study_names(store)
    study = optuna.create_study(
        study_name=name, storage=store, direction=direction, pruner=make_pruner(), load_if_exists=True
    )
    if not exists:
        start_values = plan.space.values_of(start)
        values = {d.name: start_values[d.name] for d in plan.space.dims}
        if plan.space.contains(values):
            study.enqueue_trial(values)
    return study


def _iteration(
    plan: TunePlan,
    execution: Execution,
    out: Path | None,
    it: int,
    start: Player,
    field_player: Player,
    on_trial: Callable[[dict[str, Any]], None] | None,
) -> tuple[Search, Player]:
    """One search: ``start`` against ``field_player``; returns it and its winner."""
    ev = Evaluator(plan.search, execution, field_player, plan.metric)
    saved = storage.load_start(out, it) if out is not None else None
    ev.play_start(start, saved)
    if out is not None and saved is None:
        storage.save_start(out, it, ev.start_t, ev.start_ok)
    grid = plan.space.grid(plan.search.rules)
    enumerating = grid is not None and len(grid) <= plan.trials  # the whole space, point by point
    search = Search(
        _study(plan, out, it, start), plan.space, ev, plan.seed, it, grid=grid, enumerating=enumerating
    )
    search.restore()
    search.cache.setdefault(plan.space.key_of(start, plan.search.rules), ev.start_entry())
    search.run(plan.trials, on_trial)
    done = [t for t in search.study.get_trials(deepcopy=False) if t.state == TrialState.COMPLETE]
    lower = plan.metric.lower_is_better
    best = min(done, key=lambda t: (t.value if lower else -t.value, t.number))
    names = [p.name for p in plan.space.family.params]
    winner = plan.space.player(dict(zip(names, best.user_attrs["plays_as_values"], strict=True)))
    return search, winner


def _settled(keys: list[tuple[float, ...]]) -> dict[str, Any] | None:
    """Whether the winners settle: the last equals the one before (a fixed point) or an
    earlier one (a cycle)."""
    if len(keys) >= 2 and keys[-1] == keys[-2]:
        return {"kind": "fixed point", "iteration": len(keys) - 1}
    for i, k in enumerate(keys[:-2]):
        if k == keys[-1]:
            return {"kind": "cycle", "length": len(keys) - 1 - i, "from_iteration": i + 1}
    return None


def play_tune(
    plan: TunePlan,
    execution: Execution,
    *,
    out: Path | None = None,
    on_trial: Callable[[dict[str, Any]], None] | None = None,
    on_confirm: Callable[[int], None] | None = None,
) -> TuneResult:
    """Play a checked tune: the search (each iteration), then the confirmation."""
    t0 = time.perf_counter()
    start, field_player = plan.start, plan.field
    rules = plan.search.rules
    keys = [plan.space.key_of(start, rules)]
    iterations, searches = [], []
    settled = None
    for it in range(1, plan.iterate + 1):
        search, winner = _iteration(plan, execution, out, it, start, field_player, on_trial)
        searches.append(search)
        keys.append(plan.space.key_of(winner, rules))
        iterations.append(
            {"iteration": it, "start": start.spec, "field": field_player.spec, "winner": winner.spec}
        )
        settled = _settled(keys[1:]) if plan.iterate > 1 else None
        if settled is not None:
            break
        start, field_player = winner, winner
    search_s = time.perf_counter() - t0
    tuned = parse_spec(iterations[-1]["winner"], plan.space.family.game)
    if on_confirm is not None:
        execution = execution.with_progress(on_confirm)
    conf = play_confirmation(
        plan.confirm, execution, tuned, plan.start, plan.field, plan.metric,
        f"tuned {plan.space.family.name}", "its starting parameters",
    )  # fmt: skip
    table = trials_frame(searches)
    summary = build_summary(
        plan, searches, iterations, settled, conf, table, search_s, time.perf_counter() - t0
    )
    result = TuneResult(summary, table)
    if out is not None:
        write_outputs(result, out)
    return result


def tune(
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
    plugins: Sequence[str | Path] | str | Path = (),
    out: str | Path | None = None,
    resume: bool = False,
    threads: int | None = None,
    block_size: int | None = None,
    progress: Callable[[int], None] | None = None,
    on_trial: Callable[[dict[str, Any]], None] | None = None,
    backend: str = "local",
    scheduler: str | None = None,
    workers: int | None = None,
    connect_timeout: float | None = None,
) -> TuneResult:
    """Search a strategy's parameters for the best value of a metric against a field.

    Parameters
    ----------
    game
        A game id (``"spokelse"``) or a :class:`Game`.
    strategy
        A tune spec: ``"expect:k=0..4,patience=1..6,open=10..41"`` (ranges within each
        parameter's bounds, ends on its grid; a plain value fixes a parameter, one not
        named keeps its default) or ``"reader"`` (every parameter within its bounds;
        see :mod:`simulator.analysis.tuning.space`).
    vs
        The field (every other seat): default the game's ``default_opponent``, else the
        family at its defaults.
    rounds, matches
        Exactly one: the deals a trial plays at its last rung (``n/16`` and ``n/4`` before).
    metric
        One of the game's metrics for the unit (default the primary one); its direction
        (lower or higher is better) is the game's.
    seed
        The search, the confirmation and the optimiser all derive from it
        (:mod:`simulator.analysis.tuning.seeds`); None draws one.
    trials
        Trials to finish in each iteration (completed or pruned), 1 to 10,000; with
        ``resume``, in all.  A point proposed again that plays no new deal is a repeat and
        does not count; a space with no more distinct points than ``trials`` (every
        parameter on its grid) is played whole instead of sampled
        (:mod:`simulator.analysis.tuning.search`).
    confirm
        Deals of the confirmation on fresh seeds (default: ``rounds``/``matches``).
    iterate
        Tune, make the winner the field and start, tune again, up to ``iterate`` times;
        stops early when the winners settle (a fixed point or a cycle).
    rules, players, reaction, plugins
        As for :func:`simulator.analysis.compare.compare`.
    out, resume
        A folder for the journal and results (:mod:`simulator.analysis.tuning.storage`); ``resume``
        continues the tune held there.
    threads, block_size, backend, scheduler, workers, connect_timeout
        How it is played (never changes a number), as for
        :func:`simulator.analysis.compare.compare`: ``backend="dask"`` plays every trial's
        blocks and the confirmation on a Dask cluster, through one client for the whole tune
        (the optimiser itself runs here).
    progress, on_trial
        ``progress(games)`` after every block; ``on_trial(row)`` after every trial.

    Returns
    -------
    TuneResult

    Raises
    ------
    InputError
        For any bad input (a wrong type, a value out of range), in one line naming the
        argument, before anything is played.
    """
    folder = optional_path(out, "--out")
    resume = flag(resume, "resume")
    callback(on_trial, "on_trial")
    if resume and folder is None:
        raise InputError("--resume needs --out DIR (the tune's folder)")
    seed = resume_seed(seed, folder, resume)
    if isinstance(plugins, str | Path):
        plugins = [plugins]
    execution = Execution.build(
        threads=threads, block_size=block_size, backend=backend, scheduler=scheduler, workers=workers,
        connect_timeout=connect_timeout, progress=progress,
    )  # fmt: skip
    plan = plan_tune(
        game, strategy, vs=vs, rounds=rounds, matches=matches, metric=metric, seed=seed, trials=trials,
        confirm=confirm, iterate=iterate, rules=rules, players=players, reaction=reaction, plugins=plugins,
    )  # fmt: skip
    with one_client(**execution.backend_options()):
        if folder is None:
            return play_tune(plan, execution, on_trial=on_trial)
        with storage.open_folder(folder, plan, resume):
            return play_tune(plan, execution, out=folder, on_trial=on_trial)


__all__ = ["MAX_ITERATE", "MAX_TRIALS", "TunePlan", "plan_tune", "play_tune", "tune"]
