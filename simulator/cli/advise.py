"""``kortsim advise``: every legal action of one position, ranked, with 95% intervals."""

from __future__ import annotations

import re
from typing import Annotated, Any

import typer

from simulator.cli.common import parse_rule_options
from simulator.cli.options import GameArg, Rules
from simulator.cli.output import out
from simulator.errors import InputError
from simulator.running.results import dumps_json


def _totals(text: str | None) -> tuple[float, float] | None:
    if text is None:
        return None
    parts = text.replace(" ", "").split(",")
    try:
        mine, theirs = (float(p) for p in parts)
    except ValueError:
        raise InputError(f"--totals takes MINE,THEIRS in points (e.g. 12,7.5), got {text!r}") from None
    if min(mine, theirs) < 0 or (2 * mine) % 1 or (2 * theirs) % 1:
        raise InputError(f"--totals are match totals in whole or half points, got {text!r}")
    return mine, theirs


def advise_cmd(
    game: GameArg,
    row: Annotated[
        str | None,
        typer.Option("--row", metavar="CARDS", help='Own row, 4 slots, ? for unknown: "♠8 ♦K ? ?".'),
    ] = None,
    stock: Annotated[int | None, typer.Option("--stock", metavar="N", help="Cards in the stock now.")] = None,
    hand: Annotated[
        str | None, typer.Option("--hand", metavar="CARD", help="The card to place (PLACE decision).")
    ] = None,
    discard: Annotated[
        str | None,
        typer.Option(
            "--discard", metavar="CARD", help="The discard pile's top (alone: the SOURCE decision)."
        ),
    ] = None,
    from_discard: Annotated[
        bool, typer.Option("--from-discard", help="The card in hand was taken from the discard pile.")
    ] = False,
    seen: Annotated[
        str | None, typer.Option("--seen", metavar="CARDS", help="Cards you saw go under the discard top.")
    ] = None,
    opp: Annotated[
        str | None,
        typer.Option("--opp", metavar="CARDS", help='Opponent\'s public slots, ? for hidden: "? ♣3 ? ?".'),
    ] = None,
    totals: Annotated[
        str | None, typer.Option("--totals", metavar="MINE,THEIRS", help="Match totals in points.")
    ] = None,
    samples: Annotated[
        int, typer.Option("--samples", metavar="N", help="Sampled deals (1 to 1000000).")
    ] = 2000,
    seed: Annotated[
        int, typer.Option("--seed", metavar="N", help="Seed; the same seed gives the same numbers.")
    ] = 0,
    strategy: Annotated[
        str,
        typer.Option(
            "-s", "--strategy", metavar="SPEC", help="The search spec whose playouts rank the actions."
        ),
    ] = "search",
    opponent: Annotated[
        str | None,
        typer.Option(
            "--opponent",
            metavar="SPEC",
            help="The opponent model: the belief's (a shipped strategy; default tuned expect) and, if an "
            "expect spec, the playouts' in both seats (with --belief uniform: the playouts' only).",
        ),
    ] = None,
    history: Annotated[
        str | None,
        typer.Option(
            "--history",
            metavar="TEXT|FILE",
            help="The round so far in the notation of `kortsim trace` (or a file it wrote), from the "
            "deal; the position follows from it, and what else is given must agree.",
        ),
    ] = None,
    turn: Annotated[
        int | None,
        typer.Option(
            "--turn", metavar="N", help="With --history: advise turn N (counted from 1, as a trace does)."
        ),
    ] = None,
    belief: Annotated[
        str | None,
        typer.Option(
            "--belief",
            metavar="model|uniform",
            help="Draw the unseen cards from the belief given --history (model; the default with a "
            "history) or deal them uniformly (uniform; the default without one).",
        ),
    ] = None,
    rule: Rules = None,
    as_json: Annotated[bool, typer.Option("--json", help="Machine-readable output.")] = False,
) -> None:
    """Rank every legal action of one position by its expected final score (lower is better)."""
    from simulator.analysis.advise import advice_lines, advise
    from simulator.games import get_game

    g = get_game(game)
    advice = advise(
        g.name, row=row, stock=stock, hand=hand, discard=discard, from_discard=from_discard, seen=seen,
        opp=opp, totals=_totals(totals), samples=samples, seed=seed, strategy=strategy,
        rules=g.parse_rules(parse_rule_options(rule)), opponent=opponent, history=history, turn=turn,
        belief=belief,
    )  # fmt: skip
    if as_json:
        out.print_json(dumps_json(advice.as_dict()))
        return
    print_advice(advice_lines(g.name, advice), advice)


#: an action's line of the advice: ``  1. put ♥3 in slot 1 ...  score ...``
_RANKED = re.compile(r"^  \d+\. ")


def print_advice(lines: list[str], advice: Any) -> None:
    """The advice's lines; when its ranked actions are wider than the terminal (or the width
    asked for), they are laid out as a table whose words wrap, and every other line wraps
    between words.  Output that is not a terminal keeps every line whole."""
    from rich.cells import cell_len

    ranked = [i for i, line in enumerate(lines) if _RANKED.match(line)]
    options = getattr(advice, "options", None)
    fits = max((cell_len(lines[i]) for i in ranked), default=0) <= out.width
    if not out.fitted or fits or not options:  # not a terminal: the lines scripts read, whole
        for line in lines:
            out.print(line, markup=False, highlight=False)
        return
    for line in lines[: ranked[0]]:
        out.print(line, markup=False, highlight=False)
    out.print(_ranked_table(options))
    for line in lines[ranked[-1] + 1 :]:
        out.print(line, markup=False, highlight=False)


def _ranked_table(options: Any) -> Any:
    """The ranked actions: own score, margin and (below the first) how much worse than the
    best on the same deals, each with its 95% interval under it."""
    from rich.table import Table

    def shown(value: float, ci: Any, sign: bool = False) -> str:
        f = "+.2f" if sign else ".2f"
        return f"{value:{f}}\n[{ci[0]:{f}}, {ci[1]:{f}}]"

    t = Table()
    t.add_column("#", justify="right", no_wrap=True)
    t.add_column("action", overflow="fold")
    t.add_column("score\n[95% CI]", justify="right", no_wrap=True)
    t.add_column("margin\n[95% CI]", justify="right", no_wrap=True)
    t.add_column("worse than\nthe best by", justify="right", no_wrap=True)
    for k, o in enumerate(options, 1):
        worse = shown(o.vs_best, o.vs_best_ci, sign=True) if k > 1 else ""
        t.add_row(f"{k}.", o.words, shown(o.score, o.score_ci), shown(o.margin, o.margin_ci, True), worse)
    return t
