"""Any of our MCR agents as a Botzone bot: requests in, one response out per request.

:class:`BotzoneBot` keeps a :class:`~tenpai.serve.botzone.seat_state.SeatState`, asks the
agent only when the engine offers this seat a choice, and turns the chosen action into
Botzone's words.  A pong or chow is answered together with its discard (Botzone's
``PENG t`` / ``CHI mid t``): the discard is chosen on a copy of the state with the call made.

When a request cannot be followed (garbled, out of order, an unknown tile), the bot says so in
one line on stderr and answers safely: the drawn tile back (``PLAY t``) after its own draw,
``PASS`` otherwise; once lost, it stays on those safe answers for the rest of the match.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from typing import TextIO

from tenpai import tiles as T
from tenpai.engine.agent import Agent
from tenpai.events import Event
from tenpai.serve.botzone.protocol import (
    PASS,
    ProtocolError,
    Request,
    Response,
    parse_request,
    parse_response,
)
from tenpai.serve.botzone.seat_state import SeatState, StateError

__all__ = ["BotzoneBot", "response_for"]


def response_for(action: Event, discard: Event | None = None) -> Response:
    """Our engine's action → Botzone's response (``discard`` completes a pong or chow)."""
    t = action.type
    if t == "none":
        return PASS
    if t == "hora":
        return Response("HU")
    if t == "dahai":
        assert action.pai is not None
        return Response("PLAY", (action.pai,))
    if t == "ankan":
        return Response("GANG", (action.consumed[0],))
    if t == "daiminkan":
        return Response("GANG")
    if t == "kakan":
        assert action.pai is not None
        return Response("BUGANG", (action.pai,))
    if t in ("pon", "chi"):
        assert discard is not None and discard.pai is not None and action.pai is not None
        if t == "pon":
            return Response("PENG", (discard.pai,))
        mid = sorted((*action.consumed, action.pai))[1]
        return Response("CHI", (mid, discard.pai))
    raise ValueError(f"no Botzone response for a {t} action")


class BotzoneBot:
    """One seat of one match (a new match needs a new bot)."""

    def __init__(self, agent: Agent, *, err: TextIO | None = None) -> None:
        self.agent = agent
        self.state = SeatState()
        self.lost: str | None = None
        self.err = err if err is not None else sys.stderr
        self._last: Response = PASS

    def _complain(self, message: str) -> None:
        self.err.write(f"tenpai botzone-bot: {message}\n")
        self.err.flush()

    # ------------------------------------------------------------------ feeding
    def follow(self, line: str, my_response: str | None = None) -> Request | None:
        """Apply a request whose answer is already known (the history of the per-turn form);
        ``my_response`` is what this bot answered to it."""
        req = self._apply(line)
        if my_response is not None:
            self.sent(my_response)
        return req

    def sent(self, response: str) -> None:
        """Record what was really answered to the last request (when the judge got another
        answer than ours, e.g. a transcript's)."""
        try:
            self._last = parse_response(response)
        except ProtocolError:
            self._last = PASS

    def _apply(self, line: str) -> Request | None:
        try:
            req = parse_request(line)
        except ProtocolError as exc:
            self._lose(str(exc))
            return None
        if self.lost is not None:
            return req
        mine = self._last.tiles if self._last.verb == "GANG" else ()
        try:
            self.state.apply(req, mine)
        except StateError as exc:
            self._lose(str(exc))
        return req

    def _lose(self, message: str) -> None:
        self._complain(message if self.lost is None else f"{message} (already lost: answering "
                       "safely)")
        if self.lost is None:
            self.lost = message

    # ------------------------------------------------------------------ answering
    def answer(self, line: str) -> str:
        """Apply the newest request and answer it (always a well-formed response)."""
        req = self._apply(line)
        resp = self._decide(req)
        self._last = resp
        return resp.text()

    def _decide(self, req: Request | None) -> Response:
        if req is None:
            return PASS
        if self.lost is not None:
            return self._safe(req)
        try:
            return self._choose()
        except (StateError, ValueError) as exc:
            self._lose(f"cannot answer {req.text()!r}: {exc}")
            return self._safe(req)

    @staticmethod
    def _safe(req: Request) -> Response:
        if req.kind == 2:
            return Response("PLAY", req.tiles)
        return PASS

    def _choose(self) -> Response:
        st = self.state
        if st.awaiting_own_draw():
            return PASS
        mine = st.my_decision()
        if mine is None:
            return PASS
        obs, legal = mine
        action = self.agent.act(obs, legal)
        if action.type in ("pon", "chi"):
            obs2, legal2 = st.after_call(action)
            discard = self.agent.act(obs2, legal2)
            return response_for(action, discard)
        return response_for(action)


def tile_names(tiles: Sequence[int]) -> str:
    return " ".join(T.to_botzone(t) for t in tiles)
