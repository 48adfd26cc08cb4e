"""A heatmap's colour says how large an effect is against its uncertainty: a small cell whose
95% interval includes 0 is drawn pale, never at the full strength of the scale."""

import numpy as np
from matplotlib.backends.backend_agg import FigureCanvasAgg

from simulator.reporting import plots


def cell_colours(fig, ax, shape: tuple[int, int]) -> np.ndarray:
    """The drawn colour (RGB, 0-1) near the corner of each cell, away from its number."""
    canvas = FigureCanvasAgg(fig)
    canvas.draw()
    img = np.asarray(canvas.buffer_rgba())[..., :3] / 255.0
    h = img.shape[0]
    out = np.zeros((*shape, 3))
    for i in range(shape[0]):
        for j in range(shape[1]):
            x, y = ax.transData.transform((j - 0.35, i - 0.3))
            out[i, j] = img[int(round(h - y)), int(round(x))]
    return out


def strength(rgb: np.ndarray) -> np.ndarray:
    """How strongly a cell is coloured: its distance from white, the largest of ``1 - channel``
    (0 white; it grows from the centre of a diverging scale to either end)."""
    return (1 - rgb).max(axis=-1)


def full_strength() -> float:
    """The strength of the ends of the better/worse scale (dark blue, dark red)."""
    import matplotlib

    cmap = matplotlib.colormaps[plots.BETTER_CMAP]
    return float(min(strength(np.array(cmap(0.0)[:3])), strength(np.array(cmap(1.0)[:3]))))


def test_a_small_cell_whose_interval_includes_0_is_not_drawn_at_full_strength():
    # The largest |effect| is +0.02, with an interval that includes 0: no finding at all.
    v = np.array([[0.02, 0.005], [-0.01, 0.0]])
    lo, hi = v - 0.05, v + 0.05
    fig = plots.heatmap(v, ["a", "b"], ["1", "2"], xlabel="x", ylabel="y", title="t",
                        colorbar="points", lower_is_better=True, lo=lo, hi=hi)  # fmt: skip
    st = strength(cell_colours(fig, fig.axes[0], v.shape))
    assert st.max() < 0.35 * full_strength(), st


def test_a_clear_effect_keeps_its_strength_beside_a_pale_one():
    v = np.array([[-1.0, 0.02], [0.5, -0.01]])
    lo = np.array([[-1.1, -0.3], [0.4, -0.3]])
    hi = np.array([[-0.9, 0.34], [0.6, 0.28]])
    fig = plots.heatmap(v, ["a", "b"], ["1", "2"], xlabel="x", ylabel="y", title="t",
                        colorbar="points", lower_is_better=True, lo=lo, hi=hi)  # fmt: skip
    st = strength(cell_colours(fig, fig.axes[0], v.shape))
    assert st[0, 0] > 0.8 * full_strength(), st  # the clear effect, at the end of the scale
    assert st[0, 1] < 0.35 * full_strength() and st[1, 1] < 0.35 * full_strength(), st
    assert 0.35 * full_strength() < st[1, 0] < st[0, 0], st  # half the size: less strong
