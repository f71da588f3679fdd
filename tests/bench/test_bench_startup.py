"""``tenpai bench process``'s start-up rows time the commands they name (never their speed).

The bench runs each command as a real process; these tests check that the commands are the
ones labelled, that a failing command is reported as failed rather than timed, and that the
runs are interleaved and counted as asked.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from tenpai.bench import startup
from tenpai.bench.startup import STARTUP_COMMANDS, run_startup_bench, startup_commands


def test_commands_are_filled_with_interpreter_and_record(tmp_path: Path) -> None:
    record = tmp_path / "game.json"
    cmds = startup_commands(record, python="/py")
    assert set(cmds) == set(STARTUP_COMMANDS)
    assert cmds["tenpai --help"] == ["/py", "-m", "tenpai", "--help"]
    assert cmds["tenpai replay FILE"] == ["/py", "-m", "tenpai", "replay", str(record)]
    assert cmds["tenpai view FILE"] == ["/py", "-m", "tenpai", "view", str(record)]
    assert all(cmd[0] == "/py" for cmd in cmds.values())


def test_runs_are_interleaved_counted_and_failures_reported(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(startup, "STARTUP_COMMANDS", {
        "ok": ("{python}", "-c", "pass"),
        "broken": ("{python}", "-c", "raise SystemExit('no such thing')"),
    })
    record = tmp_path / "unused.json"
    result = run_startup_bench(repeats=2, warmup=1, record=record)
    assert len(result.runs["ok"]) == 2 and len(result.cpu["ok"]) == 2
    assert result.failed == {"broken": "no such thing"}
    summary = result.summary()
    assert summary["ok_median_s"] > 0 and "ok_cpu_median_s" in summary
    assert summary["broken_failed"] == "no such thing"


def test_unknown_label_is_refused(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="unknown start-up command"):
        run_startup_bench(repeats=1, labels=["nope"], record=tmp_path / "x.json")


def test_interpreter_default_is_this_one(tmp_path: Path) -> None:
    assert startup_commands(tmp_path / "r.json")["python -c pass"][0] == sys.executable
