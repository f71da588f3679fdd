"""The measurement's summary: ranks of the agent's seats, the interval, dropped games."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import pytest

from tenpai.serve.tenhou.measure import summarise


def _row(ranks: list[int], agent_seat: int, errors: dict[int, dict[str, int]] | None = None
         ) -> dict[str, object]:
    errors = errors or {}
    return {
        "seconds": 600.0,
        "hands": 5,
        "ranks": ranks,
        "protocol": [
            {"kind": "agent" if s == agent_seat else "client",
             "name": "sl" if s == agent_seat else f"bot{s}", "errors": errors.get(s, {})}
            for s in range(4)
        ],
    }


def test_summary_counts_the_agent_seats_and_leaves_out_dropped_games(tmp_path: Path) -> None:
    rows = [_row([1, 2, 3, 4], 0), _row([2, 1, 3, 4], 0), _row([4, 3, 2, 1], 3),
            _row([3, 1, 2, 4], 0, {1: {"out_of_turn": 1, "defaulted": 9}, 2: {"stray_pass": 2}})]
    path = tmp_path / "results.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    every = summarise(path, "sl")
    assert every["games"] == 4 and every["dropped_games"] == 1
    assert every["average_rank"] == pytest.approx(7 / 4, abs=1e-3)  # ranks 1, 2, 1, 3
    assert every["placings"] == [2, 1, 1, 0]
    # t(3) = 3.18, sd of (1, 2, 1, 3) = 0.957
    assert every["ci95"] == pytest.approx([1.75 - 1.522, 1.75 + 1.522], abs=0.002)
    assert every["protocol_errors"] == {"out_of_turn": 1, "defaulted": 9, "stray_pass": 2}
    clean = summarise([path], "sl", clean_only=True)
    assert clean["games"] == 3 and clean["average_rank"] == pytest.approx(4 / 3, abs=1e-3)



def test_the_table_writes_the_protocol_rows_the_summary_reads(tmp_path: Path) -> None:
    """The table's seat report is the mjai and Botzone seats' one (``agent`` holds the seat's
    name) and still writes the keys old ``results.jsonl`` files have, errors in a fixed order."""
    from tenpai.serve import seat_report
    from tenpai.serve.tenhou.table import SeatReport

    reports = [SeatReport(s, "sl" if s == 0 else f"bot{s}",
                          kind="agent" if s == 0 else "client") for s in range(4)]
    assert all(isinstance(r, seat_report.SeatReport) for r in reports)
    reports[0].decisions = 30
    reports[2].charge("stray_pass", "a pass where the seat must act")
    reports[2].charge("defaulted", "decision while the client was away " + "x" * 400)
    reports[2].charge("defaulted", "again")
    reports[2].reconnects = 1
    assert [list(r.to_json()) for r in reports] == [
        ["seat", "name", "kind", "decisions", "errors", "examples", "reconnects"]] * 4
    assert reports[0].to_json() == {"seat": 0, "name": "sl", "kind": "agent", "decisions": 30,
                                    "errors": {}, "examples": {}, "reconnects": 0}
    two = reports[2].to_json()
    assert list(two["errors"].items()) == [("stray_pass", 1), ("defaulted", 2)]
    assert len(two["examples"]["defaulted"]) == 300 and two["reconnects"] == 1
    row = {"seconds": 60.0, "hands": 4, "ranks": [1, 2, 3, 4],
           "protocol": [r.to_json() for r in reports]}
    path = tmp_path / "results.jsonl"
    path.write_text(json.dumps(row) + "\n")
    every = summarise(path, "sl")
    assert every["games"] == 1 and every["placings"] == [1, 0, 0, 0]
    assert every["protocol_errors"] == {"stray_pass": 1, "defaulted": 2}

# The command line.  No test here may start a table or a bot: the fixture points the peer
# search at empty folders and makes starting a bot or installing its dependencies a failure.


@pytest.fixture(autouse=True)
def _no_peers(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    from tenpai.serve.tenhou import measure, peer

    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError("a test of the command line started the measurement")

    monkeypatch.setattr(peer, "_REPO", tmp_path / "frozen" / "tenpai")
    monkeypatch.setenv("TENPAI_PEERS", str(tmp_path / "peers"))
    monkeypatch.setattr(measure, "peer_dependencies", refuse)
    monkeypatch.setattr(measure, "PeerBot", refuse)
    return tmp_path


def _refused(capsys: pytest.CaptureFixture[str], argv: list[str]) -> str:
    """The one stderr line of a refused command line (exit status 2)."""
    from tenpai.serve.tenhou.measure import main

    code: object
    try:
        code = main(argv)
    except SystemExit as exc:
        code = exc.code
    err = capsys.readouterr().err.strip().splitlines()
    assert code == 2 and len(err) == 1, (code, err)
    return err[0]


def test_every_option_says_what_it_means_and_its_default() -> None:
    from tenpai.serve.tenhou.measure import build_parser

    for action in build_parser()._actions:
        assert action.help and len(action.help.split()) >= 4, action.option_strings
        if action.default not in (None, False, argparse.SUPPRESS):
            assert "%(default)s" in action.help, action.option_strings


@pytest.mark.parametrize(("argv", "words"), [
    (["--games", "0"], ["--games", "at least 1"]),
    (["--parallel", "0"], ["--parallel", "at least 1"]),
    (["--games", "many"], ["--games", "whole number"]),
    (["--length", "east"], ["--length", "tonpuu"]),
    (["--agent", "nobody"], ["unknown agent 'nobody'"]),
])
def test_bad_values_are_refused_in_one_line(capsys: pytest.CaptureFixture[str],
                                            tmp_path: Path, argv: list[str],
                                            words: list[str]) -> None:
    line = _refused(capsys, [*argv, "--out", str(tmp_path / "run")])
    assert all(w in line for w in words), line
    assert not (tmp_path / "run").exists()


def test_an_out_folder_without_its_parent_is_refused(capsys: pytest.CaptureFixture[str],
                                                     tmp_path: Path) -> None:
    line = _refused(capsys, ["--games", "2", "--out", str(tmp_path / "typo" / "run")])
    assert "--out" in line and f"{tmp_path / 'typo'} does not exist" in line
    assert not (tmp_path / "typo").exists()


def test_a_summary_of_a_folder_without_results_is_refused(capsys: pytest.CaptureFixture[str],
                                                          tmp_path: Path) -> None:
    (tmp_path / "a").mkdir()
    (tmp_path / "a" / "results.jsonl").write_text(json.dumps(_row([1, 2, 3, 4], 0)) + "\n")
    (tmp_path / "b").mkdir()
    line = _refused(capsys, ["--summary-only", "--out", str(tmp_path / "a"),
                             "--out", str(tmp_path / "b")])
    assert "--summary-only" in line and str(tmp_path / "b" / "results.jsonl") in line
    assert str(tmp_path / "a" / "results.jsonl") not in line


def test_a_summary_combines_the_runs(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    from tenpai.serve.tenhou.measure import main

    for name, row in (("a", _row([1, 2, 3, 4], 0)), ("b", _row([2, 1, 3, 4], 3))):
        (tmp_path / name).mkdir()
        (tmp_path / name / "results.jsonl").write_text(json.dumps(row) + "\n")
    assert main(["--summary-only", "--out", str(tmp_path / "a"),
                 "--out", str(tmp_path / "b")]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["games"] == 2 and summary["placings"] == [1, 0, 0, 1]


def test_a_missing_peer_names_where_it_was_looked_for(capsys: pytest.CaptureFixture[str],
                                                      tmp_path: Path) -> None:
    line = _refused(capsys, ["--games", "1", "--out", str(tmp_path / "run")])
    assert "tenhou-python-bot not found" in line
    assert str(tmp_path / "peers" / "tenhou-python-bot") in line  # $TENPAI_PEERS
    assert str(tmp_path / "frozen" / "shared" / "peers" / "tenhou-python-bot") in line
    assert "TENPAI_PEERS=" in line
    assert not (tmp_path / "run").exists()
