"""Shell completion for kortsim's command line: experiment names, strategy specs, rule names.

Each function takes the click context (what was parsed so far, e.g. the game given
before the option) and the word being completed, and returns ``(value, help)`` pairs
for the words that begin with it.  They never raise: a completion that cannot be
worked out (no game given yet, an unknown game) offers nothing, and the command itself
reports the mistake when it runs.  They read the shipped declarations from the modules' text
(:mod:`simulator.cli.declared`), so that a Tab never waits for numba or pandas::

    typer.Argument(..., autocompletion=completion.experiment_names)
    typer.Option("--strategy", "-s", autocompletion=completion.strategy_specs)
    typer.Option("--rule", autocompletion=completion.rule_names)
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any, TypeVar

import click

from simulator.cli import declared

T = TypeVar("T")


def _game(ctx: click.Context | None, args: list[str] | None = None) -> str | None:
    """The game id given on the command line so far, or None.

    ``ctx.params["game"]`` when click parsed it; while an option waits for its value
    (``-s <Tab>``) click leaves the arguments unparsed (in ``ctx.args``), so those words
    and ``args`` are searched for a game id as well."""
    from simulator.games import GAMES

    words = list(args or [])
    c = ctx
    while c is not None:
        value = (c.params or {}).get("game")
        if value is not None:
            return str(getattr(value, "value", value)).strip().lower().replace("_", "-")
        words += [*getattr(c, "args", []), *getattr(c, "_protected_args", [])]
        c = c.parent
    for word in words:
        key = str(word).strip().lower().replace("_", "-")
        if key in GAMES:
            return key
    return None


def _first_line(text: str | None) -> str:
    return (text or "").strip().splitlines()[0] if (text or "").strip() else ""


def experiment_names(ctx: click.Context, incomplete: str) -> list[tuple[str, str]]:
    """Experiment names starting with ``incomplete``, each with its title.

    Parameters
    ----------
    ctx : click.Context
        The command line parsed so far (unused: every experiment is offered).
    incomplete : str
        The start of the name being typed.

    Returns
    -------
    list of (str, str)
        ``(name, title)`` for every matching experiment.
    """
    return [(name, title) for name, title in experiment_table().items() if name.startswith(incomplete or "")]


def experiment_table() -> dict[str, str]:
    """Every experiment's name and title, read from the experiments' text (imported only when
    a declaration is not a literal)."""
    try:
        return declared.experiment_titles()
    except declared.Unreadable:
        pass
    import experiments

    out = {}
    for name, module in experiments.EXPERIMENTS.items():
        try:
            out[name] = experiments.get(name).TITLE
        except Exception:  # a broken module still completes by name
            out[name] = module
    return out


def _families(game: str) -> dict[str, Any]:
    """The strategy families of ``game``: the shipped ones as declared, and any registered in
    this process (a plugin or a notebook's) when the registry is loaded already."""
    try:
        fams: dict[str, Any] = dict(declared.strategy_families(game))
    except declared.Unreadable:
        import strategies

        fams = strategies.families(game)
    registry = sys.modules.get("strategies.registry")
    if registry is not None:
        fams.update(registry.families(game))
    return fams


def _of_game(
    ctx: click.Context | None, args: list[str] | None, read: Callable[[str], T]
) -> tuple[str, T] | None:
    """The game on the command line so far (:func:`_game`) and what ``read`` gives for it
    (its strategy families, its rule variants).

    None when no (known) game was given yet or ``read`` failed: a completion then offers
    nothing, and the command reports the mistake when it runs.
    """
    game = _game(ctx, args)
    if game is None:
        return None
    try:
        return game, read(game)
    except Exception:
        return None


def strategy_specs(
    ctx: click.Context, args: list[str] | None = None, incomplete: str = ""
) -> list[tuple[str, str]]:
    """Strategy specs for the game on the command line, starting with ``incomplete``.

    Before a ``:`` the strategy families of the game are offered (``threshold``,
    ``expect``, ...); after ``NAME:`` (or ``NAME:a=1,``) the parameters not yet given,
    as ``NAME:...,param=`` with the parameter's range.

    Parameters
    ----------
    ctx : click.Context
        The command line parsed so far; ``ctx.params["game"]`` names the game.
    args : list of str, optional
        The words typed so far (searched for the game when click has not parsed it).
    incomplete : str
        The spec being typed.

    Returns
    -------
    list of (str, str)
        ``(spec, help)`` pairs; empty when no (known) game was given yet.
    """
    found = _of_game(ctx, args, _families)
    if found is None:
        return []
    game, fams = found
    incomplete = incomplete or ""
    name, colon, body = incomplete.partition(":")
    if not colon:
        return [
            (n, _first_line(getattr(f, "doc", "")) or f"{game} strategy")
            for n, f in sorted(fams.items())
            if n.startswith(name)
        ]
    fam = fams.get(name)
    if fam is None:
        return []
    given, _, typing = body.rpartition(",")
    head = f"{name}:{given + ',' if given else ''}"
    done = {item.partition("=")[0].strip() for item in given.split(",") if item.strip()}
    if "=" in typing:  # typing a value: nothing to offer but the range
        return []
    out = []
    for p in fam.params:
        if p.name in done or not p.name.startswith(typing.strip()):
            continue
        out.append((f"{head}{p.name}=", f"{_num(p.low)} to {_num(p.high)}, default {_num(p.default)}"))
    return out


def rule_names(
    ctx: click.Context, args: list[str] | None = None, incomplete: str = ""
) -> list[tuple[str, str]]:
    """``NAME=`` for each rule variant of the game on the command line, with its meaning.

    Takes ``ctx`` and ``args`` as :func:`strategy_specs` does, and ``incomplete``, the rule
    being typed; returns ``("NAME=", doc)`` pairs, none when no (known) game was given yet.
    """
    found = _of_game(ctx, args, _variants)
    if found is None:
        return []
    variants = found[1]
    incomplete = incomplete or ""
    if "=" in incomplete:
        return []
    return [(f"{k}=", _first_line(doc)) for k, doc in variants.items() if k.startswith(incomplete)]


def _variants(game: str) -> dict[str, str]:
    """The rule variants of ``game`` and their docs, as declared (or from the game itself)."""
    try:
        return declared.rule_variants(game)
    except declared.Unreadable:
        from simulator.games import get_game

        return {k: v.doc for k, v in get_game(game).variants.items()}


def _num(x: Any) -> str:
    x = float(x)
    return f"{x:g}"


__all__ = ["experiment_names", "experiment_table", "rule_names", "strategy_specs"]
