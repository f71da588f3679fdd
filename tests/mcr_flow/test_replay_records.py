"""The real Botzone records replayed through the MCR engine (reads ../shared/data)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tenpai.records import read_any
from tenpai.replay.mcr import replay_mcr
from tenpai.replay.runner import replay_files

TEXT = "mcr/botzone_text/lawlorentz_Chinese-Standard-Mahjong-Simulate/sample.txt"
JSON = "mcr/botzone_json/SuuTTT_IJCAI-mahjong/selfplay/selfplay_v01.jsonl"


def test_every_botzone_record_replays(data_dir: Path) -> None:
    summary = replay_files([data_dir / "mcr"], rules="mcr")
    assert summary.failures == []
    # 16 text matches, 100 judge-log games, 16 Botzone export pairs (each pair one game)
    assert (summary.games, summary.passed, summary.skipped) == (132, 132, 0)


def test_outcomes_are_the_records(data_dir: Path) -> None:
    kinds: dict[str, int] = {}
    for name in (TEXT, JSON):
        for game in read_any(data_dir / name):
            result = replay_mcr(game.events(), final_scores=game.final_scores)
            assert result.ok, result.divergence
            ends = [e for e in result.events if e.type in ("hora", "ryukyoku")]
            assert len(ends) == 1
            key = ends[0].type if ends[0].type == "hora" else str(ends[0].kind)
            kinds[key] = kinds.get(key, 0) + 1
            if name == TEXT and ends[0].type == "hora":
                rec = next(e for e in game.round_events() if e.type == "hora")
                assert sorted(ends[0].yaku) == sorted(rec.yaku)
    assert kinds == {"hora": 33, "exhaustive": 80, "penalty": 3}


@pytest.mark.parametrize("field", ["han", "deltas"])
def test_a_changed_outcome_is_caught(data_dir: Path, field: str) -> None:
    game = read_any(data_dir / TEXT)[0]
    events = game.events()
    i = next(i for i, e in enumerate(events) if e.type == "hora")
    win = events[i]
    assert win.han is not None
    events[i] = win.with_(han=win.han + 1) if field == "han" else win.with_(
        deltas=tuple(d + (1 if s == 0 else -1 if s == 1 else 0) for s, d in enumerate(win.deltas))
    )
    result = replay_mcr(events, final_scores=game.final_scores)
    assert not result.ok and result.divergence is not None
    assert "differ" in result.divergence.message


def test_an_illegal_action_is_caught(data_dir: Path) -> None:
    game = read_any(data_dir / JSON)[1]
    events = game.events()
    i = next(i for i, e in enumerate(events) if e.type == "dahai")
    events[i] = events[i].with_(pai=33 if events[i].pai != 33 else 32, tsumogiri=False)
    result = replay_mcr(events, final_scores=game.final_scores)
    assert not result.ok and result.divergence is not None


def test_a_penalty_record_replays_as_a_penalty(data_dir: Path) -> None:
    games = [g for g in read_any(data_dir / JSON)
             if any(e.kind == "penalty" for e in g.round_events())]
    assert len(games) == 3
    for g in games:
        result = replay_mcr(g.events(), final_scores=g.final_scores)
        assert result.ok, result.divergence
        end = next(e for e in result.events if e.type == "ryukyoku")
        assert end.kind == "penalty" and sorted(end.deltas) == [-30, 10, 10, 10]
