"""Shared helpers of the mjai tests: peer and data locations, process checks."""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path

import psutil
import pytest

REPO = Path(__file__).resolve().parents[2]
SHARED = REPO.parent / "shared"
PEERS = SHARED / "peers" / "mjai-manue"
MANUE = PEERS / "mjai-manue"
TSUMOGIRI = PEERS / "mjai-tsumogiri"
MJLOG_DIR = SHARED / "data" / "riichi" / "tenhou_mjlog" / "mjx-project_mjx" / "tests_py"


def need_peers() -> None:
    """Skip (with the reason) when the third-party bots are not next to the repository."""
    if not (MANUE.is_file() and TSUMOGIRI.is_file()):
        pytest.skip(f"mjai-manue peer folder absent ({PEERS}); see ../shared/peers/README.md")


def tenpai_exe() -> str:
    """The ``tenpai`` console script of the running interpreter's environment."""
    here = Path(sys.executable).parent / "tenpai"
    found = str(here) if here.is_file() else shutil.which("tenpai")
    if not found:
        pytest.skip("the tenpai console script is not installed")
    return found


def write_wrapper(tmp: Path, name: str, body: str) -> Path:
    """An executable shell script (the bots under test are whole programs)."""
    path = tmp / name
    path.write_text("#!/bin/sh\n" + body + "\n")
    path.chmod(0o755)
    return path


def descendants_alive(pids: list[int]) -> list[int]:
    """Those of ``pids`` that still exist and are not zombies."""
    alive = []
    for pid in pids:
        try:
            p = psutil.Process(pid)
            if p.status() != psutil.STATUS_ZOMBIE:
                alive.append(pid)
        except psutil.NoSuchProcess:
            continue
    return alive


def my_zombies() -> list[int]:
    """Zombie children of this test process (a child that was never reaped)."""
    me = psutil.Process(os.getpid())
    return [c.pid for c in me.children(recursive=True) if c.status() == psutil.STATUS_ZOMBIE]
