"""Botzone's match export (``X_lite.json`` + ``X_metadata.json``): reading, detection, writing.

Real matches come from ../shared/data (skipped when absent); the synthetic ones are hands the
MCR engine plays under the ``botzone`` preset, written as an export and then cut or corrupted
in the test, so every error path is exercised without the data.
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from tenpai import tiles as T
from tenpai.cli.main import app
from tenpai.engine import RandomAgent, play
from tenpai.records import Game, RuleFlags, detect_format, read_games, write_game
from tenpai.records.botzone_export import parse_botzone_export
from tenpai.records.botzone_export_write import botzone_export_objects, export_paths
from tenpai.records.common import canonical
from tenpai.records.errors import (
    NotAGameError,
    RecordContentError,
    RecordSyntaxError,
    RecordTooLargeError,
    RecordTruncatedError,
    UnknownFormatError,
)
from tenpai.replay.mcr import replay_mcr
from tenpai.rules.mcr.flow import BOTZONE
from tenpai.rules.mcr.game import MCRGame

LOGS = "mcr/botzone_json/SuuTTT_IJCAI-mahjong/botzone_logs"
runner = CliRunner()


# -- helpers ------------------------------------------------------------------------------------

def _engine_game(seed: int) -> Game:
    """One hand played by random agents under the botzone preset, as a records Game (hands
    sorted as readers give them, the dealt order kept in ``extra["deal"]`` as readers do)."""
    played = play(MCRGame(BOTZONE, seed=seed), [RandomAgent(i) for i in range(4)])
    hand = [e for e in played.events if e.type not in ("start_game", "end_game", "none")]
    start = hand[0]
    dealt = [list(h or ()) for h in start.tehais]
    hand[0] = start.with_(tehais=tuple(canonical(h) for h in dealt), scores=(), meta=None)
    return Game(source=f"engine-{seed}", format="engine",
                rules=RuleFlags(variant="mcr", players=4, red_fives=False),
                names=("a", "b", "c", "d"), rounds=[hand],
                final_scores=tuple(played.final_scores),
                extra={"deal": [[T.to_botzone(t) for t in h] for h in dealt]})


def _pair(tmp_path: Path, seed: int, name: str = "m1") -> tuple[Path, Path]:
    write_game(_engine_game(seed), tmp_path / f"{name}.json", "botzone_export")
    return tmp_path / f"{name}_lite.json", tmp_path / f"{name}_metadata.json"


def _load(path: Path) -> dict[str, Any]:
    obj = json.loads(path.read_text(encoding="utf-8"))
    assert isinstance(obj, dict)
    return obj


def _dump(path: Path, obj: Any) -> Path:
    path.write_text(json.dumps(obj, ensure_ascii=False), encoding="utf-8")
    return path


def _real_pairs(data_dir: Path) -> list[tuple[Path, Path]]:
    folder = data_dir / LOGS
    if not folder.is_dir():
        pytest.skip(f"no Botzone export matches in {folder}")
    lites = sorted(folder.glob("*_lite.json"))
    return [(p, p.with_name(p.name.replace("_lite.", "_metadata."))) for p in lites]


def _events(g: Game) -> list[Any]:
    return g.round_events()


def _as_botzone_tells(events: list[Any]) -> list[Any]:
    """Botzone names tiles, not copies: a discard of the drawn kind reads as tsumogiri; and
    its display shows no hand at a win."""
    out = []
    for prev, e in zip([None, *events], events, strict=False):
        if e.type == "hora":
            e = e.with_(hora_tehais=())
        if e.type == "dahai" and prev is not None:
            e = e.with_(tsumogiri=prev.type == "tsumo" and prev.actor == e.actor
                        and prev.pai == e.pai)
        out.append(e)
    return out


# -- real matches -------------------------------------------------------------------------------

def test_each_pair_is_one_game_with_the_judges_outcome(data_dir: Path) -> None:
    pairs = _real_pairs(data_dir)
    assert len(pairs) == 16
    for lite, meta in pairs:
        assert detect_format(lite.read_text(encoding="utf-8"), lite) == "botzone_export"
        assert detect_format(meta.read_text(encoding="utf-8"), meta) == "botzone_export"
        assert read_games(meta) == []  # its lite partner carries the match
        (game,) = read_games(lite)
        raw, info = _load(lite), _load(meta)
        end = raw["logs"][-1]["output"]
        shown = end["display"]
        assert game.format == "botzone_export" and game.rules.variant == "mcr"
        assert game.names == tuple(p["name"] for p in info["players"])
        assert game.extra["match"] == info["matchId"] == lite.name.split("_")[0]
        init = json.loads(raw["initdata"])
        assert game.extra["walltiles"] == init["walltiles"] and game.extra["seed"] == init["srand"]
        assert game.final_scores == tuple(end["content"][str(s)] for s in range(4))
        (win,) = [e for e in _events(game) if e.type == "hora"]
        assert shown["action"] == "HU" and win.actor == shown["player"]
        assert win.han == shown["fanCnt"] and list(win.deltas) == shown["score"]
        assert win.yaku == tuple((f["name"], f["cnt"] * f["value"]) for f in shown["fan"])
        start = _events(game)[0]
        assert start.bakaze == init["quan"]
        draws = sum(1 for x in raw["logs"] if x.get("output", {}).get("display", {})
                    .get("action") == "DRAW")
        assert sum(1 for e in _events(game) if e.type == "tsumo") == draws


def test_the_lite_file_alone_is_the_whole_match(data_dir: Path, tmp_path: Path) -> None:
    lite, _ = _real_pairs(data_dir)[0]
    (pair,) = read_games(lite)
    alone = shutil.copy(lite, tmp_path / lite.name)
    (game,) = read_games(alone)
    assert _events(game) == _events(pair) and game.names == pair.names
    assert game.extra["match"] == pair.extra["match"]  # from the file name
    assert game.extra["walltiles"] == pair.extra["walltiles"]  # the lite file's own initdata


def test_a_metadata_file_alone_is_not_a_game(data_dir: Path, tmp_path: Path) -> None:
    _, meta = _real_pairs(data_dir)[0]
    alone = shutil.copy(meta, tmp_path / meta.name)
    with pytest.raises(NotAGameError) as exc:
        read_games(alone)
    assert str(alone) in str(exc.value) and "_lite.json" in str(exc.value)


def test_real_matches_write_back_as_botzone_wrote_them(data_dir: Path, tmp_path: Path) -> None:
    for lite, _ in _real_pairs(data_dir):
        (game,) = read_games(lite)
        out = tmp_path / lite.name
        write_game(game, out, "botzone_export")
        again_lite, again_meta, mid = export_paths(out)
        assert mid == lite.name.split("_")[0] and again_meta.is_file()
        (again,) = read_games(again_lite)
        assert _events(again) == _events(game) and again.final_scores == game.final_scores
        assert (again.names, again.extra["walltiles"], again.extra["seed"]) == (
            game.names, game.extra["walltiles"], game.extra["seed"])
        old, new = _load(lite)["logs"], _load(again_lite)["logs"]
        assert len(old) == len(new)
        for a, b in zip(old, new, strict=True):
            if "output" not in a:
                continue  # responses: claims that lost on priority are written as PASS
            assert a["output"]["content"] == b["output"]["content"]
            da, db = a["output"]["display"], b["output"]["display"]
            assert {k: v for k, v in da.items() if k != "canHu"} == {
                k: v for k, v in db.items() if k != "canHu"}


def test_conversions_to_other_formats_and_back(data_dir: Path, tmp_path: Path) -> None:
    lite, _ = _real_pairs(data_dir)[2]
    (game,) = read_games(lite)
    write_game(game, tmp_path / "g.mjson", "mjai")
    (mjai,) = read_games(tmp_path / "g.mjson")
    assert _events(mjai) == _events(game)
    write_game(game, tmp_path / "g.jsonl", "botzone_json")
    (judge,) = read_games(tmp_path / "g.jsonl")
    assert judge.format == "botzone_json"
    # judge logs carry no fan names: the total comes back from the payoff formula
    assert [e.with_(yaku=()) for e in _events(game)] == _events(judge)
    write_game(judge, tmp_path / "back.json", "botzone_export")
    (back,) = read_games(tmp_path / "back_lite.json")
    assert _events(back) == _events(judge) and back.extra["walltiles"] == game.extra["walltiles"]


def test_a_changed_fan_total_or_tile_is_caught(data_dir: Path, tmp_path: Path) -> None:
    lite, _ = _real_pairs(data_dir)[0]
    obj = _load(lite)
    obj["logs"][-1]["output"]["display"]["fanCnt"] += 1
    with pytest.raises(RecordContentError, match="fanCnt") as exc:
        read_games(_dump(tmp_path / "a_lite.json", obj))
    assert exc.value.where == f"logs[{len(obj['logs']) - 1}]"
    obj = _load(lite)
    i = next(i for i, x in enumerate(obj["logs"])
             if x.get("output", {}).get("display", {}).get("action") == "DRAW")
    drawer = obj["logs"][i]["output"]["display"]["player"]
    obj["logs"][i]["output"]["display"]["tile"] = "J1" if obj["logs"][i]["output"]["display"][
        "tile"] != "J1" else "J2"
    with pytest.raises(RecordContentError, match="disagree") as exc:
        read_games(_dump(tmp_path / "b_lite.json", obj))
    assert exc.value.where == f"logs[{i}]"
    obj["logs"][i]["output"]["content"][str(drawer)] = "2 " + obj["logs"][i]["output"][
        "display"]["tile"]
    with pytest.raises(RecordContentError, match="wall"):  # initdata's wall says otherwise
        read_games(_dump(tmp_path / "c_lite.json", obj))


def test_cli_convert_and_view(data_dir: Path, tmp_path: Path) -> None:
    folder = data_dir / LOGS
    _real_pairs(data_dir)
    r = runner.invoke(app, ["convert", str(folder), str(tmp_path / "mjai"), "--format", "mjai"])
    assert r.exit_code == 0, r.output
    assert "wrote 16 game(s) from 32 file(s); 0 failed" in r.output
    r = runner.invoke(app, ["convert", str(folder), str(tmp_path / "judge"), "--format",
                            "botzone_json"])
    assert r.exit_code == 0, r.output
    # judge logs know they are MCR (mjai files do not), so they convert back to exports
    r = runner.invoke(app, ["convert", str(tmp_path / "judge"), str(tmp_path / "bz"),
                            "--format", "botzone_export"])
    assert r.exit_code == 0, r.output
    assert len(list((tmp_path / "bz").glob("*_lite.json"))) == 16
    assert len(list((tmp_path / "bz").glob("*_metadata.json"))) == 16
    lite = next(iter(sorted(folder.glob("*_lite.json"))))
    r = runner.invoke(app, ["view", str(lite)])
    assert r.exit_code == 0 and ": https://tenhou.net/6/#json=" in r.output  # labelled link
    meta = lite.with_name(lite.name.replace("_lite", "_metadata"))
    r = runner.invoke(app, ["convert", str(meta), str(tmp_path / "x.mjson"), "--format", "mjai"])
    assert r.exit_code == 2 and "holds no game by itself" in r.output


# -- synthetic matches ----------------------------------------------------------------------------

def test_engine_hands_round_trip_through_the_export(tmp_path: Path) -> None:
    kinds = set()
    for seed in (1, 4):  # seed 1: an exhaustive draw with an added kong; seed 4: a win
        game = _engine_game(seed)
        lite, meta = _pair(tmp_path, seed, f"s{seed}")
        (back,) = read_games(lite)
        assert _events(back) == _as_botzone_tells(_events(game))
        assert back.final_scores == game.final_scores
        assert back.names == game.names and back.extra["match"] == f"s{seed}"
        assert "walltiles" not in back.extra  # none is invented
        kinds |= {e.type for e in _events(back)}
        assert _load(meta)["logRecords"] == len(_load(lite)["logs"])
        result = replay_mcr(back.events(), final_scores=back.final_scores)
        assert result.ok, result.divergence
    assert {"hora", "ryukyoku", "kakan", "chi", "pon"} <= kinds


def test_a_log_without_display_reads_from_the_requests(tmp_path: Path) -> None:
    lite, _ = _pair(tmp_path, 4)
    obj = _load(lite)
    (game,) = read_games(lite)
    for x in obj["logs"]:
        x.get("output", {}).pop("display", None)
    (bare,) = parse_botzone_export(json.dumps(obj), "bare")
    win = next(e for e in _events(game) if e.type == "hora")
    assert _events(bare) == [e.with_(yaku=()) if e is win else e for e in _events(game)]


def test_a_penalty_ending_is_read_and_replays(tmp_path: Path) -> None:
    lite, _ = _pair(tmp_path, 0)  # an exhaustive draw; the last discard becomes a penalty
    obj = _load(lite)
    end = obj["logs"][-1]["output"]
    offender = (obj["logs"][-3]["output"]["display"]["player"] + 1) % 4
    score = [-30 if s == offender else 10 for s in range(4)]
    end["content"] = {str(s): score[s] for s in range(4)}
    end["display"].update(action="WA", player=offender, score=score)
    obj["logs"][-2][str(offender)] = {"verdict": "OK", "response": "PENG W1"}
    (game,) = read_games(_dump(tmp_path / "p_lite.json", obj))
    end_event = _events(game)[-2]
    assert (end_event.type, end_event.kind, end_event.actor) == ("ryukyoku", "penalty", offender)
    assert end_event.meta == {"code": "WA", "offence": "PENG W1"}
    result = replay_mcr(game.events(), final_scores=game.final_scores)
    assert result.ok, result.divergence
    write_game(game, tmp_path / "q.json", "botzone_export")
    (again,) = read_games(tmp_path / "q_lite.json")
    assert _events(again) == _events(game)
    assert _load(tmp_path / "q_lite.json")["logs"][-1]["output"]["display"]["action"] == "WA"


def test_a_cut_off_lite_file(tmp_path: Path) -> None:
    lite, _ = _pair(tmp_path, 0)
    text = lite.read_text(encoding="utf-8")
    cut = tmp_path / "cut_lite.json"
    cut.write_text(text[: len(text) // 2], encoding="utf-8")
    with pytest.raises(RecordTruncatedError) as exc:
        read_games(cut)
    assert str(cut) in str(exc.value) and "line 1" in exc.value.where
    obj = _load(lite)
    obj["logs"] = obj["logs"][:40]  # well-formed, but the match never finishes
    short = _dump(tmp_path / "short_lite.json", obj)
    with pytest.raises(RecordTruncatedError, match="before the match finished"):
        read_games(short)
    (game,) = read_games(short, strict=False)
    assert game.truncated and game.rounds == [] and "truncation" in game.extra


def test_metadata_only_and_lone_metadata_in_folders(tmp_path: Path) -> None:
    lite, meta = _pair(tmp_path, 0)
    lone = tmp_path / "lone"
    lone.mkdir()
    only = shutil.copy(meta, lone / "solo_metadata.json")
    with pytest.raises(NotAGameError) as exc:
        read_games(only)
    assert isinstance(exc.value, UnknownFormatError) and str(only) in str(exc.value)
    with pytest.raises(NotAGameError):
        parse_botzone_export(meta.read_text(encoding="utf-8"), "m")
    # a folder with a pair and a lone metadata file: one game, nothing broken
    shutil.copy(lite, lone / "pair_lite.json")
    shutil.copy(meta, lone / "pair_metadata.json")
    r = runner.invoke(app, ["convert", str(lone), str(tmp_path / "out"), "--format", "mjai"])
    assert r.exit_code == 0, r.output
    assert "wrote 1 game(s) from 3 file(s); 0 failed" in r.output


def test_wrong_player_counts(tmp_path: Path) -> None:
    lite, meta = _pair(tmp_path, 0)
    obj = _load(lite)
    obj["players"] = obj["players"][:3]
    with pytest.raises(RecordContentError, match="3 players") as exc:
        read_games(_dump(tmp_path / "three_lite.json", obj))
    assert exc.value.where == "players"
    info = _load(meta)
    info["players"].append({"name": "e"})
    _dump(meta, info)
    with pytest.raises(RecordContentError, match="5 players") as exc:
        read_games(lite)
    assert str(meta) in str(exc.value)
    obj = _load(lite)
    obj["logs"][2]["output"]["display"]["hand"].append(["W1"] * 13)
    obj["logs"][2]["output"].pop("content")
    with pytest.raises(RecordContentError, match="four hands"):
        parse_botzone_export(json.dumps(obj), "five")
    obj = _load(lite)
    obj["logs"][4]["output"]["display"]["player"] = 4
    with pytest.raises(RecordContentError, match="not 0-3"):
        parse_botzone_export(json.dumps(obj), "seat")


def test_a_pair_that_disagrees(tmp_path: Path) -> None:
    lite, meta = _pair(tmp_path, 0)
    info = _load(meta)
    info["initdata"]["quan"] = (info["initdata"]["quan"] + 1) % 4
    _dump(meta, info)
    with pytest.raises(RecordContentError, match="quan") as exc:
        read_games(lite)
    assert str(meta) in str(exc.value)
    _dump(meta, "not an object")
    with pytest.raises(RecordContentError, match="one JSON object"):
        read_games(lite)


@pytest.mark.parametrize(
    ("change", "error", "match"),
    [
        (lambda o: o.update(logs=[1, 2]), RecordContentError, "not an object"),
        (lambda o: o.update(logs="x"), RecordContentError, "not a list"),
        (lambda o: o["logs"][6]["output"]["display"].update(action="FLY"), RecordContentError,
         "disagree"),
        (lambda o: o["logs"][6]["output"].pop("content") and o["logs"][6]["output"].update(
            display={"action": "FLY", "player": 0}), RecordContentError, "unknown display"),
        (lambda o: o["logs"][6].update(output={"command": "run"}), RecordContentError,
         "command"),
        (lambda o: o["logs"][2]["output"]["display"]["hand"][0].pop(), RecordContentError,
         "disagree"),
        (lambda o: o["logs"][4]["output"]["content"].update({"0": "2 X9"}), RecordContentError,
         "disagree"),
        (lambda o: [x.get("output", {}).pop("display", None) for x in o["logs"]]
         and o["logs"][4]["output"]["content"].update({"0": "2 X9"}), RecordContentError,
         "not a Botzone tile"),
        (lambda o: o["logs"].append({"x": 1}), RecordContentError, "neither"),
        (lambda o: o["logs"].append(o["logs"][-1]), RecordContentError, "goes on"),
        (lambda o: o.update(initdata="{oops"), RecordSyntaxError, "initdata"),
    ],
)
def test_garbage_gives_typed_errors(tmp_path: Path, change: Any, error: type, match: str) -> None:
    lite, _ = _pair(tmp_path, 0)
    obj = _load(lite)
    change(obj)
    with pytest.raises(error, match=match) as exc:
        parse_botzone_export(json.dumps(obj), "bad.json")
    assert str(exc.value).startswith("bad.json")


def test_unreadable_bytes_and_limits(tmp_path: Path) -> None:
    lite, _ = _pair(tmp_path, 0)
    with pytest.raises(RecordTooLargeError):
        read_games(lite, max_bytes=1000)
    bad = tmp_path / "bad_lite.json"
    bad.write_bytes(b'{"logs": [\xff\xfe]}')
    with pytest.raises(RecordSyntaxError, match="UTF-8"):
        read_games(bad)
    deep = '{"logs": [' + "[" * 100_000 + "]" * 100_000 + "]}"
    with pytest.raises((RecordSyntaxError, RecordContentError)):
        parse_botzone_export(deep, "deep")
    with pytest.raises(RecordSyntaxError):
        parse_botzone_export('{"logs": [{"output": 1,}]}', "comma")


def test_other_formats_are_not_taken_for_an_export(tmp_path: Path) -> None:
    judge = '{"log": [{"0": "0 0 0"}], "scores": [0, 0, 0, 0], "walltiles": "W1"}'
    assert detect_format(judge) == "botzone_json"
    mjai = '{"type": "start_game", "names": ["a", "b", "c", "d"]}\n'
    assert detect_format(mjai) == "mjai"
    lite, meta = _pair(tmp_path, 0)
    assert detect_format(lite.read_text(encoding="utf-8")) == "botzone_export"
    assert detect_format(meta.read_text(encoding="utf-8")) == "botzone_export"
    pretty = json.dumps(_load(lite), indent=2)
    assert detect_format(pretty) == "botzone_export"


def test_the_pair_is_written_whole_or_not_at_all(tmp_path: Path,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    game = _engine_game(0)
    real_fsync = os.fsync
    calls: list[int] = []

    def failing_fsync(fd: int) -> None:
        calls.append(fd)
        if len(calls) == 2:
            raise OSError("disk full")
        real_fsync(fd)

    monkeypatch.setattr(os, "fsync", failing_fsync)
    with pytest.raises(OSError, match="disk full"):
        write_game(game, tmp_path / "w.json", "botzone_export")
    assert sorted(p.name for p in tmp_path.iterdir()) == []
    monkeypatch.setattr(os, "fsync", real_fsync)
    write_game(game, tmp_path / "w.json", "botzone_export")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["w_lite.json", "w_metadata.json"]


def test_only_four_player_mcr_hands_are_written() -> None:
    game = _engine_game(0)
    riichi = Game(source="r", format="x", rules=RuleFlags(variant="riichi"), rounds=game.rounds)
    with pytest.raises(ValueError, match="MCR"):
        botzone_export_objects(riichi, "r")
    two = Game(source="r", format="x", rules=game.rules, rounds=game.rounds * 2)
    with pytest.raises(ValueError, match="one hand"):
        botzone_export_objects(two, "r")
