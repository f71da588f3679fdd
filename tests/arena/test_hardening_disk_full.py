"""Issue 39, item 2: a results file on a full disk is one line naming the file and the cause.

Before, SQLite's own rollback after "database or disk is full" made ``add_game``'s ROLLBACK fail,
and the run ended in a traceback saying ``cannot rollback - no transaction is active`` (the real
cause only in the chained traceback).  The disk is simulated by SQLite itself: a connection with
a small ``max_page_count`` fails exactly as a full disk does (``SQLITE_FULL``).
"""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from tenpai.arena.schedule import all_keys
from tenpai.arena.store import ResultsStore
from tenpai.cli.main import app

_ARGS = ["arena", "--agents", "random,random,random,random", "--games", "40", "--workers", "1",
         "--option", "length=tonpuu", "--no-progress"]


def _small_disk(monkeypatch: pytest.MonkeyPatch, pages: int) -> None:
    real = sqlite3.connect

    def connect(*args: Any, **kwargs: Any) -> sqlite3.Connection:
        conn: sqlite3.Connection = real(*args, **kwargs)
        conn.execute(f"PRAGMA max_page_count = {pages}")
        return conn

    monkeypatch.setattr(sqlite3, "connect", connect)


def test_a_full_disk_is_one_line_and_the_run_resumes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    db = tmp_path / "run.db"
    with monkeypatch.context() as m:
        _small_disk(m, 20)  # the schema takes 14 pages; a few games fill the rest
        res = CliRunner().invoke(app, [*_ARGS, "--db", str(db)])
    assert res.exit_code == 2, res.output
    assert res.exception is None or isinstance(res.exception, SystemExit), res.exception
    lines = res.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in res.stderr, res.stderr
    assert "database or disk is full" in lines[0] and str(db) in lines[0]
    assert "no transaction is active" not in lines[0]
    with ResultsStore(db) as store:
        kept = store.game_count()
    assert 1 <= kept < 40
    res = CliRunner().invoke(app, [*_ARGS, "--db", str(db)])  # space again: resume
    assert res.exit_code == 0, res.stderr
    with ResultsStore(db) as store:
        assert store.done_keys() == set(all_keys(40))


def test_a_full_disk_before_the_first_game(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    db = tmp_path / "run.db"
    _small_disk(monkeypatch, 3)  # not even the schema fits
    res = CliRunner().invoke(app, [*_ARGS, "--db", str(db)])
    assert res.exit_code == 2
    lines = res.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in res.stderr, res.stderr
    assert "database or disk is full" in lines[0] and str(db) in lines[0]
