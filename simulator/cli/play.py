"""``kortsim simulate`` and ``kortsim trace``: thin commands over :func:`simulator.api.run`
(the setup and execution built through :mod:`simulator.running.setup`, as :func:`simulator.simulate`
builds them) and :func:`simulator.trace`."""

from __future__ import annotations

import shlex
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from simulator.cli.common import parse_rule_options, seed_hint, terminal_bar
from simulator.cli.options import (
    Backend,
    BackendOpt,
    BlockSize,
    ConnectTimeout,
    GameArg,
    Players,
    Plugins,
    Reaction,
    RecordsFlag,
    ResumeFlag,
    Rules,
    RunMatches,
    RunOut,
    RunRounds,
    Scheduler,
    Seed,
    Strategies,
    Threads,
    Verbose,
    Workers,
)
from simulator.cli.output import err, out, print_partial, print_result
from simulator.cli.outputs import check_outputs
from simulator.errors import InputError

if TYPE_CHECKING:
    from simulator.running.checkpoint import RunInterrupted

# The run machinery (numba, the kernels) is imported inside the commands, so that
# `kortsim simulate --help` and Tab completion do not wait for it.


def resume_command(
    game: str,
    strategy: list[str],
    rounds: int | None,
    matches: int | None,
    seed: int | None,
    rule: list[str] | None,
    players: int | None,
    reaction: list[str] | None,
    plugin: list[Path] | None,
    out_dir: Path,
    records: bool,
    backend: str,
    scheduler: str | None,
    workers: int | None,
    connect_timeout: float | None = None,
) -> str:
    """The command that finishes an interrupted run."""
    args = ["kortsim", "simulate", game]
    for p in plugin or []:
        args += ["--plugin", str(p)]
    for s in strategy:
        args += ["-s", s]
    args += ["--rounds", str(rounds)] if rounds is not None else ["--matches", str(matches)]
    if seed is not None:
        args += ["--seed", str(seed)]
    for r in rule or []:
        args += ["--rule", r]
    if players is not None:
        args += ["--players", str(players)]
    for r in reaction or []:
        args += ["--reaction", r]
    backend = getattr(backend, "value", backend)
    if backend != "local":
        args += ["--backend", backend]
    if scheduler is not None:
        args += ["--scheduler", scheduler]
    if workers is not None:
        args += ["--workers", str(workers)]
    if connect_timeout is not None:
        args += ["--connect-timeout", f"{connect_timeout:g}"]
    args += ["--out", str(out_dir)]
    if records:
        args.append("--records")
    args.append("--resume")
    return shlex.join(args)


def simulate(
    game: GameArg,
    strategy: Strategies,
    rounds: RunRounds = None,
    matches: RunMatches = None,
    seed: Seed = None,
    rule: Rules = None,
    players: Players = None,
    reaction: Reaction = None,
    plugin: Plugins = None,
    verbose: Verbose = False,
    threads: Threads = None,
    block_size: BlockSize = None,
    out_dir: RunOut = None,
    resume: ResumeFlag = False,
    records: RecordsFlag = False,
    backend: BackendOpt = Backend.local,
    scheduler: Scheduler = None,
    workers: Workers = None,
    connect_timeout: ConnectTimeout = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the JSON summary.")] = False,
) -> None:
    """Play many games between strategies; print figures with 95% intervals."""
    from simulator import api
    from simulator.running.checkpoint import RunInterrupted
    from simulator.running.setup import Execution, Setup

    if out_dir is None and (resume or records):
        raise InputError(f"{'--resume' if resume else '--records'} needs --out DIR (the run's folder)")
    check_outputs(out_dir=out_dir, what="run folder", write=False)  # the run's lock tests writing
    execution = Execution.build(
        threads=threads, block_size=block_size, backend=backend.value, scheduler=scheduler, workers=workers,
        connect_timeout=connect_timeout, out=out_dir, resume=resume, records=records,
    )  # fmt: skip
    setup = Setup.build(
        game, strategy, rounds=rounds, matches=matches, seed=run_seed(seed, resume, out_dir),
        rules=parse_rule_options(rule), players=players, reaction=reaction, plugins=plugin or [],
    )  # fmt: skip
    chosen_seed = setup.seed
    try:
        with terminal_bar("playing", quiet=as_json, total=setup.n) as bar:
            result = api.run(setup, execution.with_progress(bar))
    except RunInterrupted as exc:
        command = resume_command(
            game, strategy, rounds, matches, chosen_seed, rule, players, reaction, plugin,
            exc.out or out_dir, records, backend, scheduler, workers, connect_timeout,
        )  # fmt: skip
        report_stopped_run(exc, command, as_json)
    if out_dir is not None and not as_json:
        err.print(f"wrote {out_dir / 'summary.parquet'}" + (f" and {out_dir / 'records'}" if records else ""))
    if as_json:
        print(result.to_json())
    else:
        print_result(result)
    seed_hint(chosen_seed if resume else seed, chosen_seed, quiet=as_json)  # a resumed run keeps its seed


def run_seed(seed: int | None, resume: bool, out_dir: Path | None) -> int | None:
    """The seed of a ``simulate`` run: the one given, a resumed run's own (None when the
    folder has none: then there is nothing to resume), or a fresh one."""
    from simulator import api

    if resume and seed is None:
        from simulator.running.checkpoint import stored_seed

        return stored_seed(out_dir)  # type: ignore[arg-type]
    return api.resolve_seed(seed)


def report_stopped_run(exc: RunInterrupted, command: str, as_json: bool) -> None:
    """A run stopped by Ctrl-C, then exit code 130: without ``--out``, the figures of the
    games that finished (marked partial); with it, what the folder holds and ``command``,
    which finishes the run."""
    units = "rounds" if exc.unit == "round" else "matches"
    if exc.out is None:  # nothing kept on disk: show what finished, marked partial
        print_partial(exc, units, as_json)
        raise typer.Exit(130) from None
    held = f"{exc.out} holds {exc.games:,} of {exc.planned:,} {units}"
    if exc.result is not None:
        held += f" ({exc.out / 'summary.parquet'} has their figures)"
    err.print(f"interrupted: {held}", markup=False)
    err.print(f"to finish it: {command}", markup=False, soft_wrap=True)
    raise typer.Exit(130) from None


def trace(
    game: GameArg,
    strategy: Strategies,
    seed: Annotated[int, typer.Option("--seed", metavar="N", help="The run's seed.")],
    game_index: Annotated[
        int,
        typer.Option("--game", metavar="INDEX", help="Which game of the run (counting from 0, below 2**63)."),
    ] = 0,
    matches: Annotated[
        bool, typer.Option("--matches", help="Trace match number --game, not a round.")
    ] = False,
    rule: Rules = None,
    players: Players = None,
    reaction: Reaction = None,
    plugin: Plugins = None,
    verbose: Verbose = False,
    max_lines: Annotated[
        int,
        typer.Option(
            "--max-lines",
            metavar="N",
            help="Print at most N lines of moves (default 2000; 0 for all): the start and the end "
            "of the game are kept and one line says how many were left out.",
        ),
    ] = 2000,
) -> None:
    """Show one game of a seeded run, move by move, from the readable reference rules.

    The trace opens with the run (seed, game index), the table size, the rule variants in
    force and the strategy in each seat.  A strategy that makes an illegal move ends it with
    one line naming the strategy, its seat and the decision (exit code 3).
    """
    from simulator import api

    text = api.trace(
        game,
        strategy,
        seed=seed,
        game_index=game_index,
        unit="match" if matches else "round",
        rules=parse_rule_options(rule),
        players=players,
        reaction=reaction,
        plugins=[str(p) for p in plugin or []],
        max_lines=max_lines,
    )
    out.print(text, markup=False)
