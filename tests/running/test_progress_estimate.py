"""The time left reads "estimating…" until there is an estimate, never an empty gap
("0:00:00 elapsed,  left"), and "H:MM:SS left" once blocks have finished."""

import io

from rich.console import Console
from rich.progress import Progress

from simulator.running.progress import ESTIMATING, TimeLeftColumn, progress_bar


def test_before_the_first_block_it_says_estimating():
    col = TimeLeftColumn()
    bar = Progress(col, console=Console(file=io.StringIO()), auto_refresh=False)
    bar.add_task("x", total=1000)
    assert col.render(bar.tasks[0]).plain == ESTIMATING
    bar.add_task("y", total=None)  # total not known yet
    assert col.render(bar.tasks[1]).plain == ESTIMATING


def test_after_blocks_it_shows_the_time_left():
    col = TimeLeftColumn()
    clock = iter([0.0, 0.0, 10.0, 10.0, 10.0, 10.0])
    bar = Progress(
        col, console=Console(file=io.StringIO()), auto_refresh=False, get_time=lambda: next(clock, 10.0)
    )
    tid = bar.add_task("x", total=1000)
    bar.advance(tid, 100)  # at t=0
    bar.advance(tid, 100)  # at t=10: 100 games in 10 s, 800 left: 80 s
    text = col.render(bar.tasks[0]).plain
    assert text.endswith(" left") and text != ESTIMATING
    h, m, s = text.split()[0].split(":")
    assert int(h) * 3600 + int(m) * 60 + int(s) == 80


def test_the_bar_on_a_terminal_shows_estimating_not_a_gap():
    buf = io.StringIO()
    console = Console(file=buf, force_terminal=True, width=120)
    with progress_bar(1000, console=console) as bar:
        assert bar.enabled
        bar._bar.refresh()
    out = buf.getvalue()
    assert ESTIMATING in out
    assert "elapsed,  left" not in out
