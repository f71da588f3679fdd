"""tenpai.atomic: a write either lands whole under the real name or leaves the old file and no
temporary; concurrent writers of one target never share a temporary; the file gets the mode the
umask gives; writers that read the suffix (numpy's savez) can have it."""

from __future__ import annotations

import errno
import os
import stat
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest

from tenpai.atomic import atomic_path, write_bytes_atomic, write_files_atomic, write_text_atomic


class Boom(Exception):
    pass


@pytest.fixture
def umask_027() -> Iterator[None]:
    old = os.umask(0o027)
    try:
        yield
    finally:
        os.umask(old)


def _mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def test_an_error_in_the_writer_keeps_the_old_file_and_leaves_no_temporary(
        tmp_path: Path) -> None:
    target = tmp_path / "weights.bin"
    target.write_bytes(b"old")
    with pytest.raises(Boom), atomic_path(target) as tmp:
        tmp.write_bytes(b"half of the new")
        raise Boom
    assert target.read_bytes() == b"old"
    assert [p.name for p in tmp_path.iterdir()] == ["weights.bin"]


def test_an_interrupt_is_cleaned_up_too(tmp_path: Path) -> None:
    target = tmp_path / "ckpt.pt"
    with pytest.raises(KeyboardInterrupt), atomic_path(target) as tmp:
        tmp.write_bytes(b"x")
        raise KeyboardInterrupt
    assert list(tmp_path.iterdir()) == []


def test_two_writers_of_one_target_each_have_their_own_temporary(tmp_path: Path) -> None:
    target = tmp_path / "manifest.json"
    with atomic_path(target) as first, atomic_path(target) as second:
        assert first != second
        first.write_text("first, and longer than the second")
        second.write_text("second")
    # the outer block finished last: its whole file, not a mix of the two
    assert target.read_text() == "first, and longer than the second"
    assert [p.name for p in tmp_path.iterdir()] == ["manifest.json"]


def test_the_temporary_is_in_the_targets_directory_and_hidden(tmp_path: Path) -> None:
    target = tmp_path / "report.md"
    with atomic_path(target) as tmp:
        assert tmp.parent == tmp_path
        assert tmp.name.startswith(".report.md.") and tmp.name.endswith(".tmp")
        tmp.write_text("r")


def test_the_mode_follows_the_umask(tmp_path: Path, umask_027: None) -> None:
    write_text_atomic(tmp_path / "a.json", "{}")
    assert _mode(tmp_path / "a.json") == 0o640
    with atomic_path(tmp_path / "b.pt") as tmp:
        tmp.write_bytes(b"b")
    assert _mode(tmp_path / "b.pt") == 0o640
    write_files_atomic([(tmp_path / "c.txt", b"c")])
    assert _mode(tmp_path / "c.txt") == 0o640


def test_an_explicit_mode_wins(tmp_path: Path, umask_027: None) -> None:
    write_bytes_atomic(tmp_path / "tables.bin", b"t", mode=0o644)
    assert _mode(tmp_path / "tables.bin") == 0o644


def test_the_suffix_is_kept_for_writers_that_need_it(tmp_path: Path) -> None:
    target = tmp_path / "train" / "discard-00000.npz"
    target.parent.mkdir()
    with atomic_path(target, keep_suffix=True) as tmp:
        assert tmp.suffix == ".npz"
        np.savez_compressed(tmp, x=np.arange(5))
    with np.load(target) as z:
        assert z["x"].tolist() == [0, 1, 2, 3, 4]
    assert [p.name for p in target.parent.iterdir()] == ["discard-00000.npz"]


def test_without_the_suffix_savez_would_miss_the_temporary(tmp_path: Path) -> None:
    """Why ``keep_suffix`` exists: savez writes to ``<name>.npz`` beside a name without it, and
    the (empty) temporary would be renamed over the target."""
    target = tmp_path / "shard.npz"
    with atomic_path(target) as tmp:
        np.savez_compressed(tmp, x=np.arange(3))
        stray = tmp.with_name(tmp.name + ".npz")
        assert stray.exists()
        stray.unlink()
    assert target.read_bytes() == b""


def test_write_text_and_bytes_create_the_directory(tmp_path: Path) -> None:
    write_text_atomic(tmp_path / "a" / "b" / "c.txt", "言")
    assert (tmp_path / "a" / "b" / "c.txt").read_bytes() == "言".encode()
    write_bytes_atomic(tmp_path / "d" / "e.bin", b"\x00\x01")
    assert (tmp_path / "d" / "e.bin").read_bytes() == b"\x00\x01"


def test_a_set_of_files_is_all_written_or_none_is(tmp_path: Path) -> None:
    first, second = tmp_path / "lite.json", tmp_path / "blocked" / "meta.json"
    first.write_text("old")
    (tmp_path / "blocked").write_text("a file where a folder should be")
    with pytest.raises(OSError):
        write_files_atomic([(first, b"new"), (second, b"new")])
    assert first.read_text() == "old"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["blocked", "lite.json"]
    write_files_atomic([(first, b"new"), (tmp_path / "meta.json", b"m")])
    assert first.read_text() == "new" and (tmp_path / "meta.json").read_text() == "m"


def _record_fsyncs(monkeypatch: pytest.MonkeyPatch, log: list[tuple[int, int, bool]],
                   watched: Path) -> None:
    """Record every ``os.fsync`` as the (device, inode) it syncs and whether ``watched`` exists
    by then (a directory's sync must come after the rename that gives the new name)."""
    real = os.fsync

    def fsync(fd: int) -> None:
        st = os.fstat(fd)
        log.append((st.st_dev, st.st_ino, watched.exists()))
        real(fd)

    monkeypatch.setattr(os, "fsync", fsync)


def _identity(path: Path) -> tuple[int, int]:
    st = os.stat(path)
    return st.st_dev, st.st_ino


def test_the_directory_is_synced_after_the_rename(tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """Without the directory's sync a crash after the rename could lose the new name."""
    target = tmp_path / "weights.bin"
    log: list[tuple[int, int, bool]] = []
    _record_fsyncs(monkeypatch, log, target)
    write_bytes_atomic(target, b"new")
    synced = [(dev, ino) for dev, ino, renamed in log if renamed]
    assert synced == [_identity(tmp_path)]
    # the file itself is synced first, under its temporary name
    assert [(dev, ino) for dev, ino, renamed in log if not renamed] == [_identity(target)]


def test_a_set_syncs_each_of_its_directories_once(tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "sub").mkdir()
    last = tmp_path / "sub" / "meta.json"
    log: list[tuple[int, int, bool]] = []
    _record_fsyncs(monkeypatch, log, last)
    write_files_atomic([(tmp_path / "a.bin", b"a"), (tmp_path / "b.bin", b"b"), (last, b"m")])
    after = [(dev, ino) for dev, ino, renamed in log if renamed]
    assert sorted(after) == sorted([_identity(tmp_path), _identity(tmp_path / "sub")])


def test_a_directory_that_cannot_be_opened_or_synced_is_skipped(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Windows refuses to open a directory; some file systems refuse to sync one (EINVAL)."""
    real_open, real_fsync = os.open, os.fsync

    def open_no_dirs(path: str | os.PathLike[str], flags: int, mode: int = 0o777) -> int:
        if os.path.isdir(path):
            raise PermissionError(errno.EACCES, "a directory", str(path))
        return real_open(path, flags, mode)

    monkeypatch.setattr(os, "open", open_no_dirs)
    write_text_atomic(tmp_path / "a.txt", "a")
    assert (tmp_path / "a.txt").read_text() == "a"
    monkeypatch.setattr(os, "open", real_open)

    def fsync_no_dirs(fd: int) -> None:
        if stat.S_ISDIR(os.fstat(fd).st_mode):
            raise OSError(errno.EINVAL, "not on this file system")
        real_fsync(fd)

    monkeypatch.setattr(os, "fsync", fsync_no_dirs)
    write_files_atomic([(tmp_path / "b.txt", b"b")])
    assert (tmp_path / "b.txt").read_text() == "b"
