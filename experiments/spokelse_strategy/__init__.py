"""spokelse-strategy: how to play Spøkelse well, and how much each choice is worth.

1. **Threshold sweep.**  ``threshold:k`` for k over 0..13 against ``threshold:k=4`` on
   the same deals, in round play (mean score) and match play (loss rate), with the
   jack at ½ and at 11 points.
2. **The discard pile.**  ``threshold:k`` against the same rule that never takes the
   discard top (``threshold-lab:discard=0``), both against ``threshold:k=4``: the
   paired difference is what taking from the discard pile is worth.
3. **Which slot to swap into.**  Holding a card worth ``v`` with both a known slot
   worth more and an unknown slot to swap into: put it over the known-highest slot or
   into the unknown one?  For each card value and stage of the round (stock cards
   left) two players that differ only in that choice, in that cell (everywhere else
   ``threshold:k=4``), meet the same deals; the paired difference of their scores is
   the value of choosing the unknown slot there.  A pass of the readable reference
   with an instrumented player counts how often each cell comes up, which turns the
   per-round value into a value per decision.
4. **First-player advantage.**  The same strategy in both seats; in round play seat 0
   starts (the seat figures and the paired seat difference), in match play the first
   dealer is drawn at random and the deal alternates.
5. **The strongest shipped strategy.**  ``expect`` against ``threshold`` at the k lowest
   in step 1 (called best there only when it beats every other k), on fresh deals (a new
   seed, so the choice of k does not flatter it).

The study's plan is in :mod:`.plan`, its own strategy in :mod:`.threshold_lab`, the steps
it keeps in the run folder in :mod:`.steps`, and each question (played, analysed and
reported) in :mod:`.thresholds` (1 and 2), :mod:`.swap` (3) and :mod:`.seats` (4 and 5).
"""

from __future__ import annotations

from typing import Any

import experiments
from experiments.spokelse_strategy.plan import (
    CONFIG,
    MATCH_COST,
    NAME,
    QUESTION,
    REFERENCE_COST,
    STOCK_CARDS,
    TITLE,
    VERSION,
    plan,
)
from experiments.spokelse_strategy.seats import first_player, strongest
from experiments.spokelse_strategy.swap import swap_slot
from experiments.spokelse_strategy.threshold_lab import LAB, lab, register_lab
from experiments.spokelse_strategy.thresholds import discard_value, threshold_sweep


@experiments.study_run
def run(b: experiments.Bundle, backend: dict[str, Any]) -> experiments.ExperimentResult:
    cfg = b.cfg
    best = threshold_sweep(b, cfg, backend)
    discard_value(b, cfg, backend)
    swap_slot(b, cfg, backend)
    first_player(b, cfg, backend)
    strongest(b, cfg, best, backend)
    return b.finish("sweep")


# What the experiment runner reads (name, sizes, plan, run) and what other code uses.
__all__ = [
    "CONFIG",
    "LAB",
    "MATCH_COST",
    "NAME",
    "QUESTION",
    "REFERENCE_COST",
    "STOCK_CARDS",
    "TITLE",
    "VERSION",
    "discard_value",
    "first_player",
    "lab",
    "plan",
    "register_lab",
    "run",
    "strongest",
    "swap_slot",
    "threshold_sweep",
]
