"""Settings for one opponent's seat at the Play table (``planner[FAN_WEIGHT=0]``), as on the
command line: the name, keys and rule set are checked before any game, a bad value before the
first deal, every refusal is one 422 line, and the seat is shown under its canonical text."""

from __future__ import annotations

from pathlib import Path

import pytest

from tenpai.serve.web.opponents import opponent_menu
from tenpai.serve.web.play import GameSettings, PlayError, PlayGame

from .test_api import client

_MCR = {"rules": "mcr", "seed": 2}


def test_a_planner_seat_keeps_its_settings_and_the_game_is_played(tmp_path: Path) -> None:
    c = client(tmp_path)
    r = c.post("/api/games", json={**_MCR, "opponents": [
        "planner[ fan_weight=0 ]", "planner", "efficiency"]})
    assert r.status_code == 200, r.text
    assert r.json()["names"][1:] == ["planner[FAN_WEIGHT=0]", "planner", "efficiency"]
    game = PlayGame(GameSettings.parse({**_MCR, "opponents": [
        "planner[FAN_WEIGHT=0]", "planner", "efficiency"]}))
    weights = [getattr(getattr(a, "settings", None), "fan_weight", None) for a in game.agents]
    assert weights[1] == 0.0 and weights[2] == 1.0  # the seat's own setting, the other default


@pytest.mark.parametrize(("opponent", "message"), [
    ("planner[FAN_WEIGHTS=0]", "has no setting FAN_WEIGHTS; its settings: DEFENSE"),
    ("efficiency[FAN_WEIGHT=0]", "'efficiency' takes no settings in brackets"),
    ("planner[FAN_WEIGHT]", "is not KEY=VALUE"),
    ("planner[FAN_WEIGHT=0", "one pair of brackets at the end"),
    ("planner[SIGHT=draws]", "SIGHT lets it see hidden tiles"),
    ("mjai:/bin/true", "unknown agent 'mjai:/bin/true'"),
    ("nobody[X=1]", "unknown agent 'nobody'"),
    (7, "an opponent must be an agent's name"),
])
def test_a_bad_seat_is_refused_in_one_line_before_any_game(opponent: object,
                                                           message: str) -> None:
    with pytest.raises(PlayError, match=r".*") as caught:
        GameSettings.parse({**_MCR, "opponents": [opponent, "planner", "planner"]})
    assert message in str(caught.value) and "\n" not in str(caught.value)


def test_the_search_instrument_is_refused_at_a_riichi_table() -> None:
    with pytest.raises(PlayError) as caught:
        GameSettings.parse({"rules": "riichi", "seed": 2,
                            "opponents": ["search[SIGHT=hands]", "pg", "pg"]})
    assert "SIGHT lets it see hidden tiles" in str(caught.value)
    assert "\n" not in str(caught.value)


def test_the_api_refuses_a_bad_key_or_value_with_422(tmp_path: Path) -> None:
    c = client(tmp_path)
    r = c.post("/api/games", json={**_MCR, "opponents": ["planner[CLAIMS=2]", "planner",
                                                        "planner"]})
    assert r.status_code == 422
    detail = r.json()["detail"]
    assert "planner[CLAIMS=2]" in detail and "CLAIMS" in detail and "\n" not in detail
    r = c.post("/api/games", json={**_MCR, "opponents": ["planner[NOPE=1]", "planner",
                                                        "planner"]})
    assert r.status_code == 422 and "has no setting NOPE" in r.json()["detail"]
    assert c.get("/api/meta").status_code == 200  # the server goes on


def test_the_menu_says_which_opponents_take_settings() -> None:
    mcr = {o["name"]: o["settings"] for o in opponent_menu("mcr")}
    assert mcr["planner"] == "FAN_WEIGHT=0" and mcr["efficiency"] == ""
    riichi = {o["name"]: o["settings"] for o in opponent_menu("riichi")}
    assert riichi["expert"] == "" and riichi.get("search", "CALL_OFFERS=1") == "CALL_OFFERS=1"


def test_a_think_time_in_brackets_wins_over_the_menu() -> None:
    pytest.importorskip("torch")
    game = PlayGame(GameSettings.parse({"rules": "riichi", "seed": 5, "think_ms": 300,
                                        "opponents": ["search[BUDGET_MS=40]", "search",
                                                      "efficiency"]}))
    budgets = [a.settings.budget_ms for a in game.agents[1:3]]  # type: ignore[union-attr]
    assert budgets == [40.0, 300.0]
