"""Issue 39: a seeded fuzz of the web API's JSON bodies and of the mjai bot's input stream.

Deterministic (``derandomize``: the same examples every run) and a few seconds long.  Every
web request must be answered below 500 with a one-line JSON message when it fails; every mjai
stream must either be followed or stop with the bot's own one-line ``BotError`` — never another
exception, which the command would show as a traceback.
"""

from __future__ import annotations

import io
import json
from functools import cache
from typing import Any

import pytest
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tenpai.serve.web.app import create_app
from tenpai.serve.web.config import WebConfig

_FUZZ = settings(derandomize=True, max_examples=60, deadline=None,
                 suppress_health_check=list(HealthCheck))

_SCALARS = st.one_of(
    st.none(), st.booleans(), st.integers(min_value=-(2**70), max_value=2**70),
    st.floats(allow_nan=False, allow_infinity=False), st.text(max_size=12),
    st.sampled_from(["riichi", "mcr", "suits108", "sl", "pg_mcr", "mcts", "efficiency",
                     "random", "record", "game", "sync", "tonpuu", "hanchan"]),
)
_JSON = st.recursive(_SCALARS, lambda inner: st.one_of(
    st.lists(inner, max_size=4), st.dictionaries(st.text(max_size=8), inner, max_size=4)),
    max_leaves=12)
_KEYS = ["rules", "seed", "opponents", "options", "decision", "action", "agent", "player",
         "game", "source", "id", "type"]
_BODIES = st.one_of(
    _JSON,
    st.dictionaries(st.sampled_from(_KEYS), _JSON, max_size=6),
)
_RAW = st.one_of(
    st.sampled_from(["NaN", "Infinity", '{"seed":1e400}', "[" * 5000, '{"a":' * 3000,
                     "\xff\xfe", "", "{", "null"]),
    st.text(max_size=40),
)


@cache
def _client() -> TestClient:
    return TestClient(create_app(WebConfig()), raise_server_exceptions=False)


def _game_id(c: TestClient) -> str:
    r = c.post("/api/games", json={"rules": "riichi", "seed": 1, "opponents": ["random"] * 3})
    if r.status_code == 200:
        gid: str = r.json()["id"]
        c.get(f"/api/games/{gid}")
        return gid
    return "none"


def _check(r: Any) -> None:
    assert r.status_code < 500, (r.status_code, r.text[:300])
    if r.status_code >= 400:
        detail = r.json()["detail"]
        assert isinstance(detail, str) and "\n" not in detail and "Traceback" not in detail


@_FUZZ
@given(body=_BODIES)
def test_fuzz_json_bodies(body: Any) -> None:
    c = _client()
    gid = _game_id(c)
    for url in ("/api/games", f"/api/games/{gid}/act", "/api/review"):
        _check(c.post(url, json=body))


@_FUZZ
@given(text=_RAW)
def test_fuzz_raw_bodies(text: str) -> None:
    c = _client()
    gid = _game_id(c)
    for url in ("/api/games", f"/api/games/{gid}/act", "/api/review"):
        _check(c.post(url, content=text.encode("utf-8", "surrogatepass"),
                      headers={"content-type": "application/json"}))


# ---------------------------------------------------------------------------- mjai bot
@cache
def _stream() -> tuple[str, ...]:
    from tenpai.agents import make_agent
    from tenpai.arena.games import make_game
    from tenpai.engine.runner import play

    g = make_game("riichi", 11, ["a", "b", "c", "d"], {"length": "tonpuu"})
    play(g, [make_agent("efficiency", i) for i in range(4)])
    return tuple(json.dumps(e.to_mjai()) for e in g.events)


_FIELDS = ["actor", "target", "pai", "consumed", "tehais", "oya", "kyoku", "honba", "scores",
           "deltas", "type", "dora_marker", "bakaze", "tsumogiri"]


@st.composite
def _mutated(draw: st.DrawFn) -> list[str]:
    lines = list(_stream())
    end = draw(st.integers(min_value=3, max_value=min(len(lines), 400)))
    lines = lines[:end]
    for _ in range(draw(st.integers(min_value=1, max_value=3))):
        if len(lines) < 3:
            break
        i = draw(st.integers(min_value=1, max_value=len(lines) - 1))
        how = draw(st.sampled_from(["drop", "dup", "swap", "field", "raw"]))
        if how == "drop":
            del lines[i]
        elif how == "dup":
            lines.insert(i, lines[i])
        elif how == "swap" and i + 1 < len(lines):
            lines[i], lines[i + 1] = lines[i + 1], lines[i]
        elif how == "field" and lines[i].startswith('{"type"'):  # an unmutated event
            obj = json.loads(lines[i])
            obj[draw(st.sampled_from(_FIELDS))] = draw(_JSON)
            lines[i] = json.dumps(obj)
        elif how == "raw":
            lines[i] = draw(_RAW) or "{}"
    return lines


@_FUZZ
@given(lines=_mutated())
def test_fuzz_mjai_bot_stream(lines: list[str]) -> None:
    from tenpai.agents import make_agent
    from tenpai.serve.mjai.bot import BotError, MjaiBot
    from tenpai.serve.mjai.io import run_stdio

    bot = MjaiBot(make_agent("efficiency", 0))
    out = io.StringIO()
    text = "\n".join(ln.replace("\n", " ") for ln in lines) + "\n"
    try:
        run_stdio(bot, io.StringIO(text), out)
    except BotError as exc:
        assert "\n" not in str(exc)


def test_the_fuzzed_stream_itself_is_followed() -> None:
    from tenpai.agents import make_agent
    from tenpai.serve.mjai.bot import MjaiBot
    from tenpai.serve.mjai.io import run_stdio

    out = io.StringIO()
    run_stdio(MjaiBot(make_agent("efficiency", 0)), io.StringIO("\n".join(_stream()) + "\n"), out)
    assert out.getvalue()


pytest.importorskip("fastapi")
