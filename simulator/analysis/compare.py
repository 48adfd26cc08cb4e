"""Fair comparisons of strategies on the same deals (duplicate deals).

**Which seatings are played.**  Every deal (game index ``g``) is played once
per *seating*, and every seating of a deal uses the same cards, the same
reaction times and the same per-seat random streams (``docs/random-streams.md``).

* Two seats, a ``field`` given: each candidate plays the field twice per
  deal, once in each seat.
* Two seats, no field: every pair of candidates plays each deal twice, seats
  swapped (a round robin).
* More seats: each candidate takes one seat against a field of ``field``
  players (default ``greedy``), in every seat in turn, on the same deals.  When
  there are exactly as many candidates as seats and no field is given, they
  are all seated together in every rotation instead.

``--rounds N`` / ``--matches N`` counts deals (game indices); each is played
once per seating, so ``N × seatings`` games are simulated.

In the Gris games a candidate may bring its own reaction profile (``reactions=``):
it is part of the player, so it moves with the candidate from seat to seat while
the field keeps the table's profile.  Reaction times are drawn as
``median · exp(σ z)`` from each seat's own stream, so candidates at different
speeds still meet the same deals and the same draws ``z``.  ``sweep`` and the
experiments build on this module (``simulator/analysis/sweep.py``, ``experiments/``).

**What is reported.**  For every candidate and metric, its per-deal outcome
is the mean over the seatings it sat in; the report gives the mean over deals
with a 95% normal interval, the paired difference to the baseline (mean of
the per-deal differences, interval, two-sided z-test p-value, Holm-corrected
across candidates), and the variance reduction: the variance of the
difference if the two strategies had met independent deals, divided by the
variance of the paired difference.  With more than two candidates a
Bradley–Terry ranking is fitted to the head-to-head record (which candidate
did better on each deal; ties dropped) with statsmodels, with 95% intervals on
the log-strengths (the baseline fixed at 0).

**Few deals, and differences without spread.**  On fewer than 2 deals nothing is known
about the spread: every interval is NaN (``null`` in JSON, ``n/a`` in tables) and no
difference is tested (``p_value``/``p_holm`` null, ``significant`` false, ``test`` null).
When a difference is the same on every deal (decided exactly from the integer sums;
``same_every_deal``), the z-test has nothing to divide by; the exact sign-flip test is used
instead: were the two strategies interchangeable, each deal's difference would be ``+d`` or
``−d`` with equal chance, and only 2 of the ``2ⁿ`` sign patterns reach the observed mean, so
``p = 2·2⁻ⁿ`` (0.5 on 2 deals, never significant below 6 deals; 1 when ``d = 0``).  Each
row's ``test`` names the test used (``"paired z-test"`` or ``"exact sign-flip"``).

All sums are integers per block, so the numbers depend only on the seed.
"""

from __future__ import annotations

import math
import time
import warnings
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import partial
from itertools import combinations
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd

from simulator.engine.reaction_file import parse_profile  # MEDIAN[,SIGMA] or a profile file
from simulator.engine.stats import LEVEL, z_value
from simulator.errors import InputError
from simulator.games.base import Game, Metric, Table
from simulator.reporting import formatting
from simulator.running.backends import (
    MAX_RECORDS_BLOCK,
    Backend,
    BlockPlan,
    PlayRecipe,
    SeatingsRecipe,
    Work,
    run_blocks,
)
from simulator.running.results import (
    MAX_SHOWN,
    SCHEMA_VERSION,
    Shown,
    html_table,
    interval_plot,
    metric_shown,
    package_version,
    plain,
    short,
    unit_words,
)
from simulator.running.runner import DEFAULT_BLOCK, BlockRunner
from simulator.running.setup import Execution, SeedLike, Setup
from strategies.registry import Player, parse_spec

if TYPE_CHECKING:
    from matplotlib.axes import Axes

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


@dataclass
class PairedSums:
    """Integer sums over deals of each candidate's per-deal total outcome ``T_c``."""

    k: int
    n: int = 0
    total: np.ndarray = field(default=None)  # type: ignore[assignment]
    cross: np.ndarray = field(default=None)  # type: ignore[assignment]
    better: np.ndarray = field(default=None)  # type: ignore[assignment]

    def __post_init__(self) -> None:
        self.total = np.zeros(self.k, dtype=np.int64)
        self.cross = np.zeros((self.k, self.k), dtype=np.int64)
        self.better = np.zeros((self.k, self.k), dtype=np.int64)

    def merge(self, other: PairedSums) -> None:
        """Add the sums of other deals (blocks merge in any order: integer sums)."""
        self.n += other.n
        self.total += other.total
        self.cross += other.cross
        self.better += other.better

    def add(self, t: np.ndarray, appearances: np.ndarray, lower_is_better: bool) -> None:
        """``t``: int64[deals, k] per-deal totals over each candidate's seatings."""
        self.n += t.shape[0]
        self.total += t.sum(axis=0)
        self.cross += t.T @ t
        # Candidate i did better than j on a deal: compare t_i / a_i with t_j / a_j exactly
        # (one candidate at a time, so a sweep of many candidates stays small in memory).
        for i in range(self.k):
            scaled = t[:, i : i + 1] * appearances[None, :]
            other = t * appearances[i]
            wins = scaled < other if lower_is_better else scaled > other
            self.better[i] += wins.sum(axis=0)


@dataclass(repr=False, eq=False)
class CompareResult:
    """Per-candidate figures, paired differences and ranking; ``summary`` is JSON-ready.

    ``frames`` holds one DataFrame per metric (``frames["score"]``: one row per
    candidate, the figure, its paired difference to the baseline, p-values; intervals
    as ``_lo``/``_hi``) and ``frames["ranking"]`` (Bradley–Terry, three candidates or
    more).  ``repr`` is a few lines on the primary metric, Jupyter shows HTML tables,
    :meth:`plot` draws the paired differences (or the figures) with their intervals.
    """

    summary: dict[str, Any]
    frames: dict[str, pd.DataFrame]
    sums: dict[str, PairedSums] | None = None
    appearances: np.ndarray | None = None
    scales: dict[str, float] | None = None

    def __post_init__(self) -> None:
        self.summary = plain(self.summary)

    def pairwise(self, metric: str, a: str, b: str) -> dict[str, Any]:
        """The paired difference ``a − b`` in ``metric`` between two compared strategies
        (names as in ``summary["strategies"]``), computed as every difference to the baseline
        is: ``diff``, ``diff_ci``, ``p_value`` (not corrected), ``test``, ``same_every_deal``.

        Only a comparison played in this session holds the sums this needs; one read back
        from a folder raises :class:`InputError`."""
        if self.sums is None or self.appearances is None or self.scales is None:
            raise InputError("this comparison holds only its summary; pairwise differences need the run")
        if metric not in self.sums:
            raise InputError(f"no metric {metric!r} in this comparison (metrics: {', '.join(self.sums)})")
        names = list(self.summary["strategies"])
        for who in (a, b):
            if who not in names:
                raise InputError(f"{who!r} is not one of the compared strategies")
        s = self.sums[metric]
        means, cov = _deal_covariance(s, self.appearances.astype(np.float64))
        i, j = names.index(a), names.index(b)
        return _difference_row(s, self.appearances, means, cov, i, j, z_value(), self.scales[metric])

    def to_json(self, indent: int | None = 2) -> str:
        """The summary as strict JSON: a figure nothing was counted for is ``null``."""
        from simulator.running.results import dumps_json

        return dumps_json(self.summary, indent=indent)

    def _shown(self, metric: str | None = None) -> tuple[str, Shown]:
        metrics = self.summary["metrics"]
        name = metric or next(iter(metrics))
        if name not in metrics:
            raise InputError(f"no metric {name!r} in this comparison (metrics: {', '.join(metrics)})")
        return name, metric_shown(self.summary, name)

    def _heading(self) -> str:
        s = self.summary
        against = f" against {s['field']}" if s.get("field") else ""
        return (
            f"{s['game']}: {len(s['strategies'])} strategies{against} on {s['n']:,} deals "
            f"({unit_words(s['unit'])}), seed {s['seed']}"
        )

    def __repr__(self) -> str:
        s = self.summary
        name, shown = self._shown()
        rows = s["metrics"][name]["strategies"]
        lines = [f"<kortsim CompareResult> {self._heading()}"]
        lines.append(f"{s['design']}; differences against {s['baseline']}")
        lines.append(", ".join(p for p in (shown.label, shown.direction) if p) + "; [95% interval]:")
        width = max(len(short(r["player"])) for r in rows[:MAX_SHOWN])
        values = [shown.text(r[name], r[f"{name}_ci"]) for r in rows[:MAX_SHOWN]]
        v_width = max(len(v) for v in values)
        for r, value in zip(rows, values):
            if "diff" in r:
                diff = shown.diff_text(r["diff"], r["diff_ci"])
                extra = f"  diff {diff}  p (Holm) {formatting.p_value(r.get('p_holm'))}"
            else:
                extra = "  (baseline)"
            lines.append(f"  {short(r['player']):<{width}}  {value:<{v_width}}{extra}")
        if len(rows) > MAX_SHOWN:
            lines.append(f"  ... and {len(rows) - MAX_SHOWN} more (see .frames[{name!r}])")
        lines.append(f".frames: {', '.join(self.frames)}; .plot(); .summary: the JSON document")
        return "\n".join(lines)

    def _repr_html_(self) -> str:
        s = self.summary
        parts = []
        for name in s["metrics"]:
            _, shown = self._shown(name)
            head = ["player", shown.label, "difference to baseline", "p (Holm)", "variance reduction"]
            rows = []
            for r in s["metrics"][name]["strategies"]:
                diff = shown.diff_text(r.get("diff"), r.get("diff_ci"))
                vr = r.get("variance_reduction")
                rows.append(
                    [
                        r["player"],
                        shown.text(r[name], r[f"{name}_ci"]),
                        diff if "diff" in r else "(baseline)",
                        formatting.p_value(r.get("p_holm")) if "diff" in r else "",
                        f"{vr:.1f}×" if vr else "",
                    ]
                )
            caption = (
                f"{self._heading()}. {shown.caption}. Differences are paired on the same deals "
                f"(pp: percentage points), against {s['baseline']}; in brackets: 95% intervals."
            )
            parts.append(html_table(caption, head, rows, "kortsim-compare", left=1))
        if s.get("ranking"):
            rows = [
                [r["rank"], r["player"], formatting.mean(r["strength"], r["strength_ci"])]
                for r in s["ranking"]
            ]
            parts.append(
                html_table(
                    f"Bradley–Terry ranking on deals won ({s['head_to_head']['metric']}): "
                    f"log-strength, {s['baseline']} = 0, higher is stronger; 95% intervals.",
                    ["rank", "player", "log-strength"],
                    rows,
                    "kortsim-ranking",
                )
            )
        return "\n".join(parts)

    def plot(self, metric: str | None = None, kind: str = "diff", ax: Axes | None = None) -> Axes:
        """The candidates' paired differences to the baseline (``kind="diff"``) or their
        figures (``kind="value"``) for ``metric`` (default: the primary one), with 95%
        intervals.

        Parameters
        ----------
        metric
            A metric of ``summary["metrics"]`` (``"score"``, ``"loss"``, ...).
        kind
            ``"diff"`` (the baseline is the dashed zero line) or ``"value"``.
        ax
            Draw into these Axes; default: a new figure.

        Returns
        -------
        matplotlib.axes.Axes
        """
        if kind not in ("diff", "value"):
            raise InputError(f"kind must be 'diff' or 'value', not {kind!r}")
        name, shown = self._shown(metric)
        s = self.summary
        rows = s["metrics"][name]["strategies"]
        if kind == "value":
            return interval_plot(
                [r["player"] for r in rows],
                [r[name] for r in rows],
                [r[f"{name}_ci"] for r in rows],
                shown=shown,
                xlabel="strategy",
                title=f"{s['game']}: {shown.title} per strategy, 95% intervals",
                ax=ax,
            )
        rows = [r for r in rows if "diff" in r]
        unit = "percentage points" if shown.percent else shown.unit
        diff_shown = Shown(name, f"difference in {shown.title}", unit, shown.direction, percent=shown.percent)
        return interval_plot(
            [r["player"] for r in rows],
            [r["diff"] for r in rows],
            [r["diff_ci"] for r in rows],
            shown=diff_shown,
            xlabel="strategy",
            title=(
                f"{s['game']}: {shown.title} minus {s['baseline']}'s, paired on the same deals, "
                "with 95% intervals"
            ),
            ax=ax,
            reference=0.0,
            reference_label=f"{s['baseline']} (baseline)",
        )


def _outcome_totals(
    game: Game, table: Table, unit: str, recs: list[np.ndarray], design: Design, k: int, metric: str
) -> tuple[np.ndarray, np.ndarray]:
    """Per deal and candidate: the sum of its outcomes over its seatings, and the valid mask."""
    n = recs[0].shape[0]
    t = np.zeros((n, k), dtype=np.int64)
    valid = np.ones(n, dtype=bool)
    for s, rec in enumerate(recs):
        outs, ok = game.outcomes(rec, unit, table.n_seats)
        valid &= ok
        vals = outs[metric]
        for seat, c in enumerate(design.seatings[s]):
            if c != FIELD:
                t[:, c] += vals[:, seat]
    return t, valid


def compare(
    game: str | Game,
    strategies: Sequence[str | Player],
    *,
    rounds: int | None = None,
    matches: int | None = None,
    field: str | Player | None = None,
    baseline: str | Player | None = None,
    seed: SeedLike | None = None,
    rules: Mapping[str, Any] | Any = None,
    players: int | None = None,
    reaction: Sequence[Any] | None = None,
    threads: int | None = None,
    block_size: int | None = None,
    plugins: Sequence[str] = (),
    progress: Callable[[int], None] | None = None,
    on_plan: Callable[[int], None] | None = None,
    reactions: Sequence[Any] | None = None,
    on_block: Callable[[int, Design, list[np.ndarray]], None] | None = None,
    backend: str = "local",
    scheduler: str | None = None,
    workers: int | None = None,
    field_strategy: str | Player | None = None,
    connect_timeout: float | None = None,
) -> CompareResult:
    """Compare strategies on the same deals; see the module docstring for the design.

    The keywords are the options of ``kortsim compare``: ``rounds``/``matches``
    (``--rounds``/``--matches``: deals), ``field`` (``--field``: the strategy filling
    the other seats; Gris games default to ``greedy``), ``baseline`` (``--baseline``:
    differences are against it; default the first strategy), ``seed`` (``--seed``; an
    int, numpy integer or ``numpy.random.SeedSequence``, as for
    :func:`simulator.simulate`), ``rules`` (``--rule NAME=VALUE``, as a mapping),
    ``players``, ``reaction``, ``threads``, ``block_size`` (default ``DEFAULT_BLOCK``),
    ``plugins`` (``--plugin``), ``backend``, ``scheduler``, ``workers`` and
    ``connect_timeout``, each checked as for :func:`simulator.simulate`
    (:mod:`simulator.running.setup`).  ``field_strategy`` is the old name of ``field``
    (deprecated; it still works and warns).

    ``reactions`` (Gris games) gives each candidate its own reaction profile, part of
    the player rather than of the seat: ``(median, sigma)``, ``"MEDIAN[,SIGMA]"`` or
    None for the table's profile; it follows the candidate round the seats, and the
    field keeps ``reaction``.  The same strategy may then be compared at several
    speeds; it is named ``spec @MEDIANs``.  ``on_block(first, design, records)`` sees
    every block's per-seating records (``records[s]`` for ``design.seatings[s]``).
    ``backend``, ``scheduler`` and ``workers`` choose where blocks are played, as for
    :func:`simulator.simulate` (the numbers are the same).

    ``progress(games)`` is called after every block with the games it played (its
    deals × the seatings), and ``on_plan(total)`` once before play starts with the
    number of games the comparison plays in all (a progress bar's total,
    :func:`simulator.running.progress.progress_bar`).
    """
    field = _field_keyword(field, field_strategy)
    execution = Execution.build(
        threads=threads, block_size=block_size, backend=backend, scheduler=scheduler, workers=workers,
        connect_timeout=connect_timeout, progress=progress,
    )  # fmt: skip
    setup = Setup.build(
        game, strategies, rounds=rounds, matches=matches, seed=seed, rules=rules, players=players,
        reaction=reaction, plugins=plugins, fill_seats=False,
    )  # fmt: skip
    return compare_setup(
        setup,
        execution,
        field=field,
        baseline=baseline,
        reactions=reactions,
        on_plan=on_plan,
        on_block=on_block,
    )


def compare_setup(
    setup: Setup,
    execution: Execution,
    *,
    field: str | Player | None = None,
    baseline: str | Player | None = None,
    reactions: Sequence[Any] | None = None,
    on_plan: Callable[[int], None] | None = None,
    on_block: Callable[[int, Design, list[np.ndarray]], None] | None = None,
) -> CompareResult:
    """Compare the strategies of a checked setup (``setup.players``: the candidates) on the
    same deals, played as ``execution`` says; what :func:`compare` does once its input is
    checked (:mod:`simulator.running.setup`).

    Parameters
    ----------
    setup
        What is played: :meth:`Setup.build <simulator.running.setup.Setup.build>` with
        ``fill_seats=False``.
    execution
        How it is played (``execution.block_size`` None: ``DEFAULT_BLOCK``).
    field, baseline, reactions, on_plan, on_block
        As for :func:`compare`.

    Returns
    -------
    CompareResult
    """
    g, table, cands = setup.game, setup.table, list(setup.players)
    profiles = candidate_profiles(g, table, reactions, len(cands))
    specs = [label(p.spec, prof) for p, prof in zip(cands, profiles)]
    if len(set(specs)) != len(specs):
        raise InputError("each strategy may be compared once; give distinct specs")
    field_player = _field_player(g, table, field, len(cands))
    base_idx = _baseline_index(g, baseline, specs)
    design = make_design(table.n_seats, len(cands), field_player is not None)
    execution.apply_threads()
    seatings = _Seatings.of(setup, design, cands, field_player, profiles, on_block is not None)
    if on_plan is not None:
        on_plan(setup.n * len(design.seatings))
    played = _play(setup, execution, seatings, on_block)
    summary = summarise(
        g, table, setup.unit, setup.n, setup.seed, cands, field_player, base_idx, design, seatings.metrics,
        played.sums, seatings.appearances, specs,
    )  # fmt: skip
    _add_run_facts(summary, played, profiles, setup.n * len(design.seatings), setup.seed_extra)
    scales = {m.name: m.scale for m in seatings.metrics}
    return CompareResult(summary, frames_of(summary), played.sums, seatings.appearances, scales)


@dataclass(frozen=True)
class _Seatings:
    """What every block of a comparison plays: the table and players of each seating, the
    candidates' appearances, the metrics and the pure function that reduces a block."""

    design: Design
    tables: list[Table]
    players: list[list[Player | None]]
    k: int
    appearances: np.ndarray
    metrics: tuple[Metric, ...]
    reduce: Callable[[int, list[np.ndarray]], tuple]

    @classmethod
    def of(
        cls,
        setup: Setup,
        design: Design,
        cands: list[Player],
        field_player: Player | None,
        profiles: Sequence[tuple[float, float] | None],
        keep_records: bool,
    ) -> _Seatings:
        g, table, k = setup.game, setup.table, len(cands)
        tables = [seating_table(g, table, row, profiles) for row in design.seatings]
        seat_players = [[field_player if c == FIELD else cands[c] for c in row] for row in design.seatings]
        appearances = np.array([(design.seatings == c).sum() for c in range(k)], dtype=np.int64)
        metrics = tuple(g.metrics(setup.unit))
        reduce = partial(block_sums, g, table, setup.unit, design, k, metrics, appearances, keep_records)
        return cls(design, tables, seat_players, k, appearances, metrics, reduce)


def _add_run_facts(
    summary: dict[str, Any],
    played: _Played,
    profiles: Sequence[tuple[float, float] | None],
    games: int,
    seed_extra: Mapping[str, Any],
) -> None:
    """Add what the run did to the summary: the candidates' own reaction profiles, the deals
    left out, timings and speed, and how the seed was given."""
    if any(prof is not None for prof in profiles):
        summary["reactions"] = [list(prof) if prof is not None else None for prof in profiles]
    summary["deals_dropped"] = played.dropped
    summary["elapsed_s"] = played.elapsed_s
    summary["compile_s"] = played.compile_s
    summary["games_per_s"] = games / played.elapsed_s if played.elapsed_s > 0 else None
    summary.update(seed_extra)


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
    if bspec not in specs:
        raise InputError(f"the baseline {bspec!r} must be one of the compared strategies")
    return specs.index(bspec)


@dataclass
class _Played:
    """What playing every block gave: each metric's paired sums, the deals left out and timings."""

    sums: dict[str, PairedSums]
    dropped: int
    elapsed_s: float
    compile_s: float


def _play(
    setup: Setup,
    execution: Execution,
    seatings: _Seatings,
    on_block: Callable[[int, Design, list[np.ndarray]], None] | None,
) -> _Played:
    """Play every seating of deals ``0..n-1`` block by block (locally or on Dask) and merge
    each block's paired sums."""
    unit, seed, design, metrics = setup.unit, setup.seed, seatings.design, seatings.metrics
    pairs = list(zip(seatings.tables, seatings.players))
    recipe = None
    if execution.backend is Backend.dask:
        recipes = tuple(PlayRecipe.of(t, ps, unit, seed, True, setup.plugins) for t, ps in pairs)
        recipe = SeatingsRecipe(recipes, seatings.reduce)
    runners: list[BlockRunner] = []
    compile_s = 0.0
    if recipe is None:
        runners = [BlockRunner(t, ps, unit, seed) for t, ps in pairs]
        t_compile = time.perf_counter()
        for r in runners:
            r.records(0, 1, n_chunks=1)
        compile_s = time.perf_counter() - t_compile
    reduce = seatings.reduce
    work = Work(
        lambda: lambda first, count: reduce(first, [r.records(first, count) for r in runners]), recipe
    )
    played = _Played({m.name: PairedSums(seatings.k) for m in metrics}, 0, 0.0, compile_s)

    def merge(first: int, count: int, payload: tuple) -> None:
        part, drop, recs = payload
        if on_block is not None:
            on_block(first, design, recs)
        for m in metrics:
            played.sums[m.name].merge(part[m.name])
        played.dropped += drop
        execution.tick(count * len(design.seatings))

    # Every block's per-game records are held in memory: at most MAX_RECORDS_BLOCK games.
    block_size = execution.block_size if execution.block_size is not None else DEFAULT_BLOCK
    plan = BlockPlan([(0, setup.n)], block_size, max_block=MAX_RECORDS_BLOCK)
    ran = run_blocks(work, plan, merge, **execution.backend_options())
    played.elapsed_s = ran.elapsed_s
    played.compile_s += ran.compile_s
    return played


def block_sums(
    g: Game,
    table: Table,
    unit: str,
    design: Design,
    k: int,
    metrics: Sequence[Metric],
    appearances: np.ndarray,
    keep_records: bool,
    first: int,
    recs: list[np.ndarray],
) -> tuple[dict[str, PairedSums], int, list[np.ndarray] | None]:
    """One block's paired sums per metric and dropped deals, from every seating's records
    (a pure function of the block: it runs wherever the block is played)."""
    valid = None
    per_metric = {}
    for m in metrics:
        t, ok = _outcome_totals(g, table, unit, recs, design, k, m.name)
        per_metric[m.name] = t
        valid = ok if valid is None else valid & ok
    assert valid is not None
    sums = {m.name: PairedSums(k) for m in metrics}
    for m in metrics:
        sums[m.name].add(per_metric[m.name][valid], appearances, m.lower_is_better)
    return sums, int((~valid).sum()), recs if keep_records else None


def candidate_profiles(
    g: Game, table: Table, reactions: Sequence[Any] | None, k: int
) -> list[tuple[float, float] | None]:
    """Each candidate's own reaction profile, or None where it keeps the seat's."""
    if reactions is None:
        return [None] * k
    if not g.uses_reaction:
        raise InputError(f"{g.name} has no reaction model; reactions are for the Gris games")
    if len(reactions) != k:
        raise InputError(f"{len(reactions)} reaction profiles for {k} strategies: give one for each")
    out: list[tuple[float, float] | None] = []
    for r in reactions:
        if r is None:
            out.append(None)
        elif isinstance(r, str):
            out.append(parse_profile(r))
        else:
            out.append(parse_profile(f"{float(r[0])},{float(r[1])}"))
    return out


def label(spec: str, profile: tuple[float, float] | None) -> str:
    """A candidate's name in tables: its spec, and its reaction median when it has its own."""
    return spec if profile is None else f"{spec} @{profile[0]:g}s"


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


def _same_every_deal(s: PairedSums, a: np.ndarray, c: int, base: int) -> bool:
    """Whether candidate ``c`` minus the baseline was the same on every deal, decided exactly
    from the integer sums: with ``u = a_base·T_c − a_c·T_base`` per deal, the spread is 0
    exactly when ``n·Σu² = (Σu)²`` (Python integers: no rounding)."""
    ac, ab = int(a[c]), int(a[base])
    sum_u = ab * int(s.total[c]) - ac * int(s.total[base])
    sum_u2 = (
        ab * ab * int(s.cross[c, c])
        + ac * ac * int(s.cross[base, base])
        - 2 * ab * ac * int(s.cross[c, base])
    )
    return s.n * sum_u2 == sum_u * sum_u


def paired_test(
    diff: float, var_paired: float, n: int, same_every_deal: bool
) -> tuple[float | None, str | None]:
    """The two-sided p-value of a paired difference and the test that gave it.

    * fewer than 2 deals: no test (``None, None``): one deal says nothing about the spread;
    * the difference the same on every deal: the exact sign-flip (randomisation) test.  If
      the two strategies were interchangeable, each deal's difference would be as likely
      ``+d`` as ``−d``; of the ``2ⁿ`` sign patterns only the two constant ones reach the
      observed ``|mean|``, so ``p = 2·2⁻ⁿ`` (0.5 on 2 deals; 1 when ``d = 0``);
    * otherwise the normal (z) test on the mean of the per-deal differences.
    """
    from scipy import stats as sps

    if n < 2:
        return None, None
    if same_every_deal:
        return (1.0 if diff == 0 else math.ldexp(1.0, 1 - n)), "exact sign-flip"
    se_d = math.sqrt(var_paired / n)
    if se_d > 0:
        return float(2 * sps.norm.sf(abs(diff) / se_d)), "paired z-test"
    return (1.0 if diff == 0 else math.ldexp(1.0, 1 - n)), "exact sign-flip"


def _deal_covariance(s: PairedSums, a: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The means per deal ``m_c = T_c / a_c`` and their covariance (NaN below 2 deals)."""
    k, n = s.k, s.n
    if n < 1:
        return np.full(k, math.nan), np.full((k, k), math.nan)
    mean_t = s.total / n
    if n < 2:  # one deal: no spread to estimate
        return mean_t / a, np.full((k, k), math.nan)
    cov_t = (s.cross - n * np.outer(mean_t, mean_t)) / (n - 1)
    return mean_t / a, cov_t / np.outer(a, a)


def _interval(centre: float, var: float, n: int, z: float, scale: float) -> list[float]:
    """``centre ± z·√(var/n)``, scaled; NaN (JSON null) when it rests on fewer than 2 deals."""
    if n < 2 or not math.isfinite(var):
        return [math.nan, math.nan]
    se = math.sqrt(max(var, 0.0) / n)
    return [(centre - z * se) * scale, (centre + z * se) * scale]


def _difference_row(
    s: PairedSums,
    a: np.ndarray,
    means: np.ndarray,
    cov: np.ndarray,
    c: int,
    base: int,
    z: float,
    scale: float,
) -> dict[str, Any]:
    """Candidate ``c`` minus the baseline: the paired difference, its interval and test."""
    n = s.n
    diff = means[c] - means[base]
    same = n >= 2 and _same_every_deal(s, a, c, base)
    var_paired = 0.0 if same else max(cov[c, c] + cov[base, base] - 2 * cov[c, base], 0.0)
    var_unpaired = cov[c, c] + cov[base, base]
    p, test = paired_test(diff, var_paired, n, same)
    return {
        "diff": diff * scale,
        "diff_ci": _interval(diff, var_paired, n, z, scale),
        "p_value": p,
        "test": test,
        "same_every_deal": bool(same),
        "variance_reduction": (var_unpaired / var_paired) if n >= 2 and var_paired > 0 else None,
        "unpaired_diff_ci": _interval(diff, var_unpaired, n, z, scale),
    }


def _holm(rows: list[dict[str, Any]], base: int) -> None:
    """Holm-correct the p-values of the tested differences in ``rows`` (in place); a
    difference that was not tested (fewer than 2 deals) gets ``p_holm`` None and is never
    significant."""
    from statsmodels.stats.multitest import multipletests

    tested = [c for c, r in enumerate(rows) if c != base and r.get("p_value") is not None]
    for c, r in enumerate(rows):
        if c != base:
            r["p_holm"], r["significant"] = None, False
    if not tested:
        return
    reject, p_holm, _, _ = multipletests([rows[c]["p_value"] for c in tested], alpha=1 - LEVEL, method="holm")
    for i, c in enumerate(tested):
        rows[c]["p_holm"] = float(p_holm[i])
        rows[c]["significant"] = bool(reject[i])


def _metric_block(
    m: Metric, s: PairedSums, appearances: np.ndarray, specs: list[str], base: int
) -> tuple[list[dict], dict]:
    """Per-candidate means and paired differences to the baseline for one metric.

    Below 2 deals every interval is NaN (``null`` in JSON) and no difference is tested."""
    z = z_value()
    a = appearances.astype(np.float64)
    means, cov = _deal_covariance(s, a)
    rows = []
    for c in range(s.k):
        row: dict[str, Any] = {
            "player": specs[c],
            m.name: means[c] * m.scale,
            f"{m.name}_ci": _interval(means[c], cov[c, c], s.n, z, m.scale),
        }
        if c != base:
            row.update(_difference_row(s, appearances, means, cov, c, base, z, m.scale))
        rows.append(row)
    _holm(rows, base)
    info = {"name": m.name, "doc": m.doc, "lower_is_better": m.lower_is_better, "kind": m.kind}
    return rows, info


def bradley_terry(better: np.ndarray, specs: list[str], base: int) -> list[dict] | None:
    """Log-strengths from head-to-head deal wins (statsmodels GLM, logit link); baseline = 0."""
    import statsmodels.api as sm

    k = len(specs)
    if k < 3:
        return None
    rows, y, w = [], [], []
    for i, j in combinations(range(k), 2):
        wins_i, wins_j = int(better[i, j]), int(better[j, i])
        if wins_i + wins_j == 0:
            continue
        x = np.zeros(k)
        x[i], x[j] = 1.0, -1.0
        rows.append(np.delete(x, base))
        y.append([wins_i, wins_j])
        w.append(1)
    if not rows:
        return None
    try:
        with warnings.catch_warnings():
            # Small runs can separate perfectly; the intervals then say how little is known.
            warnings.simplefilter("ignore")
            model = sm.GLM(np.array(y), np.array(rows), family=sm.families.Binomial())
            fit = model.fit()
    except Exception:  # separation or a singular design: no ranking rather than a wrong one
        return None
    params = np.insert(np.asarray(fit.params), base, 0.0)
    ci = np.asarray(fit.conf_int(alpha=1 - LEVEL))
    if not (np.all(np.isfinite(params)) and np.all(np.isfinite(ci))):
        return None
    ci = np.insert(ci, base, [0.0, 0.0], axis=0)
    order = np.argsort(-params)
    return [
        {
            "rank": int(r + 1),
            "player": specs[c],
            "strength": float(params[c]),
            "strength_ci": [float(ci[c, 0]), float(ci[c, 1])],
        }
        for r, c in enumerate(order)
    ]


def summarise(
    g: Game,
    table: Table,
    unit: str,
    n: int,
    seed: int,
    cands: list[Player],
    field_player: Player | None,
    base: int,
    design: Design,
    metrics: Sequence[Metric],
    sums: dict[str, PairedSums],
    appearances: np.ndarray,
    names: Sequence[str] | None = None,
) -> dict[str, Any]:
    """The JSON summary; ``names`` label the candidates (default: their specs)."""
    specs = list(names) if names is not None else [p.spec for p in cands]
    per_metric = {}
    for m in metrics:
        rows, info = _metric_block(m, sums[m.name], appearances, specs, base)
        per_metric[m.name] = {**info, "strategies": rows}
    primary = metrics[0]
    better = sums[primary.name].better
    return {
        "schema_version": SCHEMA_VERSION,
        "kind": "compare",
        "game": g.name,
        "unit": unit,
        "n": n,
        "deals_used": sums[primary.name].n,
        "seed": seed,
        "players": table.n_seats,
        "rules": table.rules_dict(),
        "strategies": specs,
        "field": field_player.spec if field_player else None,
        "baseline": specs[base],
        "design": design.description,
        "seatings": design.seatings.tolist(),
        "games_played": int(n * len(design.seatings)),
        "metrics": per_metric,
        "head_to_head": {
            "metric": primary.name,
            "better": better.tolist(),
        },
        "ranking": bradley_terry(better, specs, base),
        "kortsim": package_version(),
    }


def _flat(row: dict[str, Any]) -> dict[str, Any]:
    """A JSON row with its ``<name>_ci`` pairs as ``<name>_lo`` / ``<name>_hi`` columns."""
    flat: dict[str, Any] = {}
    for key, v in row.items():
        if key.endswith("_ci"):
            flat[key[:-3] + "_lo"], flat[key[:-3] + "_hi"] = v
        else:
            flat[key] = v
    return flat


def frames_of(summary: dict[str, Any]) -> dict[str, pd.DataFrame]:
    """One DataFrame per metric (one row per candidate) and ``ranking`` (Bradley–Terry,
    with more than two candidates); intervals as ``_lo``/``_hi`` columns in all of them."""
    out = {}
    for name, block in summary["metrics"].items():
        out[name] = pd.DataFrame([_flat(r) for r in block["strategies"]])
    if summary.get("ranking"):
        out["ranking"] = pd.DataFrame([_flat(r) for r in summary["ranking"]])
    return out
