"""Bad input to the bench tools that read results files (``tenpai.bench.run_report_cli``): one
line ``<tool>: <message>`` on stderr, exit 2, nothing on stdout, nothing created."""

from __future__ import annotations

import re
import shutil
import sqlite3
from collections.abc import Callable, Sequence
from pathlib import Path

import pytest

from tenpai.bench import mcr_race_survival, mcr_score_breakdown, riichi_point_flow

Main = Callable[[Sequence[str] | None], None]

#: (tool name, its main, argv with places: {db} (a stored MCR run), {riichi} (a stored Riichi
#: run), {missing}, {text} (a text file), {other} (another program's SQLite file), {empty} (a
#: Riichi run without stored events); the message as a pattern with those places)
CASES: list[tuple[str, Main, list[str], str]] = [
    ("mcr_race_survival", mcr_race_survival.main, ["{missing}"],
     "{missing}: no such results file"),
    ("mcr_race_survival", mcr_race_survival.main, ["{db}", "--seat-agent", "expert"],
     r"{db}: game \(deal \d+, rotation \d+\) has 0 seats of 'expert'; expected one"),
    ("mcr_score_breakdown", mcr_score_breakdown.main, ["{missing}"],
     "{missing}: no such results file"),
    ("mcr_score_breakdown", mcr_score_breakdown.main, ["{db}", "--seat-agent", "expert"],
     r"--seat-agent 'expert' plays no seat of this run \(agents: efficiency, planner\)"),
    ("mcr_score_breakdown", mcr_score_breakdown.main, ["{db}", "--against", "{missing}"],
     "{missing}: no such results file"),
    ("riichi_point_flow", riichi_point_flow.main, ["{missing}"],
     "{missing}: no such results file"),
    ("riichi_point_flow", riichi_point_flow.main, ["{riichi}", "{missing}"],
     "{missing}: no such results file"),
    ("riichi_point_flow", riichi_point_flow.main, ["{text}"],
     r"{text}: not a results file of tenpai arena \(file is not a database\)"),
    ("riichi_point_flow", riichi_point_flow.main, ["{other}"],
     r"{other}: not a results file of tenpai arena \(no such table: seats\)"),
    ("riichi_point_flow", riichi_point_flow.main, ["{db}"],
     "{db}: a run of --rules mcr; the tool reads four-player Riichi runs \\(--rules riichi\\)"),
    ("riichi_point_flow", riichi_point_flow.main, ["{empty}"],
     "{empty}: no stored game events to read"),
    ("riichi_point_flow", riichi_point_flow.main, ["{riichi}"],
     r"--seat-agent 'search' plays no seat of this run \(agents: defensive, efficiency\)"),
    ("riichi_point_flow", riichi_point_flow.main,
     ["{riichi}", "--seat-agent", "efficiency", "--against", "{missing}"],
     "{missing}: no such results file"),
    ("riichi_point_flow", riichi_point_flow.main,
     ["{riichi}", "{riichi}", "--seat-agent", "efficiency", "--against", "{riichi}"],
     "--against pairs one results file with the base run, not 2"),
    ("riichi_point_flow", riichi_point_flow.main,
     ["{riichi}", "--seat-agent", "efficiency", "--against", "{riichi}", "--base-agent", "search"],
     "'search' plays no seat of the base run"),
]


def _without_events(run: Path, tmp: Path) -> str:
    path = tmp / "no_events.db"
    shutil.copy(run, path)
    con = sqlite3.connect(path)
    con.execute("DELETE FROM game_events")
    con.commit()
    con.close()
    return str(path)


def _other_sqlite(tmp: Path) -> str:
    path = tmp / "other.db"
    con = sqlite3.connect(path)
    con.execute("CREATE TABLE notes (text TEXT)")
    con.commit()
    con.close()
    return str(path)


@pytest.mark.parametrize(("tool", "main", "argv", "message"), CASES,
                         ids=[f"{c[0]}-{i}" for i, c in enumerate(CASES)])
def test_bad_input_is_one_line_and_exit_2(tool: str, main: Main, argv: list[str], message: str,
                                          mcr_planner_run: Path, riichi_rule_run: Path,
                                          tmp_path: Path,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    missing = tmp_path / "missing.db"
    text = tmp_path / "notes.db"
    text.write_text("not a database at all, only some text to read " * 40)
    places = {"db": str(mcr_planner_run), "riichi": str(riichi_rule_run),
              "missing": str(missing), "text": str(text), "other": _other_sqlite(tmp_path),
              "empty": _without_events(riichi_rule_run, tmp_path)}
    with pytest.raises(SystemExit) as exc:
        main([a.format(**places) for a in argv])
    assert exc.value.code == 2
    out, err = capsys.readouterr()
    assert out == ""
    escaped = {k: re.escape(v) for k, v in places.items()}
    assert re.fullmatch(f"{re.escape(tool)}: {message.format(**escaped)}\n", err), err
    assert not missing.exists()
