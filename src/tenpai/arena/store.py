"""The durable results store: one SQLite file per run, safe to kill at any moment.

Tables (documented in docs/arena.md):

* ``run``    – one row: the run's configuration as canonical JSON, and the code version;
* ``games``  – one row per game, keyed by ``(deal, rotation)``;
* ``seats``  – one row per seat of a game: agent, final score, rank and per-hand tallies;
* ``rounds`` – one row per hand: outcome, point changes, riichi declarations, calls, deal-in;
* ``wins``   – one row per win of a hand (a double ron has two): winner, discarder, points, han;
* ``protocol`` – external (``mjai:``) seats only: decisions asked and protocol errors by kind;
* ``game_events`` – one row per game: its events as compressed mjai lines (for its records).

Each game is written in a single transaction, and the primary key ``(deal, rotation)`` makes a
second copy impossible, so a run killed mid-write loses at most the game in flight and a rerun
plays exactly the missing keys.  A run holds an exclusive lock on its file while it plays
(:meth:`ResultsStore.begin_run`), so a second run on the same file stops at once with a clear
error instead of racing the first for the same keys.  A path that is a folder, a file that is not
SQLite, or an SQLite file of something else is refused with a :class:`StoreError` naming it.

A report only reads: ``ResultsStore(path, read_only=True)`` opens the file through
:func:`open_read_only` and never writes to it (no tables created, no journal mode set, a
missing file not created), so it reads a file in a read-only folder or one being played into.
"""

from __future__ import annotations

import json
import os
import sqlite3
import urllib.parse
from collections.abc import Iterator, Mapping
from contextlib import closing, suppress
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tenpai.arena.games import ArenaConfigError
from tenpai.arena.record import GameRecord, SeatRecord
from tenpai.arena.schedule import GameKey

__all__ = [
    "ConfigMismatchError",
    "ResultsStore",
    "RunConfig",
    "SeatRow",
    "StoreBusyError",
    "StoreError",
    "open_read_only",
]

SCHEMA_VERSION = 1

_SCHEMA = """
CREATE TABLE IF NOT EXISTS run (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    schema_version INTEGER NOT NULL,
    config TEXT NOT NULL,
    tenpai_version TEXT NOT NULL,
    created TEXT NOT NULL DEFAULT (datetime('now'))
);
CREATE TABLE IF NOT EXISTS games (
    deal INTEGER NOT NULL,
    rotation INTEGER NOT NULL,
    wall_seed INTEGER NOT NULL,
    hands INTEGER NOT NULL,
    seconds REAL NOT NULL,
    finished TEXT NOT NULL DEFAULT (datetime('now')),
    PRIMARY KEY (deal, rotation)
);
CREATE TABLE IF NOT EXISTS seats (
    deal INTEGER NOT NULL,
    rotation INTEGER NOT NULL,
    seat INTEGER NOT NULL,
    agent TEXT NOT NULL,
    score INTEGER NOT NULL,
    rank INTEGER NOT NULL,
    hands INTEGER NOT NULL,
    wins INTEGER NOT NULL,
    deal_ins INTEGER NOT NULL,
    riichi INTEGER NOT NULL,
    calls INTEGER NOT NULL,
    PRIMARY KEY (deal, rotation, seat),
    FOREIGN KEY (deal, rotation) REFERENCES games (deal, rotation)
);
CREATE TABLE IF NOT EXISTS rounds (
    deal INTEGER NOT NULL,
    rotation INTEGER NOT NULL,
    hand INTEGER NOT NULL,
    bakaze INTEGER NOT NULL,
    kyoku INTEGER NOT NULL,
    honba INTEGER NOT NULL,
    outcome TEXT NOT NULL,
    draw_kind TEXT,
    delta0 INTEGER NOT NULL, delta1 INTEGER NOT NULL,
    delta2 INTEGER NOT NULL, delta3 INTEGER NOT NULL,
    riichi TEXT NOT NULL,
    called TEXT NOT NULL,
    deal_in INTEGER,
    PRIMARY KEY (deal, rotation, hand),
    FOREIGN KEY (deal, rotation) REFERENCES games (deal, rotation)
);
CREATE TABLE IF NOT EXISTS wins (
    deal INTEGER NOT NULL,
    rotation INTEGER NOT NULL,
    hand INTEGER NOT NULL,
    winner INTEGER NOT NULL,
    from_seat INTEGER,
    points INTEGER NOT NULL,
    han INTEGER,
    fu INTEGER,
    PRIMARY KEY (deal, rotation, hand, winner),
    FOREIGN KEY (deal, rotation, hand) REFERENCES rounds (deal, rotation, hand)
);
CREATE TABLE IF NOT EXISTS protocol (
    deal INTEGER NOT NULL,
    rotation INTEGER NOT NULL,
    seat INTEGER NOT NULL,
    agent TEXT NOT NULL,
    kind TEXT NOT NULL,
    count INTEGER NOT NULL,
    example TEXT NOT NULL,
    PRIMARY KEY (deal, rotation, seat, kind),
    FOREIGN KEY (deal, rotation) REFERENCES games (deal, rotation)
);
CREATE TABLE IF NOT EXISTS game_events (
    deal INTEGER NOT NULL,
    rotation INTEGER NOT NULL,
    mjai_zlib BLOB NOT NULL,
    PRIMARY KEY (deal, rotation),
    FOREIGN KEY (deal, rotation) REFERENCES games (deal, rotation)
);
"""


#: Each table's CREATE statement by name: a reader of a file written before a table existed
#: (``protocol``, ``game_events``) sees it empty, as a writer would have created it.
_CREATE = {stmt.split("(", 1)[0].split()[-1]: stmt
           for stmt in (part.strip() for part in _SCHEMA.split(";")) if stmt}

#: The tables of a results file; an SQLite file holding other tables is not one.
_TABLES = frozenset(_CREATE)


def open_read_only(path: str | Path) -> sqlite3.Connection:
    """A read-only connection to the results file ``path`` (``mode=ro``: nothing is ever
    written to the file, not even its journal mode).

    A ``mode=ro`` reader of a WAL database maps its ``-shm`` file (creating it and an empty
    ``-wal`` if they are missing) and writes its read marks there, so the ``-shm`` file's time
    changes; the database's own bytes and time do not (seen on a copy of a session-30 run).
    ``immutable=1`` is not used in general, because it tells SQLite that the file never
    changes while open: SQLite then reads the main file alone, without locks and without the
    write-ahead log. An arena keeps its connection open for the whole run, and the games it
    has committed but not yet checkpointed are only in ``-wal``, so an immutable reader of a
    running arena misses its latest games, and a checkpoint during the read can change pages
    under it. ``tests/bench/test_read_only_results.py`` checks that a reader sees what a live
    writer has committed, and nothing it has not (the check fails with ``immutable=1``).

    The one exception is a WAL file in a folder this process cannot write, with no ``-wal``
    beside it: ``mode=ro`` cannot create the ``-shm`` file and SQLite refuses to read
    (``SQLITE_READONLY_DIRECTORY``). No arena can be playing into that file, nor start to
    between the check and the read (a WAL writer needs its ``-wal``, which cannot be created
    there), so it is read ``immutable=1``; in a writable folder that two-step check would not
    be safe (an arena resumed in between would write under the immutable reader). Any
    other problem (not a database, say) is left to the caller's first query, which names it
    as the caller names such files. The path is %-quoted: a ``?`` or ``#`` in a file name is
    part of the name, not of the URI."""
    uri = f"file:{urllib.parse.quote(str(path))}?mode=ro"
    con = sqlite3.connect(uri, uri=True)
    try:
        con.execute("SELECT COUNT(*) FROM sqlite_master").fetchone()
    except sqlite3.DatabaseError as exc:
        if (getattr(exc, "sqlite_errorname", "") == "SQLITE_READONLY_DIRECTORY"
                and not Path(f"{path}-wal").exists()):
            con.close()
            return sqlite3.connect(f"{uri}&immutable=1", uri=True)
    return con


class StoreError(ArenaConfigError, sqlite3.DatabaseError):
    """The results file cannot be used (a folder, not SQLite, another program's database);
    the message names the file.  Also an ``sqlite3.DatabaseError`` for callers that catch those."""


class StoreBusyError(StoreError):
    """Another run is playing into the same results file right now."""


class ConfigMismatchError(ArenaConfigError):
    """The database holds a different run; resuming it with other settings would mix results."""


@dataclass(frozen=True, slots=True)
class RunConfig:
    """What defines a run: the same config always plays the same games."""

    rules: str
    agents: tuple[str, ...]
    games: int
    seed: int
    options: Mapping[str, str]
    #: Agent name -> what it played beyond its name (model file fingerprint, settings from the
    #: environment), for the agents whose name alone does not say; empty for rule agents.
    players: Mapping[str, str] = field(default_factory=dict)
    #: How seats change within a deal set (:data:`tenpai.arena.schedule.SEATINGS`).
    seating: str = "rotations"
    #: What a Botzone seat's counted error does (:data:`tenpai.arena.record.SEAT_ERRORS`).
    seat_errors: str = "substitute"

    def to_json(self) -> str:
        d: dict[str, Any] = {
            "rules": self.rules,
            "agents": list(self.agents),
            "games": self.games,
            "seed": self.seed,
            "options": dict(sorted(self.options.items())),
        }
        if self.players:  # absent when empty: runs stored before it existed still resume
            d["players"] = dict(sorted(self.players.items()))
        if self.seating != "rotations":  # absent for the default: older runs still resume
            d["seating"] = self.seating
        if self.seat_errors != "substitute":  # likewise
            d["seat_errors"] = self.seat_errors
        return json.dumps(d, sort_keys=True)

    @classmethod
    def from_json(cls, text: str) -> RunConfig:
        d = json.loads(text)
        return cls(d["rules"], tuple(d["agents"]), int(d["games"]), int(d["seed"]), d["options"],
                   d.get("players", {}), str(d.get("seating", "rotations")),
                   str(d.get("seat_errors", "substitute")))


@dataclass(frozen=True, slots=True)
class SeatRow(SeatRecord):
    """One seat of one stored game, as the statistics read it: the seat's record of the game
    as it was played, and the game's key."""

    deal: int
    rotation: int


def _flags(values: list[bool]) -> str:
    return ",".join(str(s) for s, v in enumerate(values) if v)


class ResultsStore:
    """A SQLite results file (``":memory:"`` for a throw-away run).

    ``read_only=True`` for a caller that only reads (reports, summaries, pooling, saving the
    records of a finished run): the file must exist already (else a :class:`StoreError`
    naming it, and nothing created), it is opened through :func:`open_read_only` and nothing
    is written to it, so a file or folder without write permission reads the same, the
    journal mode stays what it was, and games a running arena has committed are seen."""

    def __init__(self, path: str | Path, *, read_only: bool = False) -> None:
        self.path = str(path)
        self.read_only = read_only
        self._lock_fd: int | None = None
        if read_only:
            self._conn = self._connect_read_only()
        else:
            self._conn = self._connect()
        try:
            self._open()
        except sqlite3.DatabaseError as exc:
            self._conn.close()
            if isinstance(exc, StoreError):
                raise
            if "not a database" in str(exc):
                raise StoreError(f"{self.path} is not an SQLite database (not a results "
                                 "file of tenpai arena)") from None
            raise StoreError(f"cannot use {self.path}: {exc}") from None

    def _connect(self) -> sqlite3.Connection:
        """A read-write connection, creating the file and its folder if missing."""
        if self.path != ":memory:":
            where = Path(self.path)
            if where.is_dir():
                raise StoreError(f"{self.path} is a folder, not a results file")
            try:
                where.parent.mkdir(parents=True, exist_ok=True)
            except OSError as exc:
                raise StoreError(f"cannot create the folder of {self.path}: "
                                 f"{exc.strerror or exc}") from None
        try:
            return sqlite3.connect(self.path, isolation_level=None, timeout=10)
        except sqlite3.Error as exc:
            raise StoreError(f"cannot open {self.path}: {exc}") from None

    def _connect_read_only(self) -> sqlite3.Connection:
        """A connection that never writes to the file (:func:`open_read_only`); a path that
        is not an existing file is refused here, before SQLite could create it."""
        if self.path == ":memory:":
            raise StoreError(":memory: is a throw-away store, there is no results file to read")
        where = Path(self.path)
        if where.is_dir():
            raise StoreError(f"{self.path} is a folder, not a results file")
        if not where.exists():
            raise StoreError(f"{self.path} does not exist")
        if not where.is_file():
            raise StoreError(f"{self.path} is not a file")
        try:
            return open_read_only(self.path)
        except sqlite3.Error as exc:
            raise StoreError(f"cannot open {self.path}: {exc}") from None

    def _open(self) -> None:
        tables = {r[0] for r in self._conn.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table'")
            if not r[0].startswith("sqlite_")}
        foreign = sorted(tables - _TABLES)
        if tables and "run" not in tables:  # the run table is always created first
            foreign = sorted(tables)
        if foreign:  # never add our tables to another program's database
            raise StoreError(f"{self.path} is an SQLite database of something else "
                             f"(tables {', '.join(foreign)}), not a results file of tenpai arena")
        if self.read_only:
            # The tables of a file written before they existed, empty, in this connection's
            # own temporary schema: nothing reaches the file.
            for name in sorted(_TABLES - tables):
                self._conn.execute(_CREATE[name].replace(
                    "CREATE TABLE IF NOT EXISTS", "CREATE TEMP TABLE", 1))
            return
        self._conn.execute("PRAGMA foreign_keys = ON")
        if self.path != ":memory:":
            # WAL: a killed writer never leaves a half-written game; NORMAL sync is durable
            # against a killed process (only an OS crash can lose the last commits).
            self._conn.execute("PRAGMA journal_mode = WAL")
            self._conn.execute("PRAGMA synchronous = NORMAL")
        self._conn.executescript(_SCHEMA)

    def close(self) -> None:
        self._conn.close()
        if self._lock_fd is not None:
            os.close(self._lock_fd)  # closing the descriptor releases the run lock
            self._lock_fd = None

    def _lock_run(self) -> None:
        """Hold an exclusive lock on the file while this run plays into it.

        ``flock`` on the results file itself: the kernel drops it when the process ends, even
        killed, so a crashed run never leaves a stale lock behind (a rerun resumes at once);
        it does not touch SQLite's own byte-range locks.  Without ``fcntl`` (Windows) there
        is no lock and two runs must not share a file.
        """
        if self.path == ":memory:" or self._lock_fd is not None:
            return
        try:
            import fcntl
        except ImportError:
            return
        fd = os.open(self.path, os.O_RDONLY)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(fd)
            raise StoreBusyError(
                f"{self.path} is in use by another arena run right now; wait for it to end "
                "(or stop it), then run again to resume, or use another --db file"
            ) from None
        self._lock_fd = fd

    def __enter__(self) -> ResultsStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # ------------------------------------------------------------------ configuration
    def config(self) -> RunConfig | None:
        """The stored run, or ``None``; a :class:`StoreError` naming the file when the stored
        configuration is not one (edited by hand, or another program's row)."""
        row = self._conn.execute("SELECT config FROM run WHERE id = 1").fetchone()
        if row is None:
            return None
        try:
            config = RunConfig.from_json(row[0])
            if not (isinstance(config.rules, str) and isinstance(config.options, dict)
                    and all(isinstance(a, str) for a in config.agents)
                    and all(isinstance(k, str) and isinstance(v, str)
                            for k, v in config.options.items())
                    and isinstance(config.players, dict)):
                raise TypeError("fields of the wrong type")
        except (ValueError, TypeError, KeyError, AttributeError) as exc:
            raise StoreError(f"{self.path}: its run configuration is not a valid run "
                             f"({type(exc).__name__}: {str(exc)[:80]})") from None
        return config

    def check_columns(self) -> None:
        """Raise :class:`StoreError` when a numeric column holds something else (text where a
        score should be): SQLite stores whatever it is given, and the statistics would fail
        deep inside with a ``TypeError``.  One scan of each table."""
        for table in sorted(_TABLES):
            checks = []
            for _cid, name, kind, notnull, _default, _pk in self._conn.execute(
                f"PRAGMA table_info({table})"
            ):
                allowed = {"INTEGER": "'integer'", "REAL": "'integer', 'real'"}.get(kind)
                if allowed is None:
                    continue
                if not notnull:
                    allowed += ", 'null'"
                checks.append(f"SUM(typeof({name}) NOT IN ({allowed}))")
            if not checks:
                continue
            row = self._conn.execute(f"SELECT {', '.join(checks)} FROM {table}").fetchone()
            columns = [n for n, k in ((c[1], c[2]) for c in self._conn.execute(
                f"PRAGMA table_info({table})")) if k in ("INTEGER", "REAL")]
            bad = [c for c, n in zip(columns, row, strict=True) if n]
            if bad:
                raise StoreError(f"{self.path}: table {table} holds values that are not numbers "
                                 f"in column {', '.join(bad)}; not a results file tenpai wrote")

    def begin_run(self, config: RunConfig, extend: bool = False) -> None:
        """Record the configuration, or check that it matches the stored one; from here on
        this store holds the run's lock (:class:`StoreBusyError` if another run has it).

        ``extend``: a stored run whose settings differ only by fewer games takes this
        configuration's count: a deal's wall and seeds come from the run seed and the deal's
        number alone, so the games already stored are the first games of the longer run, and
        only the new ones are played."""
        from tenpai import __version__

        self._check_writable()
        self._lock_run()
        stored = self.config()
        if stored is None:
            try:
                self._conn.execute(
                    "INSERT INTO run (id, schema_version, config, tenpai_version) "
                    "VALUES (1, ?, ?, ?)",
                    (SCHEMA_VERSION, config.to_json(), __version__),
                )
            except sqlite3.Error as exc:
                raise self._write_error(exc, "the run configuration") from None
            return
        if stored.to_json() != config.to_json():
            old, new = json.loads(stored.to_json()), json.loads(config.to_json())
            changed = [k for k in sorted(old.keys() | new.keys()) if old.get(k) != new.get(k)]
            if extend and changed == ["games"] and config.games > stored.games:
                try:
                    self._conn.execute("UPDATE run SET config = ? WHERE id = 1",
                                       (config.to_json(),))
                except sqlite3.Error as exc:
                    raise self._write_error(exc, "the run configuration") from None
                return
            diffs = [f"{k}: stored {old.get(k)!r}, asked {new.get(k)!r}" for k in changed]
            if extend and changed == ["games"]:
                raise ConfigMismatchError(
                    f"{self.path} holds a run of {stored.games} games; --extend needs more games "
                    f"than that, asked {config.games}")
            hint = ("; --extend changes only the number of games" if extend else
                    "; rerun with the stored settings to resume it, or use another --db file"
                    + (", or --extend to play it on to more games" if changed == ["games"]
                       and config.games > stored.games else ""))
            raise ConfigMismatchError(
                f"{self.path} holds a different run ({'; '.join(diffs)}){hint}"
            )

    # ------------------------------------------------------------------ games
    def done_keys(self) -> set[GameKey]:
        return {GameKey(d, r) for d, r in self._conn.execute("SELECT deal, rotation FROM games")}

    def game_count(self) -> int:
        return int(self._conn.execute("SELECT COUNT(*) FROM games").fetchone()[0])

    def add_game(self, g: GameRecord) -> None:
        """Write one game and everything under it in a single transaction."""
        self._check_writable()
        c = self._conn
        d, r = g.key
        c.execute("BEGIN IMMEDIATE")
        try:
            c.execute(
                "INSERT INTO games (deal, rotation, wall_seed, hands, seconds) VALUES (?,?,?,?,?)",
                (d, r, _signed(g.seed), len(g.hands), g.seconds),
            )
            c.executemany(
                "INSERT INTO seats VALUES (?,?,?,?,?,?,?,?,?,?,?)",
                [
                    (
                        d,
                        r,
                        s.seat,
                        s.agent,
                        s.score,
                        s.rank,
                        s.hands,
                        s.wins,
                        s.deal_ins,
                        s.riichi,
                        s.calls,
                    )
                    for s in g.seats
                ],
            )
            for h in g.hands:
                c.execute(
                    "INSERT INTO rounds VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
                    (
                        d,
                        r,
                        h.index,
                        h.bakaze,
                        h.kyoku,
                        h.honba,
                        h.outcome,
                        h.draw_kind,
                        *h.deltas,
                        _flags(h.riichi),
                        _flags(h.called),
                        h.deal_in,
                    ),
                )
                c.executemany(
                    "INSERT INTO wins VALUES (?,?,?,?,?,?,?,?)",
                    [(d, r, h.index, w.winner, w.from_seat, w.points, w.han, w.fu) for w in h.wins],
                )
            if g.events:
                c.execute("INSERT INTO game_events VALUES (?,?,?)", (d, r, g.events))
            for p in g.protocol:
                rows = [("decisions", p.decisions, ""), *p.errors]
                c.executemany(
                    "INSERT INTO protocol VALUES (?,?,?,?,?,?,?)",
                    [(d, r, p.seat, p.agent, k, n, ex) for k, n, ex in rows],
                )
            c.execute("COMMIT")
        except BaseException as exc:
            # SQLite has already rolled back after some errors (a full disk among them): a
            # second ROLLBACK would fail and hide the cause behind "no transaction is active".
            if c.in_transaction:
                with suppress(sqlite3.Error):
                    c.execute("ROLLBACK")
            if isinstance(exc, sqlite3.OperationalError):  # a full disk, an I/O error
                raise self._write_error(exc, f"game {d}/{r}") from None
            raise

    def _check_writable(self) -> None:
        if self.read_only:
            raise StoreError(f"{self.path} is open read-only here; a run writes through "
                             "ResultsStore(path) without read_only")

    def _write_error(self, exc: sqlite3.Error, what: str) -> StoreError:
        """A failed write as one line naming the file and the cause (e.g. "database or disk
        is full"); everything committed before it is kept, so the run resumes."""
        return StoreError(
            f"cannot write {what} to {self.path}: {exc}; the games stored before it are kept: "
            "fix that, then run the same command again to resume"
        )

    def game_events(self, key: GameKey) -> bytes | None:
        """The stored events of a game (see :mod:`tenpai.arena.saved`); ``None`` for a game
        stored by a tenpai that did not keep them."""
        row = self._conn.execute(
            "SELECT mjai_zlib FROM game_events WHERE deal = ? AND rotation = ?", tuple(key)
        ).fetchone()
        return None if row is None else bytes(row[0])

    def seat_rows(self) -> list[SeatRow]:
        rows = self._conn.execute(
            "SELECT seat, agent, score, rank, hands, wins, deal_ins, riichi, calls, deal, rotation"
            " FROM seats ORDER BY deal, rotation, seat"
        )
        return [SeatRow(*row) for row in rows]

    def protocol_counts(self) -> dict[str, dict[str, int]]:
        """External (``mjai:``) seats: per agent, decisions asked and errors by kind."""
        out: dict[str, dict[str, int]] = {}
        for agent, kind, n in self._conn.execute(
            "SELECT agent, kind, SUM(count) FROM protocol GROUP BY agent, kind ORDER BY agent, kind"
        ):
            out.setdefault(agent, {})[kind] = int(n)
        return out

    def query(self, sql: str, params: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
        """Read-only access for reports and tests."""
        with closing(self._conn.cursor()) as cur:
            yield from cur.execute(sql, params)


def _signed(seed: int) -> int:
    """SQLite integers are signed 64-bit: store a 64-bit seed in two's complement."""
    seed &= 0xFFFF_FFFF_FFFF_FFFF
    return seed - (1 << 64) if seed >= 1 << 63 else seed
