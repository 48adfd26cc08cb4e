"""Reading a drawn heatmap back: each cell's colour and how strongly it is coloured (used by
the heatmap tests here and by the experiments' figure tests, through the ``heatmap_pixels``
fixture of tests/conftest.py)."""

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
