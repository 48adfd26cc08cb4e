"""A heatmap's colour says how large an effect is against its uncertainty: a small cell whose
95% interval includes 0 is drawn pale, never at the full strength of the scale."""

import numpy as np

from simulator.reporting import plots


def test_a_small_cell_whose_interval_includes_0_is_not_drawn_at_full_strength(heatmap_pixels):
    # The largest |effect| is +0.02, with an interval that includes 0: no finding at all.
    v = np.array([[0.02, 0.005], [-0.01, 0.0]])
    lo, hi = v - 0.05, v + 0.05
    fig = plots.heatmap(v, ["a", "b"], ["1", "2"], xlabel="x", ylabel="y", title="t",
                        colorbar="points", lower_is_better=True, lo=lo, hi=hi)  # fmt: skip
    px = heatmap_pixels
    st = px.strength(px.cell_colours(fig, fig.axes[0], v.shape))
    assert st.max() < 0.35 * px.full_strength(), st


def test_a_clear_effect_keeps_its_strength_beside_a_pale_one(heatmap_pixels):
    v = np.array([[-1.0, 0.02], [0.5, -0.01]])
    lo = np.array([[-1.1, -0.3], [0.4, -0.3]])
    hi = np.array([[-0.9, 0.34], [0.6, 0.28]])
    fig = plots.heatmap(v, ["a", "b"], ["1", "2"], xlabel="x", ylabel="y", title="t",
                        colorbar="points", lower_is_better=True, lo=lo, hi=hi)  # fmt: skip
    px = heatmap_pixels
    st = px.strength(px.cell_colours(fig, fig.axes[0], v.shape))
    assert st[0, 0] > 0.8 * px.full_strength(), st  # the clear effect, at the end of the scale
    assert st[0, 1] < 0.35 * px.full_strength() and st[1, 1] < 0.35 * px.full_strength(), st
    assert 0.35 * px.full_strength() < st[1, 0] < st[0, 0], st  # half the size: less strong
