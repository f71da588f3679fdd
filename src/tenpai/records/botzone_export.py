"""Botzone's own match export: ``<matchId>_lite.json`` + ``<matchId>_metadata.json`` → a Game.

A Botzone match page exports two JSON objects per match.  The *lite* file is
``{"status", "logs", "players", "initdata", …}``: the judge's outputs and the bots' responses,
alternating (read by :mod:`tenpai.records.botzone_export_log`).  The *metadata* file is
``{"matchId", "status", "players", "initdata": {"quan", "srand", "walltiles"}, …}``.

What each file gives alone:

* the lite file is the whole match — deal, every draw and action, the ending with its fan list
  and scores.  Without the metadata the match id comes from the file name and the wall from
  the lite file's own ``initdata`` when it has one (a wall is optional: replays rebuild it);
* the metadata file names the players and gives the prevalent wind, the seed and the four
  walls (hence the deal), but not one move.  It cannot form a game: read alone it raises
  :class:`NotAGameError`; beside its lite file it reads as *no games*, because the lite file
  already reads it (so a folder of pairs counts each match once).

The two files are paired by name (``X_lite.json`` ↔ ``X_metadata.json``, same extension);
a pair must agree on the players, the prevalent wind and the wall.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final, Literal

from tenpai import tiles as T
from tenpai.records.errors import (
    NotAGameError,
    RecordContentError,
    RecordSyntaxError,
    RecordTruncatedError,
)
from tenpai.records.game import Game, RuleFlags
from tenpai.records.source import DEFAULT_MAX_BYTES, read_text

if TYPE_CHECKING:
    from tenpai.records.botzone_export_log import LogReading

__all__ = [
    "EXPORT_FORMAT",
    "export_kind",
    "lite_partner",
    "metadata_partner",
    "parse_botzone_export",
    "read_botzone_export",
    "split_export_name",
]

EXPORT_FORMAT: Final = "botzone_export"
ExportKind = Literal["lite", "metadata"]

_NAME = re.compile(r"^(?P<id>.+)_(?P<kind>lite|metadata)(?P<ext>(?:\.[A-Za-z0-9]+)*)$")
#: ``"logs": [`` next to a key only Botzone's export has (mjai-manue's ``logs`` sit in events)
_LOGS = re.compile(r'"logs"\s*:\s*\[')
_EXPORT_KEYS = re.compile(r'"(?:output|initdata|matchId|keep_running)"\s*:')
_META_KEYS = re.compile(r'"(?:initdata|matchId)"\s*:')
_ANY_LOG = re.compile(r'"logs?"\s*:')
_WALL_SEAT: Final = 34  # 136 tiles, one wall of 34 per seat
_DEALT: Final = 13


def export_kind(text: str) -> ExportKind | None:
    """Whether a text is an export's lite file, its metadata file, or neither (content only)."""
    head = text.lstrip()[:4096]
    if not head.startswith("{"):
        return None
    if _LOGS.search(head) and _EXPORT_KEYS.search(head):
        return "lite"
    if _META_KEYS.search(head) and not _ANY_LOG.search(text):
        return "metadata"
    return None


def split_export_name(path: str | Path) -> tuple[str, ExportKind, str] | None:
    """``(match id, kind, extension)`` of an export file name, or None for another name."""
    m = _NAME.match(Path(str(path)).name)
    if not m:
        return None
    kind: ExportKind = "lite" if m.group("kind") == "lite" else "metadata"
    return m.group("id"), kind, m.group("ext")


def _partner(path: str | Path, want: ExportKind) -> Path | None:
    parts = split_export_name(path)
    if parts is None or parts[1] == want:
        return None
    other = Path(str(path)).with_name(f"{parts[0]}_{want}{parts[2]}")
    return other if other.is_file() else None


def metadata_partner(path: str | Path) -> Path | None:
    """The existing ``X_metadata…`` file beside a lite file ``X_lite…``."""
    return _partner(path, "metadata")


def lite_partner(path: str | Path) -> Path | None:
    """The existing ``X_lite…`` file beside a metadata file ``X_metadata…``."""
    return _partner(path, "lite")


_STRING = re.compile(r'"(?:[^"\\]|\\.)*"')


def _cut_off(text: str) -> bool:
    """Whether bad JSON looks cut short: a string left open, or brackets left unclosed."""
    bare = _STRING.sub("", text)
    if '"' in bare:
        return True
    opened = bare.count("{") + bare.count("[")
    return opened > bare.count("}") + bare.count("]")


def _load(text: str, source: str) -> dict[str, Any]:
    try:
        obj = json.loads(text)
    except json.JSONDecodeError as exc:
        where = f"line {exc.lineno}, column {exc.colno}"
        if _cut_off(text):
            raise RecordTruncatedError(f"the JSON stops early ({exc.msg}): a cut-off file",
                                       source, where) from exc
        raise RecordSyntaxError(f"bad JSON: {exc.msg}", source, where) from exc
    except RecursionError as exc:
        raise RecordSyntaxError("JSON nested too deeply", source) from exc
    if not isinstance(obj, dict):
        raise RecordContentError("a Botzone export file holds one JSON object", source)
    return obj


def _initdata(obj: dict[str, Any], source: str) -> dict[str, Any]:
    """``initdata`` as an object (the lite file stores it as a JSON string)."""
    raw = obj.get("initdata")
    if raw is None or raw == "":
        return {}
    if isinstance(raw, str):
        try:
            raw = json.loads(raw)
        except (json.JSONDecodeError, RecursionError) as exc:
            raise RecordSyntaxError("initdata is a string but not JSON", source,
                                    "initdata") from exc
    if not isinstance(raw, dict):
        raise RecordContentError("initdata is not an object", source, "initdata")
    return raw


def _names(obj: dict[str, Any], source: str) -> tuple[str, ...] | None:
    players = obj.get("players")
    if players is None:
        return None
    if not isinstance(players, list):
        raise RecordContentError("players is not a list", source, "players")
    if len(players) != 4:
        raise RecordContentError(
            f"{len(players)} players; Botzone's MCR matches have four", source, "players")
    names = []
    for i, p in enumerate(players):
        name = p.get("name") if isinstance(p, dict) else p
        if not isinstance(name, str):
            raise RecordContentError("a player without a name", source, f"players[{i}]")
        names.append(name)
    return tuple(names)


def _wall(init: dict[str, Any], source: str) -> list[str] | None:
    """The 136-tile wall of ``initdata.walltiles``; None when absent or not a full wall (the
    judge then deals from a wall of its own, so a malformed string tells nothing)."""
    raw = init.get("walltiles")
    if not isinstance(raw, str) or not raw.strip():
        return None
    names = raw.split()
    try:
        codes = [T.from_botzone(n) for n in names]
    except ValueError:
        return None
    if len(codes) != 4 * _WALL_SEAT or any(codes.count(c) != 4 for c in set(codes)):
        return None
    return names


def _check_wall(wall: list[str], reading: LogReading, source: str, where: str) -> None:
    """The judge splits the wall into four walls of 34 and deals and draws from their ends."""
    seats = [wall[s * _WALL_SEAT:(s + 1) * _WALL_SEAT][::-1] for s in range(4)]
    if reading.deal is not None:
        for s, hand in enumerate(reading.deal):
            if hand != seats[s][:_DEALT]:
                raise RecordContentError(f"seat {s}'s deal is not the top of its wall",
                                         source, where)
    drawn = [_DEALT] * 4
    for e in reading.events:
        if e.type == "tsumo" and e.actor is not None and e.pai is not None:
            s = e.actor
            if drawn[s] >= _WALL_SEAT or T.from_botzone(seats[s][drawn[s]]) != e.pai:
                raise RecordContentError(
                    f"draw {drawn[s] - _DEALT + 1} of seat {s} is not the next tile of its "
                    "wall", source, where)
            drawn[s] += 1


def _merge(lite: Any, meta: Any, what: str, source: str) -> Any:
    if lite is not None and meta is not None and lite != meta:
        raise RecordContentError(f"the metadata's {what} ({meta!r}) differ from the lite "
                                 f"file's ({lite!r})", source, what)
    return lite if lite is not None else meta


def _int_or_none(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def parse_botzone_export(
    text: str,
    source: str = "<memory>",
    *,
    strict: bool = True,
    metadata: str | None = None,
    metadata_source: str = "<metadata>",
    match_id: str | None = None,
) -> list[Game]:
    """Read a lite file's text (with its metadata file's text when there is one).

    The text of a metadata file alone raises :class:`NotAGameError`.
    """
    obj = _load(text, source)
    if "logs" not in obj:
        if export_kind(text) == "metadata" or "initdata" in obj or "matchId" in obj:
            raise NotAGameError("Botzone match metadata (players, wind, wall) holds no moves; "
                                "read the match's _lite.json log", source)
        raise RecordContentError("no 'logs': not a Botzone match log", source)
    meta = _load(metadata, metadata_source) if metadata is not None else {}
    if metadata is not None and "logs" in meta:
        raise RecordContentError("the metadata partner holds a log itself", metadata_source)
    init = _initdata(obj, source)
    meta_init = _initdata(meta, metadata_source)
    names = _merge(_names(obj, source), _names(meta, metadata_source), "players",
                   metadata_source)
    quan = _merge(_int_or_none(init.get("quan")), _int_or_none(meta_init.get("quan")),
                  "initdata.quan", metadata_source)
    if quan is not None and not 0 <= quan <= 3:
        raise RecordContentError(f"initdata.quan {quan} is not a wind 0-3", source, "initdata")
    walltiles = _merge(init.get("walltiles") or None, meta_init.get("walltiles") or None,
                       "initdata.walltiles", metadata_source)
    seed = _merge(_int_or_none(init.get("srand")), _int_or_none(meta_init.get("srand")),
                  "initdata.srand", metadata_source)
    # the log reader is imported only when an export is read: detecting one (export_kind)
    # must stay cheap, since every JSON record is tested
    from tenpai.records.botzone_export_log import read_export_logs

    reading = read_export_logs(obj["logs"], source, quan=quan)
    wall = _wall({"walltiles": walltiles}, source)
    if wall is not None:
        _check_wall(wall, reading, source, "initdata.walltiles")
    game = Game(source=source, format=EXPORT_FORMAT,
                rules=RuleFlags(variant="mcr", players=4, red_fives=False),
                names=names or ())
    mid = meta.get("matchId") if isinstance(meta.get("matchId"), str) else match_id
    extra: dict[str, Any] = {"match": mid, "walltiles": walltiles,
                             "seed": seed if seed is not None else reading.srand}
    if reading.deal is not None:
        extra["deal"] = reading.deal
    for key in ("status", "botName", "botId", "collectedAt"):
        value = meta.get(key, obj.get(key))
        if isinstance(value, str):
            extra.setdefault("botzone", {})[key] = value
    game.extra.update({k: v for k, v in extra.items() if v is not None})
    if reading.truncation is not None:
        if strict:
            raise RecordTruncatedError(f"record is truncated: {reading.truncation}", source,
                                       f"logs[{len(obj['logs'])}]")
        game.truncated = True
        game.extra["truncation"] = reading.truncation
        return [game]
    game.rounds.append(reading.events)
    game.final_scores = reading.scores
    return [game]


def read_botzone_export(
    path: str | Path,
    *,
    strict: bool = True,
    max_bytes: int = DEFAULT_MAX_BYTES,
    text: str | None = None,
) -> list[Game]:
    """One match from a lite file (merged with its metadata file when that is beside it).

    A metadata file beside its lite file gives no games (the lite file reads it); a metadata
    file alone raises :class:`NotAGameError`.
    """
    src = str(path)
    body = read_text(path, max_bytes) if text is None else text
    parts = split_export_name(path)
    if export_kind(body) == "metadata":
        if lite_partner(path) is not None:
            return []
        parse_botzone_export(body, src, strict=strict)  # raises NotAGameError (or worse)
        raise NotAGameError("Botzone match metadata without its _lite.json log", src)
    partner = metadata_partner(path)
    meta = read_text(partner, max_bytes) if partner is not None else None
    return parse_botzone_export(
        body, src, strict=strict, metadata=meta,
        metadata_source=str(partner) if partner is not None else "<metadata>",
        match_id=parts[0] if parts is not None else None,
    )
