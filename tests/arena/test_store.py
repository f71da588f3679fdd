"""The results store: one transaction per game, no duplicates, refusal to mix runs."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from tenpai.arena.record import play_scheduled
from tenpai.arena.runner import make_config
from tenpai.arena.schedule import GameKey
from tenpai.arena.store import ConfigMismatchError, ResultsStore

OPTIONS = {"length": "tonpuu", "preset": "tenhou"}
LINEUP = ("random", "random", "random", "random")


def test_a_game_is_stored_with_its_seats_rounds_and_wins(tmp_path: Path) -> None:
    record = play_scheduled("riichi", OPTIONS, LINEUP, 1, GameKey(0, 1))
    with ResultsStore(tmp_path / "r.db") as store:
        store.begin_run(make_config("riichi", LINEUP, 4, 1)[0])
        store.add_game(record)
        assert store.done_keys() == {GameKey(0, 1)}
        rows = store.seat_rows()
        assert [r.score for r in rows] == [s.score for s in record.seats]
        (rounds,) = next(store.query("SELECT COUNT(*) FROM rounds"))
        assert rounds == len(record.hands)
        (wins,) = next(store.query("SELECT COUNT(*) FROM wins"))
        assert wins == sum(len(h.wins) for h in record.hands)
        deltas = list(store.query("SELECT delta0 + delta1 + delta2 + delta3 FROM rounds"))
        assert all(isinstance(d[0], int) for d in deltas)


def test_the_same_game_cannot_be_stored_twice(tmp_path: Path) -> None:
    record = play_scheduled("riichi", OPTIONS, LINEUP, 1, GameKey(0, 0))
    with ResultsStore(tmp_path / "r.db") as store:
        store.add_game(record)
        with pytest.raises(sqlite3.IntegrityError):
            store.add_game(record)
        # The failed second write was rolled back whole: still one game, four seats.
        assert store.game_count() == 1
        assert len(store.seat_rows()) == 4


def test_a_different_configuration_is_refused_with_the_differences(tmp_path: Path) -> None:
    db = tmp_path / "r.db"
    with ResultsStore(db) as store:
        store.begin_run(make_config("riichi", LINEUP, 8, 1)[0])
    with ResultsStore(db) as store:
        store.begin_run(make_config("riichi", LINEUP, 8, 1)[0])  # same: accepted
        other = make_config("riichi", LINEUP, 8, 2, {"length": "hanchan"})[0]
        with pytest.raises(ConfigMismatchError) as err:
            store.begin_run(other)
    message = str(err.value)
    assert "seed: stored 1, asked 2" in message
    assert "'hanchan'" in message
