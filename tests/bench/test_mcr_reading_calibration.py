"""The reading's calibration tool: ``search_mcr``'s worlds asked about waits, against the
replayed truth of a stored run."""

from __future__ import annotations

import json
import re
import sqlite3
import zlib
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tenpai import tiles as T
from tenpai.bench.mcr_reading_calibration import completes, main
from tenpai.search.mcr.reading import WORLDS_MODES


def test_a_ready_hand_is_completed_by_its_waits_only() -> None:
    hand = [T.from_mjai(x) for x in
            ("1m", "2m", "3m", "4p", "5p", "6p", "7s", "8s", "9s", "E", "E", "2s", "3s")]
    waits = {k for k in range(34) if completes(hand, k)}
    assert waits == {T.kind_of(T.from_mjai("1s")), T.kind_of(T.from_mjai("4s"))}


def test_the_report_scores_every_mode_against_the_uniform_worlds(
        mcr_planner_run: Path, capsys: pytest.CaptureFixture[str]) -> None:
    main([str(mcr_planner_run), "--seat-agent", "planner", "--worlds", "4", "--pool", "2"])
    out = capsys.readouterr().out
    scored = re.search(r"decisions scored: (\d+)", out)
    assert scored and int(scored.group(1)) > 20
    for mode in WORLDS_MODES:
        line = next(x for x in out.splitlines() if x.startswith(mode))
        brier = float(re.search(r"Brier (\d\.\d+)", line).group(1))  # type: ignore[union-attr]
        assert 0.0 <= brier <= 1.0
    for mode in WORLDS_MODES[1:]:
        assert re.search(rf"{mode} − uniform, log-loss per decision: [+-]\d\.\d{{4}} "
                         r"\[[+-]\d\.\d{4}, [+-]\d\.\d{4}\] over 3 walls", out), out


def test_a_seat_agent_that_never_played_is_one_line_and_exit_2(
        mcr_planner_run: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exited:
        main([str(mcr_planner_run), "--seat-agent", "nobody"])
    assert exited.value.code == 2
    assert "no stored game" in capsys.readouterr().err



def _tamper(run: Path, out: Path, change: Callable[[list[dict[str, Any]], int], None]) -> None:
    """A copy of ``run`` whose first stored game's events are ``change``d (given the mjai
    objects and the index of the first discard)."""
    out.write_bytes(run.read_bytes())
    with sqlite3.connect(out) as con:
        deal, rotation, blob = con.execute(
            "SELECT deal, rotation, mjai_zlib FROM game_events ORDER BY deal, rotation").fetchone()
        lines = [json.loads(x) for x in zlib.decompress(blob).decode().splitlines() if x]
        change(lines, next(i for i, x in enumerate(lines) if x["type"] == "dahai"))
        data = zlib.compress("\n".join(json.dumps(x) for x in lines).encode())
        con.execute("UPDATE game_events SET mjai_zlib = ? WHERE deal = ? AND rotation = ?",
                    (data, deal, rotation))
    con.close()


def test_a_record_that_does_not_replay_names_its_file(
        mcr_planner_run: Path, tmp_path: Path) -> None:
    """A stored game the engine cannot follow (a discard of a tile the hand does not hold)
    stops the tool with a message naming the tool, the file and the game."""
    def unheld(lines: list[dict[str, Any]], first: int) -> None:
        actor = lines[first]["actor"]
        start = next(x for x in lines if x["type"] == "start_kyoku")
        held = set(start["tehais"][actor]) | {x.get("pai") for x in lines[:first]
                                              if x["type"] == "tsumo" and x["actor"] == actor}
        lines[first]["pai"] = next(t for t in ("C", "F", "P", "N", "W", "S", "E", "9m")
                                   if t not in held)

    bad = tmp_path / "tampered.db"
    _tamper(mcr_planner_run, bad, unheld)
    with pytest.raises(SystemExit) as exited:
        main([str(bad)])
    message = str(exited.value.code)
    assert message.startswith(f"mcr_reading_calibration: {bad}: ") and "deal" in message


def test_a_damaged_event_row_is_one_line_and_exit_2(
        mcr_planner_run: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    def garbled(lines: list[dict[str, Any]], first: int) -> None:
        lines[first]["pai"] = "not a tile"

    bad = tmp_path / "garbled.db"
    _tamper(mcr_planner_run, bad, garbled)
    with pytest.raises(SystemExit) as exited:
        main([str(mcr_planner_run), str(bad)])
    assert exited.value.code == 2
    err = capsys.readouterr().err
    assert re.fullmatch(f"mcr_reading_calibration: {re.escape(str(bad))}: game \\(deal 0, "
                        r"rotation 0\): its stored events do not read \(.*\)\n", err), err
