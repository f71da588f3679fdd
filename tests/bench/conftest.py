"""Fixtures shared by the bench tools' tests: seeded arena runs the report tools read (the MCR
score breakdown and the race survival fit read the same kind of run, so they read one; the
Riichi point flow reads a Riichi run)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from typer.testing import CliRunner

from tenpai.cli.main import app


def _play_arena(db: Path, rules: list[str], agents: str, seed: int, games: int) -> None:
    """A seeded arena run of ``rules`` (its arena options) stored in ``db`` (fails the test if
    the arena does)."""
    r = CliRunner().invoke(app, ["arena", *rules, "--agents", agents, "--games", str(games),
                                 "--seed", str(seed), "--workers", "1", "--no-progress",
                                 "--db", str(db)])
    assert r.exit_code == 0, r.output


def play_mcr_arena(db: Path, agents: str, seed: int, games: int) -> None:
    """A seeded ``botzone`` arena run stored in ``db`` (fails the test if the arena does)."""
    _play_arena(db, ["--rules", "mcr", "--preset", "botzone"], agents, seed, games)


def play_riichi_arena(db: Path, agents: str, seed: int, games: int) -> None:
    """A seeded four-player Riichi arena run (Tenhou rules, tonpuu) stored in ``db``."""
    _play_arena(db, ["--rules", "riichi", "--length", "tonpuu"], agents, seed, games)


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


@pytest.fixture
def riichi_arena() -> Callable[[Path, str, int, int], None]:
    """:func:`play_riichi_arena`, for tests that play a run of their own."""
    return play_riichi_arena


@pytest.fixture(scope="session")
def riichi_rule_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """8 tonpuu games (2 deals) of ``efficiency`` against ``defensive``, seed 7; read only."""
    db = tmp_path_factory.mktemp("riichi_rule_run") / "run.db"
    play_riichi_arena(db, "efficiency,defensive,efficiency,defensive", 7, 8)
    return db
