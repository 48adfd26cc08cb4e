"""``simulator.calibrate``: is Spøkelse's belief model right, place by place?

Real rounds are played between a player and an opponent (shipped strategies); before
each of the player's decisions the belief (docs/search.md, "Belief") predicts the mean
card value of each place it cannot see, and the cards really there are averaged beside
it, per stock size (0-41) and place (``stock``, ``opponent_hidden``, ``ghost``,
``own_unknown``)::

    import simulator
    cal = simulator.calibrate(rounds=2000, seed=1)
    cal.rows[0]     # {"stock": .., "place": .., "predicted": .., "observed": .., ...}
"""

from __future__ import annotations

import hashlib
import pickle
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from simulator.engine.arguments import optional_text, real, text, whole
from simulator.errors import InputError
from simulator.running.backends import Backend, BlockPlan, Recipe, Work, run_blocks
from simulator.running.setup import Execution

TUNED_EXPECT = "expect:k=1,patience=2.8417279406896636,pile=0.5,open=26"
TOLERANCE = 0.15  # points: a row is calibrated within this or 3 standard errors
MIN_N = 200  # rows with fewer decisions are shown but not judged
MAX_ROUNDS = 10_000_000
MAX_PARTICLES = 100_000
BELIEFS = ("model", "uniform")


@dataclass
class Calibration:
    """One calibration run: ``rows`` (one per stock size and place that occurred, points;
    lower values are better cards) and how it was made."""

    rows: list[dict[str, Any]]
    player: str
    opponent: str
    model: str
    rounds: int
    seed: int
    particles: int
    eps: float
    belief: str
    seconds: float
    summary: dict[str, Any] = field(default_factory=dict)

    def as_dict(self) -> dict[str, Any]:
        keys = ("player", "opponent", "model", "rounds", "seed", "particles", "eps", "belief", "seconds")
        return {"rows": self.rows, **{k: getattr(self, k) for k in keys}, "summary": self.summary}


def _game_with_belief(game: str | None) -> Any:
    """The game to calibrate: ``game``, or when None the one registered game with a belief."""
    from simulator.games import all_games, get_game

    if game is None:
        with_belief = [g for g in all_games().values() if g.calibration_module]
        if len(with_belief) != 1:
            raise InputError("calibrate: name the game (several have a belief model)")
        return with_belief[0]
    g = get_game(game)
    if not g.calibration_module:
        names = ", ".join(n for n, x in all_games().items() if x.calibration_module)
        raise InputError(f"calibrate: {g.name} has no belief model (games with one: {names})")
    return g


def calibrate(
    game: str | None = None,
    *,
    player: str = TUNED_EXPECT,
    opponent: str | None = None,
    model: str = TUNED_EXPECT,
    rounds: int = 2000,
    seed: Any = None,
    particles: int = 64,
    eps: float = 0.005,
    belief: str = "model",
    threads: int | None = None,
    backend: str = "local",
    scheduler: str | None = None,
    workers: int | None = None,
    connect_timeout: float | None = None,
) -> Calibration:
    """Play ``rounds`` rounds and compare the belief's predictions with the real cards.

    Parameters
    ----------
    game : str, optional
        A game with a belief model (``Game.calibration_module``); None: the one there is.
    player, opponent, model : str
        Strategy specs: who plays (in seat ``g % 2`` of round ``g``), who it plays against
        (default: the model itself) and the belief's model of the opponent.
    rounds : int
        How many rounds (those ``simulate`` plays with the same seed), 1 to ``MAX_ROUNDS``.
    seed : int or numpy.random.SeedSequence, optional
        The seed (drawn when None; ``Calibration.seed`` holds the one used).
    particles : int
        Particles per belief, 1 to ``MAX_PARTICLES``.
    eps : float
        How far a choice the model would not make still counts (0 < eps < 0.5).
    belief : str
        ``"model"`` (policy-based inference) or ``"uniform"`` (every deal alike).
    threads : int, optional
        Threads, at least 1 (default 2; results do not depend on it); local backend only.
    backend, scheduler, workers, connect_timeout
        ``backend="dask"`` plays the chunks of rounds on a Dask cluster, as for
        :func:`simulator.analysis.compare.compare`; the figures are the local ones, bit for bit.

    Returns
    -------
    Calibration

    Raises
    ------
    InputError
        One line naming the argument: a game without a belief, an argument of the wrong type
        or out of its range.
    strategies.registry.SpecError
        For a strategy spec that cannot be read."""
    from importlib import import_module

    from simulator.running.seed import resolve_seed

    g = _game_with_belief(optional_text(game, "game"))
    player, model = text(player, "player"), text(model, "model")
    opponent = model if opponent is None else text(opponent, "opponent")
    seed = resolve_seed(seed)
    rounds = whole(rounds, "rounds", low=1, high=MAX_ROUNDS)
    particles = whole(particles, "particles", low=1, high=MAX_PARTICLES)
    eps = real(eps, "eps", low=0.0, high=0.5, open_ends=True)
    belief = text(belief, "belief", choices=BELIEFS)
    module = import_module(g.calibration_module)
    execution = Execution.build(
        threads=threads,
        backend=backend,
        scheduler=scheduler,
        workers=workers,
        connect_timeout=connect_timeout,
    )
    infer = belief == "model"
    if execution.backend is Backend.local:
        threads = 2 if execution.threads is None else execution.threads
        played = module.play(player, opponent, model, rounds, seed, particles, eps, infer, threads)
    else:
        plan = module.plan(player, opponent, model, rounds, seed, particles, eps, infer)
        played = _play_on_cluster(g.calibration_module, plan, execution)
    acc, scores, seconds, places = played["acc"], played["scores"], played["seconds"], played["places"]
    p_spec, o_spec, m_spec = played["specs"]
    rows = []
    for s in range(acc.shape[0]):
        for p in range(acc.shape[1]):
            n, sp, so, so2, sd2, sess = acc[s, p]
            if n == 0:
                continue
            obs = so / n
            var = max(so2 / n - obs * obs, 0.0) * n / max(n - 1, 1)
            d = (so - sp) / n
            dvar = max(sd2 / n - d * d, 0.0) * n / max(n - 1, 1)
            rows.append({
                "stock": s, "place": places[p], "predicted": round(sp / n / 2, 4),
                "observed": round(obs / 2, 4), "observed_se": round(float(np.sqrt(var / n)) / 2, 4),
                "difference_se": round(float(np.sqrt(dvar / n)) / 2, 4), "n": int(n),
                "ess": round(sess / n, 1),
            })  # fmt: skip
    judged = [r for r in rows if r["n"] >= MIN_N]
    off = [r for r in judged if abs(r["predicted"] - r["observed"]) > max(TOLERANCE, 3 * r["observed_se"])]
    worst = max(judged, key=lambda r: abs(r["predicted"] - r["observed"]), default=None)
    per_place = {}
    for p in places:
        rs = [r for r in rows if r["place"] == p]
        n = sum(r["n"] for r in rs)
        if n:
            per_place[p] = {
                "predicted": round(sum(r["predicted"] * r["n"] for r in rs) / n, 4),
                "observed": round(sum(r["observed"] * r["n"] for r in rs) / n, 4),
                # the weighted mean's standard error, from the rows' (decisions taken as independent)
                "observed_se": round(
                    float(np.sqrt(sum((r["n"] * r["observed_se"]) ** 2 for r in rs))) / n, 4
                ),
                "n": n,
            }
    summary = {
        "judged_rows": len(judged), "rows_off": len(off), "tolerance": TOLERANCE, "min_n": MIN_N,
        "worst": worst, "per_place": per_place,
        "player_points": round(float(scores[:, 0].mean()) / 2, 4),
        "opponent_points": round(float(scores[:, 1].mean()) / 2, 4),
        "decisions_per_second": round(sum(r["n"] for r in rows if r["place"] == "ghost") / seconds, 1),
    }  # fmt: skip
    return Calibration(rows, p_spec, o_spec, m_spec, rounds, seed, particles, eps, belief, seconds, summary)


@dataclass(frozen=True)
class CalibrationRecipe(Recipe):
    """A calibration's chunks of rounds, rebuilt on a Dask worker: block ``(first, n)`` is
    chunks ``first`` to ``first + n - 1`` of the plan (the game's ``calibration_module``)."""

    module: str
    plan: Any

    def key(self) -> str:
        return "calibrate-" + hashlib.sha256(pickle.dumps((self.module, self.plan))).hexdigest()[:20]

    def build(self) -> Callable[[int, int], Any]:
        from importlib import import_module

        play_chunk = import_module(self.module).play_chunk
        play_chunk(self.plan, 0)  # compiles the kernel before the first block is timed
        return lambda first, n: [play_chunk(self.plan, c) for c in range(first, first + n)]


def _play_on_cluster(module: str, plan: Any, execution: Execution) -> dict[str, Any]:
    """Every chunk on the cluster, one a block, summed in chunk order as the local play sums them."""
    from importlib import import_module

    recipe = CalibrationRecipe(module, plan)
    parts: dict[int, Any] = {}

    def keep(first: int, n: int, payload: list) -> None:
        for i, part in enumerate(payload):
            parts[first + i] = part

    ran = run_blocks(Work(recipe.build, recipe), BlockPlan([(0, plan.chunks)], 1), keep,
                     **execution.backend_options())  # fmt: skip
    return import_module(module).outcome(plan, [parts[c] for c in range(plan.chunks)], ran.elapsed_s)


def calibration_lines(cal: Calibration) -> list[str]:
    """The calibration in plain words, within 80 columns."""
    s = cal.summary
    lines = [
        f"belief: {cal.belief}",
        f"model of the opponent: {cal.model}",
        f"player: {cal.player}",
        f"against: {cal.opponent}",
        f"{cal.rounds} rounds, seed {cal.seed}, {cal.particles} particles, eps {cal.eps}",
        "mean card value per place, points (predicted by the belief / really there,",
        "with the 95% interval of what is really there):",
    ]
    for p, v in s["per_place"].items():
        half = 1.96 * v.get("observed_se", float("nan"))
        lines.append(
            f"  {p:<16} {v['predicted']:6.3f} / {v['observed']:6.3f} "
            f"[{v['observed'] - half:.3f}, {v['observed'] + half:.3f}]  ({v['n']} decisions)"
        )
    lines.append(
        f"rows with n >= {s['min_n']}: {s['judged_rows']}; off by more than "
        f"{s['tolerance']} points and 3 SE: {s['rows_off']}"
    )
    w = s["worst"]
    if w:
        lines.append(f"largest gap: stock {w['stock']}, {w['place']}: predicted {w['predicted']:.3f},")
        lines.append(f"  observed {w['observed']:.3f} ± {w['observed_se']:.3f} (n {w['n']})")
    if not s["judged_rows"]:
        lines.append(f"verdict: too few decisions to judge (no row has {s['min_n']}); give more --rounds")
    elif s["rows_off"] == 0:
        lines.append(f"verdict: calibrated: every judged row is within {s['tolerance']} points or 3 SE")
    else:
        lines.append(
            f"verdict: not calibrated against this opponent: {s['rows_off']} of {s['judged_rows']} rows are off"
        )
    lines.append(f"{cal.seconds:.1f} s ({s['decisions_per_second']:.0f} decisions per second)")
    return lines


def calibration_figure(cal: Calibration, path: Path) -> Path:
    """Predicted and observed mean card value against the stock size, one colour per
    place: the line is the belief, the dots with 95% bars the cards really there."""
    from simulator.reporting.plots import axis_label, colour, new_figure

    fig, axes = new_figure(size=(7.5, 4.6))
    ax = axes[0][0]
    for i, place in enumerate(("stock", "opponent_hidden", "ghost", "own_unknown")):
        rs = [r for r in cal.rows if r["place"] == place and r["n"] >= 10]
        if not rs:
            continue
        x = np.array([r["stock"] for r in rs])
        style = ("-", "--", ":", "-.")[i]  # the stock and the ghosts lie on one another
        ax.plot(x, [r["predicted"] for r in rs], style, color=colour(i), label=f"{place}: belief")
        ax.errorbar(x, [r["observed"] for r in rs], yerr=[1.96 * r["observed_se"] for r in rs],
                    fmt="o", ms=2.5, color=colour(i), alpha=0.7, label=f"{place}: real")  # fmt: skip
    ax.set_xlabel("cards in the stock")
    ax.set_ylabel(axis_label("mean card value, points", lower_is_better=None))
    ax.invert_xaxis()
    ax.set_title(f"Belief ({cal.belief}, model {cal.model.split(':')[0]}) against {cal.opponent}", fontsize=9)
    if ax.get_legend_handles_labels()[0]:
        ax.legend(fontsize=7, ncol=2)
    path.mkdir(parents=True, exist_ok=True)
    target = path / "calibration.png"
    fig.savefig(target, dpi=120)
    return target


__all__ = ["TUNED_EXPECT", "Calibration", "calibrate", "calibration_figure", "calibration_lines"]
