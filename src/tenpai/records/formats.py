"""Format detection and one entry point for reading and writing any record.

Detection looks at the content first (gzip magic, ``<mjloggm``, a JSON object with ``log``,
``Match`` lines, a judge log, a Botzone match export's ``logs`` or metadata, tenhou.net viewer
links with inline JSON) and only then at the extension, because real files come with every
extension (``.txt`` mjlogs, extension-less ones, ``.json`` mjai logs).

Each format's reader and writer is imported when a file of that format is read or written, so
replaying a folder of mjlogs never loads the Botzone or Mahjong Soul readers; detection needs
only the small content tests.
"""

from __future__ import annotations

import importlib
import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any, Final, Literal

from tenpai.records.botzone_export import export_kind
from tenpai.records.errors import RecordContentError, RecordSyntaxError, UnknownFormatError
from tenpai.records.game import Game
from tenpai.records.majsoul_read import looks_like_majsoul_export
from tenpai.records.source import DEFAULT_MAX_BYTES, read_text
from tenpai.records.tenhou6_links import has_viewer_link

__all__ = [
    "FORMATS",
    "WRITE_FORMATS",
    "Format",
    "detect_format",
    "read_any",
    "read_games",
    "write_game",
]

Format = Literal[
    "mjlog", "tenhou6", "mjai", "botzone_text", "botzone_json", "botzone_export", "majsoul"
]
FORMATS: Final = (
    "mjlog", "tenhou6", "mjai", "botzone_text", "botzone_json", "botzone_export", "majsoul"
)
WRITE_FORMATS: Final = ("mjai", "tenhou6", "mjlog", "botzone_json", "botzone_export")
#: ``botzone_export`` writes ``<stem>_lite.json`` and ``<stem>_metadata.json`` for ``<stem>.json``
SUFFIX: Final = {"mjai": ".mjson", "tenhou6": ".json", "mjlog": ".mjlog", "botzone_json": ".jsonl",
                 "botzone_export": ".json"}
#: format -> ``"module:function"`` parsing its text as ``(text, source, strict=...)``; a parser
#: of a one-game format returns a Game, the others a list (the Botzone export reads its file)
_PARSERS: Final = {
    "mjlog": "tenpai.records.mjlog_read:parse_mjlog",
    "tenhou6": "tenpai.records.tenhou6_read:parse_tenhou6",
    "mjai": "tenpai.records.mjai:parse_mjai",
    "majsoul": "tenpai.records.majsoul_read:parse_majsoul",
    "botzone_text": "tenpai.records.botzone_text:parse_botzone_text",
    "botzone_json": "tenpai.records.botzone_json:parse_botzone_json",
    "botzone_export": "tenpai.records.botzone_export:read_botzone_export",
}
_ONE_GAME: Final = frozenset({"mjlog", "tenhou6", "mjai", "majsoul"})
#: format -> ``"module:function"`` writing ``(game, path)``
_WRITERS: Final = {
    "mjai": "tenpai.records.mjai:write_mjai",
    "tenhou6": "tenpai.records.tenhou6_write:write_tenhou6",
    "mjlog": "tenpai.records.mjlog_write:write_mjlog",
    "botzone_json": "tenpai.records.botzone_json:write_botzone_json",
    "botzone_export": "tenpai.records.botzone_export_write:write_botzone_export",
}


def _load(target: str) -> Callable[..., Any]:
    """The function named ``"module:function"``, its module imported now."""
    module, _, name = target.partition(":")
    found: Callable[..., Any] = getattr(importlib.import_module(module), name)
    return found


#: ``"log": [{`` — a Botzone judge log (tenhou.net/6's log holds arrays).
_JUDGE_LOG = re.compile(r'"log"\s*:\s*\[\s*\{')


def detect_format(text: str, path: str | Path = "<memory>") -> Format:
    """The format of decoded record text; raises :class:`UnknownFormatError`."""
    head = text.lstrip()[:4096]
    if head.startswith("<mjloggm") or head.startswith("<?xml"):
        return "mjlog"
    if head.startswith("Match "):
        return "botzone_text"
    if head.startswith("{"):
        if export_kind(text) is not None:
            return "botzone_export"  # Botzone's match export: a lite log or its metadata
        if looks_like_majsoul_export(head):
            return "majsoul"
        first = head.split("\n", 1)[0]
        try:
            obj = json.loads(first)
        except (json.JSONDecodeError, RecursionError):
            obj = None
        if isinstance(obj, dict):
            log = obj.get("log")
            if ("log" in obj and "walltiles" in obj) or (
                isinstance(log, list) and log and isinstance(log[0], dict)
            ):
                return "botzone_json"
            if "log" in obj:
                return "tenhou6"
            if "type" in obj:
                return "mjai"
        if '"log"' in head and ('"walltiles"' in text[:200000] or _JUDGE_LOG.search(head)):
            return "botzone_json"
        if '"log"' in head:
            return "tenhou6"
        if '"type"' in head:
            return "mjai"
    if has_viewer_link(text):
        return "tenhou6"  # a page or note with tenhou.net viewer links carrying the JSON
    suffix = Path(str(path)).suffix.lower()
    by_suffix = {".mjlog": "mjlog", ".xml": "mjlog", ".mjson": "mjai", ".jsonl": "mjai"}
    if suffix in by_suffix:
        return by_suffix[suffix]  # type: ignore[return-value]
    raise UnknownFormatError("cannot tell the record format from content or extension", path)


def read_games(
    path: str | Path,
    *,
    fmt: Format | None = None,
    strict: bool = True,
    max_bytes: int = DEFAULT_MAX_BYTES,
) -> list[Game]:
    """Every game in a file (most formats hold one; Botzone files hold many; a Botzone
    export's metadata file beside its lite file holds none, the lite file reads both)."""
    text = read_text(path, max_bytes)
    try:
        return _parse(text, path, fmt, strict, max_bytes)
    except RecursionError as exc:
        # JSON (or markup) nested thousands deep: the parsers recurse, and no record nests so.
        raise RecordSyntaxError("nested too deeply to be a record", path) from exc


def _parse(
    text: str, path: str | Path, fmt: Format | None, strict: bool, max_bytes: int
) -> list[Game]:
    src = str(path)
    kind = fmt or detect_format(text, path)
    parse = _load(_PARSERS.get(kind, _PARSERS["botzone_json"]))
    if kind == "botzone_export":
        games: list[Game] = parse(path, strict=strict, max_bytes=max_bytes, text=text)
        return games
    if kind in _ONE_GAME:
        return [parse(text, src, strict=strict)]
    games = parse(text, src, strict=strict)
    return games


#: the rule family a written format can hold (mjai's events hold either)
_FORMAT_FAMILY: Final = {"tenhou6": "riichi", "mjlog": "riichi", "botzone_json": "mcr",
                         "botzone_export": "mcr"}


def _formats_for(variant: str) -> list[str]:
    return [f for f in WRITE_FORMATS if _FORMAT_FAMILY.get(f, variant) == variant]


#: the name other modules (the replay runner) use for :func:`read_games`
read_any = read_games


def write_game(game: Game, path: str | Path, fmt: str) -> None:
    """Write one game as mjai, tenhou6, mjlog, Botzone judge JSON or a Botzone match export
    (a lite + metadata pair), atomically.

    A format that cannot hold the game's rule family (a Riichi game as a Botzone judge log, an
    MCR game as mjlog or tenhou.net/6) is refused up front with a
    :class:`~tenpai.records.errors.RecordContentError` saying so, instead of failing inside
    the writer on the first event it has no form for.
    """
    family = _FORMAT_FAMILY.get(fmt)
    if family is not None and game.rules.variant != family:
        raise RecordContentError(
            f"{fmt} holds {family} games; this is a {game.rules.variant} game "
            f"(write it as one of {', '.join(_formats_for(game.rules.variant))})", game.source)
    writer = _WRITERS.get(fmt)
    if writer is None:
        raise ValueError(f"cannot write format {fmt!r}; choose from {', '.join(WRITE_FORMATS)}")
    _load(writer)(game, path)
