"""The durable results store: one SQLite file per run, safe to kill at any moment.

Tables (documented in docs/arena.md):

* ``run``    – one row: the run's configuration as canonical JSON, and the code version;
* ``games``  – one row per game, keyed by ``(deal, rotation)``;
* ``seats``  – one row per seat of a game: agent, final score, rank and per-hand tallies;
* ``rounds`` – one row per hand: outcome, point changes, riichi declarations, calls, deal-in;
* ``wins``   – one row per win of a hand (a double ron has two): winner, discarder, points, han;
* ``protocol`` – external (``mjai:``) seats only: decisions asked and protocol errors by kind.

Each game is written in a single transaction, and the primary key ``(deal, rotation)`` makes a
second copy impossible, so a run killed mid-write loses at most the game in flight and a rerun
plays exactly the missing keys.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator, Mapping
from contextlib import closing
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tenpai.arena.games import ArenaConfigError
from tenpai.arena.record import GameRecord
from tenpai.arena.schedule import GameKey

__all__ = ["ConfigMismatchError", "ResultsStore", "RunConfig", "SeatRow"]

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
"""


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

    def to_json(self) -> str:
        return json.dumps(
            {
                "rules": self.rules,
                "agents": list(self.agents),
                "games": self.games,
                "seed": self.seed,
                "options": dict(sorted(self.options.items())),
            },
            sort_keys=True,
        )

    @classmethod
    def from_json(cls, text: str) -> RunConfig:
        d = json.loads(text)
        return cls(d["rules"], tuple(d["agents"]), int(d["games"]), int(d["seed"]), d["options"])


@dataclass(frozen=True, slots=True)
class SeatRow:
    """One seat of one stored game, as the statistics read it."""

    deal: int
    rotation: int
    seat: int
    agent: str
    score: int
    rank: int
    hands: int
    wins: int
    deal_ins: int
    riichi: int
    calls: int


def _flags(values: list[bool]) -> str:
    return ",".join(str(s) for s, v in enumerate(values) if v)


class ResultsStore:
    """A SQLite results file (``":memory:"`` for a throw-away run)."""

    def __init__(self, path: str | Path) -> None:
        self.path = str(path)
        if self.path != ":memory:":
            Path(self.path).parent.mkdir(parents=True, exist_ok=True)
        self._conn = sqlite3.connect(self.path, isolation_level=None)
        self._conn.execute("PRAGMA foreign_keys = ON")
        if self.path != ":memory:":
            # WAL: a killed writer never leaves a half-written game; NORMAL sync is durable
            # against a killed process (only an OS crash can lose the last commits).
            self._conn.execute("PRAGMA journal_mode = WAL")
            self._conn.execute("PRAGMA synchronous = NORMAL")
        self._conn.executescript(_SCHEMA)

    def close(self) -> None:
        self._conn.close()

    def __enter__(self) -> ResultsStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # ------------------------------------------------------------------ configuration
    def config(self) -> RunConfig | None:
        row = self._conn.execute("SELECT config FROM run WHERE id = 1").fetchone()
        return None if row is None else RunConfig.from_json(row[0])

    def begin_run(self, config: RunConfig) -> None:
        """Record the configuration, or check that it matches the stored one."""
        from tenpai import __version__

        stored = self.config()
        if stored is None:
            self._conn.execute(
                "INSERT INTO run (id, schema_version, config, tenpai_version) VALUES (1, ?, ?, ?)",
                (SCHEMA_VERSION, config.to_json(), __version__),
            )
            return
        if stored.to_json() != config.to_json():
            old, new = json.loads(stored.to_json()), json.loads(config.to_json())
            diffs = [f"{k}: stored {old[k]!r}, asked {new[k]!r}" for k in old if old[k] != new[k]]
            raise ConfigMismatchError(
                f"{self.path} holds a different run ({'; '.join(diffs)}); "
                "rerun with the stored settings to resume it, or use another --db file"
            )

    # ------------------------------------------------------------------ games
    def done_keys(self) -> set[GameKey]:
        return {GameKey(d, r) for d, r in self._conn.execute("SELECT deal, rotation FROM games")}

    def game_count(self) -> int:
        return int(self._conn.execute("SELECT COUNT(*) FROM games").fetchone()[0])

    def add_game(self, g: GameRecord) -> None:
        """Write one game and everything under it in a single transaction."""
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
            for p in g.protocol:
                rows = [("decisions", p.decisions, ""), *p.errors]
                c.executemany(
                    "INSERT INTO protocol VALUES (?,?,?,?,?,?,?)",
                    [(d, r, p.seat, p.agent, k, n, ex) for k, n, ex in rows],
                )
            c.execute("COMMIT")
        except BaseException:
            c.execute("ROLLBACK")
            raise

    def seat_rows(self) -> list[SeatRow]:
        rows = self._conn.execute(
            "SELECT deal, rotation, seat, agent, score, rank, hands, wins, deal_ins, riichi, calls"
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
