# ---
# jupyter:
#   jupytext:
#     formats: ipynb,py:percent
#     text_representation:
#       extension: .py
#       format_name: percent
#   kernelspec:
#     display_name: Python 3
#     language: python
#     name: python3
# ---

# %% [markdown]
# # kortsim from Python: simulate, compare, records
#
# Everything `kortsim simulate` and `kortsim compare` do is one function call away, with the
# same names as the command-line options (`--rounds` is `rounds=`, `--field` is `field=`,
# `--seed` is `seed=`).  This notebook plays small runs (seconds, once the kernels are
# compiled; the first run of a game compiles them, which `kortsim warm` does ahead) and shows
# what the results look like in a notebook: a short text, an HTML table, a plot, DataFrames,
# and the per-game records in long format.
#
# The sizes are small on purpose: the intervals are wide.  Multiply the number of rounds by
# 100 and every interval narrows about 10 times.

# %%
# %matplotlib inline
import tempfile
from pathlib import Path

import numpy as np
from IPython.display import Markdown, display

import simulator

# %% [markdown]
# ## One run: `simulator.simulate`
#
# Two seats of Spøkelse: the threshold rule against a player who never changes its row.  The
# seed is a `numpy.random.SeedSequence` here; a plain whole number works the same.  The
# result shows itself as a table: every seat's figures with their 95% intervals, and a
# caption that says the unit of each figure and which way is better.

# %%
result = simulator.simulate(
    "spokelse", ["threshold:k=4", "passive"], rounds=20_000, seed=np.random.SeedSequence(2026)
)
display(result)

# %% [markdown]
# Printed as text (what `print(result)` or a plain Python prompt shows) it is a few lines:
# the headline figure of each seat.  The seed it records is a whole number: a
# `SeedSequence` `seq` becomes `int(seq.generate_state(1, np.uint64)[0]) >> 1`, and the
# sequence's entropy is kept in the provenance, so either one repeats the run.

# %%
print(repr(result))
print("seed:", result.summary["seed"], "from", result.provenance["seed_sequence"])

# %% [markdown]
# ## How to read the intervals
#
# `5.9 [5.8, 6.0]` is the figure and its **95% interval**: had we played many runs of this
# size with fresh seeds, about 95 in 100 such intervals would contain the value an endless
# run would give.  Rates are shown as percentages (`98.7% [98.5, 98.9]`); the digits shown
# follow the width of the interval, so no digit is printed that the run cannot vouch for.
# The interval narrows with the square root of the number of games: four times the rounds,
# half the width.
#
# Two figures from *separate* intervals are a poor way to compare two strategies: their
# difference is known much better when both played the **same deals**, which is what
# `simulator.compare` does (below).  A rate that never occurred still has an interval
# (`0.0% [0.0, 0.2]`: "not seen in this run, and rarer than this"); an interval of width
# zero appears only where nothing can vary, such as the difference between two players that
# played identical games.
#
# Every figure is also in DataFrames, with intervals as `_lo` / `_hi` columns:

# %%
display(result.seats)

# %%
ax = result.plot()

# %% [markdown]
# ## Comparing strategies on the same deals: `simulator.compare`
#
# Three thresholds, each playing the `expect` strategy once in each seat on every deal.  The
# differences to the baseline (the first strategy unless `baseline=` says otherwise) are
# *paired*: the same cards, so the luck of the deal cancels and the interval of a difference
# is far narrower than the two figures' own intervals suggest.  `variance reduction` says by
# how much.  `p (Holm)` is corrected for comparing several strategies at once; only when it
# is below 0.05 (the difference's interval excludes 0) does a difference count as detected.

# %%
comparison = simulator.compare(
    "spokelse",
    ["threshold:k=4", "threshold:k=2", "threshold:k=6"],
    field="expect",
    rounds=20_000,
    seed=7,
)
display(comparison)

# %%
print(repr(comparison))

# %% [markdown]
# The same numbers as DataFrames: one per metric, and the Bradley–Terry ranking fitted to
# which strategy did better on each deal (log-strengths, the baseline at 0).

# %%
display(comparison.frames["score"])
display(comparison.frames["ranking"])

# %% [markdown]
# The plot shows each paired difference with its interval; the dashed line is the baseline.
# An interval that crosses the line is "no difference detected at this size".

# %%
ax = comparison.plot()

# %% [markdown]
# ## Per-game records, in long format
#
# `records=True` keeps one row per game.  Without `out=` they stay in memory (up to
# 1,000,000 games; beyond that give `out=DIR` and they are streamed to `DIR/records/`).
# `result.records(long=True)` has one row per game and seat, with the player's name, which
# is the shape pandas' `groupby`, seaborn and most plotting tools want.

# %%
with_records = simulator.simulate(
    "spokelse", ["threshold:k=4", "passive"], rounds=2_000, seed=1, records=True
)
long = with_records.records(long=True)
display(long.head(6))
summary = long.groupby("player", observed=True).agg(
    rounds=("game", "size"), mean_score=("score", "mean"), win_rate=("win", "mean")
)
display(summary)

# %% [markdown]
# The means of the records are the figures of the run (the records are the same games):

# %%
for seat in with_records.summary["seats"]:
    mine = summary.loc[seat["player"]]
    print(f"{seat['player']}: records {mine.mean_score:.4f}, summary {seat['mean_score']:.4f}")

# %% [markdown]
# A run with `out=` writes the records to disk in the documented wide format
# (`docs/records.md`, one column per seat); `simulator.read_records(folder, long=True)`
# reads them back in long format, identical to the frame above.

# %%
folder = Path(tempfile.mkdtemp()) / "run"
simulator.simulate("spokelse", ["threshold:k=4", "passive"], rounds=2_000, seed=1, records=True, out=folder)
from_disk = simulator.read_records(folder, long=True)
display(Markdown(f"Same frame from disk: **{from_disk.equals(long)}** ({len(from_disk):,} rows)."))

# %%
scores = long.pivot(index="game", columns="player", values="score")
ax = scores.plot.hist(
    bins=40,
    alpha=0.6,
    title="Spøkelse: score per round, 2,000 rounds",
    xlabel="points at the end of the round (lower is better)",
    ylabel="rounds",
)

# %% [markdown]
# ## Independent repeats with `SeedSequence.spawn`
#
# Children of one `SeedSequence` give independent seeds, each recorded as a whole number:
# the usual way to run repeats whose spread you want to see.

# %%
repeats = [
    simulator.simulate("spokelse", "threshold:k=4", rounds=5_000, seed=child)
    for child in np.random.SeedSequence(11).spawn(3)
]
for r in repeats:
    seat = r.summary["seats"][0]
    lo, hi = seat["mean_score_ci"]
    print(f"seed {r.summary['seed']}: mean score {seat['mean_score']:.3f} [{lo:.3f}, {hi:.3f}]")
