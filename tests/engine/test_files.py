"""Atomic writes: a file is written whole or not at all, and a failed write leaves nothing behind."""

from __future__ import annotations

import os
import stat

import pytest

from simulator.engine.files import TMP_SUFFIX, atomic_path, atomic_write


def test_text_and_bytes_are_written_whole_and_replace_the_old_file(tmp_path):
    p = tmp_path / "page.html"
    assert atomic_write(p, "før\n") == p
    assert p.read_bytes() == "før\n".encode()
    atomic_write(p, b"\x00\x01", fsync=False)
    assert p.read_bytes() == b"\x00\x01"
    assert sorted(x.name for x in tmp_path.iterdir()) == ["page.html"]  # no temporary file left


def test_a_writer_given_a_path_puts_its_file_in_place_only_when_it_finishes(tmp_path):
    p = tmp_path / "table.csv"
    p.write_text("old\n")
    with atomic_path(p) as tmp:
        assert tmp.parent == tmp_path and tmp.name.startswith(".table.csv.") and tmp.name.endswith(TMP_SUFFIX)
        tmp.write_text("new\n")
        assert p.read_text() == "old\n"  # a reader still sees the whole old file
    assert p.read_text() == "new\n"


def test_a_failed_write_keeps_the_old_file_and_removes_the_temporary_one(tmp_path):
    p = tmp_path / "report.json"
    p.write_text("{}")
    with pytest.raises(RuntimeError), atomic_path(p) as tmp:
        tmp.write_text('{"half": ')
        raise RuntimeError("the writer failed")
    assert p.read_text() == "{}"
    assert sorted(x.name for x in tmp_path.iterdir()) == ["report.json"]


def test_two_writes_of_one_file_never_share_a_temporary_file(tmp_path):
    p = tmp_path / "x"
    with atomic_path(p) as a, atomic_path(p) as b:
        assert a != b
        a.write_text("a")
        b.write_text("b")
    assert p.read_text() == "a"  # the first to finish is replaced by the last


@pytest.mark.skipif(os.name != "posix", reason="file modes are POSIX")
def test_the_file_gets_the_permissions_a_new_file_gets(tmp_path):
    old = os.umask(0o022)
    try:
        atomic_write(tmp_path / "a", "x")
        (tmp_path / "b").write_text("x")
    finally:
        os.umask(old)
    mode = stat.S_IMODE((tmp_path / "a").stat().st_mode)
    assert mode == stat.S_IMODE((tmp_path / "b").stat().st_mode) == 0o644
