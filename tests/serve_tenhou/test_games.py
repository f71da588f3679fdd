"""Whole games at our table: four of our clients, one client with three built-in agents,
and the saved mjlog that ``tenpai replay`` verifies."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from tenpai.serve.tenhou.client import GameOutcome
from tenpai.serve.tenhou.server import ServerConfig

from .helpers import our_client, protocol, run_table, saved, table_config


def _replay(paths: list[Path]) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "tenpai", "replay", *map(str, paths)],
                          capture_output=True, text=True, timeout=120, check=False)


def test_four_of_our_clients_play_a_game_and_the_mjlog_replays(tmp_path: Path) -> None:
    agents = ["efficiency", "defensive", "random", "sl"]
    config = ServerConfig(games=1, seed=11, save=tmp_path, table=table_config())
    run = run_table(config, {f"p{i}": our_client(a, f"p{i}", seed=i)
                             for i, a in enumerate(agents)})
    assert run.failures == []
    (result,) = run.results
    assert result["hands"] >= 4 and sum(result["final_scores"]) == 100_000
    for name, got in run.outcomes.items():
        assert not isinstance(got, Exception), got
        (outcome,) = got
        assert isinstance(outcome, GameOutcome)
        # The client's owari, seen from its seat, is the server's result rotated.
        seat = result["names"].index(name)
        finals = result["final_scores"]
        assert outcome.scores == [finals[(seat + i) % 4] // 100 for i in range(4)]
        assert outcome.rank == result["ranks"][seat]
        rec = protocol(result, name)
        assert rec["errors"] == {} and rec["decisions"] == outcome.decisions > 20
    paths = saved(tmp_path)
    assert len(paths) == 1
    done = _replay(paths)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "passed 1" in done.stdout


def test_fill_agents_take_the_empty_seats_for_several_games(tmp_path: Path) -> None:
    config = ServerConfig(games=2, seed=3, fill=("efficiency", "defensive", "efficiency"),
                          save=tmp_path, table=table_config())
    run = run_table(config, {"solo": our_client("efficiency", "solo", games=2)})
    assert run.failures == []
    assert [r["kinds"].count("agent") for r in run.results] == [3, 3]
    outcomes = run.outcomes["solo"]
    assert not isinstance(outcomes, Exception), outcomes
    assert len(outcomes) == 2
    for r in run.results:
        assert all(p["errors"] == {} for p in r["protocol"])
    assert (tmp_path / "results.jsonl").read_text().count("\n") == 2
    done = _replay(saved(tmp_path))
    assert done.returncode == 0 and "passed 2" in done.stdout, done.stdout + done.stderr


def test_random_players_exercise_calls_kans_and_riichi_without_a_protocol_error(
    tmp_path: Path,
) -> None:
    """Random agents take every kind of action the engine offers (chi, pon, open, closed and
    added kans, riichi, nine-terminal draws …): each must travel through our client's view
    and the table's reply matching without one error."""
    from tenpai.records.mjlog_meld import decode_meld
    from tenpai.serve.tenhou.wire import parse_tag

    agents = ["random", "random", "random", "efficiency"]
    config = ServerConfig(games=5, seed=40, save=tmp_path, table=table_config())
    run = run_table(config, {f"r{i}": our_client(a, f"r{i}", seed=i, games=5)
                             for i, a in enumerate(agents)}, limit=300)
    assert run.failures == [] and len(run.results) == 5
    for r in run.results:
        assert all(p["errors"] == {} for p in r["protocol"]), r["protocol"]
    for name, got in run.outcomes.items():
        assert not isinstance(got, Exception), (name, got)
    kinds: set[str] = set()
    reach = 0
    for path in saved(tmp_path):
        text = path.read_text()
        for chunk in text.split("<")[1:]:
            if chunk.startswith("N "):
                kinds.add(decode_meld(parse_tag("<" + chunk.split("/>")[0] + "/>")
                                      .int_attr("m")).kind)
            reach += chunk.startswith("REACH ")
    assert {"chi", "pon"} <= kinds and kinds & {"ankan", "kakan", "daiminkan"}, kinds
    assert reach > 0
    done = _replay(saved(tmp_path))
    assert done.returncode == 0 and "passed 5" in done.stdout, done.stdout + done.stderr
