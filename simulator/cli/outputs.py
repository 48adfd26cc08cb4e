"""Output places checked before anything is played, and the outputs of compare and sweep."""

from __future__ import annotations

import contextlib
import json
import os
import tempfile
from collections.abc import Callable
from pathlib import Path

from simulator.cli.output import err
from simulator.errors import InputError


def _probe_folder(flag: str, target: Path, folder: Path, what: str, write: bool = True) -> None:
    """Refuse, in one line, a folder that cannot be made or written in (``/proc/x``,
    ``/dev/null/sub``): missing folders are made and removed again, so nothing is left."""
    if folder.exists() and not folder.is_dir():
        where = "" if folder == target else f": {folder}"
        raise InputError(f"{flag} {target}{where} is a file, not a folder")
    made: list[Path] = []
    at = folder
    while not at.exists() and at != at.parent:
        made.append(at)
        at = at.parent
    if not made and not os.access(folder, os.W_OK | os.X_OK):
        raise InputError(f"{flag} {target}: cannot write in this folder (permission denied)")
    step = "create"
    try:
        for p in reversed(made):
            p.mkdir()
        step = "write in"
        if write:
            with tempfile.TemporaryFile(dir=folder):
                pass
    except OSError as exc:
        raise InputError(f"{flag} {target}: cannot {step} the {what}: {exc.strerror or exc}") from None
    finally:
        for p in made:  # deepest first
            with contextlib.suppress(OSError):
                p.rmdir()


def check_outputs(
    plot: Path | None = None, out_dir: Path | None = None, *, what: str = "results folder", write: bool = True
) -> None:
    """Before anything is played: a figure's name must say PNG or SVG (both are written), and
    the figure's folder and the ``--out`` folder must be folders that can be made and written
    in, so that no run's numbers are lost at the end.  Used by every command that writes.

    ``what`` names the folder in the message ("run folder" for ``simulate``); ``write=False``
    leaves the test of writing in an existing folder to the caller (a run folder's lock)."""
    if plot is not None and plot.suffix.lower() not in (".png", ".svg"):
        raise InputError(f"--plot {plot}: give a .png or .svg file name")
    if plot is not None:
        _probe_folder("--plot", plot, plot.parent, "figure's folder")
    if out_dir is not None:
        _probe_folder("--out", out_dir, out_dir, what, write)


# What `compare --out` and `sweep --out` write; a folder holding anything else is not theirs.
RESULT_NAMES = frozenset(
    {"summary.parquet", "summary.json", "report.json", "report.md", "report.html", "figures", "tables"}
)


def _held_result(folder: Path) -> str | None:
    """Which command's results folder ``folder`` holds: "compare", "sweep", or None (some
    other report, or a report.json that cannot be read)."""
    try:
        prov = json.loads((folder / "report.json").read_text()).get("provenance") or {}
    except (OSError, ValueError, AttributeError):
        return None
    if prov.get("kind") == "compare":
        return "compare"
    return "sweep" if "sweep" in prov else None


def claim_results_folder(out_dir: Path | None, command: str) -> None:
    """Refuse, before anything is played, an ``--out`` folder that ``command`` ("compare" or
    "sweep") must not overwrite: a run folder (``simulate --out``), an experiment's, another
    command's results, or one holding files kortsim did not write.  A folder holding a
    previous result of the same command is replaced, with a one-line note on stderr."""
    if out_dir is None or not out_dir.is_dir():
        return
    names = sorted(p.name for p in out_dir.iterdir())
    if not names:
        return
    another = "choose another --out folder"
    from simulator.running.checkpoint import JOURNAL_FILE, PROGRESS_FILE, RUN_FILE, STATUS_FILE

    run_files = (RUN_FILE, PROGRESS_FILE, JOURNAL_FILE, STATUS_FILE)
    if any(n in names for n in run_files):
        held = next(n for n in run_files if n in names)
        raise InputError(f"--out {out_dir} already holds a run ({held}, simulate --out); {another}")
    if "experiment.json" in names:
        raise InputError(f"--out {out_dir} already holds an experiment (experiment.json); {another}")
    foreign = [n for n in names if n not in RESULT_NAMES]
    if foreign:
        shown = ", ".join(foreign[:3]) + (f" and {len(foreign) - 3} more" if len(foreign) > 3 else "")
        raise InputError(
            f"--out {out_dir} holds files kortsim did not write ({shown}); {another} (a new or empty one)"
        )
    held = _held_result(out_dir)
    if held != command:
        what = f"a {held} result" if held else "results of another kind"
        raise InputError(f"--out {out_dir} already holds {what}; {another}")
    err.print(f"note: {out_dir} held a previous {command} result; replacing it", markup=False)


def _write_outputs(
    plot: Path | None,
    out_dir: Path | None,
    quiet: bool,
    write_plot: Callable[[Path], list[Path]],
    write_folder: Callable[[Path], list[Path]],
) -> None:
    """Write ``--plot FILE`` and ``--out DIR``, those given, each with its function (which
    returns the files it wrote, named on stderr unless ``quiet``); a place that cannot be
    written is one line."""
    for flag, target, write in (("--plot", plot, write_plot), ("--out", out_dir, write_folder)):
        if target is None:
            continue
        try:
            written = write(target)
        except OSError as exc:
            raise InputError(f"{flag} {target}: cannot write there ({exc.strerror or exc})") from None
        if not quiet:
            err.print(f"wrote {' and '.join(str(w) for w in written)}", markup=False)


def write_compare_outputs(result, plot: Path | None, out_dir: Path | None, quiet: bool) -> None:
    """``compare --plot FILE`` and ``--out DIR``; a place that cannot be written is one line."""
    from simulator.analysis.compare_report import compare_report, save_figure

    def folder(target: Path) -> list[Path]:
        compare_report(result, target)
        return [target / "summary.parquet", target / "report.html"]

    _write_outputs(plot, out_dir, quiet, lambda target: save_figure(result, target), folder)


def write_sweep_outputs(result, plot: Path | None, out_dir: Path | None, quiet: bool) -> None:
    """``sweep --plot FILE`` and ``--out DIR``; a place that cannot be written is one line."""
    from simulator.analysis.sweep import sweep_report
    from simulator.reporting import plots

    def figure(target: Path) -> list[Path]:
        plots.save(result.plot(), target.parent, target.stem)
        return [target.with_suffix(".png"), target.with_suffix(".svg")]

    def folder(target: Path) -> list[Path]:
        sweep_report(result, target)
        return [target / "report.html"]

    _write_outputs(plot, out_dir, quiet, figure, folder)
