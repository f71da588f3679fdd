"""The two commands as processes: a table with one fill agent, three ``tenpai tenhou-client``s
playing a whole game, the mjlog saved; every process is ended on the way out."""

from __future__ import annotations

import json
import socket
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

TENPAI = [sys.executable, "-m", "tenpai"]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _end(procs: list[subprocess.Popen[str]]) -> None:
    for p in procs:
        if p.poll() is None:
            p.kill()
        p.communicate(timeout=30)


def test_table_and_clients_as_commands(tmp_path: Path) -> None:
    port = _free_port()
    table = subprocess.Popen(
        [*TENPAI, "tenhou-table", "--port", str(port), "--games", "1", "--fill", "efficiency",
         "--save-records", str(tmp_path), "--seed", "4"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    procs = [table]
    try:
        # Wait until it listens (its first stderr line says so).
        assert table.stderr is not None
        assert "listening" in table.stderr.readline()
        for i, agent in enumerate(("efficiency", "defensive", "random")):
            procs.append(subprocess.Popen(
                [*TENPAI, "tenhou-client", "--port", str(port), "--agent", agent,
                 "--name", f"cli{i}", "--idle-timeout", "60"],
                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True))
        outs = [p.communicate(timeout=240) for p in procs[1:]]
        table_out, table_err = table.communicate(timeout=60)
    finally:
        _end(procs)
    for p, (out, err) in zip(procs[1:], outs, strict=True):
        assert p.returncode == 0, err
        row = json.loads(out.strip().splitlines()[-1])
        assert 1 <= row["rank"] <= 4 and row["decisions"] > 10
    assert table.returncode == 0, table_err
    result = json.loads(table_out.strip().splitlines()[-1])
    assert result["kinds"].count("client") == 3 and sum(result["final_scores"]) == 100_000
    assert len(list(tmp_path.glob("*.mjlog"))) == 1


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["tenhou-table", "--preset", "nope"], "unknown rules 'nope'"),
        (["tenhou-table", "--fill", "nobody"], "unknown agent 'nobody'"),
        (["tenhou-client", "--agent", "nobody"], "unknown agent 'nobody'"),
    ],
)
def test_bad_usage_exits_2_with_one_line(args: list[str], message: str) -> None:
    done = subprocess.run([*TENPAI, *args, "--port", "1"] if "client" in args[0] else
                          [*TENPAI, *args, "--port", "0"],
                          capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 2 and message in done.stderr, done.stderr


def test_the_client_reports_a_table_that_is_not_there() -> None:
    done = subprocess.run([*TENPAI, "tenhou-client", "--port", str(_free_port()),
                           "--agent", "efficiency"],
                          capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 1 and "cannot connect" in done.stderr, done.stderr



def _three_player_table(tmp_path: Path, clients: list[list[str]]
                        ) -> tuple[list[tuple[int, str, str]], dict[str, Any]]:
    """``tenhou-table --preset tenhou_sanma --all-last`` with one fill agent and these
    ``tenhou-client`` argument lists; each client's (exit code, stdout, stderr) and the
    table's JSON line."""
    port = _free_port()
    table = subprocess.Popen(
        [*TENPAI, "tenhou-table", "--preset", "tenhou_sanma", "--port", str(port), "--games",
         "1", "--fill", "efficiency", "--all-last", "--ready-timeout", "2", "--save-records",
         str(tmp_path), "--seed", "6"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    procs = [table]
    try:
        assert table.stderr is not None
        assert "listening" in table.stderr.readline()
        for args in clients:
            procs.append(subprocess.Popen(
                [*TENPAI, "tenhou-client", "--port", str(port), "--idle-timeout", "60", *args],
                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True))
        outs = [p.communicate(timeout=240) for p in procs[1:]]
        table_out, table_err = table.communicate(timeout=60)
    finally:
        _end(procs)
    assert table.returncode == 0, table_err
    result = json.loads(table_out.strip().splitlines()[-1])
    assert len(result["names"]) == 3 and sum(result["final_scores"]) == 105_000
    return [(p.returncode, o, e) for p, (o, e) in zip(procs[1:], outs, strict=True)], result


def test_a_three_player_table_and_clients_as_commands(tmp_path: Path) -> None:
    runs, result = _three_player_table(tmp_path, [
        ["--agent", "efficiency", "--type", "17", "--name", "a"],
        ["--agent", "defensive", "--type", "17", "--name", "b"],
    ])
    for code, out, err in runs:
        assert code == 0, err
        row = json.loads(out.strip().splitlines()[-1])
        assert len(row["scores"]) == 3 and 1 <= row["rank"] <= 3
    assert result["kinds"].count("client") == 2
    assert len(list(tmp_path.glob("*.mjlog"))) == 1


@pytest.mark.slow  # 18-31 s here: the refused agent loads its model first
def test_a_client_whose_agent_cannot_play_the_size_go_announces_exits_2(tmp_path: Path) -> None:
    """An agent with a four-player model asked for a four-player table (no --type), hears the
    three-player GO, says one line and exits 2; the table plays its seat."""
    runs, _ = _three_player_table(tmp_path, [
        ["--agent", "efficiency", "--type", "17", "--name", "three"],
        ["--agent", "mcts_pg", "--name", "four"],
    ])
    (three, _, three_err), (four, _, four_err) = runs
    assert three == 0, three_err
    assert four == 2
    assert "3-player" in four_err and len(four_err.strip().splitlines()) == 1, four_err
