"""``kortsim calibrate``: the belief's predicted mean card values against the real cards."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from simulator.cli.common import seed_hint
from simulator.cli.options import Backend, BackendOpt, GameArg, Scheduler, Workers
from simulator.cli.output import out

#: the belief's default model of the opponent: tuned ``expect`` (``simulator.analysis.calibrate``)
TUNED_EXPECT = "expect:k=1,patience=2.8417279406896636,pile=0.5,open=26"


def calibrate_cmd(
    game: GameArg,
    opponent: Annotated[
        str | None,
        typer.Option("--opponent", metavar="SPEC", help="The real opponent (default: the model)."),
    ] = None,
    model: Annotated[
        str, typer.Option("--model", metavar="SPEC", help="The belief's model of the opponent.")
    ] = TUNED_EXPECT,
    player: Annotated[str, typer.Option("--player", metavar="SPEC", help="Who plays.")] = TUNED_EXPECT,
    rounds: Annotated[int, typer.Option("--rounds", metavar="N", help="Rounds to play.")] = 2000,
    seed: Annotated[
        int | None, typer.Option("--seed", metavar="N", help="Seed (drawn and printed when not given).")
    ] = None,
    particles: Annotated[int, typer.Option("--particles", metavar="N", help="Particles per belief.")] = 64,
    eps: Annotated[
        float, typer.Option("--eps", metavar="P", help="Weight of a choice the model would not make.")
    ] = 0.005,
    belief: Annotated[str, typer.Option("--belief", metavar="KIND", help="model or uniform.")] = "model",
    threads: Annotated[
        int | None, typer.Option("--threads", metavar="N", help="Threads (local backend; default 2).")
    ] = None,
    backend: BackendOpt = Backend.local,
    scheduler: Scheduler = None,
    workers: Workers = None,
    as_json: Annotated[bool, typer.Option("--json", help="Machine-readable output.")] = False,
    out_dir: Annotated[
        Path | None, typer.Option("--out", metavar="DIR", help="Write calibration.png and .json here.")
    ] = None,
) -> None:
    """Compare the belief's predicted mean card value per place with the real cards."""
    from simulator.analysis.calibrate import calibrate, calibration_figure, calibration_lines
    from simulator.games import get_game
    from simulator.running.results import dumps_json

    g = get_game(game)
    cal = calibrate(g.name, player=player, opponent=opponent, model=model, rounds=rounds, seed=seed,
                    particles=particles, eps=eps, belief=belief, threads=threads, backend=backend.value,
                    scheduler=scheduler, workers=workers)  # fmt: skip
    if out_dir is not None:
        calibration_figure(cal, out_dir)
        (out_dir / "calibration.json").write_text(dumps_json(cal.as_dict()))
    if as_json:
        out.print_json(dumps_json(cal.as_dict()))
        return
    for line in calibration_lines(cal):
        out.print(line, markup=False, highlight=False)
    if out_dir is not None:
        out.print(f"figure: {out_dir / 'calibration.png'}", markup=False, highlight=False)
    seed_hint(seed, cal.seed, as_json)
