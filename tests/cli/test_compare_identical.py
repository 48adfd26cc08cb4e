"""``kortsim compare`` with a strategy given twice: two copies that played alike on every
deal say ``identical`` where a p-value and a variance reduction would be; two copies of a
randomised strategy, which differ by chance, get a p-value and a variance reduction."""

from __future__ import annotations

from rich.cells import cell_len
from typer.testing import CliRunner

from simulator.cli import app


def table_rows(*args: str, columns: str = "140") -> dict[str, list[str]]:
    """Each player's table row (its first, in the first table), as its cells."""
    r = CliRunner().invoke(app, ["compare", "spokelse", *args, "--rounds", "600", "--seed", "3"],
                           env={"COLUMNS": columns})  # fmt: skip
    assert r.exit_code == 0, r.output
    assert all(cell_len(line) <= int(columns) for line in r.stdout.splitlines()), r.stdout
    rows: dict[str, list[str]] = {}
    for line in r.stdout.splitlines():
        cells = [c.strip() for c in line.strip("│").split("│")]
        if len(cells) == 5 and cells[0] and cells[0] not in rows:
            rows[cells[0]] = cells[1:]
    return rows


def test_copies_that_played_alike_say_identical_not_p_1():
    rows = table_rows("-s", "threshold:k=4", "-s", "threshold:k=4", "-s", "random")
    _, diff, p, vr = rows["threshold:k=4 #2"]
    assert (p, vr) == ("identical", "identical")
    assert diff.startswith("0.0 ")
    assert rows["random"][2] != "identical" and rows["random"][3].endswith("x")


def test_copies_of_a_random_strategy_get_a_p_value():
    rows = table_rows("-s", "random", "-s", "random")
    _, _, p, vr = rows["random #2"]
    assert p not in ("identical", "1") and float(p) < 1
    assert vr.endswith("x")


def test_identical_fits_80_columns():
    rows = table_rows("-s", "threshold:k=4", "-s", "threshold:k=4", columns="80")
    assert any(cells[2:] == ["identical", "identical"] for cells in rows.values())
