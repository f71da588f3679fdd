"""Running tenhou-python-bot (a third-party Tenhou client, MIT) against our table.

The bot lives in ``../shared/peers/tenhou-python-bot`` and is never part of this repository.
Its SOURCES.md says how to point it at a host: copy the folder somewhere writable, add a
settings module with ``TENHOU_HOST``/``TENHOU_PORT``, run ``python main.py -u NAME -s MODULE``.
:class:`PeerBot` does exactly that in a scratch directory, one process per game (the bot plays
one game and exits), in its own session so that stopping it kills everything it started.

The bot needs ``mahjong==1.2.0.dev7``, which clashes with the ``mahjong==2.1.0`` scoring oracle
of our dev extra, so it is installed once with pip into a private directory
(:func:`peer_dependencies`) that only the bot's process sees on its ``PYTHONPATH``.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
from pathlib import Path
from typing import IO

__all__ = [
    "PEER_MAHJONG",
    "PeerBot",
    "PeerError",
    "find_peer",
    "peer_candidates",
    "peer_dependencies",
    "peer_not_found",
    "prepare_peer",
]

PEER_MAHJONG = "mahjong==1.2.0.dev7"
_REPO = Path(__file__).resolve().parents[4]


class PeerError(RuntimeError):
    """The peer cannot be found, installed or started (the message says which)."""


def peer_candidates() -> list[Path]:
    """Where :func:`find_peer` looks, in order: ``$TENPAI_PEERS/tenhou-python-bot`` (when set),
    then ``../shared/peers/tenhou-python-bot`` beside the repository (a copy of the code
    elsewhere, e.g. a ``git archive``, finds nothing there and needs ``TENPAI_PEERS``)."""
    roots = [Path(os.environ["TENPAI_PEERS"])] if os.environ.get("TENPAI_PEERS") else []
    roots.append(_REPO.parent / "shared" / "peers")
    return [root / "tenhou-python-bot" for root in roots]


def find_peer() -> Path | None:
    """The first of :func:`peer_candidates` holding the bot (``project/main.py``); None if none."""
    for path in peer_candidates():
        if (path / "project" / "main.py").is_file():
            return path
    return None


def peer_not_found() -> str:
    """Why :func:`find_peer` found nothing: the folders it looked in, and how to point it."""
    looked = ", ".join(str(p) for p in peer_candidates())
    return (f"tenhou-python-bot not found (looked for project/main.py in {looked}); "
            "set TENPAI_PEERS=<folder holding tenhou-python-bot>")


def _cache_dir() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "tenpai" / "peers" / "tenhou-python-bot-deps"


def peer_dependencies(python: str = sys.executable) -> Path:
    """A directory holding the bot's pinned ``mahjong`` (installed with pip the first time)."""
    target = _cache_dir()
    marker = target / "mahjong-1.2.0.dev7.dist-info"
    if marker.is_dir():
        return target
    target.mkdir(parents=True, exist_ok=True)
    cmd = [python, "-m", "pip", "install", "--quiet", "--no-deps", "--target", str(target),
           PEER_MAHJONG]
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=600, check=False)
    if done.returncode != 0 or not marker.is_dir():
        raise PeerError(f"could not install {PEER_MAHJONG} for tenhou-python-bot "
                        f"({' '.join(cmd)}): {done.stderr.strip()[-400:]}")
    return target


def prepare_peer(source: Path, workdir: Path, host: str, port: int) -> Path:
    """A writable copy of the bot's ``project`` folder under ``workdir`` with a settings
    module ``tenpai_local`` pointing it at ``host:port``; the copy's path."""
    project = workdir / "tenhou-python-bot" / "project"
    if not project.exists():
        shutil.copytree(source / "project", project,
                        ignore=shutil.ignore_patterns("logs", "__pycache__", "*.pyc"))
    settings = project / "settings" / "tenpai_local.py"
    settings.write_text(
        "# Written by tenpai.serve.tenhou.peer: play at a local tenpai table.\n"
        f"TENHOU_HOST = {host!r}\nTENHOU_PORT = {int(port)}\nPRINT_LOGS = False\n",
        encoding="utf-8",
    )
    return project


class PeerBot:
    """One tenhou-python-bot process playing one game (see the module docstring)."""

    def __init__(self, project: Path, name: str, deps: Path, *, game_type: int = 1,
                 log: Path | None = None, python: str = sys.executable) -> None:
        self.project = project
        self.name = name
        self.deps = deps
        self.game_type = game_type
        self.log = log
        self.python = python
        self.proc: subprocess.Popen[bytes] | None = None
        self._log_fh: IO[bytes] | None = None

    def start(self) -> None:
        env = dict(os.environ)
        env["PYTHONPATH"] = os.pathsep.join([str(self.deps), str(self.project)])
        env["PYTHONUNBUFFERED"] = "1"
        cmd = [self.python, "main.py", "-u", self.name, "-s", "tenpai_local",
               "-g", str(self.game_type), "-t", "10"]
        out: IO[bytes] | int = subprocess.DEVNULL
        if self.log is not None:
            self.log.parent.mkdir(parents=True, exist_ok=True)
            self._log_fh = self.log.open("ab")
            out = self._log_fh
        try:
            self.proc = subprocess.Popen(cmd, cwd=self.project, env=env, stdout=out,
                                         stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                                         start_new_session=True)
        except OSError as exc:
            raise PeerError(f"cannot start tenhou-python-bot: {exc}") from None

    def running(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def wait(self, timeout: float) -> int | None:
        if self.proc is None:
            return None
        try:
            return self.proc.wait(timeout)
        except subprocess.TimeoutExpired:
            return None

    def stop(self) -> None:
        """End the bot's whole process group (SIGTERM, then SIGKILL) and reap it."""
        proc, self.proc = self.proc, None
        if proc is not None:
            for sig, grace in ((signal.SIGTERM, 3.0), (signal.SIGKILL, 5.0)):
                if proc.poll() is not None:
                    break
                try:
                    os.killpg(proc.pid, sig)
                except ProcessLookupError:
                    break
                try:
                    proc.wait(grace)
                except subprocess.TimeoutExpired:
                    continue
            if proc.poll() is None:
                proc.kill()
                proc.wait(5.0)
        if self._log_fh is not None:
            self._log_fh.close()
            self._log_fh = None
