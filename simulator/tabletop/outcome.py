"""What a sitting at the table produces, shared by every game's table module."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass
class Reactions:
    """Your measured reaction times, seconds, with what each one was."""

    times: list[float] = field(default_factory=list)
    kinds: list[str] = field(default_factory=list)  # "own" (your hand complete) or "follow"

    def add(self, seconds: float, kind: str) -> None:
        self.times.append(float(seconds))
        self.kinds.append(kind)


@dataclass
class Outcome:
    """What a sitting produced: the match record (the reference's), your decisions with the
    advisor's, (Gris games) your measured reaction times and (Spøkelse, when asked) the
    estimate of how well you remember.

    ``advice`` holds one entry per decision of yours: a ``Pass`` (Gris games) or an
    ``Advice`` with the estimated cost (Spøkelse); ``profile`` is the saved reaction
    profile, if one was saved."""

    game: str
    seed: int
    match: Any
    advisor: str
    advice: list = field(default_factory=list)
    reactions: Reactions = field(default_factory=Reactions)
    profile: dict | None = None
    memory: Any = None  # Spøkelse: the estimate of your forget (memory_estimate.MemoryEstimate)
