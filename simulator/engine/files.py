"""Writing a file whole or not at all: a temporary file in the same folder, fsync, rename.

A process killed at any moment (even by SIGKILL) leaves the file either as it was or as it
is meant to be, never half written.
"""

from __future__ import annotations

import contextlib
import os
from pathlib import Path


def write_atomic(path: str | Path, data: bytes | str) -> None:
    """Write ``data`` (``str`` as UTF-8) to ``path`` via a temporary file in the same folder,
    made durable (fsync) before it is renamed into place, and the rename made durable too."""
    _replace(Path(path), data, durable=True)


def write_replace(path: str | Path, data: bytes | str) -> None:
    """As :func:`write_atomic` without the fsyncs: whole or not at all, but perhaps the
    previous version after a power cut (for files rewritten often and rebuilt if lost)."""
    _replace(Path(path), data, durable=False)


def fsync_dir(folder: str | Path) -> None:
    """Make a rename in ``folder`` durable (where the platform can open a folder)."""
    with contextlib.suppress(OSError):
        fd = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


def _replace(path: Path, data: bytes | str, durable: bool) -> None:
    raw = data.encode("utf-8") if isinstance(data, str) else data
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        with open(tmp, "wb") as f:
            f.write(raw)
            if durable:
                f.flush()
                os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            tmp.unlink()
        raise
    if durable:
        fsync_dir(path.parent)
