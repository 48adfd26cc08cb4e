"""The notebooks: text pairs in sync with their .ipynb, and each one executes cleanly
(it runs an experiment at tiny size and prints what it computed)."""

from pathlib import Path

import jupytext
import nbformat
import pytest
from nbclient import NotebookClient

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = sorted((ROOT / "notebooks").glob("*.py"))


def test_there_is_a_notebook_per_game_and_one_for_the_api():
    assert {p.stem for p in NOTEBOOKS} >= {"spokelse", "gris", "gris_nese", "api"}


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_the_pair_is_in_sync(path):
    text = jupytext.read(path)
    pair = path.with_suffix(".ipynb")
    assert pair.is_file(), f"generate it: jupytext --to ipynb {path.relative_to(ROOT)}"
    nb = nbformat.read(pair, as_version=4)
    a = [(c.cell_type, c.source.strip()) for c in text.cells]
    b = [(c.cell_type, c.source.strip()) for c in nb.cells]
    assert a == b, f"{pair.name} differs from {path.name}: run jupytext --sync {path.relative_to(ROOT)}"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_the_notebook_executes(path, tmp_path):
    nb = nbformat.read(path.with_suffix(".ipynb"), as_version=4)
    client = NotebookClient(
        nb, timeout=900, kernel_name="python3", resources={"metadata": {"path": str(tmp_path)}}
    )
    client.execute()
    outputs = [o for c in nb.cells if c.cell_type == "code" for o in c.get("outputs", [])]
    assert not [o for o in outputs if o.get("output_type") == "error"]
    text = "\n".join(
        o.get("text", "")
        if o.get("output_type") == "stream"
        else str(o.get("data", {}).get("text/markdown", ""))
        for o in outputs
    )
    if path.stem == "api":  # the API notebook plays its own small runs and shows rich results
        html = "\n".join(str(o.get("data", {}).get("text/html", "")) for o in outputs)
        assert "<table" in html and "95% intervals" in html and "points per round" in html
        assert "Same frame from disk: **True**" in text
    else:
        assert "size tiny" in text
    images = [o for o in outputs if "image/png" in o.get("data", {})]
    assert images, "the notebook shows its figures"
