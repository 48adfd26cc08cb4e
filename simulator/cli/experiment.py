"""``kortsim experiment list`` and ``kortsim experiment run``."""

from __future__ import annotations

import shlex
from pathlib import Path
from typing import Annotated, Any

import typer

from simulator.cli import completion, declared
from simulator.cli.app import COMMAND_SETTINGS, PlainUsage
from simulator.cli.options import Threads
from simulator.cli.output import err, out
from simulator.cli.outputs import check_outputs
from simulator.cli.tables import print_indented
from simulator.errors import InputError
from simulator.running.results import dumps_json

experiment_app = typer.Typer(
    name="experiment",
    help="Named, versioned studies: `kortsim experiment list`, `kortsim experiment run NAME`.",
    no_args_is_help=True,
    **COMMAND_SETTINGS,
)


@experiment_app.command("list", cls=PlainUsage)
def experiment_list(
    as_json: Annotated[bool, typer.Option("--json", help="Machine-readable output.")] = False,
) -> None:
    """The experiments, their versions and the questions they answer."""
    import experiments

    rows = experiments.list_experiments()
    if as_json:
        print(dumps_json(rows))
        return
    for r in rows:
        out.print(f"[bold]{r['name']}[/bold]  v{r['version']}  {r['title']}")
        print_indented(out, r["question"])


class ExperimentBar:
    """A rich progress bar with a time estimate over an experiment's steps (weighted by cost)."""

    def __init__(self) -> None:
        from rich.progress import (
            BarColumn,
            Progress,
            TaskProgressColumn,
            TextColumn,
            TimeElapsedColumn,
        )

        from simulator.running.progress import TimeLeftColumn

        self.bar = Progress(
            TextColumn("[progress.description]{task.description}"),
            BarColumn(),
            TaskProgressColumn(),
            TimeElapsedColumn(),
            TimeLeftColumn(),
            console=err,
            transient=True,
        )
        self.task = None

    def plan(self, total_cost: float, steps: int, resumed: int) -> None:
        self.task = self.bar.add_task("starting", total=max(total_cost, 1.0))
        self.bar.start()

    def step(self, index: int, steps: int, label: str, resumed: bool) -> None:
        if self.task is not None:
            text = f"{index}/{steps} {label}"
            width = max(20, err.width - 50)  # leave room for the bar and the times
            self.bar.update(self.task, description=text if len(text) <= width else text[: width - 1] + "…")

    def advance(self, cost: float) -> None:
        if self.task is not None:
            self.bar.advance(self.task, cost)

    def stop(self) -> None:
        self.bar.stop()


def experiment_command(name: str, size: str, out_dir: Path, seed: int | None, threads: int | None) -> str:
    """The command that resumes an interrupted experiment run."""
    args = ["kortsim", "experiment", "run", name]
    if size != "full":
        args.append(f"--{size}")
    args += ["--out", str(out_dir)]
    if seed is not None:
        args += ["--seed", str(seed)]
    if threads is not None:
        args += ["--threads", str(threads)]
    return shlex.join([*args, "--resume"])


ExperimentName = Annotated[
    str,
    typer.Argument(
        metavar="NAME",
        help=f"Experiment: {', '.join(declared.constant('experiments', 'EXPERIMENTS'))} "
        "(see `kortsim experiment list`).",
        autocompletion=completion.experiment_names,
    ),
]
Quick = Annotated[bool, typer.Option("--quick", help="The quick size: under five minutes on two cores.")]
Tiny = Annotated[bool, typer.Option("--tiny", help="The tiny size: seconds (what the tests run).")]
ExperimentOut = Annotated[
    Path | None,
    typer.Option(
        "--out",
        metavar="DIR",
        help="Results folder (default: results/NAME); it keeps every finished step, so an "
        "interrupted run can be resumed.",
    ),
]
ExperimentResume = Annotated[
    bool,
    typer.Option("--resume", help="Continue the run in --out: only the steps not finished are played."),
]
ExperimentSeed = Annotated[
    int | None, typer.Option("--seed", metavar="N", help="Seed (default: the experiment's own).")
]
ExperimentJson = Annotated[
    bool, typer.Option("--json", help="Print the headlines and answer as JSON (no progress shown).")
]


@experiment_app.command("run", cls=PlainUsage)
def experiment_run(
    name: ExperimentName,
    quick: Quick = False,
    tiny: Tiny = False,
    out_dir: ExperimentOut = None,
    resume: ExperimentResume = False,
    seed: ExperimentSeed = None,
    threads: Threads = None,
    as_json: ExperimentJson = False,
) -> None:
    """Run an experiment (the full study unless --quick or --tiny) and write its report."""
    import experiments
    from simulator.running.setup import execution_of, resolve_seed

    if quick and tiny:
        raise InputError("give at most one of --quick and --tiny")
    size = "quick" if quick else "tiny" if tiny else "full"
    mod = experiments.get(name)  # an unknown name fails before anything runs
    backend = {"threads": threads} if threads is not None else {}
    execution_of(backend)  # checked as every other command checks it (simulator/running/setup.py)
    if seed is not None:
        resolve_seed(seed)
    folder = out_dir if out_dir is not None else experiments.default_out(mod.NAME)
    check_outputs(out_dir=folder)  # before any step is played
    bar, progress = _experiment_progress(mod.NAME, as_json)
    try:
        res = experiments.run(
            name, size=size, out_dir=out_dir, seed=seed, progress=progress, resume=resume, **backend
        )
    except experiments.ExperimentInterrupted as exc:
        if bar is not None:
            bar.stop()
            bar = None
        err.print(f"interrupted: {exc.out} holds {exc.done} of {exc.steps} steps", markup=False)
        command = experiment_command(mod.NAME, size, folder, seed, threads)
        err.print(f"to finish it: {command}", markup=False, soft_wrap=True)
        raise typer.Exit(130) from None
    finally:
        if bar is not None:
            bar.stop()
    _print_experiment(res, mod.NAME, size, as_json)


def _experiment_progress(name: str, as_json: bool) -> tuple[ExperimentBar | None, Any]:
    """How an experiment shows its progress: nothing with ``--json``, a bar on a terminal,
    else one line per step on stderr."""
    import experiments

    if as_json:
        return None, None
    if err.is_terminal:
        bar = ExperimentBar()
        return bar, bar
    return None, experiments.as_progress(lambda msg: err.print(f"{name}: {msg}", markup=False))


def _print_experiment(res: Any, name: str, size: str, as_json: bool) -> None:
    """The headlines of a finished experiment (or its JSON), and where its report went."""
    if as_json:
        print(dumps_json(res.to_json()))
        return
    for h in res.headlines:
        out.print(h.question, markup=False)
        print_indented(out, h.answer, 2)
    out.print(f"(the answer in more detail: {res.report_md})", markup=False)
    err.print(f"{name} ({size}) took {res.elapsed_s:.1f} s; wrote {res.report_html} and {res.summary_path}")
