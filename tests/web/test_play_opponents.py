"""Issue 40's Play table: three-player presets, the opponents menu, think time, move timer."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tenpai.events import Event
from tenpai.serve.web.opponents import apply_think_time, opponent_menu, timeout_action
from tenpai.serve.web.play import GameSettings, PlayError

from .test_api import client, play_through

_SANMA = {"rules": "riichi", "options": {"preset": "tenhou_sanma"}, "seed": 3}


def test_a_three_player_preset_is_played_to_the_end(tmp_path: Path) -> None:
    """tenhou_sanma was accepted and then failed ("4 names for 3 players")."""
    c = client(tmp_path)
    r = c.post("/api/games", json={**_SANMA, "opponents": ["efficiency", "defensive"]})
    assert r.status_code == 200, r.text
    assert r.json()["names"] == ["you", "efficiency", "defensive"]
    end = play_through(c, r.json()["id"], seed=4)
    assert end["final"] is not None and len(end["final"]) == 3
    assert sum(end["final"]) == 105_000
    assert end["start_winds"] == ["East", "South", "West"]
    table = end["frames"][-1]["table"]
    assert table["players"] == 3 and len(table["seats"]) == 3 and len(table["names"]) == 3


def test_a_three_player_table_counts_its_own_wall(tmp_path: Path) -> None:
    c = client(tmp_path)
    gid = c.post("/api/games", json={**_SANMA, "opponents": ["efficiency"] * 2}).json()["id"]
    first = c.get(f"/api/games/{gid}").json()
    deal = next(f["table"] for f in first["frames"] if f["event"]["type"] == "start_kyoku")
    assert deal["tiles_left"] == 108 - 14 - 3 * 13


def test_opponent_count_follows_the_seats(tmp_path: Path) -> None:
    c = client(tmp_path)
    r = c.post("/api/games", json={**_SANMA, "opponents": ["efficiency"] * 3})
    assert r.status_code == 422 and "two opponents" in r.json()["detail"]
    r = c.post("/api/games", json={"rules": "riichi", "opponents": ["efficiency"] * 2})
    assert r.status_code == 422 and "three opponents" in r.json()["detail"]
    assert c.post("/api/games", json=_SANMA).status_code == 200  # the default fits the seats


def test_meta_gives_seats_by_preset_and_the_opponents_menu(tmp_path: Path) -> None:
    meta = client(tmp_path).get("/api/meta").json()
    assert meta["rules"]["riichi"]["seats"] == {"mahjong_soul": 4, "tenhou": 4,
                                                "tenhou_sanma": 3}
    riichi = [o["name"] for o in meta["opponents"]["riichi"]]
    assert {"efficiency", "defensive", "expert"} <= set(riichi)
    rule_agents = [n for n in riichi if n in ("expert", "defensive", "efficiency", "random")]
    assert rule_agents == ["expert", "defensive", "efficiency", "random"]
    assert not {"mcts", "sl_model", "dropout", "planner"} & set(riichi)
    assert "defensive" not in [o["name"] for o in meta["opponents"]["mcr"]]
    assert meta["think_ms"] == {"choices": [100, 300, 1000, 3000], "default": 300,
                                "max": 10_000}


def test_agents_needing_a_missing_extra_are_hidden(monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("torch")
    names = [o["name"] for o in opponent_menu("riichi")]
    assert names[:4] == ["search", "pg", "sl", "expert"]
    assert [o["name"] for o in opponent_menu("riichi") if o["thinks"]] == ["search", "mcts_pg"]
    monkeypatch.setattr("importlib.util.find_spec", lambda name: None)
    without = [o["name"] for o in opponent_menu("riichi")]
    assert not {"sl", "pg", "search"} & set(without) and "efficiency" in without


class _Searcher:
    def __init__(self) -> None:
        self.budget_ms = 300.0

    def set_budget_ms(self, ms: float) -> None:
        self.budget_ms = ms


def test_think_time_is_checked_and_reaches_searching_agents() -> None:
    s = GameSettings.parse({"rules": "riichi", "think_ms": 1000})
    assert s.think_ms == 1000
    assert GameSettings.parse({"rules": "riichi", "think_ms": 250}).think_ms == 250  # off-menu
    for bad in (0, 10_001, "300", True, -1):
        with pytest.raises(PlayError, match="think_ms"):
            GameSettings.parse({"rules": "riichi", "think_ms": bad})
    agent = _Searcher()
    apply_think_time("search", agent, 3000)
    assert agent.budget_ms == 3000.0
    plain = object()
    apply_think_time("efficiency", plain, 3000)  # an agent without a budget is left alone


def _e(**kw: Any) -> Event:
    return Event(**kw)


def test_timeout_plays_tsumogiri_or_pass_never_a_win() -> None:
    drawn = [_e(type="hora", actor=0, target=0, pai=5), _e(type="dahai", actor=0, pai=3,
             tsumogiri=False), _e(type="dahai", actor=0, pai=5, tsumogiri=True),
             _e(type="reach", actor=0)]
    assert timeout_action(drawn) == 2
    call = [_e(type="pon", actor=0, target=1, pai=7, consumed=(7, 7)),
            _e(type="hora", actor=0, target=1, pai=7), _e(type="none", actor=0)]
    assert timeout_action(call) == 2
    after_call = [_e(type="dahai", actor=0, pai=t) for t in (30, 2, 18)]
    assert timeout_action(after_call) == 0  # the last tile of the sorted hand (an honour)


def test_offer_names_the_timeout_action(tmp_path: Path) -> None:
    c = client(tmp_path)
    gid = c.post("/api/games", json={"rules": "riichi", "seed": 3}).json()["id"]
    d = c.get(f"/api/games/{gid}").json()["decision"]
    a = d["actions"][d["timeout"]]
    assert a["type"] == "dahai" and a["tsumogiri"] is True


@pytest.mark.parametrize("rules", ["riichi", "mcr", "suits108"])
def test_every_opponent_offered_can_be_built_and_says_whether_it_thinks(rules: str) -> None:
    """The menu offers nobody who can only fail (pg_planner without its weights file was
    offered), and its 'thinks' is true exactly for the agents a think time reaches."""
    from tenpai.agents.budget import has_budget
    from tenpai.agents.registry import make_agent
    from tenpai.agents.rulesets import check_built_agent

    for entry in opponent_menu(rules):
        agent = make_agent(entry["name"], 0)
        check_built_agent(entry["name"], agent, rules)
        assert entry["thinks"] == has_budget(agent), entry["name"]


def test_an_agent_needing_a_file_is_offered_once_its_variable_is_set(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("TENPAI_PG_PLANNER_WEIGHTS", raising=False)
    assert "pg_planner" not in [o["name"] for o in opponent_menu("mcr")]
    monkeypatch.setenv("TENPAI_PG_PLANNER_WEIGHTS", "weights.json")
    assert "pg_planner" in [o["name"] for o in opponent_menu("mcr")]


def test_the_mcr_menu_follows_the_registered_ranking() -> None:
    names = [o["name"] for o in opponent_menu("mcr")]
    assert names[:3] == ["planner", "efficiency", "expert"]
    if "pg_mcr" in names:  # with the learn extra
        assert names.index("pg_mcr") > names.index("efficiency")
