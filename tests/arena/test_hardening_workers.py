"""Issue 39, item 1: a worker process that dies must not hang the arena.

With ``multiprocessing.Pool`` a ``kill -9``'d worker's task was never answered: the run froze
at 399/400 forever and ignored Ctrl-C.  Now a dead worker breaks the pool at once, its tasks run
again on a fresh pool (the run ends with every game), and workers that keep dying stop the run
with one line while the store stays resumable.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from tenpai.arena.runner import Task, WorkerDiedError, _local, make_config
from tenpai.arena.schedule import all_keys
from tenpai.arena.store import ResultsStore

from .processes import children, stored_games, wait_until


def _workers(pid: int) -> list[int]:
    """The pool's worker processes (spawn also starts a resource tracker: not a worker)."""
    out = []
    for child in children(pid):
        with contextlib.suppress(OSError):
            cmdline = Path(f"/proc/{child}/cmdline").read_bytes()
            if b"resource_tracker" not in cmdline:
                out.append(child)
    return out


@pytest.mark.skipif(not Path("/proc").is_dir(), reason="needs Linux /proc")
def test_a_killed_worker_is_replaced_and_the_run_completes(tmp_path: Path) -> None:
    db = tmp_path / "run.db"
    games = 48  # enough that the run cannot finish between the first stored game and the kill
    cmd = [sys.executable, "-m", "tenpai", "arena", "--agents",
           "efficiency,defensive,efficiency,defensive", "--games", str(games), "--seed", "3",
           "--workers", "2", "--option", "length=tonpuu", "--no-progress", "--db", str(db)]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            start_new_session=True)
    try:
        wait_until(proc, lambda: stored_games(db) >= 1, "the run stored no game")
        workers = _workers(proc.pid)
        assert workers, "no worker processes"
        os.kill(workers[0], signal.SIGKILL)
        assert stored_games(db) < games, "the kill came too late"
        # Before: the killed worker's game was never answered and this waited forever.
        _out, err = proc.communicate(timeout=240)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    assert proc.returncode == 0, err
    assert "Traceback" not in err
    with ResultsStore(db) as store:
        assert store.done_keys() == set(all_keys(games))


def _die(task: Task) -> list[object]:
    """A task whose worker always dies (as if killed), run in a spawned worker."""
    os._exit(9)


def test_workers_that_keep_dying_stop_the_run_with_one_error() -> None:
    config, _ = make_config("riichi", ("random",) * 4, 8, 0, {"length": "tonpuu"})
    tasks = [(config.rules, dict(config.options), config.agents, config.seed, (k,), 1)
             for k in all_keys(8)]
    with pytest.raises(WorkerDiedError, match="died 3 times"):
        list(_local(tasks, 2, _die))  # type: ignore[arg-type]


def test_the_schedule_is_lazy() -> None:
    """A run's tasks are made as the pool asks for them, not all before the first game."""
    from tenpai.arena.runner import _tasks
    from tenpai.arena.schedule import iter_keys

    config, _ = make_config("riichi", ("random",) * 4, 4 * 10**7, 0, {"length": "tonpuu"})
    tasks = _tasks(config, iter_keys(config.games), 1)
    first = next(iter(tasks))
    assert first[4] == ((0, 0),)
