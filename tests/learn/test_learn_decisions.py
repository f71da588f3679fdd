"""Decision points read from a real replayed Houou game agree with the record's own events."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from tenpai.events import Event
from tenpai.learn.decisions import chi_class, chi_classes, iter_decisions
from tenpai.records import read_any
from tenpai.replay.riichi import replay_riichi
from tenpai.replay.runner import riichi_rules_for

GAME = (
    "riichi/tenhou_mjlog/thewaxmango_mahjong-hands/logs_2022-01/2022010115gm-00a9-0000-8afc6ce8.txt"
)


@pytest.fixture(scope="module")
def events(data_dir: Path) -> list[Event]:
    path = data_dir / GAME
    if not path.exists():
        pytest.skip(f"{GAME} not in the shared data")
    game = read_any(path)[0]
    result = replay_riichi(
        game.events(), rules=riichi_rules_for(game, "tenhou"), final_scores=game.final_scores
    )
    assert result.ok, result.divergence
    return result.events


def test_discards_are_every_free_discard(events: list[Event]) -> None:
    accepted: set[int] = set()
    expected = 0
    for e in events:
        if e.type == "start_kyoku":
            accepted = set()
        elif e.type == "reach_accepted":
            accepted.add(e.actor or 0)
        elif e.type == "dahai" and e.actor not in accepted:
            expected += 1
    points = [d for d in iter_decisions(events, kinds=["discard"])]
    assert len(points) == expected
    assert all(d.label in d.legal and d.view.hand[d.label] > 0 for d in points)


def test_call_and_riichi_labels_match_the_recorded_actions(events: list[Event]) -> None:
    points = list(iter_decisions(events))
    taken = Counter((d.kind, d.label != 0) for d in points)
    recorded = Counter(e.type for e in events)
    assert taken[("pon", True)] == recorded["pon"]
    assert taken[("chi", True)] == recorded["chi"]
    # Every recorded riichi passed our reading of the engine's riichi conditions.
    assert taken[("riichi", True)] == recorded["reach"]
    passes = Counter(c for e in events if e.type == "none" for c in e.choices)
    assert taken[("pon", False)] >= passes["pon"]
    assert taken[("chi", False)] >= passes["chi"]
    for d in points:
        assert d.label in d.legal, d
        if d.kind in ("pon", "chi"):
            assert d.view.offered is not None


def test_gao_loss_filter_drops_only_heavy_losers(events: list[Event]) -> None:
    everything = list(iter_decisions(events, kinds=["discard"]))
    kept = list(iter_decisions(events, kinds=["discard"], max_loss=1500))
    assert 0 < len(kept) < len(everything)
    losses: dict[int, list[int]] = {}
    rnd = -1
    for e in events:
        if e.type == "start_kyoku":
            rnd += 1
            losses[rnd] = [0, 0, 0, 0]
        elif e.type in ("hora", "ryukyoku") and e.deltas:
            losses[rnd] = [a + b for a, b in zip(losses[rnd], e.deltas)]
    assert all(losses[d.round_number][d.seat] >= -1500 for d in kept)
    dropped = {(d.round_number, d.seat) for d in everything} - {
        (d.round_number, d.seat) for d in kept
    }
    assert dropped and all(losses[r][s] < -1500 for r, s in dropped)


def test_chi_shapes() -> None:
    hand = [0] * 34
    hand[2] = hand[3] = hand[5] = hand[6] = 1  # 3m 4m 6m 7m
    assert chi_classes(hand, 4) == (1, 2, 3)  # 5m: 5-6-7, 4-5-6, 3-4-5
    assert chi_classes(hand, 7) == (3,)  # 8m: 6-7-8
    assert chi_classes(hand, 27) == ()
    assert chi_class(4, [5, 6]) == 1 and chi_class(4, [3, 5]) == 2 and chi_class(4, [2, 3]) == 3


def test_unknown_kind_is_refused(events: list[Event]) -> None:
    with pytest.raises(ValueError, match="unknown decision kinds"):
        list(iter_decisions(events, kinds=["tsumo"]))
