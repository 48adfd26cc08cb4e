"""The seed of a run, resolved once: an ``int`` or a ``numpy.random.SeedSequence`` in, a checked
``int`` from 0 to 2**63 - 1 out (the one recorded in the summary and in a run folder).

Every entry point (``simulate``, ``compare``, ``sweep``, ``tune``, ``profile``, ``advise``,
the experiments) takes its seed through :func:`resolve_seed`, so ``-1`` and ``2**64`` are
refused in the same words everywhere.
"""

from __future__ import annotations

import secrets
from typing import Any

import numpy as np

from simulator.engine.arguments import as_whole
from simulator.errors import InputError
from simulator.running.results import plain

MAX_SEED = (1 << 63) - 1

SeedLike = int | np.integer | np.random.SeedSequence


def resolve_seed(seed: SeedLike | None) -> int:
    """The run's seed as an ``int`` from 0 to 2**63 - 1 (the one recorded in the summary).

    ``None`` draws a fresh one; an ``int`` or numpy integer is taken as it is; a
    ``numpy.random.SeedSequence`` becomes the top 63 bits of its first 64-bit word,
    ``int(seq.generate_state(1, np.uint64)[0]) >> 1`` (so the children of
    ``seq.spawn(k)`` give k different seeds, and the same sequence the same seed).
    Anything else is an :class:`InputError`.
    """
    if seed is None:
        return secrets.randbits(63)
    if isinstance(seed, np.random.SeedSequence):
        return int(seed.generate_state(1, np.uint64)[0]) >> 1
    whole = as_whole(seed)
    if whole is None:
        shown = repr(seed).splitlines()[0] if repr(seed) else ""
        shown = shown if len(shown) <= 40 else shown[:39] + "…"
        raise InputError(
            f"the seed must be a whole number from 0 to {MAX_SEED} or a numpy SeedSequence, "
            f"not {type(seed).__name__} {shown}"
        )
    if not 0 <= whole <= MAX_SEED:
        raise InputError(f"the seed must be a whole number from 0 to {MAX_SEED}")
    return whole


def seed_provenance(seed: Any) -> dict[str, Any]:
    """Where a seed came from, when it was not a plain number: a SeedSequence's entropy and
    spawn key (the recorded integer seed is :func:`resolve_seed` of it)."""
    if isinstance(seed, np.random.SeedSequence):
        return plain({"seed_sequence": {"entropy": seed.entropy, "spawn_key": list(seed.spawn_key)}})
    return {}
