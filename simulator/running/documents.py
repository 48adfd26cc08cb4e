"""The documents a run writes: plain values, strict JSON, provenance and the settings' hash.

Light on purpose (numpy, numba are read only when a value or a version needs them), so that
commands print JSON without loading the run machinery.
"""

from __future__ import annotations

import hashlib
import json
import math
import platform
import sys
from collections.abc import Mapping
from typing import Any

SCHEMA_VERSION = 1
TIMING_FIELDS = ("elapsed_s", "games_per_s", "compile_s")


def plain(value: Any) -> Any:
    """``value`` with numpy scalars and arrays replaced by Python ones, at any depth.

    Summaries hold only ``int``, ``float``, ``bool``, ``str``, ``None``, lists and
    dicts, so they print without ``np.float64(...)`` and serialise as before
    (a numpy float and the Python float of the same value give the same JSON).
    """
    if isinstance(value, Mapping):
        return {k: plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [plain(v) for v in value]
    if isinstance(value, tuple):
        return tuple(plain(v) for v in value)
    np = sys.modules.get("numpy")  # without numpy loaded there is no numpy value
    if np is None:
        return value
    if isinstance(value, np.ndarray):
        return plain(value.tolist())
    if isinstance(value, np.bool_):
        return bool(value)
    if isinstance(value, np.integer):
        return int(value)
    if isinstance(value, np.floating):
        return float(value)
    return value


def json_ready(value: Any) -> Any:
    """``value`` (after :func:`plain`) with every float that is not finite replaced by None.

    A figure that rests on nothing (a rate of 0 counted games, the interval of a mean
    of one game) is NaN in Python; JSON has no NaN, so it is written as ``null``.
    """
    value = plain(value)
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, Mapping):
        return {k: json_ready(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [json_ready(v) for v in value]
    return value


def dumps_json(value: Any, indent: int | None = 2) -> str:
    """``value`` as strict JSON (RFC 8259): undefined figures are ``null``, never ``NaN``."""
    return json.dumps(json_ready(value), indent=indent, ensure_ascii=False, allow_nan=False)


def package_version() -> str:
    try:
        from importlib.metadata import version

        return version("kortsim")
    except Exception:  # not installed (running from a checkout)
        return "0+unknown"


def provenance(seed: int, rules: dict, players: list, extra: dict | None = None) -> dict[str, Any]:
    """Where a result came from: enough to reproduce it and to notice a changed strategy."""
    import numba
    import numpy as np

    return {
        "seed": seed,
        "rules": rules,
        "strategies": [
            {
                "spec": p.spec,
                "origin": p.family.origin,
                "source_sha256": p.family.source_hash(),
            }
            for p in players
        ],
        "kortsim": package_version(),
        "numba": numba.__version__,
        "numpy": np.__version__,
        "python": platform.python_version(),
        **(extra or {}),
    }


def settings_hash(settings: dict) -> str:
    return hashlib.sha256(json.dumps(settings, sort_keys=True).encode()).hexdigest()[:16]


__all__ = [
    "SCHEMA_VERSION",
    "TIMING_FIELDS",
    "dumps_json",
    "json_ready",
    "package_version",
    "plain",
    "provenance",
    "settings_hash",
]
