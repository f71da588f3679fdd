"""`tenpai convert` on folders: nothing to convert is an error, progress never touches stdout."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from tenpai.agents import make_agent
from tenpai.arena.games import make_game
from tenpai.cli.main import app
from tenpai.engine.runner import play
from tenpai.records.mjai import parse_mjai
from tenpai.records.tenhou6_read import parse_tenhou6


def _engine_game_file(folder: Path) -> Path:
    names = ["efficiency", "random", "efficiency", "random"]
    game = make_game("riichi", 7, names, {"length": "tonpuu"})
    play(game, [make_agent(n, s) for s, n in enumerate(names)])
    path = folder / "game.mjson"
    path.write_text("\n".join(json.dumps(e.to_mjai()) for e in game.events) + "\n",
                    encoding="utf-8")
    return path


def test_a_folder_without_records_is_an_error(tmp_path: Path) -> None:
    empty = tmp_path / "empty"
    empty.mkdir()
    res = CliRunner().invoke(app, ["convert", str(empty), str(tmp_path / "out"),
                                   "--format", "mjai"])
    assert res.exit_code == 1 and "no record files" in res.output
    notes = tmp_path / "notes"
    notes.mkdir()
    (notes / "README.txt").write_text("links to games\n", encoding="utf-8")
    res = CliRunner().invoke(app, ["convert", str(notes), str(tmp_path / "out"),
                                   "--format", "mjai"])
    assert res.exit_code == 1 and "no game records" in res.output


def test_a_folder_converts_and_stdout_carries_only_the_summary(tmp_path: Path) -> None:
    src = tmp_path / "src"
    src.mkdir()
    original = _engine_game_file(src)
    out = tmp_path / "out"
    res = CliRunner().invoke(app, ["convert", str(src), str(out), "--format", "tenhou6"])
    assert res.exit_code == 0, res.output
    assert res.stdout.strip().splitlines() == ["wrote 1 game(s) from 1 file(s); 0 failed"]
    assert "converting" in res.stderr  # the plain progress lines of a non-terminal
    written = next(out.iterdir())
    assert written.suffix == ".json"
    rounds = len(parse_mjai(original.read_text(encoding="utf-8"), "x").rounds)
    assert rounds and len(parse_tenhou6(written.read_text(encoding="utf-8"), "y").rounds) == rounds
