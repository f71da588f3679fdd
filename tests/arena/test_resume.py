"""A run killed with SIGKILL mid-way and started again ends with exactly N distinct games."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
from pathlib import Path

from tenpai.arena.runner import make_config, run_tournament
from tenpai.arena.schedule import all_keys
from tenpai.arena.store import ResultsStore

from .processes import all_gone, children, stored_games, wait_until

GAMES = 24
LINEUP = ("efficiency", "random", "random", "random")

SCRIPT = """
import sys
from tenpai.arena.runner import make_config, run_tournament
from tenpai.arena.store import ResultsStore

if __name__ == "__main__":
    config, _ = make_config("riichi", {lineup!r}, {games}, 9)
    with ResultsStore(sys.argv[1]) as store:
        run_tournament(config, store, workers=int(sys.argv[2]), progress=False)
"""


def _kill_mid_run(tmp_path: Path, workers: int, parent_only: bool = False) -> tuple[Path, int]:
    db = tmp_path / "run.db"
    script = tmp_path / "run.py"
    script.write_text(SCRIPT.format(lineup=LINEUP, games=GAMES))
    proc = subprocess.Popen(
        [sys.executable, str(script), str(db), str(workers)], start_new_session=True
    )
    try:
        wait_until(proc, lambda: stored_games(db) >= 3, "the run made no progress", seconds=90)
        if parent_only:
            # Only the parent dies, as on an OOM kill: the pool workers must end themselves.
            workers_pids = children(proc.pid)
            assert workers_pids, "no worker processes were found"
            os.kill(proc.pid, signal.SIGKILL)
            proc.wait()
            assert all_gone(workers_pids), "orphaned workers kept running"
    finally:
        if proc.poll() is None or parent_only:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(proc.pid, signal.SIGKILL)  # the whole group: parent and workers
        proc.wait()
    killed_at = stored_games(db)
    assert 3 <= killed_at < GAMES, f"kill came too late to test anything ({killed_at} games)"
    return db, killed_at


def _check_complete(db: Path, killed_at: int) -> None:
    with ResultsStore(db) as store:
        config, _ = make_config("riichi", LINEUP, GAMES, 9)
        outcome = run_tournament(config, store, workers=1, progress=False)
        assert outcome.played == GAMES - killed_at
        keys = store.done_keys()
        assert keys == set(all_keys(GAMES))
        assert store.game_count() == GAMES
        seats = store.seat_rows()
        assert len(seats) == 4 * GAMES
        (orphans,) = next(
            store.query(
                "SELECT COUNT(*) FROM rounds r LEFT JOIN games g "
                "ON r.deal = g.deal AND r.rotation = g.rotation WHERE g.deal IS NULL"
            )
        )
        assert orphans == 0
        # A second resume has nothing left to do.
        again = run_tournament(config, store, workers=1, progress=False)
        assert again.played == 0 and again.stored == GAMES


def test_resume_after_sigkill_in_process(tmp_path: Path) -> None:
    _check_complete(*_kill_mid_run(tmp_path, workers=1))


def test_resume_after_sigkill_of_the_whole_pool(tmp_path: Path) -> None:
    _check_complete(*_kill_mid_run(tmp_path, workers=2))


def test_resume_after_sigkill_of_the_parent_only(tmp_path: Path) -> None:
    _check_complete(*_kill_mid_run(tmp_path, workers=2, parent_only=True))


def test_resumed_results_equal_an_uninterrupted_run(tmp_path: Path) -> None:
    """Games are deterministic per key, so a resumed run stores the very same results."""
    config, _ = make_config("riichi", ("random",) * 4, 8, 4)
    with ResultsStore(tmp_path / "a.db") as a:
        run_tournament(config, a, workers=1, progress=False)
        whole = a.seat_rows()
    with ResultsStore(tmp_path / "b.db") as b:
        half, _ = make_config("riichi", ("random",) * 4, 8, 4)
        b.begin_run(half)
        from tenpai.arena.record import play_scheduled

        for key in all_keys(8)[:3]:
            b.add_game(play_scheduled("riichi", config.options, config.agents, 4, key))
        run_tournament(config, b, workers=1, progress=False)
        assert b.seat_rows() == whole
