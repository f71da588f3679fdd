"""Three-player Riichi in the arena: ``--preset tenhou_sanma`` seats three agents and rotates
them through the three seats of each deal."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import typer
from typer.testing import CliRunner

from tenpai.arena.games import ArenaConfigError, make_game, rules_entry
from tenpai.arena.runner import make_config
from tenpai.arena.schedule import all_keys, rounded_games, seating
from tenpai.cli import arena as arena_cli


def test_the_preset_decides_the_seats() -> None:
    entry = rules_entry("riichi")
    assert entry.seat_count(entry.options({})) == 4
    assert entry.seat_count(entry.options({"preset": "tenhou_sanma"})) == 3
    config, rounded = make_config("riichi", ["efficiency", "random", "defensive"], 4, 1,
                                  {"preset": "tenhou_sanma"})
    assert config.games == 6 and rounded
    with pytest.raises(ArenaConfigError, match="seat 3 agents"):
        make_config("riichi", ["random"] * 4, 3, 1, {"preset": "tenhou_sanma"})
    with pytest.raises(ArenaConfigError, match="seat 4 agents"):
        make_config("riichi", ["random"] * 3, 3, 1, {})
    # external mjai seats take three-player tables too (tests/serve_mjai/test_sanma.py plays one)
    config, _ = make_config("riichi", ["random", "random", "mjai:/bin/true"], 3, 1,
                            {"preset": "tenhou_sanma"})
    assert config.agents[2] == "mjai:/bin/true"


def test_three_rotations_per_deal() -> None:
    assert rounded_games(4, 3) == 6 and rounded_games(4) == 4
    keys = all_keys(6, 3)
    assert [(k.deal, k.rotation) for k in keys] == [(0, 0), (0, 1), (0, 2), (1, 0), (1, 1),
                                                    (1, 2)]
    seats = [seating(["a", "b", "c"], r) for r in range(3)]
    assert seats == [["a", "b", "c"], ["c", "a", "b"], ["b", "c", "a"]]
    game = make_game("riichi", 3, ["a", "b", "c"], rules_entry("riichi").options(
        {"preset": "tenhou_sanma"}))
    first = next(e for e in game.events if e.type == "start_kyoku")
    assert len(first.tehais) == 3 and first.scores == (35_000,) * 3


def test_arena_command_plays_three_player_games(tmp_path: Path) -> None:
    app = typer.Typer()
    arena_cli.register(app)
    args = [
        "arena", "--preset", "tenhou_sanma", "--agents", "efficiency,defensive,random",
        "--games", "3", "--seed", "2", "--db", str(tmp_path / "s.db"), "--workers", "1",
        "--no-progress", "--json",
    ]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["games"] == 3
    assert {a["agent"]: a["games"] for a in data["agents"]} == {
        "efficiency": 3, "defensive": 3, "random": 3}
    assert sum(sum(a["rank_counts"]) for a in data["agents"]) == 9
    assert all(a["rank_counts"][3] == 0 for a in data["agents"])  # nobody is fourth of three
