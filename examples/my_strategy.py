"""An example of your own Spøkelse strategy, loaded without editing kortsim.

Use it from the command line::

    kortsim simulate spokelse --plugin examples/my_strategy.py -s lowball:keep=3 -s threshold:k=4 --rounds 100000

or from Python / a notebook::

    from strategies import load_plugin
    load_plugin("examples/my_strategy.py")
    simulator.simulate("spokelse", ["lowball", "threshold:k=4"], rounds=100_000, seed=1)

A strategy is a function ``decide(obs, params, rng) -> int``: it answers a
``Source`` or ``Place`` member or its plain integer (this file uses the
integers; ``return Source.STOCK`` works as well).  ``obs`` is an
int64 array laid out as in ``simulator.games.spokelse.observation``;
``params`` holds the parameter values in the order declared; ``rng`` is the
seat's own random stream (draw with ``simulator.engine.rng.below_nb(rng, n)``).  It
is compiled with numba (nopython), once per process: keep to numbers and
arrays.  The first line of the docstring is what ``kortsim strategies`` shows.
"""

from simulator.games.spokelse.observation import (
    DISCARD_VALUE,
    HAND_VALUE,
    HIGH,
    HIGH_SLOT,
    PHASE,
    SOURCE,
    UNKNOWN_SLOT,
)
from strategies import strategy

STOCK, DISCARD_PILE, THROW = 0, 1, 4


@strategy(game="spokelse", name="lowball", params={"keep": (3, 0, 13, 0.5)})
def lowball(obs, params, rng):
    """Keep only cards worth at most `keep` points; replace the highest known card first.

    Takes the discard top when it is a keeper; puts a keeper over the highest
    known slot if that is worse, else into an unknown slot; throws the rest away.
    """
    keep = params[0] * 2.0  # half points
    if obs[PHASE] == SOURCE:
        d = obs[DISCARD_VALUE]
        if 0 <= d <= keep and (obs[UNKNOWN_SLOT] >= 0 or d < obs[HIGH]):
            return DISCARD_PILE
        return STOCK
    c = obs[HAND_VALUE]
    if obs[HIGH] > c and obs[HIGH] > keep:
        return obs[HIGH_SLOT]
    if c <= keep and obs[UNKNOWN_SLOT] >= 0:
        return obs[UNKNOWN_SLOT]
    if obs[HIGH] > c:
        return obs[HIGH_SLOT]
    return THROW
