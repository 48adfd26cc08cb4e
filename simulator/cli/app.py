"""The ``kortsim`` application: one line on stderr for every expected failure, the
command classes, the root callback and where log lines go."""

from __future__ import annotations

import logging
import re
import sys
from typing import Annotated, Any

import click
import typer
from typer.core import TyperCommand
from typer.exceptions import TyperException

from simulator.cli.commands import COMMANDS
from simulator.cli.lazy import LazyGroup
from simulator.cli.output import err
from simulator.cli.width import NARROWEST, ask_width
from simulator.errors import InputError, SpecError, StrategyError

# Typer may bring its own copy of click: catch both its exceptions and click's.
EXIT = (click.exceptions.Exit, typer.Exit)
ABORT = (click.exceptions.Abort, typer.Abort)
USAGE = (click.ClickException, TyperException)


class OneLineErrors(LazyGroup):
    """Every expected failure becomes one line on stderr and an exit code, never a traceback:
    2 for bad input (usage, specs, rules), 3 for a strategy that broke the rules.

    Its commands (:data:`simulator.cli.commands.COMMANDS`) are imported when used."""

    lazy_commands = COMMANDS

    def main(self, args=None, prog_name=None, complete_var=None, standalone_mode=True, **extra):
        _VERBOSE["on"] = False
        ask_width(None)  # each command decides its width afresh (tests call main many times)
        try:
            code = self._main(args, prog_name, complete_var, **extra)
        finally:
            ask_width(None)
        if standalone_mode:
            sys.exit(code)
        return code

    def _main(self, args, prog_name, complete_var, **extra) -> int:
        """Run the command; the exit code, with every expected failure said in one line."""
        try:
            rv = super().main(
                args=args, prog_name=prog_name, complete_var=complete_var, standalone_mode=False, **extra
            )
            code = rv if isinstance(rv, int) else 0
        except EXIT as e:
            code = e.exit_code
        except ABORT:
            err.print("aborted")
            code = 130
        except USAGE as e:
            if type(e).__name__ == "NoArgsIsHelpError":  # the help text itself
                err.print(e.format_message(), markup=False)
            else:
                # typer words a refused choice "Value error, 'x' is not one of ..."; click lists a
                # missing argument's choices one per line: say it all in one line
                message = " ".join(e.format_message().replace("Value error, ", "").split())
                err.print(f"error: {message}", markup=False)
            code = 2
        except (InputError, SpecError) as e:
            err.print(_error_text(e), markup=False)
            code = 2
        except StrategyError as e:
            err.print(f"error: {e}", markup=False)
            code = 3
        return code


class PlainUsage(TyperCommand):
    """A command whose usage line shows a required argument plainly, as ``GAME`` and ``DIR``
    (typer writes ``{GAME}``); optional ones keep their brackets."""

    def collect_usage_pieces(self, ctx: click.Context) -> list[str]:
        return [re.sub(r"^\{(.*)\}((?:\.\.\.)?)$", r"\1\2", p) for p in super().collect_usage_pieces(ctx)]


#: How every command and command group below ``kortsim`` is built (simulator.cli.lazy): no
#: completion of its own, plain tracebacks and plain help text.
COMMAND_SETTINGS: dict[str, Any] = {
    "add_completion": False,
    "pretty_exceptions_enable": False,
    "rich_markup_mode": None,
}
OneLineErrors.lazy_command_class = PlainUsage
OneLineErrors.lazy_settings = COMMAND_SETTINGS

app = typer.Typer(
    cls=OneLineErrors,
    name="kortsim",
    help="Monte Carlo strategy simulator for Gris, Gris-nese and Spøkelse.",
    no_args_is_help=True,
    add_completion=True,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
    # Choices (the game ids above all) are read in any case, with ø as o and _ as -, as
    # simulator.games.get_game reads them: `Spøkelse` and `gris_nese` keep working.
    context_settings={"token_normalize_func": lambda t: t.lower().replace("ø", "o").replace("_", "-")},
)


def _version(value: bool) -> None:
    """``kortsim --version``: the package's version, then exit."""
    if value:
        from importlib.metadata import version

        typer.echo(f"kortsim {version('kortsim')}")
        raise typer.Exit()


def _width(value: int | None) -> int | None:
    """``kortsim --width N``: print the command's output N columns wide."""
    if value is not None and value < NARROWEST:
        raise InputError(f"--width {value}: give {NARROWEST} columns or more")
    ask_width(value)
    return value


@app.callback()
def _root(
    version: Annotated[
        bool,
        typer.Option("--version", help="Print kortsim's version and exit.", callback=_version, is_eager=True),
    ] = False,
    width: Annotated[
        int | None,
        typer.Option(
            "--width",
            metavar="N",
            help="Print N columns wide (default: the terminal's width, or COLUMNS when set; "
            "140 when the output is not a terminal).",
            callback=_width,
        ),
    ] = None,
) -> None:
    """Monte Carlo strategy simulator for Gris, Gris-nese and Spøkelse."""


class _ToStderr(logging.Handler):
    """kortsim's log lines (such as "compiling ...") on stderr, above any progress bar."""

    def emit(self, record: logging.LogRecord) -> None:
        err.print(self.format(record), markup=False)


if not any(isinstance(h, _ToStderr) for h in logging.getLogger("kortsim").handlers):
    logging.getLogger("kortsim").addHandler(_ToStderr())


# --verbose: the full compiler message when a strategy does not compile (set while parsing).
_VERBOSE = {"on": False}


def _set_verbose(value: bool) -> bool:
    _VERBOSE["on"] = _VERBOSE["on"] or bool(value)
    return value


def _error_text(e: Exception) -> str:
    """``error: ...`` in one line; with ``--verbose``, numba's full message above it."""
    details = getattr(e, "details", "")
    if not details:
        return f"error: {e}"
    if _VERBOSE["on"]:
        return f"{details.rstrip()}\nerror: {e}"
    return f"error: {e} (--verbose shows numba's full message)"
