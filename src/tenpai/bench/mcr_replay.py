"""Stored MCR arena games, replayed event by event into the four seats' hands.

The arena keeps each game's full events (``game_events``); the development tools that read
them (:mod:`tenpai.bench.mcr_danger_calibration`, :mod:`tenpai.bench.mcr_score_breakdown`)
need the same thing from them: every seat's concealed tiles and melds at any point of a hand.
This module is that one replay, so the tools do not each keep a copy of it, and the one
reading of a results file (its stored seats by game, its run settings, its games' events)
that the tools pair the replays with. The reading is not MCR's own: the Riichi point flow
(:mod:`tenpai.bench.riichi_tallies`) reads its files with it too.
"""

from __future__ import annotations

import json
import sqlite3
import sys
import zlib
from collections import defaultdict
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tenpai import tiles as T
from tenpai.arena.record import hand_seating
from tenpai.arena.store import SeatRow, open_read_only
from tenpai.events import Event
from tenpai.rules.mcr.context import Meld, MeldKind

__all__ = [
    "ResultsFileError",
    "StoredGame",
    "StoredRun",
    "TableReplay",
    "one_hand_seating",
    "stored_games",
    "stored_run",
]


@dataclass(frozen=True, slots=True)
class StoredGame:
    """One stored game: its deal and rotation (the arena's key), its events, and the results
    file it came from (for messages)."""

    deal: int
    rotation: int
    events: list[Event]
    path: str = ""


def one_hand_seating(path: str, game: StoredGame, error: Callable[[str], Exception],
                     reader: str) -> tuple[str, tuple[int, ...]]:
    """Where ``game`` is (for messages) and its seating by position (``hand_seating`` of its
    one hand): the MCR tools read Botzone's one-hand games only, and anything else is
    ``error`` naming the file, the game and ``reader`` (what cannot read it)."""
    where = f"{path}: game (deal {game.deal}, rotation {game.rotation})"
    starts = [e for e in game.events if e.type == "start_kyoku"]
    if len(starts) != 1:
        raise error(f"{where} has {len(starts)} hands; {reader} reads one-hand games "
                    "(--preset botzone)")
    return where, hand_seating(starts[0])


def _games_of(con: sqlite3.Connection, path: str,
              error: Callable[[str], Exception]) -> Iterator[StoredGame]:
    for deal, rotation, blob in con.execute(
            "SELECT deal, rotation, mjai_zlib FROM game_events ORDER BY deal, rotation"):
        try:
            lines = zlib.decompress(blob).decode().splitlines()
            events = [Event.from_mjai(json.loads(x)) for x in lines if x.strip()]
        except (zlib.error, UnicodeDecodeError, ValueError, TypeError) as exc:
            # a damaged row: EventError and JSON errors are ValueErrors
            raise error(f"{path}: game (deal {deal}, rotation {rotation}): its stored events "
                        f"do not read ({exc})") from None
        yield StoredGame(int(deal), int(rotation), events, path)


class ResultsFileError(Exception):
    """A results file a tool cannot read (missing, not SQLite, not the arena's)."""


def stored_games(paths: Sequence[str], tool: str) -> Iterator[StoredGame]:
    """Every game with stored events in the results files ``paths``, in order, each file read
    through :func:`stored_run`.

    Every file is checked (it exists, it is an arena's results file, its events table reads)
    before the first game is yielded: the tools that read games replay each through the engine
    and take minutes, and a mistyped or corrupt file late in the list should stop them at once.
    A file that cannot be read is one line ``<tool>: <file>: <why>`` on stderr and exit status
    2 (the format of :func:`~tenpai.bench.run_report_cli.print_report`), never a traceback."""
    try:
        for path in paths:
            with stored_run(path, ResultsFileError) as run:
                # the events table is checked when the first game is read; the generator is
                # dropped (and closed) at once, while its connection is still open
                next(run.games(), None)
        for path in paths:
            with stored_run(path, ResultsFileError) as run:
                yield from run.games()
    except ResultsFileError as exc:
        print(f"{tool}: {exc}", file=sys.stderr)
        raise SystemExit(2) from None


@dataclass(frozen=True, slots=True)
class StoredRun:
    """One results file open for reading (:func:`stored_run`): its stored seats by (deal,
    rotation) in seat order, its run settings (``config``), and its games, read through the
    one connection; errors are raised as the calling tool's own type (``error``)."""

    path: str
    seats: dict[tuple[int, int], list[SeatRow]]
    config: dict[str, Any]
    con: sqlite3.Connection
    error: Callable[[str], Exception]

    def games(self) -> Iterator[StoredGame]:
        """Every game with stored events, in (deal, rotation) order (while the run is open);
        a file without the events table is refused."""
        try:
            self.con.execute("SELECT deal, rotation, mjai_zlib FROM game_events LIMIT 1")
        except sqlite3.DatabaseError as exc:
            raise self.error(f"{self.path}: not a results file of tenpai arena ({exc})") from None
        yield from _games_of(self.con, self.path, self.error)


@contextmanager
def stored_run(path: str, error: Callable[[str], Exception]) -> Iterator[StoredRun]:
    """The results file ``path`` open through one read-only connection (:func:`open_read_only`)
    for as long as the ``with`` block lasts, its seats and settings read: the tools read the
    seats and then the games of a file, and one connection serves both. A missing file or one
    that is not an arena results file raises ``error`` with a message naming it."""
    if not Path(path).is_file():
        raise error(f"{path}: no such results file")
    try:
        con = open_read_only(path)
    except sqlite3.Error as exc:
        raise error(f"{path}: cannot open it ({exc})") from None
    try:
        try:
            rows = con.execute(
                "SELECT seat, agent, score, rank, hands, wins, deal_ins, riichi, calls, deal,"
                " rotation FROM seats ORDER BY deal, rotation, seat").fetchall()
            config = con.execute("SELECT config FROM run").fetchone()
        except sqlite3.DatabaseError as exc:
            raise error(f"{path}: not a results file of tenpai arena ({exc})") from None
        by_game: defaultdict[tuple[int, int], list[SeatRow]] = defaultdict(list)
        for row in rows:
            r = SeatRow(*row)
            by_game[(r.deal, r.rotation)].append(r)
        yield StoredRun(path, dict(by_game), json.loads(config[0]) if config else {}, con,
                        error)
    finally:
        con.close()



@dataclass(slots=True)
class TableReplay:
    """The table of the current hand, by table position: concealed counts, melds, the kinds
    seen face up, the prevalent wind, the dealer and how many tiles each seat has drawn.

    :meth:`apply` takes the events in order; a ``dahai`` is applied after the caller has
    looked at the hand it leaves from (the caller reads first, then applies).
    """

    counts: list[list[int]] = field(default_factory=lambda: [[0] * 34 for _ in range(4)])
    melds: list[list[Meld]] = field(default_factory=lambda: [[], [], [], []])
    visible: list[int] = field(default_factory=lambda: [0] * 34)
    draws: list[int] = field(default_factory=lambda: [0] * 4)
    prevalent: int = 0
    oya: int = 0

    def apply(self, e: Event) -> None:
        if e.type == "start_kyoku":
            self.counts = [[0] * 34 for _ in range(4)]
            self.melds = [[], [], [], []]
            self.visible = [0] * 34
            self.draws = [0] * 4
            self.prevalent = e.bakaze if isinstance(e.bakaze, int) else 0
            self.oya = e.oya or 0
            for s, h in enumerate(e.tehais):
                for t in h or ():
                    self.counts[s][T.kind_of(t)] += 1
        elif e.type == "tsumo" and e.actor is not None and e.pai is not None:
            self.counts[e.actor][T.kind_of(e.pai)] += 1
            self.draws[e.actor] += 1
        elif e.type == "dahai" and e.actor is not None and e.pai is not None:
            self.counts[e.actor][T.kind_of(e.pai)] -= 1
            self.visible[T.kind_of(e.pai)] += 1
        elif e.type in ("chi", "pon", "daiminkan") and e.actor is not None:
            a = e.actor
            for t in e.consumed:
                self.counts[a][T.kind_of(t)] -= 1
                self.visible[T.kind_of(t)] += 1
            kinds = tuple(sorted(T.kind_of(t) for t in (*e.consumed, e.pai or 0)))
            off = ((a - (e.target or 0)) % 4) or 1
            kind: MeldKind = ("chow" if e.type == "chi" else
                              "pung" if e.type == "pon" else "exposed_kong")
            self.melds[a].append(Meld(kind, kinds, 1 if e.type == "chi" else off))
        elif e.type == "ankan" and e.actor is not None:
            k = T.kind_of(e.consumed[0])
            self.counts[e.actor][k] -= 4
            self.melds[e.actor].append(Meld("concealed_kong", (k,) * 4, 0))
        elif e.type == "kakan" and e.actor is not None and e.pai is not None:
            k = T.kind_of(e.pai)
            self.counts[e.actor][k] -= 1
            self.visible[k] += 1
            self.melds[e.actor] = [Meld("promoted_kong", (k,) * 4, m.claimed_from)
                                   if m.kind == "pung" and m.base == k else m
                                   for m in self.melds[e.actor]]

    def seat_wind(self, seat: int) -> int:
        """The seat's wind (0 east ... 3 north), counted from the dealer."""
        return (seat - self.oya) % 4

    def play_to_end(self, events: Sequence[Event],
                    after: Callable[[Event], None] | None = None) -> Event | None:
        """Apply ``events`` up to the hand's end and return the ending ``hora`` or
        ``ryukyoku`` (None when the hand never ends); ``after`` sees the table after each
        event it applies."""
        for e in events:
            if e.type in ("hora", "ryukyoku"):
                return e
            self.apply(e)
            if after is not None:
                after(e)
        return None
