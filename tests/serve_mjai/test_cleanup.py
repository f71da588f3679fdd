"""``tenpai arena`` with mjai seats leaves no process behind when it is interrupted or killed.

The bots here read their input and never answer, so the arena is waiting on one of them when
the signal arrives; they are stubborn too (they ignore SIGINT, SIGTERM and the end of their
input), so only a SIGKILL of their process group or the parent-death signal ends them.  After
Ctrl-C (SIGINT), SIGTERM, and even SIGKILL of the arena, every bot process it started must be
gone.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import psutil
import pytest

from .helpers import descendants_alive, tenpai_exe, write_wrapper


def _start_arena(tmp_path: Path) -> tuple[subprocess.Popen[str], list[int]]:
    silent = write_wrapper(
        tmp_path, "silent", "trap '' INT TERM\nwhile :; do read -r line || sleep 0.2; done"
    )
    argv = [
        tenpai_exe(),
        "arena",
        "--agents",
        f"mjai:{silent},random,mjai:{silent},random",
        "--games",
        "4",
        "--workers",
        "1",
        "--no-progress",
        "--db",
        str(tmp_path / "run.db"),
    ]
    env = {**os.environ, "TENPAI_MJAI_TIMEOUT": "300"}
    proc = subprocess.Popen(
        argv, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),  # as from a terminal
    )
    parent = psutil.Process(proc.pid)
    deadline = time.monotonic() + 60
    bots: list[int] = []
    while time.monotonic() < deadline and len(bots) < 2:
        with contextlib.suppress(psutil.Error):
            bots = [c.pid for c in parent.children() if "silent" in " ".join(c.cmdline())]
        if proc.poll() is not None:
            break
        time.sleep(0.1)
    if len(bots) < 2:
        proc.kill()
        _out, err = proc.communicate()
        pytest.fail(f"the arena did not start its bots: {err[-500:]}")
    time.sleep(0.3)  # let the arena reach its wait for an answer
    return proc, bots


def _gone(pids: list[int], within: float = 10.0) -> list[int]:
    deadline = time.monotonic() + within
    alive = descendants_alive(pids)
    while alive and time.monotonic() < deadline:
        time.sleep(0.1)
        alive = descendants_alive(pids)
    return alive


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM, signal.SIGKILL])
def test_no_bot_outlives_the_arena(tmp_path: Path, sig: signal.Signals) -> None:
    proc, bots = _start_arena(tmp_path)
    proc.send_signal(sig)
    try:
        # wait for the arena itself, not for its pipes: after SIGKILL the test only asks that
        # the bots die, and a pipe may outlive the process that wrote it
        proc.wait(timeout=120)  # generous: CI machines run loaded
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        for stream in (proc.stdout, proc.stderr):
            if stream is not None:
                stream.close()
    assert proc.returncode != 0
    left = _gone(bots)
    for pid in left:  # never leave a stray process behind, even when the test fails
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(pid, signal.SIGKILL)
    assert left == [], f"bots left running after {sig.name}"


def test_a_sigterm_while_exiting_does_not_cut_the_exit_hooks_short() -> None:
    """A SIGTERM that reaches a process already running its exit hooks (as a pool's worker
    gets at the end of a run) is ignored: every later hook still runs and nothing is printed."""
    script = (
        "import atexit, os, signal, time\n"
        "from tenpai.serve.mjai import process\n"
        "process._install_hooks()\n"
        "atexit.register(lambda: print('later hook ran', flush=True))\n"
        "def first():\n"
        "    os.kill(os.getpid(), signal.SIGTERM)\n"
        "    time.sleep(0.2)\n"
        "    print('first hook ran', flush=True)\n"
        "atexit.register(first)\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["first", "hook", "ran", "later", "hook", "ran"]
    assert "Exception ignored" not in done.stderr, done.stderr


def test_a_sigterm_before_exiting_still_ends_the_process() -> None:
    script = (
        "import os, signal, time\n"
        "from tenpai.serve.mjai import process\n"
        "process._install_hooks()\n"
        "os.kill(os.getpid(), signal.SIGTERM)\n"
        "time.sleep(30)\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 128 + signal.SIGTERM


@pytest.mark.parametrize("step", [1, 2])
def test_an_interrupt_while_a_bot_starts_leaves_nothing_half_built(
        monkeypatch: pytest.MonkeyPatch, step: int) -> None:
    """Ctrl-C at any point of a bot's start leaves either no process or one the exit hook can
    close: the atexit hook once tripped on a process registered before its writer queue existed
    (``AttributeError: 'BotProcess' object has no attribute '_out'``)."""
    import queue

    from tenpai.serve.mjai import process

    calls = {"n": 0}
    real = queue.Queue

    def interrupting_queue(maxsize: int = 0) -> queue.Queue[object]:
        calls["n"] += 1
        if calls["n"] == step:
            raise KeyboardInterrupt
        return real(maxsize)

    before = set(process.live_processes())
    monkeypatch.setattr(queue, "Queue", interrupting_queue)  # the module reads it at each call
    with pytest.raises(KeyboardInterrupt):
        process.BotProcess([sys.executable, "-c", "import sys; sys.stdin.read()"])
    monkeypatch.setattr(queue, "Queue", real)
    for p in set(process.live_processes()) - before:
        p.close(grace=0.0)  # raises if the interrupted start left it half built
        assert p.proc.returncode is not None
    assert set(process.live_processes()) == before
