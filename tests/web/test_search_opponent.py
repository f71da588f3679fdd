"""The web app's Play table with ``search`` opponents: a stated think time reaches the agent,
the game goes on, and a bad think time is one 422 line."""

from __future__ import annotations

from pathlib import Path

import pytest

from tenpai.serve.web.play import GameSettings, PlayError, PlayGame

from .test_api import client


@pytest.mark.parametrize(("think", "message"), [
    (0, "think_ms must be in"),
    (-5, "think_ms must be in"),
    (1e9, "think_ms must be in"),
    ("fast", "think_ms must be a number"),
    (True, "think_ms must be a number"),
])
def test_a_bad_think_time_is_one_line(think: object, message: str) -> None:
    with pytest.raises(PlayError, match=message):
        GameSettings.parse({"opponents": ["search", "efficiency", "efficiency"],
                            "think_ms": think})


def test_the_api_refuses_a_bad_think_time_with_422(tmp_path: Path) -> None:
    c = client(tmp_path)
    r = c.post("/api/games", json={"rules": "riichi", "opponents": ["efficiency"] * 3,
                                   "think_ms": 0})
    assert r.status_code == 422 and "think_ms" in r.text
    assert c.get("/api/meta").json()["think_ms"]["max"] >= 1000
    assert "search" in c.get("/api/meta").json()["agents"]


def test_search_opponents_take_the_think_time_and_play(tmp_path: Path) -> None:
    pytest.importorskip("torch")
    settings = GameSettings.parse({"rules": "riichi", "seed": 5, "think_ms": 25,
                                   "opponents": ["search", "efficiency", "search"]})
    game = PlayGame(settings)
    searchers = [a for a in game.agents[1:] if getattr(a, "name", "") == "search"]
    assert len(searchers) == 2
    assert all(a.settings.budget_ms == 25.0 for a in searchers)  # type: ignore[union-attr]
    c = client(tmp_path)
    r = c.post("/api/games", json={"rules": "riichi", "seed": 5, "think_ms": 25,
                                   "opponents": ["search", "efficiency", "efficiency"]})
    assert r.status_code == 200, r.text
    gid = r.json()["id"]
    answered = 0
    state = c.get(f"/api/games/{gid}").json()
    while not state["done"] and answered < 12:
        actions = state["decision"]["actions"]
        pick = next((a for a in actions if a["type"] == "dahai"), actions[0])
        state = c.post(f"/api/games/{gid}/act",
                       json={"decision": state["decision"]["id"], "action": pick["index"]}).json()
        answered += 1
    assert state.get("error") in (None, ""), state.get("error")
    assert answered == 12 or state["done"]
