"""Botzone MCR records: text matches and judge JSON logs."""

from __future__ import annotations

from pathlib import Path

import pytest

from tenpai.records import RecordContentError
from tenpai.records.botzone_json import read_botzone_json
from tenpai.records.botzone_text import (
    games_to_botzone_text,
    parse_botzone_text,
    read_botzone_text,
)
from tenpai.records.mjai import game_to_mjai_lines, parse_mjai

pytestmark = pytest.mark.corpus


def _text_file(data_dir: Path) -> Path:
    return (data_dir / "mcr" / "botzone_text" / "lawlorentz_Chinese-Standard-Mahjong-Simulate"
            / "sample.txt")


def test_botzone_text_reads_all_matches(data_dir: Path) -> None:
    games = read_botzone_text(_text_file(data_dir))
    assert len(games) == 16
    ends = [g.rounds[0][-2] for g in games]
    assert sum(e.type == "hora" for e in ends) == 14
    assert sum(e.type == "ryukyoku" for e in ends) == 2
    for e in ends:
        assert sum(e.deltas) == 0
        if e.type == "hora":
            assert e.han == sum(v for _, v in e.yaku) >= 8
            winner = e.deltas.index(max(e.deltas))
            assert winner == e.actor
    # a claim that lost on priority is kept
    assert any(
        (ev.meta or {}).get("ignored") for g in games for ev in g.rounds[0]
    )


def test_botzone_text_round_trip(data_dir: Path) -> None:
    games = read_botzone_text(_text_file(data_dir))
    again = parse_botzone_text(games_to_botzone_text(games))
    for a, b in zip(games, again):
        assert a.rounds == b.rounds
        assert [e.meta for e in a.rounds[0]] == [e.meta for e in b.rounds[0]]
        mj = parse_mjai("\n".join(game_to_mjai_lines(a)))
        assert mj.rounds == a.rounds


def test_botzone_text_errors_name_the_line() -> None:
    bad = "Match 1\nWind 0\nPlayer 0 Deal W1 W2\n"
    with pytest.raises(RecordContentError, match="line 3"):
        parse_botzone_text(bad, "x.txt")


def test_botzone_json_selfplay(data_dir: Path) -> None:
    path = data_dir / "mcr" / "botzone_json" / "SuuTTT_IJCAI-mahjong" / "selfplay" / \
        "selfplay_v01.jsonl"
    games = read_botzone_json(path)
    assert len(games) == 100
    ends = [g.rounds[0][-2] for g in games]
    wins = [e for e in ends if e.type == "hora"]
    assert len(wins) == 19
    assert all(e.han is not None and e.han >= 8 for e in wins)
    assert sum(e.kind == "penalty" for e in ends) == 3
    for g in games:
        (r,) = g.rounds
        assert all(len(h or ()) == 13 for h in r[0].tehais)
