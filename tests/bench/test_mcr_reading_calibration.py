"""The reading's calibration tool: ``search_mcr``'s worlds asked about waits, against the
replayed truth of a stored run."""

from __future__ import annotations

import re
import shutil
import sqlite3
from pathlib import Path

import pytest

from tenpai import tiles as T
from tenpai.bench import mcr_reading_calibration
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


def _bad_files(tmp: Path, run: Path) -> dict[str, str]:
    """Results files the tool cannot read, by name: ``missing`` (no such file), ``text`` (not
    SQLite), ``other`` (another program's SQLite file) and ``no_events`` (an arena file
    without the events table, as written before the arena stored its games' events)."""
    text = tmp / "notes.db"
    text.write_bytes(b"not a database at all, only some bytes to read\x00\xff" * 40)
    other = tmp / "other.db"
    con = sqlite3.connect(other)
    con.execute("CREATE TABLE notes (text TEXT)")
    con.commit()
    con.close()
    no_events = tmp / "no_events.db"
    shutil.copy(run, no_events)
    con = sqlite3.connect(no_events)
    con.execute("DROP TABLE game_events")
    con.commit()
    con.close()
    return {"missing": str(tmp / "missing.db"), "text": str(text), "other": str(other),
            "no_events": str(no_events), "db": str(run)}


#: (argv with places (:func:`_bad_files`), the message as a pattern with those places): a
#: bad file is refused wherever it stands in the list, before any game is replayed.
BAD_FILES: list[tuple[list[str], str]] = [
    (["{missing}"], "{missing}: no such results file"),
    (["{text}"], r"{text}: not a results file of tenpai arena \(file is not a database\)"),
    (["{other}"], r"{other}: not a results file of tenpai arena \(no such table: seats\)"),
    (["{no_events}"],
     r"{no_events}: not a results file of tenpai arena \(no such table: game_events\)"),
    (["{db}", "{missing}"], "{missing}: no such results file"),
    (["{db}", "{db}", "{text}"],
     r"{text}: not a results file of tenpai arena \(file is not a database\)"),
]


@pytest.mark.parametrize(("argv", "message"), BAD_FILES,
                         ids=["-".join(a).replace("{", "").replace("}", "")
                              for a, _ in BAD_FILES])
def test_a_bad_results_file_is_one_line_naming_it_and_exit_2(
        argv: list[str], message: str, mcr_planner_run: Path, tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    def replayed(*args: object, **kwargs: object) -> None:
        raise AssertionError("a game was replayed before every results file was checked")

    monkeypatch.setattr(mcr_reading_calibration, "replay_mcr", replayed)
    places = _bad_files(tmp_path, mcr_planner_run)
    with pytest.raises(SystemExit) as exited:
        main([a.format(**places) for a in argv])
    assert exited.value.code == 2
    out, err = capsys.readouterr()
    assert out == ""
    escaped = {k: re.escape(v) for k, v in places.items()}
    assert re.fullmatch(f"mcr_reading_calibration: {message.format(**escaped)}\n", err), err
    assert not Path(places["missing"]).exists()
