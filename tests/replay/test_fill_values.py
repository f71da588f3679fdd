"""A record whose wins carry no values (akochan, RiichiEnv style) converts to Tenhou's formats
with the engine's values, and the converted file replays exactly."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from tenpai.agents import make_agent
from tenpai.arena.games import make_game
from tenpai.cli.main import app
from tenpai.engine.runner import play
from tenpai.records import read_games
from tenpai.records.mjai import parse_mjai
from tenpai.replay.values import fill_missing_values, lacks_values

_STRIPPED = ("han", "fu", "yaku", "deltas")  # ura markers stay: they are wall tiles


def _engine_lines() -> list[dict[str, object]]:
    names = ["efficiency", "defensive", "efficiency", "random"]
    game = make_game("riichi", 11, names, {"length": "tonpuu"})
    play(game, [make_agent(n, s) for s, n in enumerate(names)])
    lines = [e.to_mjai() for e in game.events]
    lines[0]["kyoku_first"] = 4  # tonpuu, as the arena's records say
    return lines


def _stripped(lines: list[dict[str, object]]) -> str:
    out = []
    for obj in lines:
        if obj["type"] == "hora":
            obj = {k: v for k, v in obj.items() if k not in _STRIPPED}
        out.append(json.dumps(obj))
    return "\n".join(out) + "\n"


def test_missing_values_come_from_the_engine_and_equal_the_originals() -> None:
    lines = _engine_lines()
    full = parse_mjai("\n".join(json.dumps(x) for x in lines), "full")
    bare = parse_mjai(_stripped(lines), "bare")
    assert lacks_values(bare) and not lacks_values(full)
    filled = fill_missing_values(bare)
    wins = [(e.han, e.fu, e.yaku, e.deltas) for r in filled.rounds for e in r if e.type == "hora"]
    want = [(e.han, e.fu, e.yaku, e.deltas) for r in full.rounds for e in r if e.type == "hora"]
    assert wins and wins == want


def test_converted_tenhou_files_replay(tmp_path: Path) -> None:
    src = tmp_path / "bare.mjson"
    src.write_text(_stripped(_engine_lines()), encoding="utf-8")
    for fmt, suffix in (("mjlog", ".mjlog"), ("tenhou6", ".json")):
        out = tmp_path / f"out{suffix}"
        res = CliRunner().invoke(app, ["convert", str(src), str(out), "--format", fmt])
        assert res.exit_code == 0, res.output
        assert all(e.han for g in read_games(out) for r in g.rounds for e in r if e.type == "hora")
        res = CliRunner().invoke(app, ["replay", str(out), "--json"])
        assert res.exit_code == 0, res.output
        assert json.loads(res.stdout.strip().splitlines()[-1])["passed"] == 1
