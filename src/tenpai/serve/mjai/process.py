"""A child process speaking JSON lines, and the guarantee that none outlives us.

Every bot runs in its own session (process group), so a Ctrl-C at the terminal reaches only
the arena, which then ends its bots itself; ``close`` kills the whole group, so a bot that was
started through a wrapper script dies with its children.  Three nets catch the cases where
``close`` is never called: an ``atexit`` hook, a SIGTERM handler that turns the signal into a
normal exit (Python skips ``atexit`` on an unhandled SIGTERM), and on Linux the kernel's
parent-death signal, which kills the bot even when the arena itself is SIGKILLed.

Output is read by a thread into a queue, so waiting for an answer can time out; stderr is kept
as a short tail for error messages (mjai-manue logs every decision there, and an undrained pipe
would block it).
"""

from __future__ import annotations

import atexit
import contextlib
import ctypes
import os
import queue
import signal
import subprocess
import sys
import threading
import time
from collections import deque
from collections.abc import Sequence
from types import FrameType

__all__ = ["BotExited", "BotProcess", "BotTimeout", "kill_all", "live_processes"]

_EOF = object()
_LIVE: set[BotProcess] = set()
_LOCK = threading.Lock()
_HOOKS_INSTALLED = False
_PR_SET_PDEATHSIG = 1


class BotTimeout(TimeoutError):
    """No line arrived in time."""


class BotExited(RuntimeError):
    """The process ended (or closed its output) while an answer was awaited."""


def _libc() -> ctypes.CDLL | None:
    if not sys.platform.startswith("linux"):
        return None
    try:
        return ctypes.CDLL(None, use_errno=True)
    except OSError:
        return None


_LIBC = _libc()


def _child_setup() -> None:
    """Runs in the child before exec: die with the parent (Linux)."""
    if _LIBC is not None:
        _LIBC.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)


def _on_sigterm(signum: int, frame: FrameType | None) -> None:
    """End the process through SystemExit, so the atexit hook ends its bots.  A SIGTERM that
    arrives once the process is already exiting (the main thread has stopped: the atexit hooks,
    :func:`kill_all` among them, are running) is ignored: raising there would only cut short
    another hook's clean-up (a pool's worker shut down at the end of an arena run printed
    "Exception ignored in atexit callback ... SystemExit: 143" from torch's)."""
    if not threading.main_thread().is_alive():
        return
    raise SystemExit(128 + signum)


def _install_hooks() -> None:
    global _HOOKS_INSTALLED
    if _HOOKS_INSTALLED:
        return
    _HOOKS_INSTALLED = True
    atexit.register(kill_all)
    if threading.current_thread() is threading.main_thread():
        with contextlib.suppress(ValueError, OSError):
            if signal.getsignal(signal.SIGTERM) is signal.SIG_DFL:
                signal.signal(signal.SIGTERM, _on_sigterm)


def live_processes() -> list[BotProcess]:
    with _LOCK:
        return list(_LIVE)


def kill_all() -> None:
    """End every bot this process started (the atexit hook)."""
    for p in live_processes():
        p.close(grace=0.0)


class BotProcess:
    """One bot subprocess: send lines, wait for a line with a timeout, close for good."""

    def __init__(self, argv: Sequence[str], *, label: str = "") -> None:
        _install_hooks()
        self.argv = list(argv)
        self.label = label or os.path.basename(argv[0])
        self.stderr_tail: deque[str] = deque(maxlen=20)
        self._lines: queue.Queue[object] = queue.Queue()
        # Everything close() reads is set before the process exists and is registered: an
        # interrupt (Ctrl-C) between the two would otherwise leave a half-built process in
        # _LIVE for the atexit hook to trip on (seen once in CI: AttributeError '_out').
        self._closed = False
        self._out: queue.Queue[str | None] = queue.Queue()
        self._broken = False
        self.proc = subprocess.Popen(
            self.argv,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            encoding="utf-8",
            errors="replace",
            bufsize=1,
            start_new_session=True,
            preexec_fn=_child_setup if _LIBC is not None else None,
        )
        self.pid = self.proc.pid
        with _LOCK:
            _LIVE.add(self)
        threading.Thread(target=self._write_in, daemon=True, name=f"mjai-in-{self.pid}").start()
        threading.Thread(target=self._read_out, daemon=True, name=f"mjai-out-{self.pid}").start()
        threading.Thread(target=self._read_err, daemon=True, name=f"mjai-err-{self.pid}").start()

    def _write_in(self) -> None:
        """Writes happen here, so a bot that stops reading (a full pipe) never blocks us."""
        stdin = self.proc.stdin
        assert stdin is not None
        while True:
            text = self._out.get()
            if text is None:
                break
            try:
                stdin.write(text)
                stdin.flush()
            except (OSError, ValueError):
                self._broken = True
                break
        with contextlib.suppress(OSError, ValueError):
            stdin.close()

    def _read_out(self) -> None:
        assert self.proc.stdout is not None
        try:
            for line in self.proc.stdout:
                self._lines.put(line)
        except (OSError, ValueError):
            pass
        self._lines.put(_EOF)
        with contextlib.suppress(OSError, ValueError):
            self.proc.stdout.close()

    def _read_err(self) -> None:
        assert self.proc.stderr is not None
        try:
            for line in self.proc.stderr:
                self.stderr_tail.append(line.rstrip("\n")[:300])
        except (OSError, ValueError):
            pass
        with contextlib.suppress(OSError, ValueError):
            self.proc.stderr.close()

    @property
    def alive(self) -> bool:
        return not self._closed and self.proc.poll() is None

    def send(self, lines: Sequence[str]) -> None:
        """Write lines; raises :class:`BotExited` if the bot no longer reads."""
        if not lines:
            return
        if self._closed:
            raise BotExited(f"{self.label} is closed")
        if self._broken:
            raise BotExited(f"{self.label} stopped reading its input")
        self._out.put("".join(line + "\n" for line in lines))

    def pending_lines(self) -> list[str]:
        """Lines already written by the bot and not yet read (without waiting)."""
        out: list[str] = []
        while True:
            try:
                item = self._lines.get_nowait()
            except queue.Empty:
                return out
            if item is _EOF:
                self._lines.put(_EOF)
                return out
            out.append(str(item))

    def read_line(self, timeout: float) -> str:
        """The next line; :class:`BotTimeout` after ``timeout`` s, :class:`BotExited` at EOF."""
        try:
            item = self._lines.get(timeout=timeout)
        except queue.Empty:
            raise BotTimeout(f"{self.label} did not answer within {timeout:g} s") from None
        if item is _EOF:
            self._lines.put(_EOF)
            code = self.proc.poll()
            if code is None:
                with contextlib.suppress(subprocess.TimeoutExpired):
                    code = self.proc.wait(0.2)
            tail = " | ".join(list(self.stderr_tail)[-3:])
            raise BotExited(
                f"{self.label} exited (code {code})" + (f"; stderr: {tail}" if tail else "")
            )
        return str(item)

    def close(self, grace: float = 0.5) -> int | None:
        """End the bot: close its input, give it ``grace`` s, then kill its process group."""
        if self._closed:
            return self.proc.returncode
        self._closed = True
        self._out.put(None)  # the writer closes stdin once everything queued is written
        deadline = time.monotonic() + grace
        while grace > 0 and time.monotonic() < deadline and self.proc.poll() is None:
            time.sleep(0.02)
        for sig in (signal.SIGTERM, signal.SIGKILL):
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(self.pid, sig)
            try:
                self.proc.wait(0.5 if sig == signal.SIGTERM else 5.0)
                if sig == signal.SIGTERM:
                    # The leader is gone; make sure nothing else is left in its group.
                    with contextlib.suppress(ProcessLookupError, PermissionError):
                        os.killpg(self.pid, signal.SIGKILL)
                break
            except subprocess.TimeoutExpired:
                continue
        # The reader threads close stdout and stderr at their end of file (closing a pipe
        # here, while a thread may be blocked reading it, could deadlock on its lock).
        with _LOCK:
            _LIVE.discard(self)
        return self.proc.returncode
