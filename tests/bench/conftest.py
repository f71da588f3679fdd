"""Fixtures shared by the MCR bench tools' tests (the score breakdown and the race survival fit
read the same kind of arena run, so they read one)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from typer.testing import CliRunner

from tenpai.cli.main import app


def play_mcr_arena(db: Path, agents: str, seed: int, games: int) -> None:
    """A seeded ``botzone`` arena run stored in ``db`` (fails the test if the arena does)."""
    r = CliRunner().invoke(app, ["arena", "--rules", "mcr", "--preset", "botzone", "--agents",
                                 agents, "--games", str(games), "--seed", str(seed),
                                 "--workers", "1", "--no-progress", "--db", str(db)])
    assert r.exit_code == 0, r.output


@pytest.fixture
def mcr_arena() -> Callable[[Path, str, int, int], None]:
    """:func:`play_mcr_arena`, for tests that play a run of their own."""
    return play_mcr_arena


@pytest.fixture(scope="session")
def mcr_planner_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """12 games (3 walls) of ``planner`` against three ``efficiency``, seed 5; read only."""
    db = tmp_path_factory.mktemp("mcr_planner_run") / "run.db"
    play_mcr_arena(db, "planner,efficiency,efficiency,efficiency", 5, 12)
    return db
