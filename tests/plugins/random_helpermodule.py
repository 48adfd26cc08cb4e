"""A Spøkelse strategy that draws from numpy's global generator through a helper of
another local module (reached as an attribute of that module)."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))  # its folder holds peek_helpers.py

import peek_helpers

from simulator.games.spokelse.observation import PHASE, SOURCE
from strategies import strategy


@strategy(game="spokelse", name="test-random-helpermodule")
def random_helpermodule(obs, params, rng):
    """Takes from the stock or the discard pile as a coin falls; throws the card away."""
    if obs[PHASE] == SOURCE:
        return 1 if peek_helpers.coin() else 0
    return 4
