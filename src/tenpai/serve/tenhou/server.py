"""The table server: accepts Tenhou clients, seats joiners at tables, plays and saves games.

Lobby flow (as tenhou.net, without accounts): the client sends ``HELO name=…``; the server
answers ``HELO uname=… auth=… PF4=…`` (an ``AUTH`` reply is accepted and not checked), ``PXR``
gets ``LN``, and ``JOIN t="lobby,type"`` puts the client in the queue.  As soon as the queue
holds as many clients as the table has open seats (four — three under a three-player preset —
minus the ``fill`` agents), a table
starts: the clients, sorted by name, are shuffled into seats with the game's seed, each
client gets ``GO``, ``UN`` and ``TAIKYOKU``, then the game (:mod:`.table`).  A ``HELO`` with
the name of a seat whose client went away during a game is a reconnection:
``GO``/``UN``/``TAIKYOKU`` at once, ``REINIT`` when the table reaches its next step.  Anything
else during the handshake drops the connection.

The server never dies with a client: every connection's errors stay in its handler, every
table's in its task (a table that fails is reported, not re-raised), and :meth:`serve` stops
after ``games`` finished games (or runs until cancelled when ``games`` is 0).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import quote, unquote

from tenpai.agents.registry import make_agent
from tenpai.agents.rulesets import check_built_agent
from tenpai.serve.tenhou.connection import CLOSED, Connection
from tenpai.serve.tenhou.record import append_jsonl, save_game, summary
from tenpai.serve.tenhou.table import TableConfig, TableResult, TenhouTable
from tenpai.serve.tenhou.wire import Tag, WireError, format_tag

__all__ = ["ServerConfig", "TableServer", "run_server"]

log = logging.getLogger("tenpai.tenhou")

#: Seconds a client has for each handshake message.
HANDSHAKE_TIMEOUT = 60.0


@dataclass(slots=True)
class ServerConfig:
    host: str = "127.0.0.1"
    port: int = 10080
    games: int = 1
    fill: Sequence[str] = ()
    seed: int = 0
    save: Path | None = None
    table: TableConfig = field(default_factory=TableConfig)


class TableServer:
    """See the module docstring.  ``on_event`` (optional) is told about lobby events."""

    def __init__(self, config: ServerConfig,
                 on_event: Callable[[str, dict[str, Any]], None] | None = None) -> None:
        players = config.table.rules.players
        if len(config.fill) > players - 1:
            raise ValueError(f"at most {players - 1} seats can be filled with built-in agents "
                             f"at a {players}-player table")
        for name in config.fill:  # fail now, not when the first table starts
            check_built_agent(name, make_agent(name, 0), "riichi", players)
        self.config = config
        self.on_event = on_event or (lambda kind, info: None)
        self.waiting: list[Connection] = []
        self.tables: list[TenhouTable] = []
        self.started = 0
        self.results: list[dict[str, Any]] = []
        self.failures: list[str] = []
        self._tasks: set[asyncio.Task[Any]] = set()
        self._done = asyncio.Event()
        self._server: asyncio.Server | None = None
        self.port = config.port

    @property
    def open_seats(self) -> int:
        return self.config.table.rules.players - len(self.config.fill)

    async def start(self) -> None:
        self._server = await asyncio.start_server(self._handle, self.config.host,
                                                  self.config.port)
        self.port = self._server.sockets[0].getsockname()[1]
        self.on_event("listening", {"host": self.config.host, "port": self.port})

    async def serve(self) -> list[dict[str, Any]]:
        """Run until ``games`` games finished; their summaries."""
        if self._server is None:
            await self.start()
        try:
            await self._done.wait()
        finally:
            await self.stop()
        return self.results

    async def stop(self) -> None:
        if self._server is not None:
            self._server.close()
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self._server.wait_closed(), 5.0)
        for conn in self.waiting:
            await conn.close()
        for task in list(self._tasks):
            task.cancel()
        for task in list(self._tasks):
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task

    # ------------------------------------------------------------------ connections
    async def _handle(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        conn = Connection(reader, writer)
        task = asyncio.current_task()
        if task is not None:
            self._tasks.add(task)
        try:
            await self._handshake(conn)
        except Exception as exc:  # a client must never take the server down
            log.warning("client %s: %s", conn.address, exc)
            await conn.close()
        finally:
            if task is not None:
                self._tasks.discard(task)

    async def _next(self, conn: Connection) -> Tag | None:
        """The next handshake message (keep-alives skipped); None after closing a client that
        went away, timed out or sent garbage."""
        while True:
            try:
                item = await conn.next(HANDSHAKE_TIMEOUT)
            except TimeoutError:
                item = CLOSED
            if isinstance(item, Tag) and item.name == "Z":
                continue
            if item is CLOSED or isinstance(item, WireError):
                self.on_event("dropped", {"address": conn.address, "reason": str(item)})
                await conn.close()
                return None
            assert isinstance(item, Tag)
            return item

    async def _handshake(self, conn: Connection) -> None:
        tag = await self._next(conn)
        if tag is None:
            return
        if tag.name != "HELO":
            await self._refuse(conn, f"<{tag.name}> before HELO")
            return
        conn.name = unquote(tag.get("name", "NoName") or "NoName")[:64]
        for table in self.tables:
            seat = table.away_seat(conn.name)
            if seat is not None:
                conn.send(table.welcome_back(seat))
                table.reattach(seat, conn)
                self.on_event("reconnected", {"name": conn.name, "seat": seat})
                return
        conn.send([format_tag("HELO", {"uname": quote(conn.name), "auth": "20250101-00000000",
                                       "PF4": "9,50,1000.00,-2000.0,0,0,0,0,0,0,0,0"})])
        while True:
            tag = await self._next(conn)
            if tag is None:
                return
            if tag.name == "AUTH":
                continue
            if tag.name == "PXR":
                conn.send([format_tag("LN", {"n": "0", "j": "0", "g": "0"})])
                continue
            if tag.name == "BYE":
                await conn.close()
                return
            if tag.name == "JOIN":
                break
            await self._refuse(conn, f"<{tag.name}> in the lobby")
            return
        self.waiting.append(conn)
        self.on_event("joined", {"name": conn.name, "waiting": len(self.waiting)})
        self._match()

    async def _refuse(self, conn: Connection, why: str) -> None:
        self.on_event("dropped", {"address": conn.address, "reason": why})
        await conn.close()

    # ------------------------------------------------------------------ tables
    def _match(self) -> None:
        limit = self.config.games
        while True:
            self.waiting = [c for c in self.waiting if self._still_here(c)]
            if len(self.waiting) < self.open_seats or (limit and self.started >= limit):
                return
            joined, self.waiting = (self.waiting[: self.open_seats],
                                    self.waiting[self.open_seats:])
            index = self.started
            self.started += 1
            task = asyncio.create_task(self._seat_and_run(joined, index))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)

    @staticmethod
    def _still_here(conn: Connection) -> bool:
        """False for a queued client that left (or sent garbage) while it waited: it must not
        take a seat.  Whatever else it sent stays queued for the table."""
        if conn.closed:
            return False
        items = conn.pending()
        for item in items:
            conn.inbox.put_nowait(item)
        return not any(item is CLOSED or isinstance(item, WireError) for item in items)

    async def _seat_and_run(self, joined: list[Connection], index: int) -> None:
        """Build the fill agents (in a thread: loading a network must not stall the lobby,
        whose clients may expect an answer within a second), seat everyone, play."""
        seed = self.config.seed + index
        # Seating depends on the seed and the names alone, never on which client's packets
        # arrived first: the same clients with the same seed replay the same games.
        joined = sorted(joined, key=lambda c: c.name)
        seats: list[Any] = list(joined)
        names = [c.name for c in joined]
        for k, agent in enumerate(self.config.fill):
            seats.append(await asyncio.to_thread(make_agent, agent, seed * 4 + k))
            names.append(f"{agent}#{k + 1}" if self.config.fill.count(agent) > 1 else agent)
        order = list(range(len(seats)))
        random.Random(seed).shuffle(order)
        table = TenhouTable([seats[i] for i in order], [names[i] for i in order], seed=seed,
                            config=self.config.table, log_id=f"tenpai-{index:04d}-{seed}")
        self.tables.append(table)
        await self._run_table(table, index, seed)

    async def _run_table(self, table: TenhouTable, index: int, seed: int) -> None:
        self.on_event("started", {"game": index, "names": list(table.names)})
        try:
            result = await table.run()
            self._finish(result, index, seed)
        except asyncio.CancelledError:
            raise
        except Exception as exc:
            log.exception("table %d failed", index)
            self.failures.append(f"game {index}: {type(exc).__name__}: {exc}")
            self.on_event("failed", {"game": index, "error": str(exc)})
        finally:
            self.tables.remove(table)
            done = len(self.results) + len(self.failures)
            if self.config.games and done >= self.config.games:
                self._done.set()

    def _finish(self, result: TableResult, index: int, seed: int) -> None:
        path = None
        save = self.config.save
        if save is not None:
            fragment = self.config.table.start is not None
            path = save_game(result, save / f"game-{index:04d}-seed{seed}.mjlog",
                             fragment=fragment)
        row = summary(result, index, seed, path)
        self.results.append(row)
        if save is not None:
            append_jsonl(save / "results.jsonl", row)
        self.on_event("finished", row)


async def run_server(config: ServerConfig,
                     on_event: Callable[[str, dict[str, Any]], None] | None = None
                     ) -> tuple[list[dict[str, Any]], list[str]]:
    """Serve ``config.games`` games; their summaries and any table failures."""
    server = TableServer(config, on_event)
    results = await server.serve()
    return results, server.failures
