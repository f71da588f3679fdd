"""The commonest commands start without the heavy libraries (speed itself is never asserted).

``tenpai --help``, ``tenpai replay FILE`` and ``tenpai view FILE`` are run in a fresh
interpreter that reports, at exit, every module it loaded; none may be torch, Ray, FastAPI,
matplotlib or pydantic (typer 0.29 ran every option through pydantic: the reason typer is pinned
to 0.28 in pyproject.toml), and ``--help`` must not load rich's help formatter either.
``tenpai bench process --startup-only`` measures the time these imports take.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

HEAVY = ("torch", "ray", "fastapi", "matplotlib", "pydantic")

#: Run ``python -m tenpai ARGS`` and print the loaded module names as JSON on stderr at exit.
_PROBE = """
import atexit, json, runpy, sys
atexit.register(lambda: print("MODULES" + json.dumps(sorted(sys.modules)), file=sys.stderr))
sys.argv = ["tenpai", *json.loads(sys.argv[1])]
runpy.run_module("tenpai", run_name="__main__", alter_sys=True)
"""


def _loaded(*args: str) -> set[str]:
    done = subprocess.run([sys.executable, "-c", _PROBE, json.dumps(args)], capture_output=True,
                          text=True, check=False)
    assert done.returncode == 0, done.stderr[-2000:]
    line = next(x for x in done.stderr.splitlines() if x.startswith("MODULES"))
    return set(json.loads(line.removeprefix("MODULES")))


def _heavy(loaded: set[str], names: tuple[str, ...]) -> list[str]:
    return sorted(m for m in loaded for h in names if m == h or m.startswith(h + "."))


def test_probe_sees_what_a_command_imports() -> None:
    # the checks below are only worth something if the probe reports the command's imports
    loaded = _loaded("--help")
    assert {"tenpai.cli.main", "typer"} <= loaded


def test_help_imports_nothing_heavy() -> None:
    loaded = _loaded("--help")
    assert _heavy(loaded, (*HEAVY, "typer.rich_utils", "rich")) == []
    # nor any agent, rule set or record reader: help only lists the commands
    assert _heavy(loaded, ("tenpai.agents", "tenpai.rules", "tenpai.records")) == []


@pytest.fixture(scope="module")
def record(data_dir: Path) -> Path:
    found = sorted((data_dir / "riichi" / "tenhou6_json").rglob("*.json"))
    if not found:
        pytest.skip("no tenhou.net/6 record in the shared data")
    return found[0]


@pytest.mark.corpus
@pytest.mark.parametrize("command", ["replay", "view"])
def test_replay_and_view_import_nothing_heavy(command: str, record: Path) -> None:
    loaded = _loaded(command, str(record))
    assert _heavy(loaded, HEAVY) == []
    assert _heavy(loaded, ("tenpai.agents", "tenpai.rules.mcr", "tenpai.rules.suits108")) == []
