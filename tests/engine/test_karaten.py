"""Issue 20: karaten (a wait whose every copy the player holds) at an exhaustive draw.

Tenhou's rule (its rule page, translated on riichi.wiki "Tenhou.net rules": formal tenpai counts,
a wait on a "fifth tile" too, except when the four copies are in the hand one discards from;
riichi.wiki "Karaten" reports 12s 444666 88p with a kan of 3s scored tenpai there) is the
``karaten="concealed"`` default; ``"hand_and_melds"`` also counts the copies in one's own melds.
"""

from __future__ import annotations

import pytest
from scenario import act, table

from tenpai import tiles as T
from tenpai.events import Event
from tenpai.rules.riichi.flow.round import RiichiRound
from tenpai.rules.riichi.ruleset import MAHJONG_SOUL, TENHOU, RiichiRules

#: three hands far from ready (every other seat stays noten: they discard what they draw)
_OTHERS = ["1m4m7m2p7p9p4s7s9s1z2z5z6z", "2m5m8m1p3p9p2s5s8s1z2z6z7z",
           "3m6m9m2p7p9p4s7s9s1z2z5z7z"]


def _penchan_on_own_kan(rules: RiichiRules) -> RiichiRound:
    """Seat 0 kans 3s and keeps 12s 444p 666p 88p: its only wait, 3s, is all in its kan."""
    rnd = table(["1s2s3s3s3s3s4p4p4p6p6p6p8p", *_OTHERS], "8p", rinshan="4z", dora="3z",
                rules=rules)
    act(rnd, 0, type="ankan")
    act(rnd, 0, type="dahai", pai=T.parse("4z")[0])
    return rnd


def _fifth_tile_in_hand(rules: RiichiRules) -> RiichiRound:
    """Seat 0 holds 123456789m 5555p: its only wait, a fifth 5p, is all in its concealed hand."""
    rnd = table(["1m2m3m4m5m6m7m8m9m5p5p5p0p", *_OTHERS], "4z", dora="3z", rules=rules)
    act(rnd, 0, type="dahai", pai=T.parse("4z")[0])
    return rnd


def _play_to_the_draw(rnd: RiichiRound) -> Event:
    """Everybody discards what they draw and passes every call until the wall runs out."""
    while not rnd.events or rnd.events[-1].type not in ("ryukyoku", "hora", "end_kyoku"):
        answers = {}
        for d in rnd.pending():
            drawn = [e for e in d.legal if e.type == "dahai" and e.tsumogiri]
            answers[d.seat] = drawn[0] if drawn else Event("none")
        rnd.step(answers)
    (draw,) = [e for e in rnd.events if e.type == "ryukyoku"]
    return draw


def test_a_wait_on_ones_own_kan_is_tenpai_on_tenhou() -> None:
    rnd = _penchan_on_own_kan(TENHOU)
    assert rnd.waits_of(0) == (T.kind_of(T.parse("3s")[0]),)
    assert rnd.is_tenpai(0)  # before: noten (the kan's copies were counted as used)
    draw = _play_to_the_draw(rnd)
    assert draw.kind == "exhaustive" and draw.deltas == (3000, -1000, -1000, -1000)


def test_the_stricter_flag_counts_the_kan() -> None:
    rnd = _penchan_on_own_kan(TENHOU.with_(karaten="hand_and_melds"))
    assert not rnd.is_tenpai(0)
    assert _play_to_the_draw(rnd).deltas == (0, 0, 0, 0)  # all four noten


@pytest.mark.parametrize("karaten", ["concealed", "hand_and_melds"])
def test_a_fifth_tile_held_in_the_hand_is_noten_either_way(karaten: str) -> None:
    rnd = _fifth_tile_in_hand(TENHOU.with_(karaten=karaten))
    assert not rnd.is_tenpai(0)


def test_presets_and_bad_values() -> None:
    assert TENHOU.karaten == MAHJONG_SOUL.karaten == "concealed"
    with pytest.raises(ValueError, match="karaten"):
        RiichiRules(karaten="visible")  # type: ignore[arg-type]
