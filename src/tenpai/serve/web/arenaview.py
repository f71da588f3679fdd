"""Arena results for the browser: a results store's summary as JSON (plots are drawn client-side).

The store is opened read-only, and on a private copy: a read-only reader of a WAL file still
creates the ``-shm`` and ``-wal`` files beside it, and the folders the page shows are the
user's, not the server's to add files to.  The original is only read.
"""

from __future__ import annotations

import shutil
import sqlite3
import tempfile
from pathlib import Path
from typing import Any, Final

__all__ = ["MAX_ARENA_BYTES", "ArenaFileError", "arena_summary"]

#: The largest results file the page will open (a million games fit well below this).
MAX_ARENA_BYTES: Final = 256 * 1024 * 1024


class ArenaFileError(ValueError):
    """The file is not an arena results store (or too large to open here)."""


def arena_summary(path: Path, name: str) -> dict[str, Any]:
    """The run's configuration, per-agent statistics and paired tests of a results file."""
    from tenpai.arena.store import ResultsStore
    from tenpai.arena.summary import summarize_store

    size = path.stat().st_size
    if size > MAX_ARENA_BYTES:
        raise ArenaFileError(f"{name}: {size} bytes is more than the {MAX_ARENA_BYTES} allowed")
    with path.open("rb") as fh:
        if fh.read(16) != b"SQLite format 3\x00":
            raise ArenaFileError(f"{name}: not an SQLite file")
    with tempfile.TemporaryDirectory(prefix="tenpai-arena-") as tmp:
        copy = Path(tmp) / "results.sqlite"
        shutil.copyfile(path, copy)
        try:
            with ResultsStore(copy, read_only=True) as store:
                if store.config() is None:
                    raise ArenaFileError(f"{name}: no arena run in this file")
                summary = summarize_store(store).as_dict()
        except sqlite3.DatabaseError as exc:
            raise ArenaFileError(f"{name}: not an arena results store ({exc})") from None
    summary["name"] = name
    return summary
