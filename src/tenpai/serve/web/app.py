"""The FastAPI application: static pages, the JSON API and the play websocket.

Routes stay thin: they check input, find the caller's session and hand the work to the modules
beside this one (play, library, review, export, arenaview).  Engine work runs in worker threads
so one long bot turn never blocks other people's requests.  Every error a person can cause is
answered with a status and a one-line message; tracebacks stay in the server's log.
"""

from __future__ import annotations

import json
import math
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import anyio
from fastapi import FastAPI, HTTPException, Request, Response, WebSocket, WebSocketDisconnect
from fastapi.responses import FileResponse, JSONResponse
from fastapi.staticfiles import StaticFiles
from starlette.datastructures import UploadFile

from tenpai.agents.registry import AGENTS, default_agent
from tenpai.agents.rulesets import UnsupportedRulesError, check_agent_rules, check_built_agent
from tenpai.arena.games import all_rules_entries
from tenpai.engine.agent import Agent
from tenpai.records import RecordError
from tenpai.serve.web.arenaview import ArenaFileError, arena_summary
from tenpai.serve.web.config import WebConfig
from tenpai.serve.web.export import (
    DOWNLOAD_FORMATS,
    ExportError,
    export_bytes,
    game_from_lines,
    hand_links,
    round_labels,
    viewer_links_for,
)
from tenpai.serve.web.library import (
    ARENA_SUFFIXES,
    LoadedRecord,
    list_folder,
    load_bytes,
    load_path,
    resolve_in,
)
from tenpai.serve.web.opponents import DEFAULT_THINK_MS, THINK_CHOICES_MS, opponent_menu
from tenpai.serve.web.play import MAX_THINK_MS, GameSettings, PlayError, PlayGame
from tenpai.serve.web.review import ReviewError, review_record, review_stream
from tenpai.serve.web.sessions import LimitError, Session, SessionStore

__all__ = ["STATIC", "create_app"]

STATIC = Path(__file__).resolve().parent / "static"
#: Room for the multipart envelope around an uploaded file (boundaries, headers).
_MULTIPART_SLACK = 64 * 1024


def _error(status: int, message: str) -> JSONResponse:
    return JSONResponse({"detail": message}, status_code=status)


def create_app(config: WebConfig | None = None) -> FastAPI:
    """A new app with its own sessions; tests create one per test for isolation."""
    cfg = config or WebConfig()
    store = SessionStore(cfg.limits)
    reviews = anyio.Semaphore(cfg.limits.max_reviews)
    app = FastAPI(title="tenpai", docs_url=None, redoc_url=None, openapi_url=None)
    app.state.store = store
    app.state.config = cfg

    @app.middleware("http")
    async def sessions(
        request: Request, call_next: Callable[[Request], Awaitable[Response]]
    ) -> Response:
        token = request.cookies.get(cfg.cookie_name)
        s = store.session(token)
        request.state.session = s
        response = await call_next(request)
        if s.token != token:
            response.set_cookie(
                cfg.cookie_name, s.token, httponly=True, samesite="strict", path="/"
            )
        return response

    def session(request: Request) -> Session:
        s: Session = request.state.session
        return s

    def game_of(request: Request, gid: str) -> PlayGame:
        game = session(request).games.get(gid)
        if game is None:
            raise HTTPException(404, "no such game in this session")
        return game

    def record_of(request: Request, rid: str) -> LoadedRecord:
        rec = session(request).records.get(rid)
        if not isinstance(rec, LoadedRecord):
            raise HTTPException(404, "no such record in this session")
        return rec

    # ------------------------------------------------------------------ pages
    @app.get("/", include_in_schema=False)
    async def index() -> FileResponse:
        return FileResponse(STATIC / "index.html", media_type="text/html")

    app.mount("/static", StaticFiles(directory=STATIC), name="static")

    @app.get("/api/meta")
    async def meta() -> dict[str, Any]:
        rules = {
            name: {"defaults": dict(e.defaults), "choices": {k: list(v) for k, v in
                                                             e.choices.items()},
                   # seats by preset: a three-player preset seats two opponents
                   "seats": {p: e.seat_count(e.options({"preset": p}))
                             for p in e.choices.get("preset", ())},
                   "opponent": default_agent(name)}
            for name, e in all_rules_entries().items()
        }
        return {
            "rules": rules,
            "agents": sorted(AGENTS),
            # Play's menus: who can sit at each rule set's table, and the think times (ms per
            # searched decision: the menu's choices; the API takes any number up to "max")
            "opponents": {name: opponent_menu(name) for name in rules},
            "think_ms": {"choices": list(THINK_CHOICES_MS), "default": DEFAULT_THINK_MS,
                         "max": MAX_THINK_MS},
            "folders": len(cfg.records),
            "formats": list(DOWNLOAD_FORMATS),
            "limits": {"upload_bytes": cfg.limits.upload_bytes,
                       "max_games": cfg.limits.max_games},
        }

    # ------------------------------------------------------------------ play
    @app.post("/api/games")
    async def new_game(request: Request) -> dict[str, Any]:
        body = await _json_body(request)
        try:
            settings = GameSettings.parse(body)
            game = await anyio.to_thread.run_sync(PlayGame, settings)
            gid = store.add_game(session(request), game)
        except PlayError as exc:
            raise HTTPException(422, str(exc)) from None
        except LimitError as exc:
            raise HTTPException(429, str(exc)) from None
        return {"id": gid, "names": game.names}

    @app.get("/api/games/{gid}")
    async def game_state(request: Request, gid: str) -> dict[str, Any]:
        game = game_of(request, gid)
        return await anyio.to_thread.run_sync(_locked, game, game.resync_or_start)

    @app.post("/api/games/{gid}/act")
    async def game_act(request: Request, gid: str) -> dict[str, Any]:
        game = game_of(request, gid)
        body = await _json_body(request)
        answer = _answer(body)
        if answer is None:
            raise HTTPException(422, "send {decision: id, action: index}")
        decision, action = answer
        try:
            return await anyio.to_thread.run_sync(_locked, game, game.act, decision, action)
        except PlayError as exc:
            raise HTTPException(409, str(exc)) from None

    @app.delete("/api/games/{gid}")
    async def game_delete(request: Request, gid: str) -> dict[str, Any]:
        game_of(request, gid)
        del session(request).games[gid]
        return {"deleted": gid}

    @app.websocket("/api/games/{gid}/ws")
    async def game_ws(ws: WebSocket, gid: str) -> None:
        s = store.find(ws.cookies.get(cfg.cookie_name))
        game = s.games.get(gid) if s is not None else None
        if game is None:
            await ws.close(code=4404)
            return
        await ws.accept()
        try:
            update = await anyio.to_thread.run_sync(_locked, game, game.resync_or_start)
            await ws.send_json({"type": "update", **update})
            while True:
                frame = await ws.receive()
                if frame["type"] == "websocket.disconnect":
                    return
                text = frame.get("text")
                if text is None:  # a binary frame: this protocol is JSON text only
                    await ws.send_json({"type": "error", "message": "send JSON text frames"})
                    continue
                try:
                    msg = _strict_json(text)
                except ValueError as exc:
                    await ws.send_json({"type": "error", "message": str(exc)})
                    continue
                if not isinstance(msg, dict):
                    await ws.send_json({"type": "error", "message": "send a JSON object"})
                    continue
                if msg.get("type") == "sync":
                    update = await anyio.to_thread.run_sync(_locked, game, game.resync)
                    await ws.send_json({"type": "update", **update})
                    continue
                answer = _answer(msg)
                if answer is None:
                    await ws.send_json(
                        {"type": "error", "message": "send {decision: id, action: index}"}
                    )
                    continue
                try:
                    update = await anyio.to_thread.run_sync(
                        _locked, game, game.act, *answer
                    )
                except PlayError as exc:
                    await ws.send_json({"type": "error", "message": str(exc)})
                    continue
                await ws.send_json({"type": "update", **update})
        except (WebSocketDisconnect, json.JSONDecodeError, RuntimeError):
            return

    @app.get("/api/games/{gid}/download/{fmt}")
    async def game_download(request: Request, gid: str, fmt: str) -> Response:
        game = game_of(request, gid)
        if not game.flow.done:
            raise HTTPException(409, "the game is not finished yet")
        if fmt not in DOWNLOAD_FORMATS:
            raise HTTPException(404, f"formats: {', '.join(DOWNLOAD_FORMATS)}")
        record = game_from_lines(game.record_lines(), f"tenpai-web-{gid}",
                                 game.settings.rules, game.settings.options.get("length"))
        try:
            data = export_bytes(record, fmt, game.settings.rules)
        except ExportError as exc:
            raise HTTPException(422, f"cannot write {fmt}: {exc}") from None
        filename = f"tenpai-{game.settings.rules}-{game.settings.seed}{DOWNLOAD_FORMATS[fmt]}"
        return Response(
            data,
            media_type="application/octet-stream",
            headers={"Content-Disposition": f'attachment; filename="{filename}"'},
        )

    @app.get("/api/games/{gid}/links")
    async def game_links(request: Request, gid: str) -> dict[str, Any]:
        game = game_of(request, gid)
        if not game.flow.done:
            raise HTTPException(409, "the game is not finished yet")
        record = game_from_lines(game.record_lines(), "tenpai-web", game.settings.rules,
                                 game.settings.options.get("length"))
        return {"tenhou6": viewer_links_for(record, game.settings.rules),
                "rounds": round_labels(record)}

    # ------------------------------------------------------------------ records
    @app.post("/api/records")
    async def upload_record(request: Request) -> Response:
        limit = cfg.limits.upload_bytes
        data = await _bounded_body(request, limit + _MULTIPART_SLACK)
        if data is None:
            return _error(413, f"uploads are limited to {limit} bytes")
        content, filename = await _multipart_file(request, data)
        if content is None:
            return _error(422, "send the record as a multipart form field named 'file'")
        if len(content) > limit:
            return _error(413, f"uploads are limited to {limit} bytes")
        if filename.lower().endswith(ARENA_SUFFIXES) or content[:16] == b"SQLite format 3\x00":
            return await _arena_upload(content, filename)
        try:
            rec = await anyio.to_thread.run_sync(load_bytes, content, filename, limit * 8)
        except RecordError as exc:
            return _error(422, str(exc))
        rid = store.add_record(session(request), rec)
        return JSONResponse({"id": rid, "kind": "record", **rec.summary()})

    async def _arena_upload(content: bytes, filename: str) -> Response:
        import tempfile

        with tempfile.TemporaryDirectory(prefix="tenpai-arena-up-") as tmp:
            path = Path(tmp) / "upload.sqlite"
            path.write_bytes(content)
            try:
                summary = await anyio.to_thread.run_sync(
                    arena_summary, path, Path(filename).name
                )
            except ArenaFileError as exc:
                return _error(422, str(exc))
        return JSONResponse({"kind": "arena", **summary})

    @app.get("/api/library")
    async def library() -> dict[str, Any]:
        files: list[dict[str, Any]] = []
        for i, folder in enumerate(cfg.records):
            files += await anyio.to_thread.run_sync(list_folder, i, folder)
        return {"folders": len(cfg.records), "files": files}

    @app.get("/api/library/{folder}/{path:path}")
    async def library_open(request: Request, folder: str, path: str) -> Response:
        # Anything but a known folder index is "not found", like a missing file.
        index = int(folder) if folder.isdigit() else -1
        if not 0 <= index < len(cfg.records):
            raise HTTPException(404, "no such file")
        target = resolve_in(cfg.records[index], path)
        if target is None:
            raise HTTPException(404, "no such file")
        if target.suffix.lower() in ARENA_SUFFIXES:
            try:
                summary = await anyio.to_thread.run_sync(arena_summary, target, path)
            except ArenaFileError as exc:
                return _error(422, str(exc))
            return JSONResponse({"kind": "arena", **summary})
        try:
            rec = await anyio.to_thread.run_sync(load_path, target, path)
        except RecordError as exc:
            return _error(422, str(exc).replace(str(target), path))
        rid = store.add_record(session(request), rec)
        return JSONResponse({"id": rid, "kind": "record", **rec.summary()})

    @app.get("/api/records/{rid}")
    async def record_summary(request: Request, rid: str) -> dict[str, Any]:
        return record_of(request, rid).summary()

    @app.get("/api/records/{rid}/games/{g}/frames/{i}")
    async def record_frame(request: Request, rid: str, g: int, i: int) -> dict[str, Any]:
        rec = record_of(request, rid)
        if not 0 <= g < len(rec.games):
            raise HTTPException(404, "no such game in the record")
        return await anyio.to_thread.run_sync(rec.frame, g, i)

    # ------------------------------------------------------------------ review
    @app.post("/api/review")
    async def review(request: Request) -> Response:
        body = await _json_body(request)
        agent_name = body.get("agent", "efficiency")
        if not isinstance(agent_name, str) or agent_name not in AGENTS:
            return _error(422, f"unknown agent {agent_name!r}")
        player, index = _whole(body.get("player", 0)), _whole(body.get("game", 0))
        if player is None or index is None:
            return _error(422, "player and game must be whole numbers")
        source = body.get("source", "record")
        s = session(request)
        job: Callable[[], dict[str, Any]]
        if source == "record":
            rec = s.records.get(str(body.get("id", "")))
            if not isinstance(rec, LoadedRecord) or not 0 <= index < len(rec.games):
                return _error(404, "no such record in this session")
            chosen = rec.games[index]
            rules = "riichi"  # review_record reviews Riichi records only

            def job() -> dict[str, Any]:
                links = hand_links(chosen, rules)
                return review_record(chosen, player, _reviewer(agent_name, rules), links)
        elif source == "game":
            game = s.games.get(str(body.get("id", "")))
            if game is None:
                return _error(404, "no such game in this session")
            if not game.flow.done:
                return _error(409, "finish the game before reviewing it")
            if player != 0:
                return _error(422, "in a game you played, only your own seat can be reviewed")
            played = game
            rules = played.settings.rules

            def job() -> dict[str, Any]:
                from tenpai.arena.games import make_game

                st = played.settings
                flow = make_game(st.rules, st.seed, played.names, st.options)
                record = game_from_lines(played.record_lines(), "tenpai-web", st.rules,
                                         st.options.get("length"))
                return review_stream(flow, played.flow.events, 0, _reviewer(agent_name, rules),
                                     played.names, hand_links(record, st.rules))
        else:
            return _error(422, "source is 'record' or 'game'")
        try:  # before any work: an agent of another rule set fails deep inside the review
            check_agent_rules(agent_name, rules)
        except UnsupportedRulesError as exc:
            return _error(422, str(exc))
        if reviews.value == 0:
            return _error(503, "the server is busy with other reviews; try again shortly")
        async with reviews:
            try:
                result = await anyio.to_thread.run_sync(job)
            except ReviewError as exc:
                return _error(422, str(exc))
            except ValueError as exc:  # an agent that cannot play these rules
                return _error(422, f"{agent_name}: {exc}")
        return JSONResponse({"agent": agent_name, "player": player, **result})

    return app


def _reviewer(name: str, rules: str) -> Agent:
    """The reviewing agent, refused (a ``ValueError``) when its model is of another rule set."""
    from tenpai.agents.registry import make_agent

    agent = make_agent(name, 0)
    check_built_agent(name, agent, rules)
    return agent


def _whole(value: Any) -> int | None:
    """A JSON whole number (not a bool, not 2.5), else ``None``."""
    if isinstance(value, bool) or not isinstance(value, int):
        return None
    return value


def _answer(msg: dict[str, Any]) -> tuple[int, int] | None:
    """``(decision, action)`` of an answer, or ``None`` when either is not a whole number."""
    decision, action = _whole(msg.get("decision")), _whole(msg.get("action"))
    if decision is None or action is None:
        return None
    return decision, action


def _reject_constant(name: str) -> Any:
    raise ValueError(f"the body is not JSON ({name} is not a number in JSON)")


def _finite_float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise ValueError(f"the body is not JSON ({text} is out of range)")
    return value


def _strict_json(data: str | bytes) -> Any:
    """Standard JSON only: no NaN/Infinity, no numbers that overflow to infinity (``1e400``),
    and no nesting deep enough to exhaust the parser's stack; each is a ``ValueError``."""
    try:
        return json.loads(data, parse_constant=_reject_constant, parse_float=_finite_float)
    except RecursionError:
        raise ValueError("the body is not JSON (nested too deeply)") from None
    except UnicodeDecodeError:
        raise ValueError("the body is not JSON (not UTF-8)") from None
    except json.JSONDecodeError:
        raise ValueError("the body is not JSON") from None


def _locked(game: PlayGame, fn: Callable[..., dict[str, Any]], *args: Any) -> dict[str, Any]:
    """Run one game operation under the game's lock (a browser may send two clicks at once)."""
    with game.lock:
        return fn(*args)


async def _json_body(request: Request, limit: int = 64 * 1024) -> dict[str, Any]:
    data = await _bounded_body(request, limit)
    if data is None:
        raise HTTPException(413, "request body too large")
    try:
        body = _strict_json(data or b"{}")
    except ValueError as exc:
        raise HTTPException(422, str(exc)) from None
    if not isinstance(body, dict):
        raise HTTPException(422, "the body must be a JSON object")
    return body


async def _bounded_body(request: Request, limit: int) -> bytes | None:
    """The request body, or ``None`` as soon as it exceeds ``limit`` bytes.

    The declared length is checked first; the stream is then counted chunk by chunk, so an
    oversized upload is refused after at most ``limit`` bytes were read, never buffered whole.
    """
    declared = request.headers.get("content-length")
    if declared is not None:
        try:
            if int(declared) > limit:
                return None
        except ValueError:
            return None
    chunks = bytearray()
    async for chunk in request.stream():
        chunks += chunk
        if len(chunks) > limit:
            return None
    return bytes(chunks)


async def _multipart_file(request: Request, data: bytes) -> tuple[bytes | None, str]:
    """The ``file`` field of a multipart body already read (and bounded) into memory."""
    if not request.headers.get("content-type", "").startswith("multipart/form-data"):
        return None, ""
    sent = False

    async def receive() -> dict[str, Any]:
        nonlocal sent
        if sent:
            return {"type": "http.disconnect"}
        sent = True
        return {"type": "http.request", "body": data, "more_body": False}

    replay = Request(request.scope, receive)
    try:
        form = await replay.form(max_files=1, max_fields=8)
    except Exception:  # malformed multipart: the parser's errors are not part of its API
        return None, ""
    item = form.get("file")
    if not isinstance(item, UploadFile):
        return None, ""
    content = await item.read()
    name = item.filename or "upload"
    await form.close()
    return content, name
