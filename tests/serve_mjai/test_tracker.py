"""The mjai seat tracker against the engine: same legal actions, same observation.

Seeded engine games are played by built-in agents; every event goes through the wire format
(masked for each seat, written as mjai JSON, read back) into one tracker per seat, and at every
decision the tracker's derived legal actions and observation must equal the engine's.
"""

from __future__ import annotations

import json
from collections import Counter

import pytest

from tenpai.agents import make_agent
from tenpai.engine.observation import mask_event
from tenpai.events import Event
from tenpai.rules.riichi.game import RiichiGame
from tenpai.serve.mjai.legal import derive_legal
from tenpai.serve.mjai.observation import MjaiObservation
from tenpai.serve.mjai.tracker import SeatTracker, TrackerError
from tenpai.serve.mjai.wire import ProtocolError, dumps, event_to_wire, parse_line, read_message
from tenpai.tiles import parse

PROPS = (
    "hand",
    "counts",
    "drawn",
    "melds",
    "rivers",
    "riichi",
    "dora_markers",
    "scores",
    "wall_remaining",
    "bakaze",
    "kyoku",
    "honba",
    "kyotaku",
    "oya",
    "seat_wind",
    "events",
    "rules",
)


def _key(e: Event) -> tuple[object, ...]:
    return (e.type, e.actor, e.target, e.pai, tuple(sorted(e.consumed)), e.tsumogiri, e.kind)


def _through_wire(e: Event) -> Event:
    if e.type in ("start_game", "end_game"):
        return e
    (obj,) = parse_line(dumps(event_to_wire(e)))
    return read_message(obj)


def _compare_game(seed: int, lineup: tuple[str, ...], seen: Counter[str]) -> int:
    game = RiichiGame(seed=seed)
    agents = [make_agent(n, seed * 4 + i) for i, n in enumerate(lineup)]
    trackers = [SeatTracker(s) for s in range(4)]
    fed = 0
    decisions = 0
    while not game.done:
        for e in game.events[fed:]:
            seen[e.type] += 1
            for s in range(4):
                trackers[s].apply(_through_wire(mask_event(e, s)))
        fed = len(game.events)
        answers = {}
        for d in game.pending():
            decisions += 1
            st = trackers[d.seat]
            mine = derive_legal(st)
            assert sorted(map(_key, mine)) == sorted(map(_key, d.legal)), (seed, d.seat, st.last)
            ob = MjaiObservation(st)
            for p in PROPS:
                assert getattr(ob, p) == getattr(d.observation, p), (seed, d.seat, p)
            assert ob.visible_counts() == d.observation.visible_counts()
            answers[d.seat] = agents[d.seat].act(d.observation, d.legal)
        game.step(answers)
    return decisions


def test_tracker_matches_engine_at_every_decision() -> None:
    seen: Counter[str] = Counter()
    decisions = 0
    lineups = [("random", "efficiency", "random", "defensive"), ("random",) * 4]
    for seed in range(6):
        decisions += _compare_game(seed, lineups[seed % 2], seen)
    assert decisions > 2500
    # The games must exercise the rarer paths, or the comparison proves little.
    for t in ("chi", "pon", "reach_accepted", "hora", "ryukyoku", "dora"):
        assert seen[t] > 0, t
    assert seen["ankan"] + seen["kakan"] + seen["daiminkan"] > 0


def test_tracker_rejects_a_discard_it_cannot_follow() -> None:
    st = SeatTracker(0)
    st.apply(Event("start_game", names=("a", "b", "c", "d")))
    hand = tuple(range(13))
    st.apply(
        Event(
            "start_kyoku",
            bakaze=0,
            kyoku=0,
            honba=0,
            kyotaku=0,
            oya=0,
            scores=(25000,) * 4,
            tehais=(hand, None, None, None),
            dora_marker=20,
        )
    )
    st.apply(Event("tsumo", actor=0, pai=30))
    with pytest.raises(TrackerError, match="does not hold"):
        st.apply(Event("dahai", actor=0, pai=33, tsumogiri=False))


def test_tracker_makes_the_seat_that_fed_the_third_dragon_set_liable() -> None:
    st = SeatTracker(1)
    st.apply(Event("start_game", names=("a", "b", "c", "d")))
    hand = tuple(parse("556677z234p1m999s"))
    st.apply(Event("start_kyoku", bakaze=0, kyoku=0, honba=0, kyotaku=0, oya=0,
                   scores=(25000,) * 4, tehais=(None, hand, None, None), dora_marker=20))
    liable = []
    for frm, tile in ((0, "5z"), (2, "6z"), (3, "7z")):
        t = parse(tile)[0]
        st.apply(Event("tsumo", actor=frm))
        st.apply(Event("dahai", actor=frm, pai=t, tsumogiri=True))
        st.apply(Event("pon", actor=1, target=frm, pai=t, consumed=(t, t)))
        liable.append(st.pao)
        st.apply(Event("dahai", actor=1, pai=parse("9s")[0], tsumogiri=False))
    assert liable == [None, None, 3]


@pytest.mark.parametrize(
    "line",
    ["", "not json", "[1, 2]", '{"no_type": 1}', '{"type":"dahai","actor":"x","pai":"5m"}'],
)
def test_wire_rejects_malformed_lines(line: str) -> None:
    with pytest.raises(ProtocolError):
        for obj in parse_line(line):
            read_message(obj)


def test_wire_reads_batches_and_other_spellings() -> None:
    objs = parse_line(
        json.dumps(
            [
                {"type": "ryukyoku", "reason": "kyushukyuhai", "actor": 1},
                {"type": "tsumo", "actor": 2, "pai": "?"},
            ]
        )
    )
    first, second = (read_message(o) for o in objs)
    assert first.kind == "nine_terminals" and first.actor == 1
    assert second.pai is None
