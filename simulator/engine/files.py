"""Files written whole or not at all: a temporary file beside the target, flushed to disk, then
renamed over it, so a reader (or a run interrupted mid-write) never sees half a file.

:func:`atomic_write` writes bytes or text; :func:`atomic_path` gives a temporary path to a
writer that wants one (``pyarrow.parquet.write_table``, ``Figure.savefig``, ``DataFrame.to_csv``)
and puts the file in place when the block ends without an error.  The temporary file is
``.NAME.RANDOM.tmp`` in the target's folder (a rename is atomic only within one file system),
opened exclusively, so threads and processes writing the same target never share one; it gets
the permissions any new file gets (the umask applies).  Imports: the standard library only.
"""

from __future__ import annotations

import contextlib
import os
import stat
import uuid
from collections.abc import Iterator
from pathlib import Path

TMP_SUFFIX = ".tmp"  # a leftover temporary file matches ``.*.tmp`` in its folder


def temporary_name(path: Path) -> Path:
    """A fresh hidden name beside ``path`` for its temporary file."""
    return path.with_name(f".{path.name}.{uuid.uuid4().hex[:12]}{TMP_SUFFIX}")


def fsync_dir(folder: str | os.PathLike[str]) -> None:
    """Flush a folder's entries to disk (so a rename in it survives a crash); a no-op where a
    folder cannot be opened (Windows)."""
    with contextlib.suppress(OSError):
        fd = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


def _sync_file(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


@contextlib.contextmanager
def atomic_path(path: str | os.PathLike[str], *, fsync: bool = True) -> Iterator[Path]:
    """A temporary path to write ``path``'s content to; renamed over ``path`` when the block
    ends, removed if it raises.

    Parameters
    ----------
    path
        The file to write (its folder must exist).
    fsync
        Flush the file and the folder to disk (off only where durability does not matter and
        speed does, e.g. a progress note rewritten many times a second).

    Examples
    --------
    >>> with atomic_path(folder / "table.parquet") as tmp:  # doctest: +SKIP
    ...     pq.write_table(table, tmp)
    """
    target = Path(path)
    tmp = temporary_name(target)
    try:
        yield tmp
        if fsync:
            _sync_file(tmp)
        os.replace(tmp, target)
    except BaseException:
        with contextlib.suppress(OSError):
            tmp.unlink()
        raise
    if fsync:
        fsync_dir(target.parent)


def atomic_write(
    path: str | os.PathLike[str], data: bytes | str, *, fsync: bool = True, encoding: str = "utf-8"
) -> Path:
    """Write ``data`` (text is encoded with ``encoding``, newlines as given) to ``path`` whole
    or not at all; returns the path.

    Parameters
    ----------
    path
        The file to write (its folder must exist).
    data
        The whole content.
    fsync
        Flush the file and the folder to disk before returning.
    encoding
        The encoding of text ``data``.
    """
    raw = data.encode(encoding) if isinstance(data, str) else data
    target = Path(path)
    with atomic_path(target, fsync=False) as tmp, open(tmp, "xb") as f:
        f.write(raw)
        if fsync:
            f.flush()
            os.fsync(f.fileno())
    if fsync:
        fsync_dir(target.parent)
    return target


def what_it_is(path: str | os.PathLike[str]) -> str | None:
    """What ``path`` names when it is not a regular file one can read a whole text from
    (``"no such file"``, ``"a folder"``, ``"a named pipe (fifo)"``, ``"a device"``,
    ``"a socket"``), or None for a regular file (or a link to one).  Reading a fifo or a
    device would block or never end, so an input file is checked before it is opened."""
    try:
        mode = os.stat(path).st_mode
    except FileNotFoundError:
        return "no such file"
    except OSError as exc:
        return f"a path that cannot be read ({exc.strerror or exc})"
    if stat.S_ISREG(mode):
        return None
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISFIFO(mode):
        return "a named pipe (fifo)"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "not a regular file"


__all__ = ["atomic_path", "atomic_write", "fsync_dir", "temporary_name", "what_it_is"]
