"""Bad input to the bench tools that read one results file (``tenpai.bench.run_report_cli``): one
line ``<tool>: <message>`` on stderr, exit 2, nothing on stdout, nothing created."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from pathlib import Path

import pytest

from tenpai.bench import mcr_race_survival, mcr_score_breakdown

Main = Callable[[Sequence[str] | None], None]

#: (tool name, its main, argv with {db} (a stored run) and {missing}, the message as a pattern
#: with those two places)
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
]


@pytest.mark.parametrize(("tool", "main", "argv", "message"), CASES,
                         ids=[f"{c[0]}-{i}" for i, c in enumerate(CASES)])
def test_bad_input_is_one_line_and_exit_2(tool: str, main: Main, argv: list[str], message: str,
                                          mcr_planner_run: Path, tmp_path: Path,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    missing = tmp_path / "missing.db"
    places = {"db": str(mcr_planner_run), "missing": str(missing)}
    with pytest.raises(SystemExit) as exc:
        main([a.format(**places) for a in argv])
    assert exc.value.code == 2
    out, err = capsys.readouterr()
    assert out == ""
    escaped = {k: re.escape(v) for k, v in places.items()}
    assert re.fullmatch(f"{re.escape(tool)}: {message.format(**escaped)}\n", err), err
    assert not missing.exists()
