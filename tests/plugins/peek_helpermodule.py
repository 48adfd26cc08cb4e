"""A Spøkelse strategy that reads past its row through a helper of another local module
(reached as an attribute of that module)."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))  # its folder holds peek_helpers.py

import peek_helpers

from simulator.games.spokelse.observation import PHASE, SOURCE
from strategies import strategy


@strategy(game="spokelse", name="test-peek-helpermodule")
def peek_helpermodule(obs, params, rng):
    """Answers what it read past its row (the other seat's data)."""
    if obs[PHASE] == SOURCE:
        return 1 if peek_helpers.peek(obs) > 0 else 0
    return 4
