"""The web app's API through FastAPI's TestClient: play, limits, traversal, records, isolation."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import anyio
import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from tenpai.arena.store import ResultsStore, RunConfig
from tenpai.engine.wall import SplitMix64
from tenpai.records.mjlog_read import parse_mjlog
from tenpai.records.tenhou6_read import parse_tenhou6
from tenpai.serve.web.app import create_app
from tenpai.serve.web.config import WebConfig
from tenpai.serve.web.sessions import Limits

from .helpers import HOUOU


def client(tmp_path: Path, **limits: Any) -> TestClient:
    return TestClient(create_app(WebConfig(records=(tmp_path,), limits=Limits(**limits))))


def play_through(c: TestClient, gid: str, seed: int = 0) -> dict[str, Any]:
    """Answer every decision over the websocket with a seeded choice among the offered ones,
    checking that only the human's own hand is ever shown."""
    rng = SplitMix64(seed)
    with c.websocket_connect(f"/api/games/{gid}/ws") as ws:
        msg: dict[str, Any] = ws.receive_json()
        while True:
            assert msg["type"] == "update", msg
            for f in msg["frames"]:
                table = f["table"]
                for seat, s in enumerate(table["seats"]):
                    if seat != table["viewer"]:
                        assert s["hand"] is None, "another player's hand reached the client"
                if f["event"] and f["event"]["type"] == "start_kyoku":
                    hidden = [h for i, h in enumerate(f["event"]["tehais"]) if i != table["viewer"]]
                    assert all(h == ["?"] * 13 for h in hidden)
            if msg["done"]:
                return msg
            actions = msg["decision"]["actions"]
            wins = [a for a in actions if a["type"] == "hora"]
            pick = wins[0] if wins else actions[rng.below(len(actions))]
            ws.send_json({"decision": msg["decision"]["id"], "action": pick["index"]})
            msg = ws.receive_json()


def new_game(c: TestClient, **body: Any) -> str:
    payload = {"rules": "riichi", "opponents": ["efficiency"] * 3, "seed": 3, **body}
    r = c.post("/api/games", json=payload)
    assert r.status_code == 200, r.text
    gid: str = r.json()["id"]
    return gid


def test_index_and_meta(tmp_path: Path) -> None:
    c = client(tmp_path)
    r = c.get("/")
    assert r.status_code == 200 and "<title>tenpai</title>" in r.text
    meta = c.get("/api/meta").json()
    assert {"riichi", "mcr", "suits108"} <= set(meta["rules"])
    assert "expert" in meta["agents"] and meta["formats"] == ["mjai", "tenhou6", "mjlog"]
    assert c.get("/static/tiles.js").status_code == 200


def test_whole_riichi_game_over_the_websocket_and_downloads(tmp_path: Path) -> None:
    c = client(tmp_path)
    gid = new_game(c)
    end = play_through(c, gid, seed=7)
    assert end["final"] is not None and sum(end["final"]) == 100_000
    mjai = c.get(f"/api/games/{gid}/download/mjai")
    assert mjai.status_code == 200
    lines = [json.loads(x) for x in mjai.text.splitlines()]
    assert lines[0]["type"] == "start_game" and lines[-1]["type"] == "end_game"
    assert lines[-1]["scores"] == end["final"]
    mjlog = c.get(f"/api/games/{gid}/download/mjlog")
    assert mjlog.status_code == 200
    assert parse_mjlog(mjlog.text, "web").final_scores == tuple(end["final"])
    t6 = c.get(f"/api/games/{gid}/download/tenhou6")
    assert parse_tenhou6(t6.text, "web").rounds
    links = c.get(f"/api/games/{gid}/links").json()["tenhou6"]
    assert links and links[0].startswith("https://tenhou.net/6/#json=")
    assert c.get(f"/api/games/{gid}/download/exe").status_code == 404


@pytest.mark.parametrize("rules", ["mcr", "suits108"])
def test_other_rule_sets_play_to_the_end_over_json(tmp_path: Path, rules: str) -> None:
    c = client(tmp_path)
    gid = new_game(c, rules=rules, seed=2)
    state = c.get(f"/api/games/{gid}").json()
    steps = 0
    while not state["done"]:
        d = state["decision"]
        wins = [a for a in d["actions"] if a["type"] == "hora"]
        pick = wins[0] if wins else d["actions"][0]
        r = c.post(f"/api/games/{gid}/act", json={"decision": d["id"], "action": pick["index"]})
        assert r.status_code == 200, r.text
        state = r.json()
        steps += 1
    assert steps > 10 and state["final"] is not None
    assert c.get(f"/api/games/{gid}/download/mjai").status_code == 200
    if rules == "mcr":
        r = c.get(f"/api/games/{gid}/download/mjlog")
        assert r.status_code == 422 and "MCR" in r.json()["detail"]


def test_server_rechecks_actions(tmp_path: Path) -> None:
    c = client(tmp_path)
    gid = new_game(c)
    state = c.get(f"/api/games/{gid}").json()
    d = state["decision"]
    bad = c.post(f"/api/games/{gid}/act", json={"decision": d["id"], "action": 99})
    assert bad.status_code == 409 and "not one of" in bad.json()["detail"]
    stale = c.post(f"/api/games/{gid}/act", json={"decision": d["id"] + 5, "action": 0})
    assert stale.status_code == 409
    junk = c.post(f"/api/games/{gid}/act", json={"decision": "x"})
    assert junk.status_code == 422
    ok = c.post(f"/api/games/{gid}/act", json={"decision": d["id"], "action": 0})
    assert ok.status_code == 200
    again = c.post(f"/api/games/{gid}/act", json={"decision": d["id"], "action": 0})
    assert again.status_code == 409  # the same decision cannot be answered twice


def test_bad_game_settings(tmp_path: Path) -> None:
    c = client(tmp_path)
    assert c.post("/api/games", json={"rules": "chess"}).status_code == 422
    r = c.post("/api/games", json={"opponents": ["efficiency", "nobody", "random"]})
    assert r.status_code == 422 and "nobody" in r.json()["detail"]
    assert c.post("/api/games", json={"options": {"length": "forever"}}).status_code == 422
    assert c.post("/api/games", content=b"not json").status_code == 422


def test_upload_limit_is_413_and_checked_while_streaming(tmp_path: Path) -> None:
    c = client(tmp_path)
    big = b"x" * (6 * 1024 * 1024)
    r = c.post("/api/records", files={"file": ("big.mjlog", big)})
    assert r.status_code == 413

    # Without a Content-Length the body arrives in chunks; the app must stop reading at the
    # limit instead of taking everything.  (TestClient buffers bodies, so drive ASGI directly.)
    status, pulled = anyio.run(_chunked_upload, create_app(WebConfig()), 200)
    assert status == 413
    limit_chunks = (5 * 1024 * 1024 + 64 * 1024) // (64 * 1024) + 2
    assert pulled <= limit_chunks < 200


async def _chunked_upload(app: Any, chunks: int) -> tuple[int, int]:
    """POST ``chunks`` × 64 KiB without a length; the status and how many chunks were read."""
    pulled = 0
    status = 0

    async def receive() -> dict[str, Any]:
        nonlocal pulled
        pulled += 1
        more = pulled < chunks
        return {"type": "http.request", "body": b"y" * 65536, "more_body": more}

    async def send(message: dict[str, Any]) -> None:
        nonlocal status
        if message["type"] == "http.response.start":
            status = message["status"]

    scope = {
        "type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": "POST",
        "scheme": "http", "path": "/api/records", "raw_path": b"/api/records",
        "query_string": b"", "root_path": "", "server": ("127.0.0.1", 80),
        "client": ("127.0.0.1", 5000),
        "headers": [(b"content-type", b"multipart/form-data; boundary=zzz")],
    }
    await app(scope, receive, send)
    return status, pulled


def test_bad_records_get_the_readers_typed_errors(tmp_path: Path) -> None:
    c = client(tmp_path)
    r = c.post("/api/records", files={"file": ("a.mjlog", b"<mjloggm ver='2.3'><GO type=")})
    assert r.status_code == 422 and "a.mjlog" in r.json()["detail"]
    r = c.post("/api/records", files={"file": ("notes.txt", b"hello, not a record")})
    assert r.status_code == 422 and "format" in r.json()["detail"]
    assert "Traceback" not in r.text
    r = c.post("/api/records", content=b"raw", headers={"content-type": "text/plain"})
    assert r.status_code == 422


def test_path_traversal_is_404(tmp_path: Path) -> None:
    inside = tmp_path / "records"
    inside.mkdir()
    (tmp_path / "secret.mjson").write_text('{"type":"start_game"}\n')
    (inside / "link.mjson").symlink_to(tmp_path / "secret.mjson")
    c = TestClient(create_app(WebConfig(records=(inside,))))
    for path in (
        "/api/library/0/../secret.mjson",
        "/api/library/0/%2e%2e/secret.mjson",
        "/api/library/0/..%2fsecret.mjson",
        "/api/library/0//etc/passwd",
        "/api/library/0/link.mjson",
        "/api/library/1/anything",
        "/static/../pyproject.toml",
        "/static/%2e%2e/app.py",
    ):
        assert c.get(path).status_code == 404, path
    listed = c.get("/api/library").json()["files"]
    assert all(not f["path"].startswith("..") for f in listed)


def test_sessions_are_isolated(tmp_path: Path) -> None:
    app = create_app(WebConfig(records=(tmp_path,)))
    alice, bob = TestClient(app), TestClient(app)
    gid = new_game(alice)
    assert alice.get(f"/api/games/{gid}").status_code == 200
    assert bob.get(f"/api/games/{gid}").status_code == 404
    assert bob.post(f"/api/games/{gid}/act", json={"decision": 1, "action": 0}).status_code == 404
    assert bob.get(f"/api/games/{gid}/download/mjai").status_code == 404
    with pytest.raises(WebSocketDisconnect) as closed, bob.websocket_connect(
        f"/api/games/{gid}/ws"
    ) as ws:
        ws.receive_json()
    assert closed.value.code == 4404
    rec = alice.post("/api/records", files={"file": ("g.mjson", _tiny_mjai())}).json()
    assert bob.get(f"/api/records/{rec['id']}").status_code == 404
    r = bob.post("/api/review", json={"source": "record", "id": rec["id"], "player": 0})
    assert r.status_code == 404


def _tiny_mjai() -> bytes:
    """A short real game: one seeded hand played by the engine, written as mjai."""
    from tenpai.agents import make_agent
    from tenpai.arena.games import make_game
    from tenpai.engine.runner import play

    g = make_game("riichi", 5, ["a", "b", "c", "d"], {})
    play(g, [make_agent("efficiency", i) for i in range(4)])
    return "\n".join(json.dumps(e.to_mjai()) for e in g.events).encode()


def test_game_limits_and_expiry(tmp_path: Path) -> None:
    app = create_app(WebConfig(limits=Limits(max_games=2, max_games_per_session=1,
                                             idle_seconds=3600)))
    a, b, c = TestClient(app), TestClient(app), TestClient(app)
    new_game(a)
    assert a.post("/api/games", json={}).status_code == 429  # one per session
    new_game(b)
    r = c.post("/api/games", json={})
    assert r.status_code == 429 and "limit 2" in r.json()["detail"]
    store = app.state.store
    for s in store._sessions.values():
        for g in s.games.values():
            g.last_active -= 7200
    assert store.expire() == 2
    new_game(c)


def test_replay_frames_show_every_hand(tmp_path: Path) -> None:
    c = client(tmp_path)
    rec = c.post("/api/records", files={"file": ("g.mjson", _tiny_mjai())}).json()
    assert rec["kind"] == "record" and rec["games"][0]["rounds"]
    first = rec["games"][0]["rounds"][0]["event"]
    f = c.get(f"/api/records/{rec['id']}/games/0/frames/{first}").json()
    assert all(len(s["hand"]) == 13 for s in f["table"]["seats"])
    last = c.get(f"/api/records/{rec['id']}/games/0/frames/100000").json()
    assert last["index"] == last["total"] - 1 and last["event"]["type"] == "end_game"
    assert c.get(f"/api/records/{rec['id']}/games/3/frames/0").status_code == 404


def test_library_opens_a_record_from_the_folder(tmp_path: Path, data_dir: Path) -> None:
    src = data_dir / HOUOU
    if not src.exists():
        pytest.skip(f"{HOUOU} not in the data folder")
    (tmp_path / "houou").mkdir()
    (tmp_path / "houou" / src.name).write_bytes(src.read_bytes())
    c = client(tmp_path)
    files = c.get("/api/library").json()["files"]
    assert [f["path"] for f in files] == [f"houou/{src.name}"]
    rec = c.get(f"/api/library/0/houou/{src.name}").json()
    assert rec["format"] == "mjlog" and len(rec["games"][0]["rounds"]) >= 8


def test_review_of_a_played_game_and_of_a_record(tmp_path: Path) -> None:
    c = client(tmp_path)
    gid = new_game(c, rules="suits108", seed=4)
    r = c.post("/api/review", json={"source": "game", "id": gid, "player": 0})
    assert r.status_code == 409  # not finished
    play_through(c, gid)
    r = c.post("/api/review", json={"source": "game", "id": gid, "player": 0,
                                    "agent": "efficiency"})
    assert r.status_code == 200, r.text
    body = r.json()
    assert body["summary"]["decisions"] == len(body["decisions"]) > 0
    for d in body["decisions"]:
        assert 0 <= d["player"] < len(d["actions"]) and 0 <= d["agent"] < len(d["actions"])
        assert d["table"]["seats"][d["table"]["viewer"]]["hand"] is not None
    rec = c.post("/api/records", files={"file": ("g.mjson", _tiny_mjai())}).json()
    r = c.post("/api/review", json={"source": "record", "id": rec["id"], "player": 2,
                                    "agent": "sl"})
    assert r.status_code == 200, r.text
    body = r.json()
    assert body["scored"]
    for d in body["decisions"]:
        total = sum(a["prob"] for a in d["actions"])
        assert abs(total - 1) < 1e-3
    worst = body["summary"]["worst"]
    assert worst == sorted(worst, key=lambda w: -w["loss"])


def test_arena_file_summary(tmp_path: Path) -> None:
    from tenpai.arena.record import play_scheduled
    from tenpai.arena.schedule import GameKey

    db = tmp_path / "run.sqlite"
    lineup = ("efficiency", "random", "efficiency", "random")
    options = {"length": "tonpuu", "preset": "tenhou"}
    cfg = RunConfig("riichi", lineup, 2, 1, options)
    with ResultsStore(db) as store:
        store.begin_run(cfg)
        for rot in range(2):
            store.add_game(play_scheduled("riichi", options, lineup, 1, GameKey(0, rot)))
    before = db.read_bytes()
    c = client(tmp_path)
    s = c.get("/api/library/0/run.sqlite").json()
    assert s["kind"] == "arena" and s["games"] == 2
    assert {a["agent"] for a in s["agents"]} == {"efficiency", "random"}
    assert db.read_bytes() == before  # opened on a copy, the file is untouched
    up = c.post("/api/records", files={"file": ("run.sqlite", io.BytesIO(before))}).json()
    assert up["games"] == 2
    bad = c.post("/api/records", files={"file": ("x.sqlite", b"SQLite format 3\x00junk")})
    assert bad.status_code == 422
