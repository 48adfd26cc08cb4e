"""The ``kortsim`` command: thin Typer commands over the Python API.

Every command turns bad input into one line on stderr and exit code 2;
a strategy that breaks the rules gives exit code 3.  Each command is a thin layer over a
library function that checks its input through :mod:`simulator.running.setup`; the commands are
grouped by module:

* :mod:`simulator.cli.app`: the application, its one-line errors and the command classes;
* :mod:`simulator.cli.options`: the options the commands share;
* :mod:`simulator.cli.play`: ``simulate`` and ``trace``;
* :mod:`simulator.cli.tabletop`: ``play`` (a match against the bots in the terminal);
* :mod:`simulator.cli.comparisons`: ``compare`` and ``sweep``;
* :mod:`simulator.cli.tune`: ``tune``;
* :mod:`simulator.cli.experiment`: ``experiment list`` and ``experiment run``;
* :mod:`simulator.cli.info`: ``games``, ``strategies``, ``warm`` and ``report``;
* :mod:`simulator.cli.profile`: ``profile``;
* :mod:`simulator.cli.advise`: ``advise``;
* :mod:`simulator.cli.calibrate`: ``calibrate``;
* :mod:`simulator.cli.common` and :mod:`simulator.cli.outputs`: what they share;
* :mod:`simulator.cli.output`, :mod:`simulator.cli.compare_output` and
  :mod:`simulator.cli.tables`: what they print, fitted to the width
  :mod:`simulator.cli.width` decides.

The commands are listed in :mod:`simulator.cli.commands`, in the order ``kortsim --help``
lists them; a command's module is imported only when it is used (:mod:`simulator.cli.lazy`),
so that ``kortsim --version``, ``--help`` and Tab completion start as fast as typer itself.

Imports: every layer below (the Python API, the analyses, the run path), each inside the
command that uses it; nothing imports the CLI but its entry point.
"""

from __future__ import annotations

import importlib
from typing import Any

from simulator.cli.app import app

#: the names this package re-exports -> the module that defines them (imported on first use)
_LAZY = {
    "CountedPlay": "simulator.cli.common",
    "amount_flag": "simulator.cli.common",
    "parse_rule_options": "simulator.cli.common",
    "seed_hint": "simulator.cli.common",
    "terminal_bar": "simulator.cli.common",
    "PlainUsage": "simulator.cli.app",
    "ExperimentBar": "simulator.cli.experiment",
    "experiment_app": "simulator.cli.experiment",
    "experiment_command": "simulator.cli.experiment",
    "GameArg": "simulator.cli.options",
    "GameId": "simulator.cli.options",
    "check_outputs": "simulator.cli.outputs",
    "claim_results_folder": "simulator.cli.outputs",
    "report_stopped_run": "simulator.cli.play",
    "resume_command": "simulator.cli.play",
    "run_seed": "simulator.cli.play",
    "simulate": "simulator.cli.play",
    "trace": "simulator.cli.play",
    "advise_cmd": "simulator.cli.advise",
    "calibrate_cmd": "simulator.cli.calibrate",
    "compare": "simulator.cli.comparisons",
    "sweep_cmd": "simulator.cli.comparisons",
    "games": "simulator.cli.info",
    "report_cmd": "simulator.cli.info",
    "strategies_cmd": "simulator.cli.info",
    "warm": "simulator.cli.info",
    "profile_cmd": "simulator.cli.profile",
    "play_cmd": "simulator.cli.tabletop",
    "tune_cmd": "simulator.cli.tune",
}


def __getattr__(name: str) -> Any:
    if name not in _LAZY:
        raise AttributeError(f"module 'simulator.cli' has no attribute {name!r}")
    value = getattr(importlib.import_module(_LAZY[name]), name)
    globals()[name] = value
    return value


def main() -> None:
    """Console entry point."""
    app(prog_name="kortsim")


__all__ = [
    "CountedPlay",
    "ExperimentBar",
    "GameArg",
    "GameId",
    "amount_flag",
    "app",
    "check_outputs",
    "claim_results_folder",
    "experiment_command",
    "main",
    "parse_rule_options",
    "report_stopped_run",
    "resume_command",
    "run_seed",
    "seed_hint",
    "terminal_bar",
]
