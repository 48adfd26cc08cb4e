"""``kortsim play``: a match against the bots in the terminal, a thin command over
:func:`simulator.tabletop.play`."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from simulator.cli.common import parse_rule_options
from simulator.cli.options import GameArg, Players, Reaction, Rules, Seed
from simulator.cli.output import err, out


def play_cmd(
    game: GameArg,
    vs: Annotated[
        list[str] | None,
        typer.Option(
            "--vs",
            metavar="SPEC",
            help="The bots' strategy: once for every bot, or once per bot seat (1, 2, ...) in order "
            "(default: the game's default opponent; expect in Spøkelse).",
        ),
    ] = None,
    players: Players = None,
    seed: Seed = None,
    rule: Rules = None,
    reaction: Reaction = None,
    advice_samples: Annotated[
        int,
        typer.Option(
            "--advice-samples",
            metavar="N",
            help="Spøkelse: continuations replayed to price each of your choices that differ from "
            "expect's (default 50; 0: name the choices only).",
        ),
    ] = 50,
    save_reaction: Annotated[
        Path | None,
        typer.Option(
            "--save-reaction",
            metavar="FILE",
            help="Gris games: save your measured reaction profile (JSON) for --reaction SEAT=FILE.",
        ),
    ] = None,
    save_profile: Annotated[
        Path | None,
        typer.Option(
            "--save-profile",
            metavar="FILE",
            help="Save your player profile (JSON): in Spøkelse your memory estimated from your "
            "choices, for -s expect@FILE; in the Gris games your reaction profile, for --reaction.",
        ),
    ] = None,
    face_down: Annotated[
        bool,
        typer.Option(
            "--face-down",
            help="Spøkelse: the cards in the rows lie face down as at a real table (you must remember "
            "them); your memory is estimated at the end.",
        ),
    ] = False,
    signal_wait: Annotated[
        str,
        typer.Option(
            "--signal-wait",
            metavar="MIN,MAX",
            help="Gris games: seconds before another player's signal is shown (uniform, default 1,4).",
        ),
    ] = "1,4",
) -> None:
    """Play a match against the bots: you are seat 0.

    You see exactly what your seat knows; each bot move is shown as a line.  At the end of
    a round everything is turned over.  Afterwards: what a stronger strategy would have
    chosen, and (Spøkelse) what your choices cost; in the Gris games your reaction times,
    which --save-reaction keeps.  Ctrl-C leaves (exit code 130).
    """
    from simulator.tabletop import Left, Terminal, play

    terminal = Terminal(out)
    try:
        play(
            game.value, vs or [], players=players, seed=seed, rules=parse_rule_options(rule),
            reaction=reaction, advice_samples=advice_samples, save_reaction=save_reaction,
            signal_wait=signal_wait, seat=terminal, save_profile=save_profile, face_down=face_down,
        )  # fmt: skip
    except (Left, KeyboardInterrupt, EOFError) as exc:
        said = str(exc) if isinstance(exc, Left) else ""
        if terminal.mid_line:  # after the prompt (and the ^C the terminal echoed): a line of its own
            err.print()
        err.print(said or "left the table; the match was not finished", markup=False)
        raise typer.Exit(130) from None
