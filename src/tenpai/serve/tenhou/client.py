"""Our Tenhou client: a built-in agent plays at any Tenhou-protocol table (seed 004, ch. 7).

One connection per game, as tenhou.net's own clients do: ``HELO`` (answering ``AUTH`` when the
server sends an ``auth`` challenge — tenhou.net's real challenge needs its secret transform,
which we do not have, so we echo it, which our table and anonymous play accept), ``PXR``, then
``JOIN t="lobby,type"``.  After ``GO`` the client sends ``GOK`` and ``NEXTREADY``, follows every
message into a :class:`~tenpai.serve.tenhou.view.TenhouView` and answers exactly the decisions
the server asks for: its own draw, a discard or added kan offered with ``t`` flags, its riichi
declaration and its calls.  ``NEXTREADY`` follows each result; the game ends with ``owari``
and ``PROF``, after which the client says ``BYE``.  A ``<Z/>`` keep-alive goes out every
``keepalive`` seconds of silence.

Everything the client knows comes from the messages (no engine state): a message it cannot
follow ends it with :class:`ClientError` rather than a guess.  The table size comes with ``GO``
(three players when its type has bit 0x10); ``check_players`` (optional) is asked then whether the
agent plays that size, and a refusal ends the game with :class:`TableSizeError`.
"""

from __future__ import annotations

import copy
import socket
import time
from collections.abc import Callable
from dataclasses import dataclass
from urllib.parse import quote

from tenpai.engine.agent import Agent
from tenpai.events import Event
from tenpai.serve.mjai.observation import MjaiObservation
from tenpai.serve.tenhou.view import Offer, TenhouView, ViewError
from tenpai.serve.tenhou.wire import Framer, Tag, WireError, encode, format_tag, parse_tag

__all__ = ["ClientError", "GameOutcome", "TableSizeError", "TenhouClient"]


class ClientError(RuntimeError):
    """The client cannot go on (connection lost, a message it cannot follow, a refusal)."""


class TableSizeError(ClientError):
    """The server seated us at a table size our agent does not play."""


@dataclass(slots=True)
class GameOutcome:
    """What one game left: the final scores (in hundreds, from ``owari``, seat 0 = us, then
    in playing order; three entries at a three-player table)."""

    scores: list[int]
    points: list[float]
    decisions: int

    @property
    def rank(self) -> int:
        me = self.scores[0]
        return 1 + sum(1 for s in self.scores if s > me)


class TenhouClient:
    """One agent at one Tenhou-protocol table (see the module docstring)."""

    def __init__(
        self,
        agent: Agent,
        host: str,
        port: int,
        *,
        name: str = "tenpai",
        game_type: int = 1,
        lobby: int = 0,
        timeout: float = 600.0,
        keepalive: float = 15.0,
        log: Callable[[str], None] | None = None,
        check_players: Callable[[int], None] | None = None,
    ) -> None:
        self.agent = agent
        self.host = host
        self.port = port
        self.name = name
        self.game_type = game_type
        self.lobby = lobby
        self.timeout = timeout
        self.keepalive = keepalive
        self.log = log or (lambda line: None)
        self.check_players = check_players
        self.sock: socket.socket | None = None
        self._framer = Framer()
        self._queue: list[str] = []
        self._last_sent = 0.0
        self._riichi_discard: Event | None = None
        self.view = TenhouView()
        self.decisions = 0
        self._replay_later: list[Tag] = []

    # ------------------------------------------------------------------ transport
    def connect(self) -> None:
        try:
            self.sock = socket.create_connection((self.host, self.port), timeout=10.0)
        except OSError as exc:
            raise ClientError(f"cannot connect to {self.host}:{self.port}: {exc}") from None
        self.sock.settimeout(min(self.keepalive, 1.0))
        self._framer = Framer()
        self._queue = []

    def close(self) -> None:
        if self.sock is not None:
            try:
                self.sock.close()
            finally:
                self.sock = None

    def send(self, messages: list[str]) -> None:
        assert self.sock is not None
        for m in messages:
            self.log(f"> {m}")
        try:
            self.sock.sendall(encode(messages))
        except OSError as exc:
            raise ClientError(f"connection lost while sending: {exc}") from None
        self._last_sent = time.monotonic()

    def receive(self) -> Tag:
        """The next message; keep-alives go out while waiting; ClientError after ``timeout``
        seconds of silence or when the server closes."""
        assert self.sock is not None
        deadline = time.monotonic() + self.timeout
        while not self._queue:
            if time.monotonic() > deadline:
                raise ClientError(f"no message from the server for {self.timeout:g} s")
            if time.monotonic() - self._last_sent > self.keepalive:
                self.send(["<Z/>"])
            try:
                data = self.sock.recv(65536)
            except TimeoutError:
                continue
            except OSError as exc:
                raise ClientError(f"connection lost: {exc}") from None
            if not data:
                raise ClientError("the server closed the connection")
            try:
                self._queue.extend(self._framer.feed(data))
            except WireError as exc:
                raise ClientError(f"unreadable data from the server: {exc}") from None
        text = self._queue.pop(0)
        self.log(f"< {text}")
        try:
            return parse_tag(text)
        except WireError as exc:
            raise ClientError(f"unreadable message from the server: {exc}") from None

    # ------------------------------------------------------------------ lobby
    def login(self) -> bool:
        """HELO/AUTH/PXR; True when the server says we are back in a running game (GO)."""
        self.send([format_tag("HELO", {"name": quote(self.name), "tid": "f0", "sx": "M"})])
        while True:
            tag = self.receive()
            if tag.name == "GO":
                self._replay_later = [tag]
                return True
            if tag.name == "HELO":
                auth = tag.get("auth")
                if auth:
                    self.send([format_tag("AUTH", {"val": auth})])
                self.send([format_tag("PXR", {"V": 1})])
                break
            if tag.name == "ERR":
                raise ClientError(f"the server refused the login: {tag.get('code')}")
        while True:
            tag = self.receive()
            if tag.name == "LN":
                return False

    def play_game(self) -> GameOutcome:
        """Connect, join, play one game to its end; the outcome."""
        self.view = TenhouView()
        self._replay_later = []
        self.connect()
        try:
            back = self.login()
            if not back:
                self.send([format_tag("JOIN", {"t": f"{self.lobby},{self.game_type}"})])
            return self._play(list(self._replay_later))
        finally:
            self.close()

    # ------------------------------------------------------------------ game
    def _play(self, first: list[Tag]) -> GameOutcome:
        outcome: GameOutcome | None = None
        pending = list(first)
        while True:
            tag = pending.pop(0) if pending else self.receive()
            if tag.name == "REJOIN":
                self.send([format_tag("JOIN", {"t": f"{self.lobby},{self.game_type},r"})])
                continue
            if tag.name == "PROF":
                self.send(["<BYE/>"])
                if outcome is None:
                    raise ClientError("the game ended without final scores")
                return outcome
            try:
                self.view.apply(tag)
            except ViewError as exc:
                raise ClientError(str(exc)) from None
            if tag.name == "GO" and self.check_players is not None:
                try:
                    self.check_players(self.view.players)
                except ValueError as exc:
                    self.send(["<BYE/>"])
                    raise TableSizeError(str(exc)) from None
            if tag.name == "GO":
                self.send(["<GOK/>", "<NEXTREADY/>"])
            if tag.name in ("AGARI", "RYUUKYOKU"):
                if "owari" in tag.attrs:
                    outcome = _outcome(tag, self.decisions, self.view)
                else:
                    self.send(["<NEXTREADY/>"])
                continue
            if self.view.offer is not None:
                self._decide(self.view.offer)

    def _decide(self, offer: Offer) -> None:
        view = self.view
        if offer.kind == "riichi" and self._riichi_discard is not None:
            chosen = self._riichi_discard
            self._riichi_discard = None
            if chosen in view.legal():
                self.send(view.reply(chosen))
                return
        legal = view.legal()
        if not legal:
            raise ClientError(f"the server asks for a {offer.kind} decision but nothing is legal")
        action = self._ask(view, legal)
        if action.type == "reach":
            self._send_riichi()
            return
        try:
            self.send(view.reply(action))
        except ViewError as exc:
            raise ClientError(str(exc)) from None

    def _ask(self, view: TenhouView, legal: list[Event]) -> Event:
        self.decisions += 1
        action = self.agent.act(MjaiObservation(view.tracker), legal)
        if action not in legal:
            raise ClientError(f"the agent chose an illegal action: {action.to_mjai()}")
        return action

    def _send_riichi(self) -> None:
        """Riichi: choose the declaring discard now (on a copy of the view that has seen the
        declaration), name it in ``<REACH hai>``, send it as ``<D>`` when step 1 comes back."""
        view = self.view
        ahead = copy.deepcopy(view)
        ahead.apply(Tag("REACH", None, {"who": "0", "step": "1"}))
        legal = ahead.legal()
        discard = self._ask(ahead, legal)
        self._riichi_discard = discard
        tile = view.reply(discard)[0]
        hai = parse_tag(tile).int_attr("p")
        self.send([format_tag("REACH", {"hai": hai})])


def _outcome(tag: Tag, decisions: int, view: TenhouView) -> GameOutcome:
    raw = (tag.get("owari") or "").split(",")
    try:
        scores = [int(float(raw[2 * i])) for i in range(4)]
        points = [float(raw[2 * i + 1]) for i in range(4)]
        return GameOutcome(list(view.per_seat(scores)), list(view.per_seat(points)), decisions)
    except (ValueError, IndexError):
        raise ClientError(f"unreadable owari {tag.get('owari')!r}") from None
