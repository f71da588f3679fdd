"""SIGINT stops an arena run with ``botzone:`` seats, through the API and the CLI.

The failure these tests pin down (issue 41): ``kill -INT`` sent to a run started in the
background by a script let it play on to its last game.  A shell starts a script's background
jobs with SIGINT ignored, the process inherits that, and Python then never raises
``KeyboardInterrupt``.  Each run here starts with SIGINT ignored in the same way; the signal
comes after the first stored game, while a bot program is running.  The run must stop within
seconds, keep the finished games, and leave no bot process behind.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

# the arena tests' process watching (tests/ is on pytest's path: each test folder
# is a package; not on mypy's, which reads these names as Any: see [tool.mypy])
from arena.processes import all_gone, children, stored_games, wait_until

pytestmark = pytest.mark.skipif(not Path("/proc").is_dir(), reason="needs Linux /proc")

_GREEDY = Path(__file__).parents[2] / "src" / "tenpai" / "bench" / "botzone_greedy_bot.py"
_SEAT = f"botzone:{_GREEDY} --keep-running"
_LINEUP = ["efficiency", _SEAT, "efficiency", "efficiency"]
_GAMES = 40  # far more than can be played in the seconds the run is given to stop

_API_SCRIPT = textwrap.dedent("""
    import sys
    from tenpai.arena.runner import make_config, run_tournament
    from tenpai.arena.store import ResultsStore

    config, _ = make_config("mcr", sys.argv[2].split(","), int(sys.argv[3]), 7,
                            {"preset": "botzone"})
    with ResultsStore(sys.argv[1]) as store:
        try:
            run_tournament(config, store, workers=1, progress=False)
        except KeyboardInterrupt:
            print("interrupted", store.game_count(), flush=True)
            sys.exit(130)
    print("finished", flush=True)
""")


def _ignore_sigint() -> None:
    """What a shell does for a script's background job (``cmd &``)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _interrupt_after_first_game(cmd: list[str], db: Path) -> tuple[int, str, str, list[int]]:
    """Run ``cmd``, send SIGINT once a game is stored and a bot is running; the exit code,
    output, and the bot processes that were running."""
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).parents[2] / "src")}
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env=env, preexec_fn=_ignore_sigint)
    bots: list[int] = []

    def bot_running_after_a_game() -> bool:
        nonlocal bots
        bots = children(proc.pid) if stored_games(db) >= 1 else []
        return bool(bots)

    try:
        wait_until(proc, bot_running_after_a_game, "no game stored with a bot running")
        os.kill(proc.pid, signal.SIGINT)
        sent = time.monotonic()
        try:
            out, err = proc.communicate(timeout=20)
        except subprocess.TimeoutExpired:
            pytest.fail(f"the run went on for 20 s after SIGINT ({stored_games(db)} games stored)")
        assert time.monotonic() - sent < 20
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
        for pid in children(proc.pid):
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGKILL)
    return proc.returncode, out, err, bots


def _no_bot_left(bots: list[int]) -> None:
    assert all_gone(bots), "a bot program outlived the run"


def test_sigint_stops_an_api_run_with_botzone_seats(tmp_path: Path) -> None:
    db = tmp_path / "run.db"
    script = tmp_path / "run.py"
    script.write_text(_API_SCRIPT, encoding="utf-8")
    code, out, err, bots = _interrupt_after_first_game(
        [sys.executable, str(script), str(db), ",".join(_LINEUP), str(_GAMES)], db)
    assert code == 130, err
    stored = stored_games(db)
    assert out.split() == ["interrupted", str(stored)], (out, err)
    assert 1 <= stored < _GAMES
    _no_bot_left(bots)


def test_sigint_stops_the_arena_command_with_botzone_seats(tmp_path: Path) -> None:
    db = tmp_path / "run.db"
    cmd = [sys.executable, "-m", "tenpai", "arena", "--rules", "mcr", "--preset", "botzone",
           "--agents", ",".join(_LINEUP), "--games", str(_GAMES), "--seed", "7",
           "--workers", "1", "--no-progress", "--db", str(db)]
    code, out, err, bots = _interrupt_after_first_game(cmd, db)
    assert code == 130, err
    lines = err.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in err, err
    stored = stored_games(db)
    assert lines[0].startswith(f"interrupted: {stored} of {_GAMES} games stored in ")
    assert 1 <= stored < _GAMES and out == ""
    _no_bot_left(bots)


def test_the_run_leaves_sigint_as_it_found_it(tmp_path: Path) -> None:
    """Ignored before the run, ignored after: only the run itself is stopped by SIGINT."""
    from tenpai.arena.runner import make_config, run_tournament
    from tenpai.arena.store import ResultsStore

    config, _ = make_config("mcr", ["random"] * 4, 4, 3, {"preset": "botzone"})
    seen: list[object] = []
    old = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        with ResultsStore(tmp_path / "run.db") as store:
            run_tournament(config, store, workers=1, progress=False,
                           on_game=lambda _r: seen.append(signal.getsignal(signal.SIGINT)))
        after = signal.getsignal(signal.SIGINT)
    finally:
        signal.signal(signal.SIGINT, old)
    # during the run: the run's own handler, which raises KeyboardInterrupt (and notes it)
    assert seen and all(callable(h) and h is not signal.default_int_handler for h in seen)
    assert after is signal.SIG_IGN
