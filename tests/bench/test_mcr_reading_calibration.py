"""The reading's calibration tool: ``search_mcr``'s worlds asked about waits, against the
replayed truth of a stored run."""

from __future__ import annotations

import re
from pathlib import Path

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
