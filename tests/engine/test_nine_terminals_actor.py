"""Issue 20: the nine-terminals draw names its declarer (``actor``), as docs/records.md says,
in the engine's events and through every record format's writer and reader."""

from __future__ import annotations

from pathlib import Path

import pytest
from scenario import act, legal, pass_all, table

from tenpai.events import Event
from tenpai.records import Game, RuleFlags, read_games, write_game
from tenpai.records.mjai import parse_mjai

_DECLARER_HAND = "19m19p19s1234567z"


def _declared_round(seat: int) -> list[Event]:
    """Seat ``seat`` holds nine different terminals and honours at its first draw and declares."""
    hands = ["2m3m4m5m6m7m8m2p3p4p5p6p7p", "8p2s3s4s5s6s7s8s2m3m4m5m6m",
             "7m8m8p2p3p4p5p6p7p2s3s4s5s"]
    hands.insert(seat, _DECLARER_HAND)
    draws = "".join(["9m", "9p", "9s", "6s"][: seat + 1])
    rnd = table(hands, draws, dora="5z")
    for s in range(seat + 1):
        while not any(e.type == "dahai" for e in legal(rnd, s)):
            pass_all(rnd)  # claim windows nobody uses
        if s < seat:  # the earlier seats discard what they drew
            act(rnd, s, type="dahai", pai=rnd.events[-1].pai)
    act(rnd, seat, type="ryukyoku", kind="nine_terminals")
    return list(rnd.events)


@pytest.mark.parametrize("seat", [0, 2])
def test_the_engine_names_the_declarer(seat: int) -> None:
    (draw,) = [e for e in _declared_round(seat) if e.type == "ryukyoku"]
    assert draw.kind == "nine_terminals"
    assert draw.actor == seat  # before: None


@pytest.mark.parametrize("fmt", ["mjai", "mjlog", "tenhou6"])
def test_every_format_keeps_the_declarer(fmt: str, tmp_path: Path) -> None:
    events = _declared_round(2)
    if events[-1].type != "end_kyoku":
        events.append(Event("end_kyoku"))
    game = Game(source="engine", format="engine",
                rules=RuleFlags(variant="riichi", players=4, red_fives=True),
                names=("a", "b", "c", "d"), rounds=[events],
                final_scores=(25000, 25000, 25000, 25000))
    out = tmp_path / f"g.{fmt}"
    write_game(game, out, fmt)
    (back,) = read_games(out)
    (draw,) = [e for e in back.rounds[0] if e.type == "ryukyoku"]
    assert (draw.kind, draw.actor) == ("nine_terminals", 2)


def test_mjai_from_other_producers_gets_the_declarer_from_the_shown_hand() -> None:
    """mjai logs that leave ``actor`` out still show the declarer's hand: that names the seat."""
    hand = '["1m","9m","1p","9p","1s","9s","E","S","W","N","P","F","C","2m"]'
    hidden = '["?","?","?","?","?","?","?","?","?","?","?","?","?"]'
    tehais = ",".join([hidden, hand, hidden, hidden])
    lines = [
        '{"type":"start_game","names":["a","b","c","d"]}',
        '{"type":"start_kyoku","bakaze":"E","kyoku":1,"honba":0,"kyotaku":0,"oya":0,'
        '"dora_marker":"C","scores":[25000,25000,25000,25000],"tehais":[' + ",".join(
            ['["2m","3m","4m","5m","6m","7m","8m","2p","3p","4p","5p","6p","7p"]',
             '["1m","9m","1p","9p","1s","9s","E","S","W","N","P","F","C"]',
             '["7m","8m","8p","2p","3p","4p","5p","6p","7p","2s","3s","4s","5s"]',
             '["8p","2s","3s","4s","5s","6s","7s","8s","2m","3m","4m","5m","6m"]']) + "]}",
        '{"type":"tsumo","actor":0,"pai":"9m"}',
        '{"type":"dahai","actor":0,"pai":"9m","tsumogiri":true}',
        '{"type":"tsumo","actor":1,"pai":"2m"}',
        '{"type":"ryukyoku","reason":"kyushukyuhai","tehais":[' + tehais + '],'
        '"deltas":[0,0,0,0]}',
        '{"type":"end_kyoku"}',
        '{"type":"end_game"}',
    ]
    game = parse_mjai("\n".join(lines), "other-producer")
    (draw,) = [e for e in game.rounds[0] if e.type == "ryukyoku"]
    assert (draw.kind, draw.actor) == ("nine_terminals", 1)
