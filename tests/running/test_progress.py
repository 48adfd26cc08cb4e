"""The progress bar of long commands (simulator/running/progress.py) and the games it counts."""

from __future__ import annotations

import io
import json

from rich.console import Console
from typer.testing import CliRunner

from simulator.analysis.compare import compare
from simulator.analysis.sweep import sweep
from simulator.cli import app
from simulator.running.progress import progress_bar


def terminal() -> tuple[Console, io.StringIO]:
    buf = io.StringIO()
    return Console(file=buf, force_terminal=True, width=120), buf


def test_no_bar_when_not_a_terminal():
    buf = io.StringIO()
    piped = Console(file=buf, width=120)  # a file, not a terminal
    with progress_bar(10, console=piped) as bar:
        bar(4)
        bar.set_total(20)
        bar(6)
    assert not bar.enabled
    assert bar.completed == 0 and bar.total is None
    assert buf.getvalue() == ""


def test_no_bar_when_switched_off_on_a_terminal():
    console, buf = terminal()
    with progress_bar(10, enabled=False, console=console) as bar:
        bar(10)
    assert not bar.enabled
    assert buf.getvalue() == ""


def test_the_bar_advances_to_its_total_with_a_time_estimate():
    console, buf = terminal()
    with progress_bar(None, description="comparing", console=console) as bar:
        assert bar.enabled
        bar.set_total(10)
        bar(3)
        bar(7)
        assert bar.completed == bar.total == 10
    shown = buf.getvalue()
    assert "comparing" in shown
    assert "10/10" in shown and "games" in shown
    assert "left" in shown and "elapsed" in shown


def test_compare_and_sweep_count_every_game_they_play():
    planned: list[int] = []
    done: list[int] = []
    res = compare(
        "spokelse", ["threshold:k=4", "passive"], rounds=3000, seed=1, block_size=1000,
        progress=done.append, on_plan=planned.append,
    )  # fmt: skip
    games = res.summary["games_played"]
    assert games == 3000 * 2  # two seatings per deal
    assert planned == [games] and sum(done) == games and len(done) == 3

    planned.clear()
    done.clear()
    sw = sweep(
        "spokelse", "threshold:k=2|4", rounds=2000, seed=1, progress=done.append, on_plan=planned.append
    )
    games = sw.summary["games_played"]
    assert planned == [games] and sum(done) == games


def test_piped_output_and_json_show_no_bar():
    args = ["compare", "spokelse", "-s", "threshold:k=4", "-s", "passive", "--rounds", "2000", "--seed", "1"]
    for extra in ([], ["--json"]):
        r = CliRunner().invoke(app, [*args, *extra])
        assert r.exit_code == 0, r.output
        assert "comparing" not in r.stderr and "━" not in r.stderr
    assert json.loads(r.stdout)["games_played"] == 4000
