"""What a report page says: its headlines, sections, tables and figures (by name) and its
provenance, and the JSON form that ``report.json`` holds."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

REPORT_VERSION = 2


@dataclass
class Section:
    title: str
    text: list[str] = field(default_factory=list)
    tables: list[str] = field(default_factory=list)
    figures: list[str] = field(default_factory=list)


@dataclass
class Headline:
    """One question of a study and its answer in one plain line, numbers and interval included."""

    question: str
    answer: str


@dataclass
class Report:
    """What a report says; tables and figures are referred to by name.

    ``headlines`` open the report (one per question); ``answer`` holds the longer
    sentences behind them; ``partial`` (when set) says, at the very top, that the run
    did not finish and what it holds; ``captions`` says in words what each figure shows
    (its units and which way is better), under the figure and as its text alternative."""

    def caption(self, name: str) -> str:
        """The caption of figure ``name``: the one given, else its name in words."""
        return self.captions.get(name) or name.replace("_", " ")

    title: str
    question: str = ""
    answer: list[str] = field(default_factory=list)
    sections: list[Section] = field(default_factory=list)
    tables: dict[str, pd.DataFrame] = field(default_factory=dict)
    figures: dict[str, Path] = field(default_factory=dict)  # name -> PNG (an SVG lies beside it)
    provenance: dict[str, Any] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)
    headlines: list[Headline] = field(default_factory=list)
    partial: str = ""
    formats: dict[str, dict[str, Any]] = field(default_factory=dict)  # table -> column -> kind
    captions: dict[str, str] = field(default_factory=dict)  # figure -> what it shows, in words

    def to_json(self) -> dict[str, Any]:
        return {
            "report_version": REPORT_VERSION,
            "title": self.title,
            "question": self.question,
            "headlines": [asdict(h) for h in self.headlines],
            "partial": self.partial,
            "answer": self.answer,
            "sections": [asdict(s) for s in self.sections],
            "tables": list(self.tables),
            "figures": list(self.figures),
            "provenance": self.provenance,
            "notes": self.notes,
            "formats": self.formats,
            "captions": self.captions,
        }


def _json_default(v: Any) -> Any:
    if isinstance(v, np.integer):
        return int(v)
    if isinstance(v, np.floating):
        return float(v)
    if isinstance(v, np.bool_):
        return bool(v)
    if isinstance(v, np.ndarray):
        return v.tolist()
    if isinstance(v, Path):
        return str(v)
    raise TypeError(f"not JSON serialisable: {type(v).__name__}")
