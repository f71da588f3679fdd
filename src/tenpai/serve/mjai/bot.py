"""Any built-in agent as an mjai bot: messages in, at most one action out.

:class:`MjaiBot` is the protocol state machine without any I/O, so the stdio loop, the mjsonp
TCP client and the tests share it.  Per message (or batch of messages, as Mortal's and
mjai.app's servers send them) it updates a :class:`SeatTracker`; when the last message asks the
seat to decide, it builds the legal actions — from ``possible_actions`` when the server sends
them, else derived by :mod:`tenpai.serve.mjai.legal` — and asks the agent with a
:class:`MjaiObservation`.  In ``stdio`` mode it answers only when a decision is due (``none``
for a pass), as Mortal and mjai-manue do; in ``mjsonp`` mode it answers every message, as that
synchronous protocol requires.  The table size is the rules' (``tenhou_sanma``: three seats):
a ``start_kyoku`` dealing another number of hands stops the bot with one line.  A North set
aside is answered ``nukidora`` (the three-player libriichi form) unless the server has itself
spoken of ``kita`` (mjai.app-style servers), in which case the answer uses that name.
"""

from __future__ import annotations

from typing import Any, Literal

from tenpai.engine.agent import Agent
from tenpai.events import Event
from tenpai.rules.riichi.ruleset import TENHOU, RiichiRules
from tenpai.serve.mjai.legal import NONE, decision_due, derive_legal, discards
from tenpai.serve.mjai.observation import MjaiObservation
from tenpai.serve.mjai.tracker import SeatTracker, TrackerError
from tenpai.serve.mjai.wire import ProtocolError, action_to_mjai, read_message

__all__ = ["BotError", "MjaiBot", "Mode"]

Mode = Literal["stdio", "mjsonp"]


class BotError(RuntimeError):
    """The bot cannot go on: bad input, a server error, or a state it cannot follow."""


class MjaiBot:
    """One agent playing one seat over mjai (see the module docstring)."""

    def __init__(
        self,
        agent: Agent,
        *,
        seat: int | None = None,
        seat_from_start_game: bool = False,
        mode: Mode = "stdio",
        name: str = "tenpai",
        room: str = "default",
        rules: RiichiRules = TENHOU,
    ) -> None:
        if seat is not None and seat_from_start_game:
            raise BotError("give either a seat or --seat-from-start-game, not both")
        self.agent = agent
        self.fixed_seat = seat
        self.seat_from_start_game = seat_from_start_game
        self.mode = mode
        self.name = name
        self.room = room
        self.rules = rules
        self.tracker: SeatTracker | None = None
        #: True once ``end_game`` arrived (the mjsonp client then disconnects).
        self.ended = False
        self.decisions = 0
        #: The name the server gives a North set aside (``kita`` once it has used that name).
        self.north_name = "nukidora"

    # ------------------------------------------------------------------ messages
    def handle(self, messages: list[dict[str, Any]]) -> dict[str, Any] | None:
        """Follow a batch of messages; the answer to send, if any."""
        reply: dict[str, Any] | None = None
        for obj in messages:
            reply = self._one(obj, last=obj is messages[-1])
        if reply is None and self.mode == "mjsonp" and not self.ended:
            return {"type": "none"}
        return reply

    def _one(self, obj: dict[str, Any], *, last: bool) -> dict[str, Any] | None:
        typ = obj["type"]
        possible = obj.get("possible_actions")
        if typ == "kita" or (isinstance(possible, list) and any(
                isinstance(p, dict) and p.get("type") == "kita" for p in possible)):
            self.north_name = "kita"
        if typ == "hello":
            return {"type": "join", "name": self.name, "room": self.room}
        if typ == "error":
            raise BotError(f"server error: {obj.get('message', obj)}")
        if typ == "start_game":
            self._start_game(obj)
            return None
        if typ == "end_game":
            self.ended = True
            self.tracker = None
            return None
        if self.tracker is None:
            raise BotError(f"{typ} before start_game")
        if typ == "start_kyoku":
            _check_deal(obj, self.rules)
        event = read_message(obj)
        try:
            self.tracker.apply(event)
        except TrackerError as exc:
            raise BotError(f"cannot follow the game: {exc}") from None
        if not last:
            return None
        action = self._decide(possible)
        if action is None:
            return None
        out = action_to_mjai(action)
        if action.type == "nukidora":
            out["type"] = self.north_name
        return out

    def _start_game(self, obj: dict[str, Any]) -> None:
        given = obj.get("id")
        if self.seat_from_start_game and given is None:
            raise BotError("start_game carries no id (the bot's seat)")
        if self.fixed_seat is not None:
            seat = self.fixed_seat
        elif given is not None:
            try:
                seat = int(given)
            except (TypeError, ValueError):
                raise BotError(f"start_game id {given!r} is not a seat") from None
        else:
            seat = 0
        players = self.rules.players
        if not 0 <= seat < players:
            raise BotError(f"seat {seat} is not 0-{players - 1} (rules {self.rules.name}: "
                           f"{players} players)")
        names = obj.get("names", [])
        if not isinstance(names, list):
            raise BotError(f"start_game names are not a list: {names!r:.80}")
        self.tracker = SeatTracker(seat, self.rules)
        self.tracker.apply(Event("start_game", names=tuple(str(n) for n in names)))
        self.ended = False

    # ------------------------------------------------------------------ deciding
    def legal(self, possible: Any = None) -> list[Event]:
        """The actions the seat may take now (``possible_actions`` first, else derived)."""
        st = self.tracker
        if st is None:
            return []
        if possible is None:
            return derive_legal(st)
        if not isinstance(possible, list):
            raise ProtocolError(f"possible_actions is not a list: {possible!r}")
        offered = [read_message(p) for p in possible if isinstance(p, dict)]
        offered = [e for e in offered if e.type != "none"]
        due = decision_due(st)
        if due in ("turn", "riichi", "call"):
            if any(e.type == "dahai" for e in offered):
                return offered
            # Servers list the special actions and leave the (always possible) discards implied.
            implied = [e for e in derive_legal(st) if e.type == "dahai"] or discards(st)
            return offered + implied
        return [*offered, NONE] if offered else []

    def _decide(self, possible: Any) -> Event | None:
        assert self.tracker is not None
        legal = self.legal(possible)
        if not legal:
            return None
        self.decisions += 1
        try:
            action = self.agent.act(MjaiObservation(self.tracker), legal)
        except (ValueError, LookupError, AttributeError, TypeError) as exc:
            # The tracker refuses impossible streams; this is the last guard, so that a state
            # it missed is one line naming the agent, never a traceback or a guessed answer.
            raise BotError(f"the agent cannot decide on this state ({type(exc).__name__}: "
                           f"{exc})") from None
        if action not in legal:
            raise BotError(f"the agent chose an action that is not legal: {action.to_mjai()}")
        return action


def _check_deal(obj: dict[str, Any], rules: RiichiRules) -> None:
    """One hand of 13 tiles per seat (hidden ones as thirteen ``"?"``): a 14-tile deal, a fifth
    hand, or four hands to a three-player bot (and three to a four-player one) is a stream the
    bot must not play on."""
    hands = obj.get("tehais")
    players = rules.players
    if not isinstance(hands, list) or len(hands) != players:
        count = len(hands) if isinstance(hands, list) else "no"
        raise BotError(f"cannot follow the game: start_kyoku deals {count} hands, not "
                       f"{players} (the bot plays {players}-player rules {rules.name}; "
                       f"{_other_preset(players)})")
    for seat, hand in enumerate(hands):
        if not isinstance(hand, list) or len(hand) != 13:
            size = len(hand) if isinstance(hand, list) else "no"
            raise BotError(f"cannot follow the game: start_kyoku deals seat {seat} {size} "
                           "tiles, not 13")


def _other_preset(players: int) -> str:
    """The hint for a stream of the other table size."""
    if players == 4:
        return "a three-player stream needs --preset tenhou_sanma"
    return "a four-player stream needs a four-player --preset such as tenhou"
