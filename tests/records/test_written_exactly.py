"""Issue 20, fifth group: records written exactly (Tenhou's yaku names for engine games,
`replay --json` prints JSON alone on stdout)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from tenpai.agents import make_agent
from tenpai.cli.main import app
from tenpai.engine import play
from tenpai.records import Game, RuleFlags, read_games, write_game
from tenpai.records.yaku_names import YAKU_NAMES
from tenpai.replay.riichi import split_rounds
from tenpai.rules.riichi.game import RiichiGame


def _engine_game_with_wins() -> Game:
    """A tonpuu played by four efficiency agents, as a record (engine yaku ids inside)."""
    for seed in range(20):
        game = RiichiGame(seed=seed)
        play(game, [make_agent("efficiency", seed * 4 + s) for s in range(4)])
        rounds = split_rounds(game.events)
        if sum(e.type == "hora" for r in rounds for e in r) >= 2:
            return Game(source="engine", format="engine",
                        rules=RuleFlags(variant="riichi", players=4, red_fives=True),
                        names=("a", "b", "c", "d"), rounds=rounds,
                        final_scores=tuple(game.final_scores))
    raise AssertionError("no game with two wins in 20 seeds")


@pytest.mark.parametrize("fmt", ["tenhou6", "mjlog"])
def test_engine_games_are_written_with_tenhous_yaku_names(fmt: str, tmp_path: Path) -> None:
    game = _engine_game_with_wins()
    assert any(y in ("riichi", "tanyao", "menzen_tsumo", "dora", "yakuhai_seat_wind")
               for r in game.rounds for e in r if e.type == "hora" for y, _ in e.yaku)
    out = tmp_path / f"g.{fmt}"
    write_game(game, out, fmt)  # mjlog used to refuse: "yaku 'riichi' has no Tenhou id"
    (back,) = read_games(out)
    names = {y for r in back.rounds for e in r if e.type == "hora" for y, _ in e.yaku}
    assert names and names <= set(YAKU_NAMES), names


@pytest.mark.corpus
def test_replay_json_prints_json_alone_on_stdout(data_dir: Path) -> None:
    rec = data_dir / "riichi" / "tenhou_mjlog" / "mjx-project_mjx" / "tests_py" / \
        "double-ron.mjlog"
    res = CliRunner().invoke(app, ["replay", str(rec), "--json"])
    assert res.exit_code == 0
    summary = json.loads(res.stdout)  # the whole of stdout, nothing before it
    assert summary["passed"] == 1
