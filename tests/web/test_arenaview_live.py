"""The arena page of a running arena shows every game it has committed, and touches nothing.

An arena keeps its results file open while it plays; the games it commits stay in the file's
``-wal`` until a checkpoint.  The page copied the main file alone, so it missed them; it now
copies through SQLite's online backup from a read-only connection when a ``-wal`` is present.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tenpai.arena.record import play_scheduled
from tenpai.arena.schedule import GameKey
from tenpai.arena.store import ResultsStore, RunConfig
from tenpai.serve.web.arenaview import ArenaFileError, arena_summary

LINEUP = ("efficiency", "random", "efficiency", "random")
OPTIONS = {"length": "tonpuu", "preset": "tenhou"}
CONFIG = RunConfig("riichi", LINEUP, 3, 1, OPTIONS)


def _add(store: ResultsStore, rotation: int) -> None:
    store.add_game(play_scheduled("riichi", OPTIONS, LINEUP, 1, GameKey(0, rotation)))


def _files(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir())}


def test_the_page_sees_the_games_a_running_arena_has_not_checkpointed(tmp_path: Path) -> None:
    db = tmp_path / "run.sqlite"
    with ResultsStore(db) as store:  # a first game, checkpointed into the file when it closes
        store.begin_run(CONFIG)
        _add(store, 0)
    assert not Path(f"{db}-wal").exists()
    writer = ResultsStore(db)  # the arena resumed, playing on
    try:
        # its commits stay in the -wal (a connection setting: nothing is written)
        assert list(writer.query("PRAGMA wal_autocheckpoint = 0")) == [(0,)]
        writer.begin_run(CONFIG)
        _add(writer, 1)
        _add(writer, 2)
        assert Path(f"{db}-wal").stat().st_size > 0
        before = _files(tmp_path)
        summary = arena_summary(db, "run.sqlite")
        after = _files(tmp_path)
        # no file added; the file and its -wal unchanged (a reader's marks go to the -shm,
        # the writer's shared index, see open_read_only)
        assert list(after) == list(before) == ["run.sqlite", "run.sqlite-shm", "run.sqlite-wal"]
        for name in ("run.sqlite", "run.sqlite-wal"):
            assert after[name] == before[name], name
        assert writer.game_count() == 3
    finally:
        writer.close()
    assert summary["games"] == 3, summary["games"]


def test_a_finished_arenas_folder_gets_no_files_from_the_page(tmp_path: Path) -> None:
    db = tmp_path / "run.sqlite"
    with ResultsStore(db) as store:
        store.begin_run(CONFIG)
        _add(store, 0)
    before = _files(tmp_path)
    assert list(before) == ["run.sqlite"]
    assert arena_summary(db, "run.sqlite")["games"] == 1
    assert _files(tmp_path) == before


def test_an_arena_resumed_during_the_copy_is_read_through_sqlite(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """No ``-wal`` when the page looked, one after its byte copy: the copy is made again."""
    import shutil

    db = tmp_path / "run.sqlite"
    with ResultsStore(db) as store:
        store.begin_run(CONFIG)
        _add(store, 0)
    writers: list[ResultsStore] = []
    real_copy = shutil.copyfile

    def copy_then_resume(src: Path, dst: Path) -> Path:
        out = real_copy(src, dst)
        writer = ResultsStore(db)
        writers.append(writer)
        assert list(writer.query("PRAGMA wal_autocheckpoint = 0")) == [(0,)]
        writer.begin_run(CONFIG)
        _add(writer, 1)
        return Path(out)

    monkeypatch.setattr("tenpai.serve.web.arenaview.shutil.copyfile", copy_then_resume)
    try:
        summary = arena_summary(db, "run.sqlite")
    finally:
        for w in writers:
            w.close()
    assert len(writers) == 1
    assert summary["games"] == 2, summary["games"]


def test_the_size_limit_counts_the_games_still_in_the_wal(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The copy reads the ``-wal`` too, so a file under the limit with a ``-wal`` that takes
    it over is refused, naming the file and both figures."""
    db = tmp_path / "run.sqlite"
    with ResultsStore(db) as store:
        store.begin_run(CONFIG)
        _add(store, 0)
    writer = ResultsStore(db)
    try:
        assert list(writer.query("PRAGMA wal_autocheckpoint = 0")) == [(0,)]
        writer.begin_run(CONFIG)
        _add(writer, 1)
        main, wal = db.stat().st_size, Path(f"{db}-wal").stat().st_size
        assert wal > 0
        monkeypatch.setattr("tenpai.serve.web.arenaview.MAX_ARENA_BYTES", main + wal - 1)
        with pytest.raises(ArenaFileError, match=f"run.sqlite: {main + wal} bytes is more than"):
            arena_summary(db, "run.sqlite")
        monkeypatch.setattr("tenpai.serve.web.arenaview.MAX_ARENA_BYTES", main + wal)
        assert arena_summary(db, "run.sqlite")["games"] == 2
    finally:
        writer.close()
