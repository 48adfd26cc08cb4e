"""A Spøkelse strategy that writes far outside any array (a crash without bounds checks)."""

from simulator.games.spokelse.observation import PHASE, SOURCE
from strategies import strategy


@strategy(game="spokelse", name="test-writes-far-away")
def writes_far_away(obs, params, rng):
    """Scribbles into memory a hundred million entries past its random stream cell."""
    if obs[PHASE] == SOURCE:
        return 0
    rng[100_000_000] = 7
    return 4
