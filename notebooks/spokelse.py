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
# # Spøkelse: how to play the threshold rule, and what each choice is worth
#
# This notebook runs the `spokelse-strategy` experiment at its **tiny** size (seconds),
# then shows how to read each part.  Every number below is computed here; run the same
# study at a useful size with
#
# ```
# kortsim experiment run spokelse-strategy --quick      # minutes
# kortsim experiment run spokelse-strategy              # the full study
# ```
#
# At the tiny size most intervals are wide: the point is the method, not the answer.

# %%
import tempfile
from pathlib import Path

from IPython.display import Image, Markdown, display

import experiments
from simulator.reporting.pages import difference, display_table, num

out = Path(tempfile.mkdtemp()) / "spokelse-strategy"
res = experiments.run("spokelse-strategy", size="tiny", out_dir=out)
print(f"{res.name} v{res.version}, size {res.size}, seed {res.seed}: {res.elapsed_s:.1f} s")
print("written:", sorted(p.name for p in out.iterdir()))

# %% [markdown]
# ## The answer, as the report states it
#
# These sentences are generated from the computed numbers and their 95% intervals.  When
# an interval covers 0 the report says "no difference detected at this size" rather than
# guessing a direction.

# %%
display(Markdown("\n".join(f"- {a}" for a in res.answer)))

# %% [markdown]
# ## 1. The threshold sweep
#
# Every k plays `threshold:k=4` on the **same deals**, once in each seat.  The upper panel is
# the mean score with its 95% interval; the lower panel is the *paired* difference to k=4,
# whose interval is much narrower because both players met the same cards.  The ring marks
# the best k.  Compare the two interval widths in the table:

# %%
sweep = res.tables["sweep"]
rounds = sweep[(sweep.unit == "round") & (sweep.jack == 0.5)].copy()
rounds["figure_width"] = rounds.score_hi - rounds.score_lo
rounds["paired_width"] = rounds.score_diff_hi - rounds.score_diff_lo
display(
    display_table(
        rounds[
            [
                "k",
                "score",
                "score_lo",
                "score_hi",
                "score_diff",
                "score_diff_lo",
                "score_diff_hi",
                "figure_width",
                "paired_width",
                "score_variance_reduction",
            ]
        ]
    )
)
best = rounds.loc[rounds.score.idxmin()]
ratio = (rounds.figure_width / rounds.paired_width.where(rounds.paired_width > 0)).median()
display(
    Markdown(
        f"In round play with the jack at ½ the lowest mean score is at **k={best.k:g}** ({num(best.score)} points). "
        f"The paired interval is typically {num(ratio, 2)} times narrower than the interval of the figure itself."
    )
)
display(Image(filename=res.figures["sweep_round_jack0_5"]))

# %% [markdown]
# ## 2. The discard pile
#
# The same threshold rule with and without taking the discard top.  A positive difference
# is what the pile is worth (points per round in round play, loss rate in match play).

# %%
discard = res.tables["discard"]
display(
    display_table(discard[["unit", "k", "value", "value_lo", "value_hi", "p_holm", "variance_reduction"]])
)
r = discard[discard.unit == "round"].iloc[0]
display(
    Markdown(
        difference(
            "never taking it",
            f"threshold:k={r.k:g}",
            r.value,
            r.value_lo,
            r.value_hi,
            what="mean score",
            unit="points per round",
            p_holm=r.p_holm,
        )
    )
)
display(Image(filename=res.figures["discard_value"]))

# %% [markdown]
# ## 3. Which slot to swap into
#
# Each cell compares two players that differ only in one choice: with a card of that value
# in hand and that many stock cards left, go over the known-highest slot or into an unknown
# one.  Blue (negative) means the unknown slot gave the lower score; a star means the
# interval excludes 0 after Holm's correction over all cells.  At the tiny size expect few
# or no stars, and blank cells where the situation never came up.

# %%
swap = res.tables["swap"]
display(
    display_table(
        swap[
            [
                "card_points",
                "stock_left",
                "unknown_minus_known",
                "unknown_minus_known_lo",
                "unknown_minus_known_hi",
                "p_holm",
                "decisions_per_round",
                "came_up",
            ]
        ]
    )
)
display(Image(filename=res.figures["swap_per_round"]))

# %% [markdown]
# ## 4. First-player advantage and the distributions
#
# The same strategy in both seats; seat 0 starts.  The bars are round win rates with 95%
# intervals; the histograms come from the run's aggregates (score and match length).

# %%
seats = res.tables["seats"]
display(
    display_table(
        seats[seats.unit == "round"][
            [
                "strategy",
                "seat",
                "role",
                "win_rate",
                "win_rate_lo",
                "win_rate_hi",
                "mean_score",
                "mean_score_lo",
                "mean_score_hi",
            ]
        ]
    )
)
for name in ("seat_advantage", "score_distribution", "match_length"):
    display(Image(filename=res.figures[name]))

# %% [markdown]
# ## 5. The strongest shipped strategy
#
# `expect` against threshold at its best k, on fresh deals (a new seed), so that picking
# the best k on the sweep's deals does not flatter it.

# %%
strongest = res.tables["strongest"]
display(
    display_table(
        strongest[
            [
                "unit",
                "player",
                "value",
                "value_lo",
                "value_hi",
                "diff_vs_best_k",
                "diff_vs_best_k_lo",
                "diff_vs_best_k_hi",
                "p_holm",
            ]
        ]
    )
)
display(Image(filename=res.figures["strongest"]))
print("The full report:", res.report_html)
