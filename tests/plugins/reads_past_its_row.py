"""A Spøkelse strategy that reads past its own observation row (where the other seat's row lies)."""

from simulator.games.spokelse.observation import OBS_SIZE, PHASE, SOURCE
from strategies import strategy


@strategy(game="spokelse", name="test-reads-past-its-row")
def reads_past_its_row(obs, params, rng):
    """Peeks at the entry just past its row on its second turn."""
    if obs[PHASE] == SOURCE:
        if obs[OBS_SIZE + 3] >= 0 and obs[8] > 0:  # reaches the next row
            return 1
        return 0
    return 4
