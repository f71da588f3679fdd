"""How the bench tools read a results file: one read-only connection a file, and what a live
arena has committed (and only that) seen through it (``mcr_replay.open_read_only``)."""

from __future__ import annotations

import shutil
import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tenpai.bench.mcr_race_survival import read_ends
from tenpai.bench.mcr_score_breakdown import read_run
from tenpai.bench.riichi_tallies import read_runs


def _count_connections(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every database ``sqlite3.connect`` opens from now on, in order."""
    opened: list[str] = []
    real = sqlite3.connect

    def counting(database: Any, *args: Any, **kwargs: Any) -> sqlite3.Connection:
        opened.append(str(database))
        con: sqlite3.Connection = real(database, *args, **kwargs)
        return con

    monkeypatch.setattr(sqlite3, "connect", counting)
    return opened


@pytest.mark.parametrize("tool", ["riichi_point_flow", "mcr_score_breakdown",
                                  "mcr_race_survival"])
def test_a_tool_reads_the_seats_and_the_games_of_a_file_through_one_connection(
        tool: str, riichi_rule_run: Path, mcr_planner_run: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    readers: dict[str, tuple[Path, Callable[[str], list[Any]]]] = {
        "riichi_point_flow": (riichi_rule_run, lambda p: read_runs([p])),
        "mcr_score_breakdown": (mcr_planner_run, read_run),
        "mcr_race_survival": (mcr_planner_run, lambda p: read_ends(p, "planner")),
    }
    db, read = readers[tool]
    opened = _count_connections(monkeypatch)
    assert read(str(db))
    assert opened == [f"file:{db}?mode=ro"]


def _copy_game(con: sqlite3.Connection, deal: int, to_deal: int) -> None:
    """Store game ``deal`` (every rotation) again as ``to_deal``, as an arena stores a game."""
    for table in ("games", "seats", "game_events"):
        cols = [r[1] for r in con.execute(f"PRAGMA table_info({table})")]
        picked = ", ".join("? AS deal" if c == "deal" else c for c in cols)
        con.execute(f"INSERT INTO {table} ({', '.join(cols)}) SELECT {picked} FROM {table} "
                    "WHERE deal = ?", (to_deal, deal))


def test_a_reader_sees_what_a_live_writer_committed_and_nothing_else(
        riichi_rule_run: Path, tmp_path: Path) -> None:
    db = tmp_path / "live.db"
    shutil.copy(riichi_rule_run, db)
    before = read_runs([str(db)])
    first = min(s.deal for s in before)
    writer = sqlite3.connect(db, isolation_level=None)
    try:
        # an arena keeps its connection open: its commits stay in the write-ahead log
        writer.execute("PRAGMA wal_autocheckpoint = 0")
        writer.execute("BEGIN")
        _copy_game(writer, first, 1000)
        writer.execute("COMMIT")
        writer.execute("BEGIN")
        _copy_game(writer, first, 2000)  # not committed while the tool reads
        assert Path(f"{db}-wal").stat().st_size > 0
        seen = read_runs([str(db)])
        writer.execute("ROLLBACK")
    finally:
        writer.close()
    assert len(seen) == len(before) + sum(s.deal == first for s in before)
    assert not any(s.deal == 2000 for s in seen)
    copied = sorted((s.rotation, s.seat, sorted(s.tally.items()))
                    for s in seen if s.deal == 1000)
    original = sorted((s.rotation, s.seat, sorted(s.tally.items()))
                      for s in before if s.deal == first)
    assert copied == original and copied
