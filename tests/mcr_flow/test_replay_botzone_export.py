"""Botzone match exports (lite + metadata pairs) replayed under the ``botzone`` preset."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from tenpai.cli.main import app
from tenpai.engine import RandomAgent, play
from tenpai.records import Game, RuleFlags, read_games, write_game
from tenpai.replay.mcr import replay_mcr
from tenpai.replay.runner import replay_files
from tenpai.rules.mcr.flow import BOTZONE
from tenpai.rules.mcr.game import MCRGame

LOGS = "mcr/botzone_json/SuuTTT_IJCAI-mahjong/botzone_logs"


def _folder(data_dir: Path) -> Path:
    folder = data_dir / LOGS
    if not folder.is_dir():
        pytest.skip(f"no Botzone export matches in {folder}")
    return folder


def test_every_export_match_replays_with_the_judges_fans(data_dir: Path) -> None:
    folder = _folder(data_dir)
    summary = replay_files([folder], rules="mcr")
    assert summary.failures == []
    assert (summary.games, summary.passed, summary.skipped) == (16, 16, 0)
    for lite in sorted(folder.glob("*_lite.json")):
        (game,) = read_games(lite)
        result = replay_mcr(game.events(), final_scores=game.final_scores, name=lite.name)
        assert result.ok, result.divergence
        (mine,) = [e for e in result.events if e.type == "hora"]
        (judge,) = [e for e in game.round_events() if e.type == "hora"]
        assert judge.yaku and sorted(mine.yaku) == sorted(judge.yaku)
        assert (mine.han, mine.deltas, mine.actor, mine.target) == (
            judge.han, judge.deltas, judge.actor, judge.target)


def test_cli_replay_of_the_folder(data_dir: Path) -> None:
    folder = _folder(data_dir)
    r = CliRunner().invoke(app, ["replay", str(folder), "--rules", "mcr", "--json"])
    assert r.exit_code == 0, r.output
    summary = json.loads(r.stdout.strip().splitlines()[-1])
    assert (summary["games"], summary["passed"], summary["failures"]) == (16, 16, [])


def test_a_different_fan_list_is_caught(data_dir: Path, tmp_path: Path) -> None:
    lite = sorted(_folder(data_dir).glob("*_lite.json"))[0]
    obj = json.loads(lite.read_text(encoding="utf-8"))
    fans = obj["logs"][-1]["output"]["display"]["fan"]
    one = next(f for f in fans if f["value"] == 2)
    one["name"] = "断幺" if one["name"] != "断幺" else "平和"  # same total, another fan
    changed = tmp_path / lite.name
    changed.write_text(json.dumps(obj, ensure_ascii=False), encoding="utf-8")
    (game,) = read_games(changed)
    result = replay_mcr(game.events(), final_scores=game.final_scores)
    assert not result.ok and result.divergence is not None
    assert "fans differ" in result.divergence.message


def test_a_lone_metadata_file_in_a_folder_is_skipped_not_failed(tmp_path: Path) -> None:
    played = play(MCRGame(BOTZONE, seed=4), [RandomAgent(i) for i in range(4)])
    hand = [e for e in played.events if e.type not in ("start_game", "end_game", "none")]
    hand[0] = hand[0].with_(tehais=tuple(tuple(sorted(h or ())) for h in hand[0].tehais),
                            scores=())
    game = Game(source="engine", format="engine",
                rules=RuleFlags(variant="mcr", players=4, red_fives=False), rounds=[hand],
                final_scores=tuple(played.final_scores))
    write_game(game, tmp_path / "m.json", "botzone_export")
    lone = tmp_path / "other_metadata.json"
    shutil.copy(tmp_path / "m_metadata.json", lone)
    summary = replay_files([tmp_path], rules="mcr")
    assert summary.failures == []
    assert (summary.passed, summary.skipped) == (1, 1)  # the pair once; the lone file skipped
    assert list(summary.skip_reasons) == ["not a game record (format not recognised)"]
    named = replay_files([lone], rules="mcr")  # named on its own, it is an error
    assert len(named.failures) == 1 and "_lite.json" in named.failures[0]["error"]
