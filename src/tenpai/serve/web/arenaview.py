"""Arena results for the browser: a results store's summary as JSON (plots are drawn client-side).

The store is read on a private copy: a read-only reader of a WAL file with no ``-wal`` beside
it still creates the ``-shm`` and ``-wal`` files, and the folders the page shows are the
user's, not the server's to add files to.  The original is only read.  A running arena keeps
its connection open, so the games it has committed since the last checkpoint are only in its
``-wal``: a copy of the main file alone missed them (and could catch a checkpoint half-way).
Where a ``-wal`` is present the copy is therefore made with SQLite's online backup from a
read-only connection (:func:`tenpai.arena.store.open_read_only`), one consistent snapshot of
everything committed; the ``-wal`` and ``-shm`` it reads are the writer's, none is added.
"""

from __future__ import annotations

import shutil
import sqlite3
import tempfile
from pathlib import Path
from typing import Any, Final

__all__ = ["MAX_ARENA_BYTES", "ArenaFileError", "arena_summary"]

#: The largest results file the page will open, its ``-wal`` included (a million games fit well
#: below this).
MAX_ARENA_BYTES: Final = 256 * 1024 * 1024


class ArenaFileError(ValueError):
    """The file is not an arena results store (or too large to open here)."""


def arena_summary(path: Path, name: str) -> dict[str, Any]:
    """The run's configuration, per-agent statistics and paired tests of a results file."""
    from tenpai.arena.store import ResultsStore
    from tenpai.arena.summary import summarize_store

    size = path.stat().st_size + _wal_size(path)
    if size > MAX_ARENA_BYTES:
        raise ArenaFileError(f"{name}: {size} bytes is more than the {MAX_ARENA_BYTES} allowed")
    with path.open("rb") as fh:
        if fh.read(16) != b"SQLite format 3\x00":
            raise ArenaFileError(f"{name}: not an SQLite file")
    with tempfile.TemporaryDirectory(prefix="tenpai-arena-") as tmp:
        copy = Path(tmp) / "results.sqlite"
        try:
            _private_copy(path, copy)
            with ResultsStore(copy, read_only=True) as store:
                if store.config() is None:
                    raise ArenaFileError(f"{name}: no arena run in this file")
                summary = summarize_store(store).as_dict()
        except sqlite3.DatabaseError as exc:
            raise ArenaFileError(f"{name}: not an arena results store ({exc})") from None
    summary["name"] = name
    return summary


def _wal_size(path: Path) -> int:
    """The bytes of ``path``'s ``-wal`` (0 without one): a running arena's games may sit
    there, and the private copy reads them too, so the size limit counts them."""
    try:
        return Path(f"{path}-wal").stat().st_size
    except FileNotFoundError:
        return 0


def _private_copy(path: Path, copy: Path) -> None:
    """Every committed game of ``path`` into ``copy``, as one consistent snapshot.

    Without a ``-wal`` beside the file, the main file holds everything committed and is copied
    as bytes (opening it, even read-only, would add a ``-shm`` and ``-wal`` to the user's
    folder); if a writer started meanwhile (its ``-wal`` appeared during the copy) the copy
    is made again through SQLite.  :class:`sqlite3.DatabaseError` for a file SQLite cannot
    read."""
    log = Path(f"{path}-wal")
    if not log.exists():
        shutil.copyfile(path, copy)
        if not log.exists():
            return
        copy.unlink()
    from tenpai.arena.store import open_read_only

    source = open_read_only(path)
    try:
        target = sqlite3.connect(copy)
        try:
            source.backup(target)
        finally:
            target.close()
    finally:
        source.close()
