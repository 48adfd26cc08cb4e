"""Golden runs: the JSON of one seeded command per game never changes.

The files in ``tests/golden`` hold what these commands printed (timing fields
aside).  A result may only change with a new random-stream version
(``docs/random-streams.md``); then the files are regenerated, in their own
commit, with ``python tests/test_golden.py --regenerate``.
"""

import json
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from simulator.cli import app

GOLDEN = Path(__file__).resolve().parent / "golden"
TIMING = ("elapsed_s", "games_per_s", "compile_s")
COMMANDS = {
    "spokelse_rounds": "simulate spokelse -s threshold:k=4 -s passive --rounds 100000 --seed 7 --json",
    "spokelse_matches": "simulate spokelse -s threshold:k=4 -s expect --matches 20000 --seed 7 --json",
    "gris_rounds": "simulate gris --players 4 -s greedy --rounds 100000 --seed 7 --json",
    "gris_nese_rounds": "simulate gris-nese --players 5 -s greedy --rounds 100000 --seed 7 --json",
    # Runs whose games do not all count (RULES.md §6), so that every denominator is tested.
    "gris_rounds_stalled": (
        "simulate gris --players 3 -s random --rule circulation=off --rounds 3000 --seed 7 --json"
    ),
    "gris_matches_stalled": (
        "simulate gris --players 3 -s random --rule circulation=off --matches 300 --seed 7 --json"
    ),
    "gris_nese_rounds_replayed": (
        "simulate gris-nese --players 8 -s random --rule unclear_margin=0.05 --rounds 2000 --seed 7 --json"
    ),
    "gris_nese_matches_replayed": (
        "simulate gris-nese --players 5 -s greedy --rule unclear_margin=0.05 --matches 2000 --seed 7 --json"
    ),
}


def run_json(command: str) -> dict:
    result = CliRunner().invoke(app, command.split())
    assert result.exit_code == 0, result.output
    out = json.loads(result.stdout)
    for key in TIMING:
        assert key in out  # timing is reported, just not compared
        del out[key]
    return out


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_json_is_identical_to_the_golden_file(name):
    expected = json.loads((GOLDEN / f"{name}.json").read_text())
    assert run_json(COMMANDS[name]) == expected


if __name__ == "__main__" and sys.argv[1:] == ["--regenerate"]:
    for name, command in COMMANDS.items():
        text = json.dumps(run_json(command), indent=2, ensure_ascii=False) + "\n"
        (GOLDEN / f"{name}.json").write_text(text)
        print(f"wrote {name}.json")
