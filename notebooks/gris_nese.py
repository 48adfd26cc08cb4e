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
# # Gris-nese: reaction speed against card play
#
# In Gris-nese the last player to touch the nose leaves.  Card play decides who completes
# four of a kind first; reaction speed decides who is last.  This notebook runs the
# `reaction-vs-cards` experiment at its **tiny** size (seconds) and shows how to read the
# break-even reaction time.  For numbers worth quoting run
#
# ```
# kortsim experiment run reaction-vs-cards --quick
# ```

# %%
import tempfile
from pathlib import Path

from IPython.display import Image, Markdown, display

import experiments
from simulator.analysis.sweep import sweep
from simulator.reporting.pages import display_table, pct

out = Path(tempfile.mkdtemp()) / "reaction-vs-cards"
res = experiments.run("reaction-vs-cards", size="tiny", out_dir=out)
print(f"{res.name} v{res.version}, size {res.size}, seed {res.seed}: {res.elapsed_s:.1f} s")
print(
    "players:",
    res.config["players"],
    " strategies:",
    res.config["strategies"],
    " medians:",
    res.config["medians"],
)

# %% [markdown]
# ## The grid
#
# The focal player sits in every seat in turn against greedy players with the default
# reaction (median 0.8 s); its own reaction profile moves with it.  Every grid point meets
# the same deals and the same reaction draws (each seat's time is `median × exp(σ z)` with
# `z` from that seat's own random stream), so the paired differences to an ordinary seat
# (greedy at 0.8 s) are sharp.

# %%
grid = res.tables["grid"]
display(
    display_table(
        grid[
            [
                "strategy",
                "median_s",
                "eliminated",
                "eliminated_lo",
                "eliminated_hi",
                "diff",
                "diff_lo",
                "diff_hi",
                "p_holm",
            ]
        ]
    )
)
base = grid.iloc[0]
display(
    Markdown(
        f"An ordinary greedy seat is eliminated in **{pct(base.eliminated)}** of rounds "
        f"with {res.config['players']} players."
    )
)
display(Image(filename=res.figures["elimination_by_reaction"]))

# %% [markdown]
# ## The break-even reaction median
#
# For each strategy the paired difference d(m) grows with the reaction median m.  The
# break-even median is where d crosses 0 (interpolated between grid points); its 95%
# interval runs from where the upper bound of d crosses 0 to where the lower bound does.

# %%
even = res.tables["break_even"]
display(display_table(even))
display(Markdown("\n".join(f"- {a}" for a in res.answer)))
display(Image(filename=res.figures["break_even"]))

# %% [markdown]
# ## A sweep of your own
#
# The same machinery is available directly: here `commit:after` against a greedy field in
# Gris-nese round play, on common deals (elimination rate; lower is better).

# %%
s = sweep("gris-nese", "commit:after=0|1|3", rounds=400, players=5, seed=1)
display(
    display_table(
        s.table[
            [
                "after",
                "eliminated",
                "eliminated_lo",
                "eliminated_hi",
                "eliminated_diff",
                "eliminated_diff_lo",
                "eliminated_diff_hi",
            ]
        ]
    )
)
best = s.best()
display(Markdown(f"Lowest elimination rate on these deals: **{best.player}** ({pct(best.eliminated)})."))
