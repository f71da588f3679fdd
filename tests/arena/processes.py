"""An arena run in another process, watched from a test: the games its store holds, the
processes it started (its pool's workers, its bot programs), and waiting on either.

Shared by the tests that stop a run part-way (SIGINT, SIGKILL, a killed worker) in tests/arena
and tests/serve_botzone; Linux only (``/proc``), which those tests check before they start.
"""

from __future__ import annotations

import contextlib
import sqlite3
import subprocess
import time
from collections.abc import Callable, Iterable
from pathlib import Path


def stored_games(db: Path) -> int:
    """Games the run's store holds so far (0 before the file or its tables exist; the file is
    not created by looking)."""
    if not db.exists():
        return 0
    try:
        with contextlib.closing(sqlite3.connect(db, timeout=5)) as c:
            return int(c.execute("SELECT COUNT(*) FROM games").fetchone()[0])
    except sqlite3.OperationalError:  # the schema is not there yet
        return 0


def children(pid: int) -> list[int]:
    """Processes whose parent is ``pid`` (a pool's workers, the arena's bot programs)."""
    out = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            with contextlib.suppress(OSError, IndexError, ValueError):
                stat = (entry / "stat").read_text()
                if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
                    out.append(int(entry.name))
    return out


def alive(pid: int) -> bool:
    """Whether ``pid`` still runs (a zombie waiting for its parent does not)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def wait_until(proc: subprocess.Popen[str] | subprocess.Popen[bytes], ready: Callable[[], bool],
               never: str, seconds: float = 120.0) -> None:
    """Poll ``ready`` until it holds; fail with ``never`` after ``seconds``, or with the run's
    output if the run ends first."""
    deadline = time.monotonic() + seconds
    while not ready():
        assert proc.poll() is None, ("the run ended", proc.returncode, proc.communicate())
        assert time.monotonic() < deadline, never
        time.sleep(0.05)


def all_gone(pids: Iterable[int], seconds: float = 10.0) -> bool:
    """Whether every process of ``pids`` has ended within ``seconds``."""
    pids = list(pids)
    deadline = time.monotonic() + seconds
    while any(alive(p) for p in pids) and time.monotonic() < deadline:
        time.sleep(0.1)
    return not any(alive(p) for p in pids)
