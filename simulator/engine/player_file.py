"""A player's profile measured at the table: how it reacts and how well it remembers.

``kortsim play GAME --save-profile me.json`` writes one JSON file::

    {"kind": "kortsim player profile", "version": 1, "game": "spokelse",
     "memory": {"forget": 0.1, "forget_ci": [0.02, 0.3], "slip": 0.03, "decisions": 64,
                "model": "expect", "level": 0.95, ...},
     "median_s": 0.61, "sigma": 0.28, ...}

``memory`` (Spøkelse) is the estimate of :mod:`simulator.games.spokelse.memory_estimate`;
the reaction fields (the Gris games) are those of a reaction profile
(:mod:`simulator.engine.reaction_file`), so the file goes wherever a reaction profile goes
(``--reaction SEAT=me.json``).  A strategy spec takes the memory as a preset:
``-s expect@me.json`` is ``expect`` with the file's ``forget`` and ``slip``
(docs/human-players.md), so that a person can simulate "me against the bots".
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from simulator.errors import InputError, SpecError

KIND = "kortsim player profile"
VERSION = 1


def looks_like_file(text: str) -> bool:
    """Whether a preset names a profile file (``me.json``, ``runs/me.json``)."""
    t = text.strip()
    return t.lower().endswith(".json") or "/" in t or os.sep in t


def check_target(path: str | Path, option: str = "--save-profile") -> None:
    """Refuse, before anything is played, a path that could not be written or that holds a
    file kortsim did not write as a profile (one line)."""
    from simulator.engine import reaction_file

    def is_profile(target: Path) -> bool:
        return _read(target, f"{option} {path}").get("kind") in (KIND, reaction_file.KIND)

    reaction_file.check_file_target(path, option, is_ours=is_profile, what="a profile")


def write(path: str | Path, game: str, *, memory: dict | None = None, reaction: dict | None = None) -> dict:
    """Write the profile: ``memory`` (an estimate's JSON) and the fields of a reaction
    profile, whichever were measured.  Returns what was written."""
    doc: dict[str, Any] = {"kind": KIND, "version": VERSION, "game": game}
    if memory is not None:
        doc["memory"] = memory
    if reaction is not None:
        doc.update({k: v for k, v in reaction.items() if k not in ("kind", "version")})
    try:
        Path(path).write_text(json.dumps(doc, indent=1) + "\n", encoding="utf-8")
    except OSError as exc:
        raise InputError(f"--save-profile {path}: cannot write it ({exc.strerror or exc})") from None
    return doc


def _read(path: Path, label: str) -> dict:
    """The file's JSON object; ``label`` starts every refusal (``--save-profile me.json``)."""
    from simulator.engine.reaction_file import read_json

    data = read_json(path, label, folder="a folder, not a profile file")
    if not isinstance(data, dict):
        raise InputError(f"{label}: not a profile (written by kortsim play --save-profile)")
    return data


def memory_values(path: str | Path, family: str) -> dict[str, float]:
    """``{"forget": f, "slip": s}`` from a profile file, for ``family@FILE``.

    Raises
    ------
    SpecError
        A file that cannot be read, is not a player profile or holds no memory estimate.
    """
    where = f"{family}@{path}:"
    try:
        data = _read(Path(path), f"{family}@{path}")
    except InputError as exc:
        raise SpecError(str(exc)) from None
    if data.get("kind") != KIND:
        raise SpecError(f"{where} not a player profile (written by kortsim play spokelse --save-profile)")
    mem = data.get("memory")
    if not isinstance(mem, dict):
        raise SpecError(f"{where} holds no memory estimate (kortsim play spokelse --save-profile makes one)")
    values = {k: mem.get(k) for k in ("forget", "slip")}
    for key, v in values.items():
        if isinstance(v, bool) or not isinstance(v, int | float) or not 0 <= v <= 1:
            raise SpecError(f"{where} its {key} must be a number from 0 to 1, not {v!r}")
    return {k: float(v) for k, v in values.items()}
