"""Records for replay and review: uploads read from memory, and the folders given at start.

Two rules keep the file system safe.  Uploaded bytes never touch the disk except through the
readers' own temporary handling, and a folder file is named by the client as *(folder index,
relative path)*; :func:`resolve_in` resolves it and refuses anything that does not stay inside
that folder once symlinks and ``..`` are resolved.  Listing is bounded so a huge folder cannot
stall the server.
"""

from __future__ import annotations

import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

from tenpai.events import Event
from tenpai.records import Game, RecordError, RecordTruncatedError, read_any
from tenpai.records.source import DEFAULT_MAX_BYTES
from tenpai.serve.web.export import hand_links
from tenpai.serve.web.labels import round_label
from tenpai.serve.web.tableview import TableView, live_wall_for
from tenpai.serve.web.timeline import HandKey, hand_key

__all__ = [
    "ARENA_SUFFIXES",
    "LoadedRecord",
    "list_folder",
    "load_bytes",
    "load_path",
    "resolve_in",
]

#: Files listed per folder at most (a folder of 100,000 logs must not stall the page).
MAX_LISTED: Final = 2000
ARENA_SUFFIXES: Final = (".sqlite", ".sqlite3", ".db")


def resolve_in(folder: Path, relative: str) -> Path | None:
    """The file ``relative`` inside ``folder``, or ``None`` when it is not a file there.

    Absolute paths, ``..`` that climbs out and symlinks that point elsewhere all give ``None``;
    the caller answers 404 and so says nothing about what exists outside.
    """
    if not relative or "\x00" in relative or relative.startswith(("/", "\\")):
        return None
    base = folder.resolve()
    try:
        target = (base / relative).resolve()
    except (OSError, RuntimeError, ValueError):
        return None
    if not target.is_relative_to(base) or not target.is_file():
        return None
    return target


def list_folder(index: int, folder: Path) -> list[dict[str, Any]]:
    """Files under a folder (recursively, sorted, at most :data:`MAX_LISTED`)."""
    base = folder.resolve()
    out: list[dict[str, Any]] = []
    if not base.is_dir():
        return out
    for p in sorted(base.rglob("*")):
        if len(out) >= MAX_LISTED:
            break
        try:
            if not p.is_file() or not p.resolve().is_relative_to(base):
                continue
            size = p.stat().st_size
        except OSError:
            continue
        rel = p.relative_to(base).as_posix()
        kind = "arena" if p.suffix.lower() in ARENA_SUFFIXES else "record"
        out.append({"folder": index, "path": rel, "size": size, "kind": kind})
    return out


@dataclass(slots=True)
class LoadedRecord:
    """A record read into memory: its games, and each game's event stream for replay."""

    name: str
    games: list[Game]
    streams: list[list[Event]] = field(default_factory=list)
    links: dict[int, dict[HandKey, str]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.streams = [g.events() for g in self.games]

    def summary(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "format": self.games[0].format if self.games else None,
            "games": [self._game_summary(i) for i in range(len(self.games))],
        }

    def _game_summary(self, i: int) -> dict[str, Any]:
        g = self.games[i]
        # each hand's tenhou.net/6 link (Riichi only), computed once per record
        links = self.links.setdefault(i, hand_links(g, g.rules.variant))
        rounds = []
        for j, e in enumerate(self.streams[i]):
            if e.type == "start_kyoku":
                label = round_label(e.bakaze or 0, e.kyoku or 0, e.honba or 0)
                rounds.append({"event": j, "label": label, "link": links.get(hand_key(e))})
        return {
            "index": i,
            "names": list(g.names),
            "variant": g.rules.variant,
            "players": g.players,
            "events": len(self.streams[i]),
            "rounds": rounds,
            "final": list(g.final_scores) if g.final_scores else None,
            "truncated": g.truncated,
        }

    def frame(self, game: int, index: int) -> dict[str, Any]:
        """The table after event ``index`` of game ``game``, every hand shown."""
        stream = self.streams[game]
        index = max(0, min(index, len(stream) - 1))
        start = 0
        for j in range(index, -1, -1):
            if stream[j].type == "start_kyoku":
                start = j
                break
        g = self.games[game]
        view = TableView(list(g.names), live_wall_for(g.rules.variant, g.players))
        for e in stream[start : index + 1]:
            view.apply(e)
        actor = stream[index].actor
        return {
            "index": index,
            "total": len(stream),
            "event": stream[index].to_mjai(),
            "table": view.snapshot(0),
            "actor": actor,
        }


def _read(path: Path, max_bytes: int) -> list[Game]:
    """All games of a record; a cut-off record gives its complete hands, marked ``truncated``.

    ``tenpai replay`` treats a truncated record the same way (it replays the hands that ended
    and says the record was cut), so the page shows what is there instead of refusing it.
    """
    try:
        return read_any(path, max_bytes=max_bytes)
    except RecordTruncatedError:
        games = [g for g in read_any(path, max_bytes=max_bytes, strict=False) if g.rounds]
        for g in games:
            g.truncated = True
        return games


def load_path(path: Path, name: str, max_bytes: int = DEFAULT_MAX_BYTES) -> LoadedRecord:
    """Read a record file; :class:`RecordError` (typed, with a message) when it is not one."""
    games = _read(path, max_bytes)
    if not games:
        raise RecordError("the file holds no game (or, cut off, not one complete hand)", name)
    return LoadedRecord(name, games)


def load_bytes(data: bytes, filename: str, max_bytes: int) -> LoadedRecord:
    """Read uploaded bytes through the same readers as files (format detected from content).

    The readers take paths (they handle gzip and encodings there), so the bytes go to a private
    temporary file that is removed at once; only the file's base name is kept, for messages
    and for the extension-based detection of formats that need it.
    """
    safe = Path(filename or "upload").name or "upload"
    suffix = "".join(c for c in Path(safe).suffix if c.isalnum() or c == ".")[:12]
    with tempfile.TemporaryDirectory(prefix="tenpai-upload-") as tmp:
        path = Path(tmp) / f"record{suffix}"
        path.write_bytes(data)
        try:
            games = _read(path, max_bytes)
        except RecordError as exc:
            raise type(exc)(exc.detail, safe, exc.where) from None
    if not games:
        raise RecordError("the file holds no game (or, cut off, not one complete hand)", safe)
    for g in games:
        g.source = safe
    return LoadedRecord(safe, games)
