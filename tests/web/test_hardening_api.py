"""Issue 39, item 4: every bad request to the web API is a 4xx with a JSON message.

Each case below was an HTTP 500 with a bare body (or a game that broke after some answers):
non-finite numbers (``1e400``, ``Infinity``), a deeply nested body, an agent of another rule set
(as an opponent or a reviewer), an arena file with a run configuration that is not JSON or text
in its numeric columns, and a websocket binary frame.
"""

from __future__ import annotations

import contextlib
import io
import json
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from tenpai.arena.record import play_scheduled
from tenpai.arena.schedule import GameKey
from tenpai.arena.store import ResultsStore, RunConfig
from tenpai.serve.web.app import create_app
from tenpai.serve.web.config import WebConfig


def client(tmp_path: Path) -> TestClient:
    """Server errors become responses (a 500) instead of exceptions in the test."""
    return TestClient(create_app(WebConfig(records=(tmp_path,))), raise_server_exceptions=False)


def assert_4xx(r: Any, status: int | None = None) -> str:
    assert 400 <= r.status_code < 500, (r.status_code, r.text)
    if status is not None:
        assert r.status_code == status, (r.status_code, r.text)
    detail = r.json()["detail"]
    assert isinstance(detail, str) and detail and "\n" not in detail
    return detail


def _post_raw(c: TestClient, url: str, body: str) -> Any:
    return c.post(url, content=body.encode(), headers={"content-type": "application/json"})


def _game(c: TestClient, **body: Any) -> str:
    r = c.post("/api/games", json={"rules": "riichi", "seed": 3, **body})
    assert r.status_code == 200, r.text
    gid: str = r.json()["id"]
    return gid


@pytest.mark.parametrize("body", [
    '{"rules":"riichi","seed":1e400}',
    '{"rules":"riichi","seed":NaN}',
    '{"rules":"riichi","seed":-Infinity}',
    '{"rules":"riichi","seed":2.5}',
    '{"rules":"riichi","seed":true}',
    '{"rules":["riichi"]}',
    '{"rules":"riichi","opponents":[1,2,3]}',
    '{"rules":"riichi","opponents":[["sl"],"efficiency","efficiency"]}',
    '{"rules":"riichi","options":{"length":["x"]}}',
    "[" * 30_000 + "]" * 30_000,
    '{"a":' * 10_000 + "1" + "}" * 10_000,
])
def test_bad_new_game_bodies(tmp_path: Path, body: str) -> None:
    assert_4xx(_post_raw(client(tmp_path), "/api/games", body), 422)


@pytest.mark.parametrize(("rules", "opponents"), [
    ("mcr", ["sl", "efficiency", "efficiency"]),
    ("riichi", ["pg_mcr", "efficiency", "efficiency"]),
    ("riichi", ["mcts", "efficiency", "efficiency"]),  # shipped mcts weights are 108-tile
    ("suits108", ["sl_mcr", "random", "random"]),
])
def test_opponents_of_another_rule_set_are_refused_before_the_game(
    tmp_path: Path, rules: str, opponents: list[str]
) -> None:
    c = client(tmp_path)
    r = c.post("/api/games", json={"rules": rules, "opponents": opponents, "seed": 1})
    detail = assert_4xx(r, 422)
    assert rules in detail
    assert c.get("/api/meta").status_code == 200


@pytest.mark.parametrize("body", [
    '{"decision":Infinity,"action":0}',
    '{"decision":1,"action":1e400}',
    '{"decision":1,"action":NaN}',
    '{"decision":1.5,"action":0}',
    '{"decision":"1","action":[0]}',
    "[" * 30_000 + "]" * 30_000,
])
def test_bad_act_bodies(tmp_path: Path, body: str) -> None:
    c = client(tmp_path)
    gid = _game(c)
    assert c.get(f"/api/games/{gid}").status_code == 200
    assert_4xx(_post_raw(c, f"/api/games/{gid}/act", body))


@pytest.mark.parametrize("body", [
    '{"source":"game","id":"x","player":1e400}',
    '{"source":"game","id":"x","game":-Infinity}',
    '{"source":"record","id":"x","player":[1]}',
    '{"source":["record"]}',
    '{"agent":{"a":1}}',
])
def test_bad_review_bodies(tmp_path: Path, body: str) -> None:
    assert_4xx(_post_raw(client(tmp_path), "/api/review", body))


def _tiny_mjai() -> bytes:
    from tenpai.agents import make_agent
    from tenpai.arena.games import make_game
    from tenpai.engine.runner import play

    g = make_game("riichi", 5, ["a", "b", "c", "d"], {})
    play(g, [make_agent("efficiency", i) for i in range(4)])
    return "\n".join(json.dumps(e.to_mjai()) for e in g.events).encode()


@pytest.mark.parametrize("agent", ["pg_mcr", "sl_mcr"])
def test_review_with_an_agent_of_another_rule_set(tmp_path: Path, agent: str) -> None:
    c = client(tmp_path)
    rec = c.post("/api/records", files={"file": ("g.mjson", _tiny_mjai())}).json()
    r = c.post("/api/review", json={"source": "record", "id": rec["id"], "player": 1,
                                    "agent": agent})
    detail = assert_4xx(r, 422)
    assert "riichi" in detail


def _arena_file(path: Path) -> None:
    lineup = ("efficiency", "random", "efficiency", "random")
    options = {"length": "tonpuu", "preset": "tenhou"}
    with ResultsStore(path) as store:
        store.begin_run(RunConfig("riichi", lineup, 4, 1, options))
        store.add_game(play_scheduled("riichi", options, lineup, 1, GameKey(0, 0)))


@pytest.mark.parametrize("sql", [
    "UPDATE run SET config = 'not json {'",
    "UPDATE run SET config = '[1, 2]'",
    "UPDATE run SET config = '{\"rules\": \"riichi\"}'",
    "UPDATE seats SET score = 'lots'",
    "UPDATE seats SET rank = 'first'",
    "UPDATE rounds SET delta0 = 'x'",
])
def test_uploaded_arena_files_that_lie(tmp_path: Path, sql: str) -> None:
    db = tmp_path / "run.sqlite"
    _arena_file(db)
    with contextlib.closing(sqlite3.connect(db)) as conn:
        conn.execute(sql)
        conn.commit()
    data = db.read_bytes()
    c = client(tmp_path)
    detail = assert_4xx(c.post("/api/records", files={"file": ("run.sqlite", io.BytesIO(data))}),
                        422)
    assert "run.sqlite" in detail
    assert_4xx(c.get("/api/library/0/run.sqlite"), 422)


def test_websocket_binary_frames_and_bad_text(tmp_path: Path) -> None:
    c = client(tmp_path)
    gid = _game(c)
    with c.websocket_connect(f"/api/games/{gid}/ws") as ws:
        first = ws.receive_json()
        assert first["type"] == "update"
        ws.send_bytes(b'{"type": "sync"}')
        assert ws.receive_json()["type"] == "error"
        for text in ['{"decision":Infinity,"action":0}', "[" * 30_000, "not json",
                     '{"decision":1e400,"action":0}']:
            ws.send_text(text)
            msg = ws.receive_json()
            assert msg["type"] == "error", msg
        ws.send_text(json.dumps({"type": "sync"}))  # still served after all that
        assert ws.receive_json()["type"] == "update"
