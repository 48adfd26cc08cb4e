"""What each figure of a summary means: its kind, unit, direction and plain words.

Every game declares its figures once, next to the code that computes them
(``Game.fields(unit)`` in ``simulator/games/*/game.py``): one :class:`Field` per key
of its JSON summary (top level and per seat) and per metric of ``Game.metrics``.
The printers (``kortsim simulate``, ``compare``, ``sweep``) read these declarations
through :func:`fields_for`, so no table guesses what a number is.  The JSON output
is unchanged by them: fractions stay fractions there.

Kinds:

* ``rate``: a share of games in ``[0, 1]``; shown as a percentage.
* ``mean``: an average per game, in ``unit``.
* ``diff``: a paired difference (signed), in ``unit``.
* ``count``: a number of games or events; ``of`` names the field that holds the total
  it is out of (``"n"``: the games of the run), if there is one.
* ``setting``: a fixed setting of the run (a cap, a limit), not a measured figure.
* ``time`` (seconds) and ``speed`` (games per second): how long the run took.

``unit`` and ``words`` may contain ``{games}``, replaced by ``rounds`` or ``matches``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

KINDS = ("rate", "mean", "diff", "count", "setting", "time", "speed")


@dataclass(frozen=True)
class Field:
    """The meaning of one figure.

    Parameters
    ----------
    kind
        One of :data:`KINDS`.
    unit
        The unit in words: ``"points per round"``, ``"share of rounds won"``, ``"rounds"``.
    better
        ``"lower"``, ``"higher"`` or None when neither direction is better.
    words
        What the figure is, in plain words (optional; the unit often says it).
    of
        For a count: the field holding its total (``"n"`` for the run's games).
    note
        Said instead of the direction when it reads better, e.g. ``"1 is best"``.
    remark
        What the rules make of the figure, said after unit and direction in every caption:
        a value it cannot leave (``"always players − 2: ..."``), a seat it cannot apply to,
        rates that sum to more than 100%.
    not_for
        The seats a per-seat figure does not apply to (the rules fix it there; the remark
        says why): the tables show ``n/a`` for them, the JSON keeps the value.
    """

    kind: str
    unit: str
    better: str | None = None
    words: str = ""
    of: str | None = None
    note: str = ""
    remark: str = ""
    not_for: tuple[int, ...] = ()

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ValueError(f"unknown field kind {self.kind!r} (kinds: {', '.join(KINDS)})")
        if self.better not in (None, "lower", "higher"):
            raise ValueError(f"better is 'lower', 'higher' or None, not {self.better!r}")

    def direction(self) -> str:
        """``"lower is better"``, the note (``"1 is best"``), or ``""``."""
        if self.note:
            return self.note
        return f"{self.better} is better" if self.better else ""

    def caption(self, unit: str = "round") -> str:
        """Unit and direction: ``"points per round, lower is better"``, then the remark
        (``"...; two players win each match, so the seats' rates sum to 200%"``)."""
        text = ", ".join(p for p in (self.unit_text(unit), self.direction()) if p)
        return f"{text}; {self.remark_text(unit)}" if self.remark else text

    def unit_text(self, unit: str = "round") -> str:
        return _games(self.unit, unit)

    def words_text(self, unit: str = "round") -> str:
        return _games(self.words, unit)

    def remark_text(self, unit: str = "round") -> str:
        return _games(self.remark, unit)


def games_word(unit: str, count: int | None = None) -> str:
    """``rounds``/``matches`` (singular when ``count`` is 1)."""
    if count == 1:
        return unit
    return "matches" if unit == "match" else f"{unit}s"


def _games(text: str, unit: str) -> str:
    return text.replace("{games}", games_word(unit)).replace("{game}", unit)


# Figures every run has, whatever the game.
COMMON: dict[str, Field] = {
    "elapsed_s": Field("time", "seconds", words="time spent playing"),
    "compile_s": Field("time", "seconds", words="time spent compiling kernels"),
    "games_per_s": Field("speed", "{games} per second", words="games played per second of play"),
    # Gris games, per seat: the seat's reaction profile (a setting, not a measured figure).
    "reaction": Field(
        "setting",
        "log-normal reaction time: median in seconds, σ of its logarithm",
        words="the seat's reaction times",
    ),
}

# Fields of the summary that are not figures (said in the title or a line of their own:
# a partial run says "partial: N of M games" above its table).
NOT_FIGURES = frozenset(
    {"schema_version", "game", "unit", "n", "seed", "rules", "seats", "players", "partial", "n_planned"}
)


def field_of(fields: Mapping[str, Field], name: str) -> Field | None:
    """The declaration of ``name``, or None (a field nobody declared is shown as it is)."""
    return fields.get(name)


def metric_field(fields: Mapping[str, Field], name: str, info: Mapping[str, Any]) -> Field:
    """A compared metric's declared field; one built from the metric's own description
    (``doc``, ``kind``, ``lower_is_better`` as in a comparison's summary) if none is declared."""
    f = fields.get(name)
    if f is not None:
        return f
    kind = "rate" if info.get("kind") == "rate" else "mean"
    return Field(kind, str(info.get("doc", name)), "lower" if info.get("lower_is_better") else "higher")


__all__ = [
    "COMMON",
    "KINDS",
    "NOT_FIGURES",
    "Field",
    "field_of",
    "games_word",
    "metric_field",
]
