"""Who owns what: browser sessions, their games and their uploaded records, with limits.

A session is an unguessable token in a cookie.  Every game and every uploaded record belongs to
one session and is looked up by ``(session, id)``, so a second browser that guesses or steals an
id still gets a 404: nothing is shared between sessions.  Limits keep one server usable by many
people on one machine: a bound on concurrent games (server-wide and per session), on records
held per session, and an idle timeout after which games and records are dropped.
"""

from __future__ import annotations

import secrets
import threading
import time
from dataclasses import dataclass, field
from typing import Any

from tenpai.serve.web.play import PlayGame

__all__ = ["LimitError", "Limits", "Session", "SessionStore", "new_token"]


def new_token() -> str:
    """A random id for a session, a game or a record (128 bits, URL-safe)."""
    return secrets.token_urlsafe(16)


class LimitError(RuntimeError):
    """A bound was reached (too many games, too many records); the message says which."""


@dataclass(frozen=True, slots=True)
class Limits:
    """The server's bounds; the defaults suit one machine shared by a few people."""

    max_games: int = 64
    max_games_per_session: int = 4
    max_records_per_session: int = 8
    idle_seconds: float = 1800.0
    upload_bytes: int = 5 * 1024 * 1024
    max_reviews: int = 2


@dataclass(slots=True)
class Session:
    """One browser's games (finished ones stay for downloads and review) and records."""

    token: str
    games: dict[str, PlayGame] = field(default_factory=dict)
    records: dict[str, Any] = field(default_factory=dict)
    last_active: float = field(default_factory=time.monotonic)


class SessionStore:
    """All sessions of one server; thread-safe because games run in worker threads."""

    def __init__(self, limits: Limits) -> None:
        self.limits = limits
        self._sessions: dict[str, Session] = {}
        self._lock = threading.Lock()

    def session(self, token: str | None) -> Session:
        """The session for a cookie value, or a new one when it is missing or unknown."""
        with self._lock:
            self._expire_locked()
            s = self._sessions.get(token or "")
            if s is None:
                s = Session(new_token())
                self._sessions[s.token] = s
            s.last_active = time.monotonic()
            return s

    def find(self, token: str | None) -> Session | None:
        """The existing session for a cookie value (None for an unknown one)."""
        with self._lock:
            s = self._sessions.get(token or "")
            if s is not None:
                s.last_active = time.monotonic()
            return s

    def running_games(self) -> int:
        with self._lock:
            return sum(1 for s in self._sessions.values() for g in s.games.values() if not g.done)

    def add_game(self, s: Session, game: PlayGame) -> str:
        """Register a new game, or raise :class:`LimitError` when a bound is reached."""
        with self._lock:
            self._expire_locked()
            running = sum(
                1 for x in self._sessions.values() for g in x.games.values() if not g.done
            )
            if running >= self.limits.max_games:
                raise LimitError(
                    f"the server already runs {running} games (limit {self.limits.max_games})"
                )
            mine = [gid for gid, g in s.games.items() if not g.done]
            if len(mine) >= self.limits.max_games_per_session:
                raise LimitError(
                    f"this browser already has {len(mine)} games in progress "
                    f"(limit {self.limits.max_games_per_session}); finish or abandon one"
                )
            # Finished games are kept for downloads, but only the most recent few.
            finished = [gid for gid, g in s.games.items() if g.done]
            for gid in finished[: max(0, len(finished) - self.limits.max_games_per_session)]:
                del s.games[gid]
            gid = new_token()
            s.games[gid] = game
            return gid

    def add_record(self, s: Session, record: Any) -> str:
        """Keep an uploaded record; the oldest goes when the session holds too many."""
        with self._lock:
            while len(s.records) >= self.limits.max_records_per_session:
                del s.records[next(iter(s.records))]
            rid = new_token()
            s.records[rid] = record
            return rid

    def expire(self) -> int:
        """Drop idle games and sessions now; returns how many games went."""
        with self._lock:
            return self._expire_locked()

    def _expire_locked(self) -> int:
        now = time.monotonic()
        idle = self.limits.idle_seconds
        dropped = 0
        for token in list(self._sessions):
            s = self._sessions[token]
            for gid in list(s.games):
                if now - s.games[gid].last_active > idle:
                    del s.games[gid]
                    dropped += 1
            if now - s.last_active > idle and not s.games:
                del self._sessions[token]
        return dropped
