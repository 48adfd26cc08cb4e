"""A new game needs its folder and one line in the registry, nothing else central.

A fourth game is made here the way docs/adding-a-game.md says to start one: a copy of a
shipped game's folder under a new name (its modules' imports and its id changed to the
new one, nothing else).  In a fresh process, its registry line is added and
``simulator.check_game`` plays the copy's kernel against its reference, move by move, with
every other check of the contract; the CLI then lists it and plays it.
"""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

import simulator.games.gris_nese as source_game

pytestmark = pytest.mark.slow


def copy_game(root: Path) -> Path:
    """``simulator/games/gris_nese/`` copied to ``root/toy``, renamed to the game ``toy``."""
    src = Path(source_game.__file__).parent
    dst = root / "toy"
    dst.mkdir()
    for path in src.glob("*.py"):
        text = path.read_text(encoding="utf-8").replace("simulator.games.gris_nese", "simulator.games.toy")
        text = text.replace('name = "gris-nese"', 'name = "toy"').replace(
            'GAME = "gris-nese"', 'GAME = "toy"'
        )
        (dst / path.name).write_text(text, encoding="utf-8")
    return dst


def test_a_copied_game_folder_with_its_registry_line_keeps_the_contract(tmp_path: Path) -> None:
    folder = copy_game(tmp_path)
    script = textwrap.dedent(
        f"""
        import json, sys
        import simulator.games as registry
        registry.__path__.append({str(folder.parent)!r})
        registry.GAMES["toy"] = ("simulator.games.toy.game", "GRIS_NESE")   # the one line
        import simulator
        report = simulator.check_game("toy", seats=[3])
        from typer.testing import CliRunner
        from simulator.cli import app
        listed = CliRunner().invoke(app, ["games"]).output
        played = CliRunner().invoke(app, ["simulate", "toy", "-s", "greedy", "--players", "3",
                                          "--rounds", "200", "--seed", "1", "--json"])
        print(json.dumps({{"report": str(report), "counts": report.counts, "listed": listed,
                          "code": played.exit_code, "out": played.output}}))
        """
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=1500)
    assert done.returncode == 0, done.stderr[-3000:]
    out = json.loads(done.stdout.strip().splitlines()[-1])
    assert out["report"].startswith("toy keeps the contract at 3 seats"), out["report"]
    assert all(n > 0 for n in out["counts"].values()), out["counts"]
    assert "toy" in out["listed"]
    assert out["code"] == 0, out["out"]
    summary = json.loads(out["out"])
    assert summary["game"] == "toy" and summary["n"] == 200
