"""One client's TCP connection at the table server: a reader task and an inbox.

The reader splits the byte stream into messages and parses each one as it arrives, so a
malformed message is noticed at once; the table and the lobby take parsed tags from
:attr:`Connection.inbox` with a deadline.  The inbox ends with :data:`CLOSED` when the client
goes away, or with the :class:`WireError` that made the server stop reading it.  Writes never
wait on a slow reader for long: a client that stops reading is cut off rather than stalling
the table.
"""

from __future__ import annotations

import asyncio
import contextlib
from typing import Final

from tenpai.serve.tenhou.wire import Framer, Tag, WireError, encode, parse_tag

__all__ = ["CLOSED", "Connection", "Item"]

CLOSED: Final = None
Item = Tag | WireError | None
#: Seconds a write may wait for the client to take its data.
DRAIN_TIMEOUT = 20.0


class Connection:
    """A connected client (see the module docstring)."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader = reader
        self.writer = writer
        self.inbox: asyncio.Queue[Item] = asyncio.Queue()
        self.name = "NoName"
        self.closed = False
        #: True once the client's side ended (EOF, an error, garbage): the table may not have
        #: read the inbox's end yet, but a reconnection under this name is already welcome.
        self.gone = False
        peer = writer.get_extra_info("peername")
        self.address = f"{peer[0]}:{peer[1]}" if isinstance(peer, tuple) else str(peer)
        self._task = asyncio.create_task(self._read())
        self._drains: set[asyncio.Task[None]] = set()

    async def _read(self) -> None:
        framer = Framer()
        try:
            while True:
                data = await self.reader.read(4096)
                if not data:
                    break
                for text in framer.feed(data):
                    await self.inbox.put(parse_tag(text))
        except WireError as exc:
            self.gone = True
            await self.inbox.put(exc)
            self._close_transport()
            return
        except (ConnectionError, OSError):
            pass
        self.gone = True
        await self.inbox.put(CLOSED)

    async def next(self, timeout: float) -> Item:
        """The next message; raises ``TimeoutError`` when none arrives in time."""
        return await asyncio.wait_for(self.inbox.get(), timeout)

    def pending(self) -> list[Item]:
        """Every message already received, without waiting."""
        out: list[Item] = []
        while not self.inbox.empty():
            out.append(self.inbox.get_nowait())
        return out

    def send(self, messages: list[str]) -> None:
        """Queue messages for the client (one write, so they arrive together)."""
        if self.closed or not messages:
            return
        try:
            self.writer.write(encode(messages))
        except (ConnectionError, OSError, RuntimeError):
            self._close_transport()
            return
        task = asyncio.create_task(self._drain())
        self._drains.add(task)
        task.add_done_callback(self._drains.discard)

    async def _drain(self) -> None:
        try:
            await asyncio.wait_for(self.writer.drain(), DRAIN_TIMEOUT)
        except (TimeoutError, ConnectionError, OSError, RuntimeError):
            self._close_transport()

    def _close_transport(self) -> None:
        if not self.closed:
            self.closed = True
            with contextlib.suppress(Exception):
                self.writer.close()

    async def close(self) -> None:
        """Close the connection and stop reading it."""
        self._close_transport()
        self._task.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await self._task
        with contextlib.suppress(Exception):
            await asyncio.wait_for(self.writer.wait_closed(), 2.0)
