"""A Spøkelse strategy made by a factory: its helper (which reads past the row) is a
closure variable, not a global of the file."""

from numba import njit

from simulator.games.spokelse.observation import OBS_SIZE, PHASE, SOURCE
from strategies import strategy


def make(offset):
    @njit
    def peek(obs):
        return obs[offset]

    @strategy(game="spokelse", name="test-peek-closure")
    def peek_closure(obs, params, rng):
        """Answers what it read past its row (the other seat's data)."""
        if obs[PHASE] == SOURCE:
            return 1 if peek(obs) > 0 else 0
        return 4

    return peek_closure


make(OBS_SIZE + 3)
