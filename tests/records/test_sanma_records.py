"""Three-player records in every Riichi format: mjlog, tenhou.net/6 JSON and mjai.

Real three-player Houou games are written in each format and read back (same events; the fu of
a limit hand is not in tenhou.net/6), then replayed under ``tenhou_sanma``; the formats' own
three-player shapes are checked: mjai's ``kita``, Tenhou's tsumo ``ten`` with tsumo loss, the
empty fourth seat and the ``f44`` of tenhou.net/6.  An engine-played game goes the same way.
"""

from __future__ import annotations

import csv
import gzip
import json
import re
from pathlib import Path

import pytest

from tenpai.engine import RandomAgent, play
from tenpai.records.game import Game, RuleFlags
from tenpai.records.mjai import game_to_mjai_lines
from tenpai.records.mjlog_read import read_mjlog
from tenpai.records.mjlog_write import game_to_mjlog
from tenpai.records.tenhou6_write import game_to_tenhou6
from tenpai.replay.riichi import replay_riichi, split_rounds
from tenpai.replay.runner import riichi_rules_for
from tenpai.rules.riichi.game import RiichiGame
from tenpai.rules.riichi.ruleset import TENHOU_SANMA

from .corpus import first_difference, tenhou6_view, via_mjai, via_mjlog, via_tenhou6

SAMPLE = 12


def _sanma(data: Path) -> list[Path]:
    base = data / "riichi" / "tenhou_mjlog"
    with open(base / "games_index.csv", newline="") as fh:
        rows = [r for r in csv.DictReader(fh) if "/3p/" in r["rule"]]
    step = max(1, len(rows) // SAMPLE)
    return [base / r["file"] for r in rows[::step][:SAMPLE]]


def _replays(game: Game) -> str | None:
    r = replay_riichi(game.events(), rules=riichi_rules_for(game, "tenhou"),
                      final_scores=game.final_scores, name=game.source)
    return None if r.ok else str(r.divergence)


def test_round_trips_keep_every_event_and_replay(data_dir: Path) -> None:
    failures = []
    for path in _sanma(data_dir):
        game = read_mjlog(path)
        assert game.players == 3
        for name, conv in (("mjai", via_mjai), ("mjlog", via_mjlog), ("tenhou6", via_tenhou6)):
            back = conv(game)
            if name == "tenhou6":
                diff = first_difference([tenhou6_view(r) for r in game.rounds],
                                        [tenhou6_view(r) for r in back.rounds])
            else:
                diff = first_difference(game.rounds, back.rounds)
            if diff:
                failures.append(f"{path.name} via {name}: {diff}")
            if back.players != 3 or back.rules.players != 3:
                failures.append(f"{path.name} via {name}: {back.players} players")
            if back.final_scores != game.final_scores:
                failures.append(f"{path.name} via {name}: final scores {back.final_scores}")
            why = _replays(back)
            if why:
                failures.append(f"{path.name} via {name} does not replay: {why}")
    assert not failures, "\n".join(failures[:10])


def test_mjai_writes_kita_and_three_seats(data_dir: Path) -> None:
    game = read_mjlog(_sanma(data_dir)[0])
    lines = [json.loads(x) for x in game_to_mjai_lines(game)]
    types = {x["type"] for x in lines}
    assert "kita" in types and "nukidora" not in types
    kita = next(x for x in lines if x["type"] == "kita")
    assert kita["pai"] == "N" and isinstance(kita["actor"], int)
    start = next(x for x in lines if x["type"] == "start_kyoku")
    assert len(start["scores"]) == 3 and len(start["tehais"]) == 3
    assert start["scores"] == [35_000] * 3


def test_mjlog_writes_tsumo_ten_as_tenhou_does(data_dir: Path) -> None:
    """AGARI ``ten`` of a three-player tsumo is the tsumo-loss total (6000 for a non-dealer
    mangan), as in Tenhou's own files; every win of the sample is written like the original."""
    checked = 0
    for path in _sanma(data_dir):
        raw = path.read_bytes()
        if raw[:2] == b"\x1f\x8b":
            raw = gzip.decompress(raw)
        original = re.findall(r'<AGARI [^>]*ten="([^"]*)"', raw.decode())
        written = re.findall(r'<AGARI [^>]*ten="([^"]*)"', game_to_mjlog(read_mjlog(path)))
        assert [o.split(",") for o in original] == [w.split(",") for w in written], path.name
        checked += len(original)
    assert checked > 50


def test_mjlog_keeps_the_empty_fourth_seat(data_dir: Path) -> None:
    text = game_to_mjlog(read_mjlog(_sanma(data_dir)[0]))
    go = re.search(r'<GO type="(\d+)"', text)
    assert go is not None and int(go.group(1)) & 0x10
    init = re.search(r"<INIT [^>]*>", text)
    assert init is not None
    assert 'hai3=""' in init.group(0) and 'ten="350,350,350,0"' in init.group(0)


def test_tenhou6_shape(data_dir: Path) -> None:
    game = read_mjlog(_sanma(data_dir)[0])
    obj = game_to_tenhou6(game)
    assert obj["rule"]["disp"].startswith("三鳳") and len(obj["name"]) == 4 and obj["name"][3] == ""
    rnd = obj["log"][0]
    assert len(rnd) == 17 and rnd[1][3] == 0 and rnd[13] == [] == rnd[14] == rnd[15]
    kitas = [x for r in obj["log"] for seat in range(3) for x in r[6 + 3 * seat]
             if isinstance(x, str) and x.startswith("f")]
    assert kitas and set(kitas) == {"f44"}
    # South 1 of a three-player game is round index 4, as in the mjlog
    heads = [r[0][0] for r in obj["log"]]
    assert 3 not in heads and set(heads) <= {0, 1, 2, 4, 5, 6, 8, 9, 10}


@pytest.mark.parametrize("seed", [1, 2])
def test_engine_played_game_through_every_format(seed: int) -> None:
    flow = RiichiGame(TENHOU_SANMA, seed=seed, names=("a", "b", "c"))
    play(flow, [RandomAgent(seed * 10 + i) for i in range(3)])
    events = flow.events
    game = Game(source="engine", format="mjai", rules=RuleFlags(
        players=3, red_fives=True, hanchan=True, open_tanyao=True, room="houou"),
        names=("a", "b", "c"), rounds=split_rounds(events),
        final_scores=flow.final_scores)
    assert any(e.type == "nukidora" for e in events)
    for conv in (via_mjai, via_mjlog, via_tenhou6):
        back = conv(game)
        assert back.players == 3
        assert _replays(back) is None


def test_engine_seat_wind_yaku_get_three_player_names(data_dir: Path) -> None:
    """The seat behind a three-player dealer is West (not North, as four seats would say):
    a win carrying the engine's ``yakuhai_seat_wind`` is written as Tenhou's 自風 西."""
    game = read_mjlog(data_dir / "riichi" / "tenhou_mjlog" / "thewaxmango_mahjong-hands" /
                      "logs_2022-01" / "2022010814gm-00b9-0000-e7df5981.txt")
    rnd = game.rounds[7]
    i = next(i for i, e in enumerate(rnd) if e.type == "hora")
    win = rnd[i]
    assert (win.actor, rnd[0].oya) == (0, 1) and ("自風 西", 1) in win.yaku
    rnd[i] = win.with_(yaku=tuple(("yakuhai_seat_wind", h) if n == "自風 西" else (n, h)
                                  for n, h in win.yaku))
    for conv in (via_mjlog, via_tenhou6):
        back = conv(game)
        assert next(e for e in back.rounds[7] if e.type == "hora").yaku == win.yaku
