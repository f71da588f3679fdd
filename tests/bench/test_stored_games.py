"""The MCR tools that replay stored games refuse a results file they cannot read in one line
naming it, exit 2, before any game is read (``tenpai.bench.mcr_replay.stored_games``)."""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Callable, Sequence
from pathlib import Path

import pytest

from tenpai.bench import mcr_danger_calibration, mcr_reading_calibration

#: (tool name, its main, the name in its module that first touches a game)
TOOLS: list[tuple[str, Callable[[Sequence[str] | None], None], object, str]] = [
    ("mcr_reading_calibration", mcr_reading_calibration.main, mcr_reading_calibration,
     "replay_mcr"),
    ("mcr_danger_calibration", mcr_danger_calibration.main, mcr_danger_calibration,
     "TableReplay"),
]


def _bad_files(tmp: Path, run: Path) -> dict[str, str]:
    """Results files a tool cannot read, by name: ``missing`` (no such file), ``text`` (not
    SQLite), ``other`` (another program's SQLite file) and ``no_events`` (an arena file
    without the events table, as written before the arena stored its games' events); and
    ``db``, a good run, which stands before a bad one (every file is checked first)."""
    text = tmp / "notes.db"
    text.write_bytes(b"not a database at all, only some bytes to read\x00\xff" * 40)
    other = tmp / "other.db"
    with sqlite3.connect(other) as con:
        con.execute("CREATE TABLE notes (text TEXT)")
    con.close()
    no_events = tmp / "no_events.db"
    no_events.write_bytes(run.read_bytes())
    with sqlite3.connect(no_events) as con:
        con.execute("DROP TABLE game_events")
    con.close()
    return {"missing": str(tmp / "missing.db"), "text": str(text), "other": str(other),
            "no_events": str(no_events), "db": str(run)}


#: (argv with places (:func:`_bad_files`), the message as a pattern with those places): a
#: bad file is refused wherever it stands in the list, before any game is read.
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


@pytest.mark.parametrize(("tool", "main", "module", "first"), TOOLS, ids=[t[0] for t in TOOLS])
@pytest.mark.parametrize(("argv", "message"), BAD_FILES,
                         ids=["-".join(a).replace("{", "").replace("}", "")
                              for a, _ in BAD_FILES])
def test_a_bad_results_file_is_one_line_naming_it_and_exit_2(
        argv: list[str], message: str, tool: str,
        main: Callable[[Sequence[str] | None], None], module: object, first: str,
        mcr_planner_run: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    def touched(*args: object, **kwargs: object) -> None:
        raise AssertionError("a game was read before every results file was checked")

    monkeypatch.setattr(module, first, touched)
    places = _bad_files(tmp_path, mcr_planner_run)
    with pytest.raises(SystemExit) as exited:
        main([a.format(**places) for a in argv])
    assert exited.value.code == 2
    out, err = capsys.readouterr()
    assert out == ""
    escaped = {k: re.escape(v) for k, v in places.items()}
    assert re.fullmatch(f"{tool}: {message.format(**escaped)}\n", err), err
    assert not Path(places["missing"]).exists()
