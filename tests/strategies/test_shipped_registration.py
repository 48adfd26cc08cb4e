"""The shipped strategies register on first need, whichever module is imported first: a game
(whose kernel imports its strategies, which import the registry) as well as the registry."""

import subprocess
import sys

import pytest


def _fresh(code: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)


@pytest.mark.parametrize(
    "first",
    [
        "import simulator; simulator.all_games()",
        "from simulator.games import get_game; get_game('gris-nese')",
        "import simulator.games.spokelse.game",
        "import strategies",
    ],
)
def test_every_games_strategies_are_there_whatever_is_imported_first(first):
    res = _fresh(
        f"{first}\n"
        "import strategies\n"
        "print(sorted(strategies.families('spokelse')), sorted(strategies.families('gris')))\n"
        "print(strategies.parse_spec('follow@4', 'gris-nese').spec.partition(':')[0])\n"
    )
    assert res.returncode == 0, res.stderr
    fams, preset = res.stdout.splitlines()
    assert "'threshold'" in fams and "'greedy'" in fams
    assert preset == "follow"


def test_a_users_strategy_may_not_take_a_shipped_name_registered_later():
    res = _fresh(
        "from strategies.registry import strategy\n"
        "from simulator.errors import SpecError\n"
        "try:\n"
        "    strategy(game='spokelse', name='threshold')(lambda obs, params, rng: 0)\n"
        "except SpecError as e:\n"
        "    print(e)\n"
    )
    assert res.returncode == 0, res.stderr
    assert "reserved" in res.stdout
