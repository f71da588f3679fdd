"""The mjai server's yaku names (mjai-manue, mjai-manue-go) read as the engine's ids."""

from __future__ import annotations

import json

from tenpai.records.mjai import parse_mjai
from tenpai.records.yaku_names import ENGINE_YAKU_NAMES, MJAI_YAKU_IDS


def _game(hora: dict[str, object], calls: tuple[dict[str, object], ...] = ()) -> str:
    lines = [
        {"type": "start_game", "names": ["a", "b", "c", "d"]},
        {"type": "start_kyoku", "bakaze": "E", "kyoku": 1, "honba": 0, "kyotaku": 0, "oya": 0,
         "dora_marker": "1m", "scores": [25000] * 4, "tehais": [["?"] * 13] * 4},
        *calls,
        hora,
        {"type": "end_kyoku"},
        {"type": "end_game"},
    ]
    return "\n".join(json.dumps(x) for x in lines)


def test_every_mjai_name_maps_to_an_engine_id() -> None:
    winds = {"yakuhai_seat_wind", "yakuhai_round_wind"}  # named with their wind by the writers
    assert set(MJAI_YAKU_IDS.values()) <= set(ENGINE_YAKU_NAMES) | winds


def test_sangenpai_splits_by_the_winners_dragon_triplets() -> None:
    pon = {"type": "pon", "actor": 2, "target": 0, "pai": "F", "consumed": ["F", "F"]}
    hora = {"type": "hora", "actor": 2, "target": 0, "pai": "2m",
            "hora_tehais": ["3m", "4m", "6m", "7m", "8m", "C", "C", "C", "3p", "4p", "5pr"],
            "yakus": [["akadora", 1], ["sangenpai", 2], ["reach", 0]], "fan": 3, "fu": 30}
    game = parse_mjai(_game(hora, (pon,)), "t")
    win = next(e for e in game.rounds[0] if e.type == "hora")
    assert win.yaku == (("aka_dora", 1), ("yakuhai_hatsu", 1), ("yakuhai_chun", 1),
                        ("riichi", 0))


def test_sangenpai_that_does_not_fit_the_hand_stays_as_written() -> None:
    hora = {"type": "hora", "actor": 1, "target": 0, "pai": "2m",
            "hora_tehais": ["1m", "1m", "3m", "4m", "5m", "6m", "7m", "8m", "3p", "4p", "5p",
                            "7s", "8s"],
            "yakus": [["sangenpai", 1], ["unknown_name", 1]]}
    win = next(e for e in parse_mjai(_game(hora), "t").rounds[0] if e.type == "hora")
    assert win.yaku == (("sangenpai", 1), ("unknown_name", 1))
