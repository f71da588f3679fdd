"""Files that must never be seen half-written: written beside the target, then renamed over it.

Weights, checkpoints, dataset shards and manifests, records, plots and reports are all written
this one way, so that a crash, a kill or an error mid-write leaves the previous file (or none)
under the real name, never a truncated one:

* the temporary file is unique (``mkstemp`` in the target's directory, so the rename stays on
  one file system and is atomic): two writers of one target never write into each other's
  temporary, the last rename wins with a complete file;
* it is flushed to disk (``fsync``) before the rename, so after a power loss the name holds the
  old bytes or the new ones, not an empty file;
* after the rename the directory is flushed too: the new name is an entry of the directory, and
  until the directory's block is on disk a crash can bring back the old entry (or none), the
  new file's bytes orphaned. Where a directory cannot be opened (Windows) or its file system
  does not sync directories, this step is skipped: the rename is still atomic, only not yet
  durable;
* it gets the mode an ordinary ``open(path, "w")`` would give (``mkstemp`` makes it 0600, which
  would hide reports and records from the other users of a shared machine);
* on any exception, ``KeyboardInterrupt`` included, it is removed and the exception goes on.

Writers that pick their behaviour from the file name (numpy's ``savez`` appends ``.npz`` to a
name without it; matplotlib chooses the image format from the suffix) ask for the temporary to
keep the target's suffix (``keep_suffix=True``). By default it ends in ``.tmp``, so a reader
scanning a folder for ``*.json`` records never picks up one still being written.
"""

from __future__ import annotations

import contextlib
import errno
import os
from collections.abc import Iterator, Sequence
from pathlib import Path

__all__ = ["atomic_path", "umask_mode", "write_bytes_atomic", "write_files_atomic",
           "write_text_atomic"]


def umask_mode() -> int:
    """The mode an ordinary ``open(path, "w")`` would give a new file (0o666 less the umask).

    Read from ``/proc`` where it can be: setting the umask to read it back is not thread-safe
    (another thread creating a file in between would get the wrong mode).
    """
    try:
        with open("/proc/self/status", encoding="ascii") as fh:
            for line in fh:
                if line.startswith("Umask:"):
                    return 0o666 & ~int(line.split()[1], 8)
    except (OSError, ValueError):
        pass
    mask = os.umask(0o022)
    os.umask(mask)
    return 0o666 & ~mask


def _temp_beside(target: Path, keep_suffix: bool) -> Path:
    """A new, empty, uniquely named file in ``target``'s directory (hidden, named after it)."""
    import tempfile  # only writers need it, and it is slow to import

    suffix = ".tmp" + (target.suffix if keep_suffix else "")
    fd, name = tempfile.mkstemp(prefix=f".{target.name}.", suffix=suffix, dir=target.parent)
    os.close(fd)
    return Path(name)


def _seal(tmp: Path, mode: int | None) -> None:
    """Give ``tmp`` its final mode and force its bytes to disk (before it is renamed)."""
    fd = os.open(tmp, os.O_RDWR)
    try:
        os.fchmod(fd, umask_mode() if mode is None else mode)
        os.fsync(fd)
    finally:
        os.close(fd)


def _sync_directory(directory: Path) -> None:
    """Force ``directory``'s entries to disk, so that a rename into it survives a crash.

    Skipped where the platform cannot open a directory (Windows: ``os.open`` refuses one) or the
    file system does not sync one (EINVAL); any other failure is an I/O error and is raised.
    """
    try:
        fd = os.open(directory, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError as e:
        if e.errno not in (errno.EINVAL, errno.ENOTSUP, errno.EBADF):
            raise
    finally:
        os.close(fd)


@contextlib.contextmanager
def atomic_path(
    path: str | Path, *, keep_suffix: bool = False, mode: int | None = None
) -> Iterator[Path]:
    """A temporary path beside ``path`` to write to; on leaving the block without an exception
    it is synced, renamed over ``path`` and the directory synced after the rename; on an
    exception it is removed.

    The directory must exist (callers keep their own error for a missing one). ``mode``
    overrides the umask's (a file shipped in the package is 0o644 whoever builds it).
    """
    target = Path(path)
    tmp = _temp_beside(target, keep_suffix)
    try:
        yield tmp
        _seal(tmp, mode)
        os.replace(tmp, target)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    _sync_directory(target.parent)


def write_bytes_atomic(path: str | Path, data: bytes, *, mode: int | None = None) -> None:
    """Write ``data`` to ``path`` atomically, creating its directory when missing."""
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    with atomic_path(target, mode=mode) as tmp:
        tmp.write_bytes(data)


def write_text_atomic(path: str | Path, text: str) -> None:
    """Write ``text`` as UTF-8 to ``path`` atomically, creating its directory when missing."""
    write_bytes_atomic(path, text.encode("utf-8"))


def write_files_atomic(files: Sequence[tuple[str | Path, bytes]]) -> None:
    """Write several files that belong together: all in full first, then renamed in the order
    given, so an error while writing leaves no target touched.

    The renames are separate ``os.replace`` calls: put the file that makes the set complete
    for its readers last. Each directory the set lands in is synced once, after all renames.
    """
    temps: list[tuple[Path, Path]] = []
    try:
        for path, data in files:
            target = Path(path)
            target.parent.mkdir(parents=True, exist_ok=True)
            tmp = _temp_beside(target, keep_suffix=False)
            temps.append((tmp, target))
            tmp.write_bytes(data)
            _seal(tmp, None)
        for tmp, target in temps:
            os.replace(tmp, target)
    except BaseException:
        for tmp, _ in temps:
            tmp.unlink(missing_ok=True)
        raise
    for directory in dict.fromkeys(target.parent for _, target in temps):
        _sync_directory(directory)
