"""A Game → a Botzone match export pair (``<id>_lite.json`` + ``<id>_metadata.json``).

The requests and the bots' responses are those of the judge-log writer
(:func:`tenpai.records.botzone_json.botzone_json_object`, proven to write the judge's own logs
back identical); this module adds what the export has beyond them: a ``display`` for every
judge output (action, player, tile, ``tileCHI``, the deal, each seat's remaining wall in
``tileCnt``), the final ``finish`` output with the fan list and scores, and the header and
metadata (players, ``initdata``).  Not rebuilt: timings, memory, bot debug output, and
``canHu`` (the judge's fan check of every seat at every step), written as ``-4``, the judge's
own "not evaluated" value.  ``initdata`` holds the seed and the wall only when the game kept
them (a game read from another format has none, and none is invented).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Final

from tenpai.events import Event
from tenpai.records.botzone_export import split_export_name
from tenpai.records.botzone_json import botzone_json_object
from tenpai.records.game import Game
from tenpai.records.mcr_fans import FAN_VALUES
from tenpai.records.source import write_texts_atomic

__all__ = ["botzone_export_objects", "export_paths", "write_botzone_export"]

_TO_DRAW: Final = 21  # 34 tiles per seat wall, 13 dealt
_NOT_CHECKED: Final = -4


def export_paths(path: str | Path) -> tuple[Path, Path, str]:
    """``(lite path, metadata path, match id)`` for an output path.

    ``X_lite.json`` or ``X_metadata.json`` name the pair of ``X``; any other ``X.ext`` (or a
    name without extension) writes ``X_lite.ext`` and ``X_metadata.ext`` (``.json`` by default).
    """
    p = Path(path)
    parts = split_export_name(p)
    if parts is not None:
        mid, _, ext = parts
    else:
        mid, ext = (p.stem, p.suffix) if p.suffix else (p.name, ".json")
    return p.with_name(f"{mid}_lite{ext}"), p.with_name(f"{mid}_metadata{ext}"), mid


def _fan_list(win: Event) -> list[dict[str, Any]]:
    out = []
    for name, points in win.yaku:
        value = FAN_VALUES.get(name)
        if value and points % value == 0:
            out.append({"cnt": points // value, "name": name, "value": value})
        else:
            out.append({"cnt": 1, "name": name, "value": points})
    return out


class _Displays:
    """Rebuilds each request's ``display`` while walking the log in order."""

    def __init__(self, quan: int, seed: int | None) -> None:
        self.quan = quan
        self.seed = seed
        self.left = [_TO_DRAW] * 4
        self.last_tile: str | None = None
        self.drawer: int | None = None

    def of(self, req: dict[str, str], prev_resp: dict[str, Any]) -> dict[str, Any]:
        words = {int(s): v.split() for s, v in req.items()}
        first = words[0]
        d: dict[str, Any]
        drawer = next((s for s, w in words.items() if w[0] == "2"), None)
        if first[0] == "0":
            d = {"action": "INIT", "quan": self.quan}
            if self.seed is not None:
                d["srand"] = self.seed
        elif first[0] == "1":
            d = {"action": "DEAL", "hand": [words[s][5:] for s in range(4)]}
        elif drawer is not None:
            self.left[drawer] -= 1
            d = {"action": "DRAW", "player": drawer, "tile": words[drawer][1]}
        else:
            p, verb = int(first[1]), first[2]
            d = {"action": verb, "player": p}
            if verb == "CHI":
                d["tile"], d["tileCHI"] = first[4], first[3]
            elif verb == "GANG":
                answer = str(prev_resp.get(str(p), {}).get("response", "")).split()
                concealed = self.drawer == p and len(answer) == 2
                d["tile"] = answer[1] if concealed else self.last_tile
            else:
                d["tile"] = first[3]
            if verb in ("PLAY", "PENG", "CHI"):
                self.last_tile = d["tile"]
        self.drawer = drawer
        d["canHu"] = [_NOT_CHECKED] * 4
        d["tileCnt"] = list(self.left)
        return d

    def finish(self, end: Event) -> dict[str, Any]:
        scores = [int(x) for x in end.deltas] if end.deltas else [0, 0, 0, 0]
        d: dict[str, Any]
        if end.type == "hora":
            d = {"action": "HU", "player": end.actor, "fanCnt": end.han,
                 "fan": _fan_list(end), "score": scores}
        elif end.kind == "penalty":
            meta = end.meta or {}
            code = meta.get("code")
            d = {"action": code if isinstance(code, str) and code else "WA",
                 "player": end.actor, "score": scores}
            if isinstance(meta.get("fan"), int):
                d["fanCnt"] = meta["fan"]
        else:
            d = {"action": "HUANG"}
        d["canHu"] = [_NOT_CHECKED] * 4
        d["tileCnt"] = list(self.left)
        return d


def _judge(command: str, content: dict[str, Any], display: dict[str, Any]) -> dict[str, Any]:
    return {"keep_running": False,
            "output": {"command": command, "content": content, "display": display},
            "verdict": "OK"}


def botzone_export_objects(game: Game, match_id: str) -> tuple[dict[str, Any], dict[str, Any]]:
    """The lite object and the metadata object of one four-player MCR hand."""
    judge = botzone_json_object(game)  # checks: MCR, four players, one hand
    end = next(e for e in reversed(game.rounds[0]) if e.type in ("hora", "ryukyoku"))
    quan = int(judge["quan"])
    seed = judge.get("seed") if isinstance(judge.get("seed"), int) else None
    shown = _Displays(quan, seed)
    logs: list[dict[str, Any]] = []
    log = judge["log"]
    prev: dict[str, Any] = {}
    for i in range(0, len(log), 2):
        req, resp = log[i], log[i + 1]
        logs.append(_judge("request", req, shown.of(req, prev)))
        logs.append(resp)
        prev = resp
    scores = judge["scores"]
    logs.append(_judge("finish", {str(s): scores[s] for s in range(4)}, shown.finish(end)))
    init: dict[str, Any] = {"quan": quan}
    if seed is not None:
        init["srand"] = seed
    if isinstance(judge.get("walltiles"), str):
        init["walltiles"] = judge["walltiles"]
    lite: dict[str, Any] = {"status": "finished", "logs": logs}
    meta: dict[str, Any] = {"matchId": match_id, "status": "finished", "success": True}
    if game.names:
        players = [{"name": n} for n in game.names]
        lite["players"] = meta["players"] = players
    lite["initdata"] = json.dumps(init, separators=(",", ":"))
    lite["success"] = True
    meta["initdata"] = init
    meta["logRecords"] = len(logs)
    return lite, meta


def write_botzone_export(game: Game, path: str | Path) -> None:
    """Write ``X_lite.json`` and ``X_metadata.json`` for ``path`` (see :func:`export_paths`).

    Both files are complete on disk before either is moved into place; the metadata file is
    moved first, so a reader never sees a lite file whose metadata is still the old one.
    """
    lite_path, meta_path, mid = export_paths(path)
    lite, meta = botzone_export_objects(game, mid)
    write_texts_atomic([
        (meta_path, json.dumps(meta, ensure_ascii=False) + "\n"),
        (lite_path, json.dumps(lite, ensure_ascii=False) + "\n"),
    ])
