"""How the bench tools read a results file: one read-only connection a file
(``mcr_replay.stored_run``)."""

from __future__ import annotations

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
