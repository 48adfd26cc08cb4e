"""The ``kortsim`` command: thin Typer commands over the Python API.

Every command turns bad input into one line on stderr and exit code 2;
a strategy that breaks the rules gives exit code 3.  Each command is a thin layer over a
library function that checks its input through :mod:`simulator.setup`; the commands are
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
* :mod:`simulator.cli.common` and :mod:`simulator.cli.outputs`: what they share.

The commands are registered here, in the order ``kortsim --help`` lists them.
"""

from __future__ import annotations

from simulator.cli.advise import advise_cmd
from simulator.cli.app import PlainUsage, app
from simulator.cli.calibrate import calibrate_cmd
from simulator.cli.common import CountedPlay, amount_flag, parse_rule_options, seed_hint, terminal_bar
from simulator.cli.comparisons import compare, sweep_cmd
from simulator.cli.experiment import ExperimentBar, experiment_app, experiment_command
from simulator.cli.info import games, report_cmd, strategies_cmd, warm
from simulator.cli.options import GameArg, GameId
from simulator.cli.outputs import check_outputs, claim_results_folder
from simulator.cli.play import report_stopped_run, resume_command, run_seed, simulate, trace
from simulator.cli.profile import profile_cmd
from simulator.cli.tabletop import play_cmd
from simulator.cli.tune import tune_cmd

app.command(cls=PlainUsage)(games)
app.command("strategies", cls=PlainUsage)(strategies_cmd)
app.command(cls=PlainUsage)(simulate)
app.command(cls=PlainUsage)(trace)
app.command("play", cls=PlainUsage)(play_cmd)
app.command(cls=PlainUsage)(compare)
app.command(cls=PlainUsage)(warm)
app.command("sweep", cls=PlainUsage)(sweep_cmd)
app.command("tune", cls=PlainUsage)(tune_cmd)
app.add_typer(experiment_app, name="experiment")
app.command("report", cls=PlainUsage)(report_cmd)
app.command("profile", cls=PlainUsage)(profile_cmd)
app.command("advise", cls=PlainUsage)(advise_cmd)
app.command("calibrate", cls=PlainUsage)(calibrate_cmd)


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
