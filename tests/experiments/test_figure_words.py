"""Every figure that an experiment or the profile writes speaks in words: titles wrap
evenly (no line left with a word of its own) and every figure has a caption in words."""

import re
from html import unescape
from pathlib import Path

import numpy as np
import pytest

import experiments

MIN_SHARE = 0.4  # a wrapped title line is at least this share of its longest line


def title_texts(fig) -> list[str]:
    """The figure's title and every axes title (left, centre and right)."""
    out = []
    if fig._suptitle is not None and fig._suptitle.get_text():
        out.append(fig._suptitle.get_text())
    for ax in fig.axes:
        for loc in ("left", "center", "right"):
            if ax.get_title(loc):
                out.append(ax.get_title(loc))
    return out


def orphans(title: str) -> list[str]:
    """The lines of a title that stand orphaned: a title of several lines is wrapped well
    when every line is at least :data:`MIN_SHARE` of the length of its longest line (so no
    line is a lone word or two: ``starts)``, ``95% CI)``, ``1``)."""
    lines = [s.strip() for s in title.split("\n") if s.strip()]
    if len(lines) < 2:
        return []
    longest = max(len(s) for s in lines)
    return [s for s in lines if len(s) < MIN_SHARE * longest]


def test_the_orphan_rule_catches_a_word_left_alone():
    assert orphans("What never taking the discard top costs (paired,\n95% CI)") == ["95% CI)"]
    assert orphans("tuning threshold against itself, iteration\n1") == ["1"]
    assert orphans("Spøkelse round play: mean score by k\nagainst threshold:k=4") == []
    assert orphans("one line only") == []


def test_balanced_wrap_leaves_no_orphan_and_keeps_every_word():
    from simulator.reporting import plots

    title = "First-player advantage: round win rate by seat (seat 0 starts)"
    for width in range(20, 70):
        text = plots.balanced_wrap(title, width)
        assert text.split() == title.split()
        assert all(len(s) <= width for s in text.split("\n")), (width, text)
        assert orphans(text) == [], (width, text)


@pytest.mark.parametrize("name", list(experiments.EXPERIMENTS))
def test_no_experiment_figure_title_leaves_a_word_alone(name, tiny_figures):
    figs = tiny_figures(name)
    assert figs
    bad = {stem: orphans(t) for stem, fig in figs for t in title_texts(fig) if orphans(t)}
    assert bad == {}, f"{name}: title lines standing alone: {bad}"


def test_no_profile_figure_title_leaves_a_word_alone(tiny_profile):
    _, _, figs = tiny_profile
    assert figs
    bad = {stem: orphans(t) for stem, fig in figs for t in title_texts(fig) if orphans(t)}
    assert bad == {}, f"profile: title lines standing alone: {bad}"


SNAKE = re.compile(r"^[a-z0-9]+(?:[_\-][a-z0-9]+)*$")  # a file stem: gris_field_greedy, round-length


def looks_like_a_file_name(text: str, stems: set[str]) -> bool:
    """Whether ``text`` is a figure's file stem or looks like one (one snake_case token, or a
    short phrase with no sentence in it)."""
    t = text.strip()
    return t in stems or t.replace(" ", "_") in stems or bool(SNAKE.match(t)) or len(t.split()) < 6


def captions_of(page: Path) -> list[tuple[str, str]]:
    """``(alt, figcaption)`` of every figure of a report page."""
    html = page.read_text()
    found = re.findall(r'<figure><img alt="([^"]*)"[^>]*><figcaption>(.*?)</figcaption></figure>', html, re.S)
    return [(unescape(a), unescape(c)) for a, c in found]


def test_the_file_name_rule_catches_a_stem():
    stems = {"gris_field_greedy", "round_length"}
    assert looks_like_a_file_name("gris_field_greedy", stems)
    assert looks_like_a_file_name("round length", stems)
    assert looks_like_a_file_name("swap_per_decision", stems)
    assert not looks_like_a_file_name("The share of rounds (%) at each length; neither way is better.", stems)


def _check_captions(where: str, page: Path, stems: set[str]) -> None:
    shown = captions_of(page)
    assert len(shown) == len(stems) > 0, (where, len(shown), stems)
    for alt, caption in shown:
        for text in (alt, caption):
            assert not looks_like_a_file_name(text, stems), f"{where}: a figure is captioned {text!r}"
        # In words: a unit or a direction is named.
        assert re.search(r"%|percentage points|points|seconds|better|worse|unit", caption), (where, caption)


@pytest.mark.parametrize("name", list(experiments.EXPERIMENTS))
def test_every_experiment_figure_has_a_caption_in_words(name, tiny_results):
    res = tiny_results(name)
    stems = {p.stem for p in res.figures.values()}
    _check_captions(name, res.report_html, stems)
    md = (res.report_html.parent / "report.md").read_text()
    assert all(f"![{s}]" not in md for s in stems), f"{name}: report.md shows a file name as a caption"


def test_every_profile_figure_has_a_caption_in_words(tiny_profile):
    _, paths, figs = tiny_profile
    _check_captions("profile", paths["html"], {stem for stem, _ in figs})


def test_the_swap_heatmap_draws_cells_whose_interval_includes_0_pale(
    tiny_figures, tiny_results, heatmap_pixels
):
    """spokelse-strategy's swap heatmaps: a cell whose 95% interval includes 0 is pale."""
    cell_colours, full_strength, strength = (
        heatmap_pixels.cell_colours,
        heatmap_pixels.full_strength,
        heatmap_pixels.strength,
    )

    t = tiny_results("spokelse-strategy").tables["swap"]
    figs = dict(tiny_figures("spokelse-strategy"))
    rows, cols = t["card_points"].nunique(), t["stock_left"].nunique()
    for stem, column in (("swap_per_round", "unknown_minus_known"), ("swap_per_decision", "per_decision")):
        v = t[column].to_numpy(dtype=float).reshape(rows, cols)
        lo = t[f"{column}_lo"].to_numpy(dtype=float).reshape(rows, cols)
        hi = t[f"{column}_hi"].to_numpy(dtype=float).reshape(rows, cols)
        covers = np.isfinite(v) & (lo <= 0) & (hi >= 0)
        assert covers.any(), f"{stem}: the tiny run has no cell to check"
        fig = figs[stem]
        st = strength(cell_colours(fig, fig.axes[0], v.shape))
        assert (st[covers] < 0.35 * full_strength()).all(), (stem, st, covers)
