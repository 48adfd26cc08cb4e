"""A Spøkelse strategy whose threshold is a helper module's constant (read from the
environment when that module is imported)."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))  # its folder holds limit_helpers.py

import limit_helpers

from simulator.games.spokelse.observation import DISCARD_VALUE, PHASE, SOURCE, UNKNOWN_SLOT
from strategies import strategy


@strategy(game="spokelse", name="test-reads-a-limit")
def reads_a_limit(obs, params, rng):
    """Takes the discard card when it is worth at most LIMIT half points; places it blind."""
    if obs[PHASE] == SOURCE:
        d = obs[DISCARD_VALUE]
        return 1 if 0 <= d <= limit_helpers.LIMIT and obs[UNKNOWN_SLOT] >= 0 else 0
    if obs[UNKNOWN_SLOT] >= 0:
        return obs[UNKNOWN_SLOT]
    return 4
