"""The two transports of an mjai bot: JSON lines on stdin/stdout, and the mjsonp TCP client.

stdio: read a line, answer only when a decision is due, flush each answer; ``end_game`` does not
end the process (another ``start_game`` may follow), end of input does.  mjsonp
(``mjsonp://host:port/room``): the server says ``hello``, the bot joins the room, and every later
message gets exactly one answer (``none`` when there is nothing to do) until ``end_game``, when
the client disconnects.  Either way a line that cannot be read stops the bot with a message on
stderr and a non-zero exit, rather than a guess that would desynchronise it.
"""

from __future__ import annotations

import socket
from typing import TextIO
from urllib.parse import urlsplit

from tenpai.serve.mjai.bot import BotError, MjaiBot
from tenpai.serve.mjai.wire import ProtocolError, dumps, parse_line

__all__ = ["MjsonpURL", "parse_mjsonp_url", "run_mjsonp", "run_stdio"]


def run_stdio(bot: MjaiBot, stdin: TextIO, stdout: TextIO) -> int:
    """Play until end of input; the number of answers written.  Raises :class:`BotError`
    (bad input, a server error) with the line number."""
    written = 0
    number = 0
    while True:
        line = stdin.readline()
        if not line:
            return written
        number += 1
        try:
            reply = bot.handle(parse_line(line))
        except (ProtocolError, BotError) as exc:
            raise BotError(f"input line {number}: {exc}") from None
        if reply is not None:
            stdout.write(dumps(reply) + "\n")
            stdout.flush()
            written += 1


class MjsonpURL:
    """``mjsonp://host:port/room``, checked."""

    def __init__(self, host: str, port: int, room: str) -> None:
        self.host = host
        self.port = port
        self.room = room


def parse_mjsonp_url(url: str) -> MjsonpURL:
    parts = urlsplit(url)
    if parts.scheme != "mjsonp":
        raise BotError(f"{url!r}: the URL must start with mjsonp://")
    try:
        port = parts.port  # urllib raises for a port that is not a number or out of range
    except ValueError:
        raise BotError(f"{url!r}: the port must be a number from 1 to 65535") from None
    if not parts.hostname or port is None:
        raise BotError(f"{url!r}: the URL needs host:port")
    if port == 0:
        raise BotError(f"{url!r}: the port must be a number from 1 to 65535")
    room = parts.path.lstrip("/")
    if not room or "/" in room:
        raise BotError(f"{url!r}: the URL needs a room (mjsonp://host:port/room)")
    return MjsonpURL(parts.hostname, port, room)


def run_mjsonp(bot: MjaiBot, url: str, *, timeout: float = 600.0) -> int:
    """Connect, join, play one game; the number of answers sent.  Raises :class:`BotError`."""
    where = parse_mjsonp_url(url)
    bot.mode = "mjsonp"
    bot.room = where.room
    try:
        conn = socket.create_connection((where.host, where.port), timeout=timeout)
    except OSError as exc:
        raise BotError(f"cannot connect to {where.host}:{where.port}: {exc}") from None
    sent = 0
    number = 0
    with conn, conn.makefile("r", encoding="utf-8", newline="\n") as rd:
        while True:
            try:
                line = rd.readline()
            except OSError as exc:
                raise BotError(f"connection lost: {exc}") from None
            if not line:
                raise BotError("the server closed the connection before end_game")
            number += 1
            try:
                reply = bot.handle(parse_line(line))
            except (ProtocolError, BotError) as exc:
                raise BotError(f"message {number}: {exc}") from None
            if bot.ended:
                return sent
            if reply is not None:
                conn.sendall((dumps(reply) + "\n").encode("utf-8"))
                sent += 1
