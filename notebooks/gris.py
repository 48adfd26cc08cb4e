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
# # Gris: is committing early to a suit worth it?
#
# This notebook runs the `commit-early` experiment at its **tiny** size (seconds) and shows
# how to read the Gris half of it (the Gris-nese half is in the same results).  For numbers
# worth quoting run
#
# ```
# kortsim experiment run commit-early --quick
# ```
#
# `commit:after=t` plays greedy for its first t passes, then keeps its target suit for the
# rest of the round; `t = 0` commits on the hand as dealt.  Each candidate takes one seat
# against a field (greedy players, or early committers), rotated through every seat on the
# same deals, and is compared with greedy on those very deals.

# %%
import tempfile
from pathlib import Path

from IPython.display import Image, Markdown, display

import experiments
from simulator.reporting.pages import difference, display_table

out = Path(tempfile.mkdtemp()) / "commit-early"
res = experiments.run("commit-early", size="tiny", out_dir=out)
print(f"{res.name} v{res.version}, size {res.size}, seed {res.seed}: {res.elapsed_s:.1f} s")
print(
    "players:",
    res.config["players"],
    " commit:after:",
    res.config["afters"],
    " fields:",
    res.config["fields"],
)

# %% [markdown]
# ## The answer
#
# Generated from the computed differences and their intervals ("no difference detected at
# this size" when an interval covers 0):

# %%
display(Markdown("\n".join(f"- {a}" for a in res.answer if a.startswith("gris,"))))

# %% [markdown]
# ## Reading the table
#
# One row per game, table size, field, unit, metric and candidate.  `value` is the
# candidate's probability (P(signal first), P(letter), P(losing the match)); `diff_vs_greedy`
# is the paired difference to greedy on the same deals with its 95% interval; `p_holm` is
# Holm-corrected across the candidates of that comparison.  Note greedy's own row against a
# greedy field: the whole table is greedy, so the focal seat gets exactly 1/n of the letters.

# %%
t = res.tables["commit"]
gris = t[(t.game == "gris") & (t.field == "greedy")]
cols = [
    "players",
    "metric",
    "player",
    "value",
    "value_lo",
    "value_hi",
    "diff_vs_greedy",
    "diff_vs_greedy_lo",
    "diff_vs_greedy_hi",
    "p_holm",
]
display(display_table(gris[cols]))
greedy_letters = gris[(gris.player == "greedy") & (gris.metric == "letter_or_out")]
display(
    Markdown(
        " ".join(
            f"{n} players: greedy's letter rate is {v:.4f} (1/{n} = {1 / n:.4f})."
            for n, v in zip(greedy_letters.players, greedy_letters.value)
        )
    )
)

# %% [markdown]
# ## The heatmaps
#
# Rows are table sizes, columns the commitment point; each cell is the candidate minus
# greedy in percentage points (red: higher, blue: lower).  For a letter or a lost match,
# blue is good; for signalling first, red is good.  Stars mark Holm-significant cells.

# %%
display(Image(filename=res.figures["gris_field_greedy"]))
display(Image(filename=res.figures["gris_field_early"]))

# %% [markdown]
# ## One comparison in words
#
# The smallest table, committing on the deal against greedy players, P(letter):

# %%
n = min(res.config["players"])
row = gris[(gris.players == n) & (gris.metric == "letter_or_out") & (gris.after == 0)].iloc[0]
display(
    Markdown(
        difference(
            "commit:after=0",
            "greedy",
            row.diff_vs_greedy,
            row.diff_vs_greedy_lo,
            row.diff_vs_greedy_hi,
            what="letter rate",
            percent=True,
            p_holm=row.p_holm,
        )
    )
)
print("The full report:", res.report_html)
