"""Shared pieces of the Tenhou-protocol tests: a table server run with clients in threads,
and a scripted raw client that can misbehave on purpose."""

from __future__ import annotations

import asyncio
import socket
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tenpai.agents import make_agent
from tenpai.rules.riichi.ruleset import TENHOU
from tenpai.serve.tenhou.client import GameOutcome, TenhouClient
from tenpai.serve.tenhou.server import ServerConfig, TableServer
from tenpai.serve.tenhou.table import TableConfig
from tenpai.serve.tenhou.wire import Framer, Tag, encode, format_tag, parse_tag

ALL_LAST = {"start": (0, 3, 0, 0), "scores": (31_000, 23_000, 23_000, 23_000)}


def table_config(*, all_last: bool = False, **kw: Any) -> TableConfig:
    extra: dict[str, Any] = dict(ALL_LAST) if all_last else {}
    extra.update(kw)
    return TableConfig(rules=TENHOU.with_(length="tonpuu"), **extra)


@dataclass
class Run:
    results: list[dict[str, Any]]
    failures: list[str]
    outcomes: dict[str, Any] = field(default_factory=dict)
    server: TableServer | None = None


def run_table(
    config: ServerConfig,
    clients: dict[str, Callable[[int], Any]],
    *,
    limit: float = 120.0,
    stagger: float = 0.0,
) -> Run:
    """Start the server on a free port, run each client function (given the port) in a
    thread, wait for the server's games (at most ``limit`` seconds) and the clients."""
    config.port = 0
    outcomes: dict[str, Any] = {}

    async def main() -> Run:
        server = TableServer(config)
        await server.start()
        threads = []
        for name, fn in clients.items():
            def body(fn: Callable[[int], Any] = fn, name: str = name) -> None:
                try:
                    outcomes[name] = fn(server.port)
                except Exception as exc:  # recorded for the test to inspect
                    outcomes[name] = exc

            th = threading.Thread(target=body, daemon=True)
            th.start()
            threads.append(th)
            if stagger:
                await asyncio.sleep(stagger)
        try:
            results = await asyncio.wait_for(server.serve(), limit)
        finally:
            await server.stop()
        for th in threads:
            await asyncio.to_thread(th.join, 30.0)
        return Run(results, server.failures, outcomes, server)

    return asyncio.run(main())


def our_client(agent: str, name: str, seed: int = 0, games: int = 1, **kw: Any
               ) -> Callable[[int], list[GameOutcome]]:
    # The agent is built now, not in the client's thread: loading a network there would hold
    # the interpreter while the server must answer a tenhou-python-bot's HELO within a second.
    player = make_agent(agent, seed)

    def play(port: int) -> list[GameOutcome]:
        c = TenhouClient(player, "127.0.0.1", port, name=name, timeout=60.0, **kw)
        return [c.play_game() for _ in range(games)]

    return play


class RawClient:
    """A hand-driven client: it logs in and joins, then the test decides what it sends."""

    def __init__(self, port: int, name: str, timeout: float = 30.0) -> None:
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=timeout)
        self.name = name
        self.framer = Framer()
        self.queue: list[str] = []
        self.seen: list[Tag] = []

    def send(self, *messages: str) -> None:
        self.sock.sendall(encode(list(messages)))

    def send_raw(self, data: bytes) -> None:
        self.sock.sendall(data)

    def recv(self) -> Tag:
        while not self.queue:
            data = self.sock.recv(65536)
            if not data:
                raise ConnectionError("server closed")
            self.queue.extend(self.framer.feed(data))
        tag = parse_tag(self.queue.pop(0))
        self.seen.append(tag)
        return tag

    def until(self, pred: Callable[[Tag], bool]) -> Tag:
        while True:
            tag = self.recv()
            if pred(tag):
                return tag

    def login(self) -> None:
        self.send(format_tag("HELO", {"name": self.name, "tid": "f0", "sx": "M"}))
        self.until(lambda t: t.name == "HELO")
        self.send('<PXR V="1"/>')
        self.until(lambda t: t.name == "LN")
        self.send('<JOIN t="0,1"/>')

    def closed_by_server(self, wait: float = 10.0) -> bool:
        """True when the server closed this connection (within ``wait`` seconds)."""
        self.sock.settimeout(wait)
        end = time.monotonic() + wait
        try:
            while time.monotonic() < end:
                if not self.sock.recv(65536):
                    return True
        except (ConnectionError, OSError):
            return True
        return False

    def close(self) -> None:
        self.sock.close()


def play_until(raw: RawClient, own_discards: int, claim_reply: tuple[str, ...] = ("<N/>",)
               ) -> int | None:
    """Play tsumogiri and answer every claim offer with ``claim_reply`` (a pass) until
    ``own_discards`` discards were made; the id of the next drawn tile (its decision left
    unanswered), or None if the game ended first."""
    made = 0
    while True:
        tag = raw.recv()
        if tag.name == "GO":
            raw.send("<GOK/>", "<NEXTREADY/>")
        elif tag.name in ("AGARI", "RYUUKYOKU"):
            if "owari" in tag.attrs:
                return None
            raw.send("<NEXTREADY/>")
        elif tag.name == "T" and tag.number is not None:
            if made >= own_discards:
                return tag.number
            raw.send(format_tag("D", {"p": tag.number}))
            made += 1
        elif tag.name in ("E", "F", "G", "e", "f", "g", "N") and "t" in tag.attrs:
            raw.send(*claim_reply)


def protocol(result: dict[str, Any], name: str) -> dict[str, Any]:
    return next(p for p in result["protocol"] if p["name"] == name)


def saved(tmp: Path) -> list[Path]:
    return sorted(tmp.glob("*.mjlog"))
