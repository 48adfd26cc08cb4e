"""Every experiment's HTML report, rendered in a real headless Chromium: a screenshot is
taken, the page never scrolls sideways, every image loads, and the headlines come first.

Chromium is required (Debian's ``chromium`` package; ``.ci/run`` installs it): without it
these tests fail rather than skip."""

import json
import os
import re
import shutil
import subprocess
import tempfile
from html import unescape
from pathlib import Path

import matplotlib.image as mpimg
import pytest

import experiments

WIDTHS = (1280, 800, 500)  # desktop, a narrow window, about a phone (500 px: the least headless allows)

# Written into a copy of the page: after load, the checks are put into the DOM for --dump-dom.
CHECK_SCRIPT = """<script>
window.addEventListener('load', function () {
  var imgs = Array.prototype.slice.call(document.images);
  var h = document.getElementById('headlines');
  var firstH2 = document.querySelector('h2');
  var r = {
    scrollWidth: document.documentElement.scrollWidth,
    innerWidth: window.innerWidth,
    images: imgs.length,
    broken: imgs.filter(function (i) { return !(i.complete && i.naturalWidth > 0); })
                .map(function (i) { return i.alt; }),
    headlines: h ? h.querySelectorAll('dd').length : 0,
    headlinesFirst: !!h && (!firstH2 ||
      !!(h.compareDocumentPosition(firstH2) & Node.DOCUMENT_POSITION_FOLLOWING)),
    wide: Array.prototype.slice.call(document.body.querySelectorAll('*'))
      .filter(function (e) { return e.getBoundingClientRect().right > window.innerWidth + 0.5; })
      .slice(0, 5).map(function (e) { return e.tagName + '.' + e.className; }),
    // Content cut off inside its own box (a table wider than its wrapper, hidden in an
    // overflow container, or a cell whose text runs past its edge): the page-level width
    // never sees it.
    clipped: Array.prototype.slice.call(document.body.querySelectorAll('table, .table, th, td, figure, pre'))
      .filter(function (e) { return e.scrollWidth > e.clientWidth + 1; })
      .slice(0, 5).map(function (e) {
        return e.tagName + '.' + e.className + ' ' + e.scrollWidth + '>' + e.clientWidth + ' px: ' +
          (e.textContent || '').trim().slice(0, 40);
      })
  };
  var out = document.createElement('pre');
  out.id = 'kortsim-check';
  out.textContent = JSON.stringify(r);
  document.body.appendChild(out);
});
</script>"""


def chromium() -> str:
    path = shutil.which("chromium") or shutil.which("chromium-browser")
    assert path, (
        "the browser check needs Chromium (Debian: apt-get install chromium); it is part of the test suite"
    )
    return path


def browser_args(profile: str, width: int, height: int) -> list[str]:
    return [
        chromium(),
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--hide-scrollbars",
        f"--user-data-dir={profile}",
        f"--window-size={width},{height}",
        "--virtual-time-budget=10000",
    ]


def check_page(page: Path, width: int, screenshot: Path) -> dict:
    """Load ``page`` at ``width`` px: the DOM checks (as a dict), and a screenshot written."""
    probe = page.with_name(f".probe-{width}.html")
    html = page.read_text()
    assert "</body>" in html
    probe.write_text(html.replace("</body>", CHECK_SCRIPT + "</body>"))
    try:
        with tempfile.TemporaryDirectory() as profile:
            dom = subprocess.run(
                [*browser_args(profile, width, 1600), "--dump-dom", probe.as_uri()],
                capture_output=True,
                text=True,
                timeout=180,
            )
            shot = subprocess.run(
                [*browser_args(profile, width, 1600), f"--screenshot={screenshot}", page.as_uri()],
                capture_output=True,
                text=True,
                timeout=180,
            )
    finally:
        probe.unlink(missing_ok=True)
    assert dom.returncode == 0, dom.stderr[-2000:]
    assert shot.returncode == 0, shot.stderr[-2000:]
    found = re.search(r'<pre id="kortsim-check">(.*?)</pre>', dom.stdout, re.S)
    assert found, f"the check script did not run in {page}"
    return json.loads(unescape(found.group(1)))


def keep(screenshot: Path) -> None:
    """With KORTSIM_SCREENSHOT_DIR set, keep a copy of the screenshot there (a CI artefact)."""
    where = os.environ.get("KORTSIM_SCREENSHOT_DIR")
    if where:
        Path(where).mkdir(parents=True, exist_ok=True)
        shutil.copy(screenshot, Path(where) / screenshot.name)


@pytest.mark.slow
@pytest.mark.parametrize("name", list(experiments.EXPERIMENTS))
def test_the_report_fits_the_page_and_every_image_loads(name, tiny_results, tmp_path):
    res = tiny_results(name)
    page = res.report_html
    for width in WIDTHS:
        shot = tmp_path / f"{name}-{width}.png"
        r = check_page(page, width, shot)
        assert r["innerWidth"] == width
        assert r["scrollWidth"] <= r["innerWidth"], f"{name} at {width} px scrolls sideways: {r['wide']}"
        assert r["clipped"] == [], f"{name} at {width} px cuts off: {r['clipped']}"
        assert r["images"] == len(res.figures) and r["broken"] == [], r
        assert r["headlines"] == len(res.headlines) > 0 and r["headlinesFirst"], r
        # The screenshot is a real picture of the page: the right width, not one flat colour.
        img = mpimg.imread(shot)
        assert img.shape[1] == width and img.shape[0] > 0
        assert float(img[..., :3].std()) > 0.02
        keep(shot)


def test_a_broken_image_and_a_wide_table_are_caught(tmp_path):
    """The check itself: a page with a missing image and an unwrapped wide table fails it."""
    page = tmp_path / "bad.html"
    cells = "".join(f"<td>column-{i}-with-a-long-value</td>" for i in range(60))
    page.write_text(
        "<!doctype html><html><head><meta charset='utf-8'></head><body>"
        f"<img alt='gone' src='missing.png'><table><tr>{cells}</tr></table></body></html>"
    )
    r = check_page(page, 800, tmp_path / "bad.png")
    assert r["broken"] == ["gone"]
    assert r["scrollWidth"] > r["innerWidth"]


def test_a_table_cut_off_inside_its_scrolling_box_is_caught(tmp_path):
    """The check itself: a wide table hidden in an overflow container leaves the page's width
    alone (no sideways scroll) yet is cut off, and so are a cell's text past its edge."""
    page = tmp_path / "clipped.html"
    cells = "".join(f"<td style='white-space:nowrap'>column-{i}-with-a-long-value</td>" for i in range(30))
    page.write_text(
        "<!doctype html><html><head><meta charset='utf-8'></head><body>"
        f"<div class='table' style='max-width:100%;overflow-x:auto'><table><tr>{cells}</tr></table></div>"
        "<table style='table-layout:fixed;width:300px'><tr><td style='overflow:hidden;white-space:nowrap'>"
        "a-cell-whose-text-runs-well-past-the-edge-of-its-own-column</td><td>b</td></tr></table>"
        "</body></html>"
    )
    r = check_page(page, 800, tmp_path / "clipped.png")
    assert r["scrollWidth"] <= r["innerWidth"]  # the old page-level check passes it
    assert any(c.startswith("DIV.table ") for c in r["clipped"]), r["clipped"]
    assert any(c.startswith("TD. ") and "a-cell-whose" in c for c in r["clipped"]), r["clipped"]


@pytest.mark.slow
def test_the_profile_report_fits_the_page_and_every_image_loads(tmp_path):
    """``kortsim profile``'s report passes the same check, with a compared rule (two pages)."""
    import simulator

    prof = simulator.profile("spokelse", compare_rule="jack=0.5,11", rounds=2000, matches=40, seed=2)
    paths = prof.write(tmp_path / "profile")
    n_figures = len(list((tmp_path / "profile" / "figures").glob("*.png")))
    for width in WIDTHS:
        shot = tmp_path / f"profile-{width}.png"
        r = check_page(paths["html"], width, shot)
        assert r["innerWidth"] == width
        assert r["scrollWidth"] <= r["innerWidth"], f"the profile at {width} px scrolls sideways: {r['wide']}"
        assert r["clipped"] == [], f"the profile at {width} px cuts off: {r['clipped']}"
        assert r["images"] == n_figures > 0 and r["broken"] == [], r
        assert r["headlines"] == len(prof.headlines) > 0 and r["headlinesFirst"], r
        img = mpimg.imread(shot)
        assert img.shape[1] == width and float(img[..., :3].std()) > 0.02
        keep(shot)
