"""A command group that imports a command's module only when that command is used.

click's documented pattern for lazy subcommands: the group knows each command by name,
module and one line of help (:data:`simulator.cli.commands.COMMANDS`), so ``kortsim --help``
and the Tab completion of command names import no command module, and ``kortsim simulate
...`` imports only :mod:`simulator.cli.play`.  A command is turned into a click command the
way ``app.command()`` would (``typer.main.get_command`` on a one-command Typer); a Typer of
commands (``experiment``) as ``app.add_typer()`` would.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, MutableMapping
from importlib import import_module
from typing import Any, NamedTuple

import typer
from typer import core as _typer_core
from typer.core import TyperGroup

# The click the group classes of this typer build on (typer may vendor its own copy).
_click: Any = getattr(_typer_core, "_click", None) or import_module("click")


class Lazy(NamedTuple):
    """One command: where its function (or Typer) is, and its help's first paragraph."""

    target: str  # "module:attribute"
    help: str


class LazyCommands(MutableMapping):
    """The group's commands by name: a lazy one is loaded when it is first looked up;
    listing the names loads nothing."""

    def __init__(self, loaded: Mapping[str, Any], table: Mapping[str, Lazy], load: Callable) -> None:
        self._loaded = dict(loaded)
        self._table = table
        self._load = load

    def loaded(self, name: str) -> bool:
        return name in self._loaded

    def __getitem__(self, name: str) -> Any:
        if name not in self._loaded:
            if name not in self._table:
                raise KeyError(name)
            self._loaded[name] = self._load(name, self._table[name])
        return self._loaded[name]

    def __setitem__(self, name: str, cmd: Any) -> None:
        self._loaded[name] = cmd

    def __delitem__(self, name: str) -> None:
        self._loaded.pop(name, None)
        if name in self._table:
            self._table = {k: v for k, v in self._table.items() if k != name}

    def __iter__(self) -> Iterator[str]:
        yield from self._table
        yield from (n for n in self._loaded if n not in self._table)

    def __len__(self) -> int:
        return len({*self._table, *self._loaded})


class _Listed:
    """A command not yet loaded, as the command listing sees it (its short help)."""

    hidden = False

    def __init__(self, help: str) -> None:
        self.help = help

    def get_short_help_str(self, limit: int = 45) -> str:
        return _click.utils.make_default_short_help(self.help, limit)


class LazyGroup(TyperGroup):
    """A :class:`typer.core.TyperGroup` whose commands are loaded on first use.

    Subclasses set :attr:`lazy_commands` (name -> :class:`Lazy`, in listing order) and
    :attr:`command_class` (the class a lazy command is built with)."""

    lazy_commands: Mapping[str, Lazy] = {}
    lazy_command_class: type | None = None
    #: the settings a lazy command is built with (those of the application)
    lazy_settings: Mapping[str, Any] = {}

    def __init__(self, **attrs: Any) -> None:
        super().__init__(**attrs)
        self.commands = LazyCommands(self.commands, dict(self.lazy_commands), self._load_command)

    def _load_command(self, name: str, entry: Lazy) -> Any:
        module, _, attr = entry.target.partition(":")
        obj = getattr(import_module(module), attr)
        if isinstance(obj, typer.Typer):
            group = typer.Typer(**self.lazy_settings)
            group.add_typer(obj, name=name)
            return typer.main.get_command(group).commands[name]  # type: ignore[attr-defined]
        one = typer.Typer(**self.lazy_settings)
        one.command(name, cls=self.lazy_command_class)(obj)
        return typer.main.get_command(one)

    def _listing(self, ctx: Any) -> list[tuple[str, Any]]:
        """Every visible command with what tells its short help, loading none."""
        commands = self.commands
        rows = []
        for name in self.list_commands(ctx):
            lazy = isinstance(commands, LazyCommands) and not commands.loaded(name)
            cmd = _Listed(self.lazy_commands[name].help) if lazy else self.get_command(ctx, name)
            if cmd is not None and not cmd.hidden:
                rows.append((name, cmd))
        return rows

    def list_commands(self, ctx: Any) -> list[str]:
        return list(self.commands)

    def format_commands(self, ctx: Any, formatter: Any) -> None:
        commands = self._listing(ctx)
        if commands:
            limit = formatter.width - 6 - max(len(name) for name, _ in commands)
            rows = [(name, cmd.get_short_help_str(limit)) for name, cmd in commands]
            with formatter.section("Commands"):
                formatter.write_dl(rows)

    def shell_complete(self, ctx: Any, incomplete: str) -> list[Any]:
        from typer.core import CompletionItem

        results = [
            CompletionItem(name, help=cmd.get_short_help_str())
            for name, cmd in self._listing(ctx)
            if name.startswith(incomplete)
        ]
        results.extend(_click.Command.shell_complete(self, ctx, incomplete))
        return results


__all__ = ["Lazy", "LazyCommands", "LazyGroup"]
