"""What the page says: seat names, yaku names, limits, tiles left, move labels, cut records.

These check the server side of the words (the browser only lays them out); the browser tests
check that they reach the screen.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from tenpai.agents import make_agent
from tenpai.arena.games import make_game, rules_entry
from tenpai.events import Event
from tenpai.serve.web.app import create_app
from tenpai.serve.web.config import WebConfig
from tenpai.serve.web.labels import limit_name, round_label, seat_labels, tile_label, yaku_label
from tenpai.serve.web.review import _label
from tenpai.serve.web.tableview import LIVE_WALL, TableView

from .test_api import _tiny_mjai


def test_repeated_agents_get_numbered_seat_names() -> None:
    assert seat_labels(["you", "expert", "expert", "expert"]) == [
        "you", "expert 1", "expert 2", "expert 3"]
    assert seat_labels(["you", "sl", "expert", "sl"]) == ["you", "sl 1", "expert", "sl 2"]
    assert seat_labels(["A", "", "B", ""]) == ["A", "seat 1", "B", "seat 3"]


def test_yaku_read_in_english_whatever_vocabulary_they_came_in() -> None:
    # the engine's ids (games played here), Tenhou's Japanese (records), MCR's Chinese fans
    assert yaku_label("yakuhai_chun", 0, 0) == {"en": "Red dragon", "native": "役牌 中"}
    assert yaku_label("aka_dora", 0, 0)["en"] == "Red five"
    assert yaku_label("yakuhai_seat_wind", 2, 0) == {"en": "Seat wind (West)",
                                                      "native": "自風 西"}
    assert yaku_label("yakuhai_round_wind", 2, 1)["en"] == "Round wind (South)"
    assert yaku_label("役牌 中", 0, 0)["en"] == "Red dragon"
    assert yaku_label("場風 東", 1, 0)["en"] == "Round wind (East)"
    assert yaku_label("門前清自摸和", 0, 0)["en"] == "Fully concealed hand (tsumo)"
    assert yaku_label("裏ドラ", 0, 0)["en"] == "Ura-dora"
    assert yaku_label("大三元", 0, 0) == {"en": "Big Three Dragons", "native": "大三元"}
    assert yaku_label("something new", 0, 0) == {"en": "something new",
                                                  "native": "something new"}


@pytest.mark.parametrize(("han", "fu", "yaku", "limit"), [
    (3, 30, [("riichi", 1)], ""),
    (4, 40, [("riichi", 1)], "Mangan"),
    (5, 30, [("riichi", 1)], "Mangan"),
    (6, 30, [("riichi", 1)], "Haneman"),
    (8, 30, [("riichi", 1)], "Baiman"),
    (11, 30, [("riichi", 1)], "Sanbaiman"),
    (13, 30, [("riichi", 1)], "Counted yakuman"),
    (13, 0, [("daisangen", 13)], "Yakuman"),
    (26, 0, [("daisangen", 13), ("tsuuiisou", 13)], "Double yakuman"),
])
def test_limit_names(han: int, fu: int, yaku: list[tuple[str, int]], limit: str) -> None:
    assert limit_name(han, fu, yaku) == limit


def test_tiles_and_hands_read_as_words() -> None:
    assert [tile_label(t) for t in (4, 13, 22, 27, 31, 32, 33, 34, 37)] == [
        "5m", "5p", "5s", "East", "White dragon", "Green dragon", "Red dragon", "red 5m",
        "flower 1"]
    assert round_label(0, 1, 0) == "East 2"
    assert round_label(1, 3, 2) == "South 4, 2 honba"
    assert _label(Event("dahai", actor=0, pai=31, tsumogiri=False)) == "discard White dragon"
    assert _label(Event("pon", actor=0, target=1, pai=33, consumed=(33, 33))) == (
        "pon Red dragon with Red dragon + Red dragon")
    assert _label(Event("chi", actor=0, target=3, pai=20, consumed=(18, 19))) == (
        "chi 3s with 1s + 2s")
    assert _label(Event("reach", actor=0)) == "declare riichi"


@pytest.mark.parametrize("rules", ["riichi", "mcr", "suits108"])
def test_tiles_left_reaches_zero_at_an_exhaustive_draw(rules: str) -> None:
    """The count the table shows is the wall's: it is 0 exactly when a hand runs out."""
    flow = make_game(rules, 2, ["a", "b", "c", "d"], rules_entry(rules).options({}))
    agents = [make_agent("random", 10 + i) for i in range(4)]
    view = TableView(["a", "b", "c", "d"], LIVE_WALL[rules])
    seen = 0
    while not flow.done:
        flow.step({d.seat: agents[d.seat].act(d.observation, d.legal) for d in flow.pending()})
        for e in flow.events[seen:]:
            view.apply(e)
            if e.type == "tsumo":
                assert view.snapshot()["tiles_left"] >= 0
            if e.type == "ryukyoku" and e.kind == "exhaustive":
                assert view.snapshot()["tiles_left"] == 0
                return
        seen = len(flow.events)
    pytest.fail("no hand of this seeded game ran out of tiles")


def test_a_played_game_names_seats_and_results_in_words(tmp_path: Path) -> None:
    """Three agents of one kind are told apart everywhere, and a win's yaku are English."""
    from .test_api import new_game, play_through

    c = TestClient(create_app(WebConfig(records=(tmp_path,))))
    gid = new_game(c, seed=3)
    final = play_through(c, gid, seed=3)
    assert final["labels"] == ["you", "efficiency 1", "efficiency 2", "efficiency 3"]
    assert final["start_winds"] == ["East", "South", "West", "North"]
    links = c.get(f"/api/games/{gid}/links").json()
    assert len(links["rounds"]) == len(links["tenhou6"]) and links["rounds"][0] == "East 1"
    lines = c.get(f"/api/games/{gid}/download/mjai").text.splitlines()
    events = [Event.from_mjai(json.loads(x)) for x in lines]
    view = TableView(["you", "efficiency", "efficiency", "efficiency"], LIVE_WALL["riichi"])
    wins = 0
    for e in events:
        view.apply(e)
        if e.type == "hora":
            r = view.snapshot()["results"][-1]
            wins += 1
            assert r["who"].startswith(("you", "efficiency "))
            assert [y["han"] for y in r["yaku_labels"]] == [v for _, v in e.yaku]
            assert all(y["en"][0].isupper() and "_" not in y["en"] for y in r["yaku_labels"])
            assert r["unit"] == "han" and len(r["hand"]) + 3 * len(r["melds"]) >= 13
    assert wins >= 1
    assert view.snapshot()["names"] == ["you", "efficiency 1", "efficiency 2", "efficiency 3"]


def test_a_truncated_record_opens_with_its_complete_hands(tmp_path: Path) -> None:
    """`tenpai replay` skips a cut-off record as truncated; the page shows its complete hands."""
    lines = _tiny_mjai().decode().splitlines()
    starts = [i for i, x in enumerate(lines) if '"start_kyoku"' in x]
    assert len(starts) >= 2
    cut = "\n".join(lines[: starts[1] + 5]).encode()  # stops inside the second hand
    c = TestClient(create_app(WebConfig(records=(tmp_path,))))
    r = c.post("/api/records", files={"file": ("cut.mjson", cut)})
    assert r.status_code == 200, r.text
    rec = r.json()
    assert rec["games"][0]["truncated"] is True and len(rec["games"][0]["rounds"]) == 1
    nothing = "\n".join(lines[: starts[0] + 5]).encode()  # not one complete hand
    r = c.post("/api/records", files={"file": ("cut.mjson", nothing)})
    assert r.status_code == 422 and "not one complete hand" in r.json()["detail"]


def test_a_win_read_from_mjlog_shows_the_winning_hand(data_dir: Path) -> None:
    """mjlog does not write the winning hand; the result takes it from the table."""
    from tenpai.records import read_any

    from .helpers import HOUOU

    (game,) = read_any(data_dir / HOUOU)
    view = TableView(list(game.names), LIVE_WALL["riichi"])
    for e in game.rounds[2]:
        view.apply(e)
    first, second = view.snapshot()["results"]
    for r in (first, second):
        assert r["pai"] in r["hand"]
        assert len(r["hand"]) + 3 * len(r["melds"]) == 14
    assert [y["en"] for y in first["yaku_labels"]] == ["All simples", "Dora", "Red five"]
    assert first["limit"] == "Mangan" and second["limit"] == ""
