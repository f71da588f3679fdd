"""The tools around the benchmarks, now ``tenpai bench`` commands: they measure what they say.

``bench all`` (once ``bench/run_all.py``) runs the suite's commands and tabulates their ratios;
``bench efficiency`` times one encoder function; ``bench botzone-turn`` reads a seat's requests
from a match export.  Speed is never asserted.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from tenpai.bench import suite
from tenpai.bench.botzone_turn import seat_log
from tenpai.bench.efficiency import make_views, profile_efficiency
from tenpai.cli.main import app


def test_suite_runs_tenpai_bench_commands_quick_ones_smaller() -> None:
    full = suite.suite_commands(False, python="/py")
    quick = suite.suite_commands(True, python="/py")
    assert set(full) == set(quick) == {"hand", "fan", "scoring", "engine", "engine-3p",
                                       "rollout", "rollout-mcr", "agent", "process"}
    for name, cmd in full.items():
        assert cmd[:5] == ["/py", "-m", "tenpai", "bench", name.split("-")[0]] and "--json" in cmd
    assert full["engine-3p"][full["engine-3p"].index("--players") + 1] == "3"
    assert full["scoring"][full["scoring"].index("--hands") + 1] == "30000"
    assert quick["scoring"][quick["scoring"].index("--hands") + 1] == "2000"
    assert full["rollout-mcr"][4:7] == ["rollout", "--rules", "mcr"]
    # every tracked ratio comes from a bench of the suite
    assert {row.bench for row in suite.RATIOS} <= set(full)
    # issue 37's targets are rows with their goals
    goals = {row.label: row.goal for row in suite.RATIOS}
    assert goals["engine hanchan / riichienv"] == 2.0
    assert goals["rollout c:greedy, hands per CPU second"] == 20_000
    assert goals["rollout c:efficiency, hands per CPU second"] == 2_000
    assert goals["engine hanchan, three players / riichienv"] is None


def test_ratio_table_marks_goals_met_missed_and_missing() -> None:
    table = suite.ratio_table({
        "hand": {"shanten_ratio_vs_riichienv": 1.25, "mcr_shanten_ratio_vs_pymahjonggb": 0.5,
                 "shanten_ratio_vs_riichienv_range": [0.9, 1.5]},
        "fan": {"ratio": 0.8, "ratio_min": 0.7, "ratio_max": 0.95},
        "rollout": {"c:greedy hands/cpu_s median": 21_000.0, "c:greedy hands/cpu_s min": 15_000.0,
                    "c:greedy hands/cpu_s max": 27_000.0},
        "process": {"help_s": 0.3, "ignored": 1},
    }).splitlines()
    row = {line.split("  ")[0].strip(): line for line in table[1:]}
    assert row["Riichi shanten / riichienv"].split()[-4:] == ["1.250", "0.900-1.500", "1.000",
                                                              "yes"]
    assert row["MCR shanten / PyMahjongGB"].split()[-3:] == ["0.500", "1.000", "NO"]
    assert row["engine hanchan / riichienv"].split()[-2:] == ["-", "2.000"]
    assert row["MCR fans (evaluate, compiled if built), cold / PyMahjongGB"].split()[-4:] == [
        "0.800", "0.700-0.950", "1.000", "NO"]
    assert row["rollout c:greedy, hands per CPU second"].split()[-4:] == [
        "21,000", "15,000-27,000", "20,000", "yes"]
    assert any(line.startswith("help_s") for line in table)
    assert not any(line.startswith("ignored") for line in table)


def test_suite_keeps_going_past_a_failing_bench(monkeypatch: pytest.MonkeyPatch,
                                                tmp_path: Path) -> None:
    # two real subprocesses: one prints a JSON summary, one fails
    monkeypatch.setattr(suite, "suite_commands", lambda quick: {
        "hand": [sys.executable, "-c", "print('{\"shanten_ratio_vs_riichienv\": 2.0}')"],
        "fan": [sys.executable, "-c", "import sys; sys.exit('no peer library')"],
    })
    shown: list[str] = []
    out = tmp_path / "all.json"
    results: dict[str, Any] = suite.run_suite(quick=True, out=out, echo=shown.append)
    assert results["hand"] == {"shanten_ratio_vs_riichienv": 2.0}
    assert "no peer library" in results["fan"]["error"]
    assert json.loads(out.read_text())["hand"] == results["hand"]
    assert any("Riichi shanten / riichienv" in line and "yes" in line for line in shown)


def test_efficiency_views_are_seeded_and_shaped_like_a_game() -> None:
    views = make_views(200, 5)
    assert views == make_views(200, 5) and views != make_views(200, 6)
    sizes = {sum(hand) for hand, _ in views}
    assert sizes <= {10, 11, 13, 14} and 14 in sizes
    for hand, left in views:
        assert len(hand) == len(left) == 34
        assert all(h + u <= 4 for h, u in zip(hand, left, strict=True))
    report = profile_efficiency(views=20, seed=1, profile=False)
    assert "20 views" in report and "µs per view" in report


def test_seat_log_reads_a_match_and_refuses_other_files(tmp_path: Path) -> None:
    match = {"logs": [
        {"output": {"command": "request", "content": {"0": "0 0 0", "1": "0 1 0"}}},
        {"0": {"response": "PASS"}, "1": {"response": "PASS"}},
        {"output": {"command": "request", "content": {"0": "2 W1", "1": "3 0 DRAW"}}},
    ]}
    good = tmp_path / "m_lite.json"
    good.write_text(json.dumps(match))
    assert seat_log(good, 0) == (["0 0 0", "2 W1"], ["PASS"])
    bad = tmp_path / "notes.json"
    bad.write_text("[1, 2]")
    with pytest.raises(ValueError, match=r"notes\.json"):
        seat_log(bad, 0)


def test_botzone_turn_refuses_a_file_that_is_no_match_in_one_line(tmp_path: Path) -> None:
    bad = tmp_path / "x.json"
    bad.write_text("{}")
    result = CliRunner().invoke(app, ["bench", "botzone-turn", "--agent", "efficiency",
                                      "--match", str(bad)])
    assert result.exit_code == 2
    assert "x.json" in result.output and "Traceback" not in result.output
