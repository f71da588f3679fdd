"""`tenpai convert` and `tenpai view` on real records."""

from __future__ import annotations

import json
from pathlib import Path
from urllib.parse import unquote

import pytest
from typer.testing import CliRunner

from tenpai.cli.main import app
from tenpai.records import read_games

pytestmark = pytest.mark.corpus


def test_convert_file_and_folder(data_dir: Path, tmp_path: Path) -> None:
    runner = CliRunner()
    src = data_dir / "riichi" / "tenhou_mjlog" / "gimite_mjai" / "test.mjlog"
    out = tmp_path / "one.json"
    res = runner.invoke(app, ["convert", str(src), str(out), "--format", "tenhou6"])
    assert res.exit_code == 0, res.output
    (game,) = read_games(out)
    assert len(game.rounds) == 17
    folder = data_dir / "riichi" / "tenhou_mjlog" / "tsubakisakura_mjlog2json"
    res = runner.invoke(app, ["convert", str(folder), str(tmp_path / "many"), "--format", "mjai"])
    # the folder holds MANIFEST.tsv and SOURCES.md, which are not records (nor failures)
    assert res.exit_code == 0 and "wrote 6 game(s)" in res.output
    assert len(list((tmp_path / "many").glob("*.mjson"))) == 6
    res = runner.invoke(app, ["convert", str(src), str(tmp_path / "x"), "--format", "nope"])
    assert res.exit_code == 2


def test_view_prints_one_link_per_round(data_dir: Path) -> None:
    src = data_dir / "riichi" / "tenhou6_json" / "Equim-chan_mjai-reviewer" / "double_ron.json"
    res = CliRunner().invoke(app, ["view", str(src)])
    assert res.exit_code == 0, res.output
    lines = res.output.splitlines()
    assert len(lines) == 1
    # each link is named by its hand ("East 1: https://..."); --bare prints links alone
    label, _, link = lines[0].partition(": ")
    assert label == "South 4"  # the double-ron hand
    links = [link]
    bare = CliRunner().invoke(app, ["view", str(src), "--bare"]).output.split()
    assert bare == links
    prefix = "https://tenhou.net/6/#json="
    assert links[0].startswith(prefix)
    obj = json.loads(unquote(links[0][len(prefix):]))
    original = json.loads(src.read_text(encoding="utf-8"))
    assert obj["log"] == original["log"]
