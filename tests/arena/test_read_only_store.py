"""Reports open a results file read-only (``ResultsStore(path, read_only=True)``): a missing
file is named and not created, a file or folder without write permission reads the same, the
file's journal mode and tables stay as they were, and a running arena's committed games are
seen."""

from __future__ import annotations

import hashlib
import os
import shutil
import sqlite3
import stat
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
import typer

from tenpai.arena.pool import pooled_summary
from tenpai.arena.record import play_scheduled
from tenpai.arena.runner import make_config
from tenpai.arena.schedule import GameKey
from tenpai.arena.store import ResultsStore, StoreError

from .helpers import arena_app, run_cli

OPTIONS = {"length": "tonpuu", "preset": "tenhou"}
LINEUP = ("random", "random", "random", "random")
#: The user the permission checks run as when the tests run as root (who may write anywhere).
NOBODY = 65534


def _store_games(db: Path, rotations: range) -> None:
    with ResultsStore(db) as store:
        store.begin_run(make_config("riichi", LINEUP, 4, 1, OPTIONS)[0])
        for r in rotations:
            store.add_game(play_scheduled("riichi", OPTIONS, LINEUP, 1, GameKey(0, r)))


@pytest.fixture(scope="module")
def stored(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Two seeded games of four random players, stored as an arena stores them; read only."""
    db = tmp_path_factory.mktemp("read_only") / "run.db"
    _store_games(db, range(2))
    return db


@pytest.fixture
def shared_folder() -> Iterator[Path]:
    """A fresh folder anyone may enter (pytest's own folders are private to their owner, so a
    test running as root could not read them as ``NOBODY``); removed afterwards."""
    folder = Path(tempfile.mkdtemp(prefix="tenpai-read-only-"))
    folder.chmod(0o755)
    try:
        yield folder
    finally:
        for path in (folder, *folder.rglob("*")):
            if path.is_dir():
                path.chmod(0o755)
        shutil.rmtree(folder)


@contextmanager
def _without_write_permission() -> Iterator[None]:
    """Run the block as a user the permission bits apply to: root may write anywhere, so as
    root the block runs with the effective user id ``NOBODY`` (root again afterwards)."""
    if os.geteuid() != 0:
        yield
        return
    try:
        os.seteuid(NOBODY)
    except PermissionError:
        pytest.skip("root without the right to change its effective user id")
    try:
        yield
    finally:
        os.seteuid(0)


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _journal_mode(db: Path) -> str:
    con = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        return str(con.execute("PRAGMA journal_mode").fetchone()[0])
    finally:
        con.close()


def _tables(db: Path) -> list[str]:
    con = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        return sorted(r[0] for r in con.execute("SELECT name FROM sqlite_master"
                                                " WHERE type = 'table'"))
    finally:
        con.close()


@pytest.mark.parametrize("where", ["run.db", "typo/run.db"])
def test_a_missing_file_is_named_and_not_created(tmp_path: Path, where: str) -> None:
    db = tmp_path / where
    with pytest.raises(StoreError, match=f"^{db} does not exist$"):
        ResultsStore(db, read_only=True)
    assert list(tmp_path.iterdir()) == []
    with pytest.raises(StoreError, match="is a folder, not a results file"):
        ResultsStore(tmp_path, read_only=True)


@pytest.mark.parametrize("command", ["arena-report", "arena-pool"])
def test_a_report_on_a_mistyped_path_is_one_line_naming_it(
    tmp_path: Path, command: str
) -> None:
    app: typer.Typer = arena_app()
    db = tmp_path / "typo" / "run.db"
    args = (["--db", str(db), "--out", str(tmp_path / "report")] if command == "arena-report"
            else [str(db)])
    result = run_cli(app, command, *args)
    assert result.exit_code == 2
    assert result.stderr.strip() == f"error: {db} does not exist"
    assert list(tmp_path.iterdir()) == []


def test_a_report_leaves_the_journal_mode_and_the_bytes_alone(
    stored: Path, tmp_path: Path
) -> None:
    db = tmp_path / "run.db"
    shutil.copy(stored, db)
    con = sqlite3.connect(db)
    con.execute("PRAGMA journal_mode = DELETE")  # e.g. a copy made with the sqlite3 shell
    con.close()
    before = _digest(db)
    with ResultsStore(stored, read_only=True) as original:
        expected = original.seat_rows()
    with ResultsStore(db, read_only=True) as store:
        assert store.seat_rows() == expected
    result = run_cli(arena_app(), "arena-pool", str(db), "--json")
    assert result.exit_code == 0, result.output
    assert _journal_mode(db) == "delete"
    assert _digest(db) == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["run.db"]


def test_a_file_of_an_older_tenpai_is_read_without_adding_its_missing_tables(
    stored: Path, tmp_path: Path
) -> None:
    db = tmp_path / "old.db"
    shutil.copy(stored, db)
    con = sqlite3.connect(db)
    con.executescript("DROP TABLE protocol; DROP TABLE game_events;")
    con.close()
    tables = _tables(db)
    with ResultsStore(db, read_only=True) as store:
        assert store.protocol_counts() == {}
        assert store.game_events(GameKey(0, 0)) is None
        assert len(store.seat_rows()) == 8
    assert _tables(db) == tables


@pytest.mark.parametrize("locked", ["file", "file and folder"])
def test_a_report_reads_a_file_it_may_not_write(
    stored: Path, shared_folder: Path, locked: str
) -> None:
    db = shared_folder / "run.db"
    shutil.copy(stored, db)
    expected = pooled_summary([db]).as_dict()
    names = sorted(p.name for p in shared_folder.iterdir())
    db.chmod(stat.S_IRUSR | stat.S_IRGRP | stat.S_IROTH)  # 444
    if locked == "file and folder":
        shared_folder.chmod(0o555)
    with _without_write_permission():
        with ResultsStore(db, read_only=True) as store:
            assert store.config() is not None and len(store.seat_rows()) == 8
        assert pooled_summary([db]).as_dict() == expected
    assert _journal_mode(db) == "wal"
    if locked == "file and folder":  # nothing could be added beside it
        assert sorted(p.name for p in shared_folder.iterdir()) == names


def test_a_report_sees_the_games_a_running_arena_has_committed(tmp_path: Path) -> None:
    db = tmp_path / "live.db"
    _store_games(db, range(1))
    with ResultsStore(db) as writer:  # a resumed run, still playing: its connection stays open
        writer.begin_run(make_config("riichi", LINEUP, 4, 1, OPTIONS)[0])
        writer.add_game(play_scheduled("riichi", OPTIONS, LINEUP, 1, GameKey(0, 1)))
        assert Path(f"{db}-wal").stat().st_size > 0  # the new game is not checkpointed yet
        with ResultsStore(db, read_only=True) as reader:
            assert reader.done_keys() == {GameKey(0, 0), GameKey(0, 1)}
            assert len(reader.seat_rows()) == 8


def test_a_read_only_store_refuses_to_write(stored: Path) -> None:
    with ResultsStore(stored, read_only=True) as store:
        config = store.config()
        assert config is not None
        with pytest.raises(StoreError, match="open read-only"):
            store.begin_run(config)
