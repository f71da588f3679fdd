"""Our engine as Botzone's judge: the requests each bot is sent, and its answers read back.

:class:`RequestWriter` turns the engine's events (one MCR hand under the ``botzone`` preset)
into Botzone *turns*: each turn is one request per seat, as the real judge sends them —

* ``start_kyoku`` → ``0 id quan``, then ``1 0 0 0 0 <13 tiles in the order dealt>``;
* a draw → ``2 t`` to the drawer, ``3 p DRAW`` to the others (kong replacements alike);
* a discard → ``3 p PLAY t``; a pong or chow and its discard → one ``3 p PENG t`` /
  ``3 p CHI mid t``; a kong → ``3 p GANG`` (the tile is not told); an added kong →
  ``3 p BUGANG t``.  A win or a drawn hand ends the match (no request).

:func:`interpret` reads one response against the engine's legal actions for the decision it
answers; anything that is not one of them is an :class:`AnswerError` of a named kind.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from tenpai import tiles as T
from tenpai.engine.table import KIND
from tenpai.events import Event
from tenpai.serve.botzone.protocol import ProtocolError, Response, parse_response

__all__ = ["AnswerError", "Interpreted", "RequestWriter", "interpret", "requests_for"]


class RequestWriter:
    """Engine events → Botzone turns (four request strings each), fed incrementally."""

    def __init__(self) -> None:
        self._call: Event | None = None

    def feed(self, e: Event) -> list[tuple[str, str, str, str]]:
        t = e.type
        if t == "start_kyoku":
            quan = e.bakaze or 0
            deal = [tuple(h or ()) for h in e.tehais]
            if any(len(h) != 13 for h in deal):
                raise ValueError("a Botzone deal needs four hands of 13 tiles")
            first = tuple(f"0 {s} {quan}" for s in range(4))
            second = tuple("1 0 0 0 0 " + " ".join(T.to_botzone(x) for x in deal[s])
                           for s in range(4))
            return [_four(first), _four(second)]
        p = e.actor
        if p is None:
            return []
        if t == "tsumo":
            assert e.pai is not None
            return [_four(tuple(f"2 {T.to_botzone(e.pai)}" if s == p else f"3 {p} DRAW"
                                for s in range(4)))]
        if t in ("pon", "chi"):
            self._call = e
            return []
        if t == "dahai":
            assert e.pai is not None
            call, self._call = self._call, None
            name = T.to_botzone(e.pai)
            if call is not None and call.actor == p:
                if call.type == "pon":
                    text = f"3 {p} PENG {name}"
                else:
                    assert call.pai is not None
                    mid = sorted((*call.consumed, call.pai), key=lambda x: KIND[x])[1]
                    text = f"3 {p} CHI {T.to_botzone(mid)} {name}"
            else:
                text = f"3 {p} PLAY {name}"
            return [_four((text,) * 4)]
        if t in ("daiminkan", "ankan"):
            return [_four((f"3 {p} GANG",) * 4)]
        if t == "kakan":
            assert e.pai is not None
            return [_four((f"3 {p} BUGANG {T.to_botzone(e.pai)}",) * 4)]
        return []


def _four(x: tuple[str, ...]) -> tuple[str, str, str, str]:
    return (x[0], x[1], x[2], x[3])


def requests_for(events: Iterable[Event], seat: int) -> list[str]:
    """Every request ``seat`` is sent over a whole hand's events."""
    w = RequestWriter()
    return [turn[seat] for e in events for turn in w.feed(e)]


class AnswerError(ValueError):
    """A response the judge cannot accept; ``kind`` is ``malformed`` or ``illegal``."""

    def __init__(self, kind: str, message: str) -> None:
        super().__init__(message)
        self.kind = kind


@dataclass(frozen=True, slots=True)
class Interpreted:
    """The engine action a response stands for, and the discard a pong or chow carries."""

    action: Event
    discard: int | None = None


def interpret(line: str, legal: Sequence[Event], hand: Sequence[int] = ()) -> Interpreted:
    """Read ``line`` as the answer to a decision whose legal actions are ``legal`` (``hand``:
    the seat's concealed tiles, to check the discard a pong or chow names)."""
    try:
        r = parse_response(line)
    except ProtocolError as exc:
        raise AnswerError("malformed", str(exc)) from None
    found = _find(r, legal)
    if found is None:
        shown = ", ".join(_show(e) for e in legal[:10])
        raise AnswerError("illegal", f"{r.text()!r} is not one of [{shown}]")
    if found.type in ("pon", "chi"):
        left = list(hand)
        for c in found.consumed:
            if c in left:
                left.remove(c)
        discard = r.tiles[-1]
        if discard not in left:
            raise AnswerError("illegal", f"{r.text()!r}: {T.to_botzone(discard)} is not in "
                                         "hand after the call")
        return Interpreted(found, discard)
    return Interpreted(found)


def _find(r: Response, legal: Sequence[Event]) -> Event | None:
    v = r.verb
    for e in legal:
        t = e.type
        if v == "PASS" and t == "none":
            return e
        if v == "HU" and t == "hora":
            return e
        if v == "PLAY" and t == "dahai" and e.pai == r.tiles[0]:
            same = [x for x in legal if x.type == "dahai" and x.pai == r.tiles[0]]
            # the drawn tile itself when it is the one named (as Botzone's logs are read)
            return next((x for x in same if x.tsumogiri), same[0])
        if v == "GANG" and r.tiles and t == "ankan" and KIND[e.consumed[0]] == KIND[r.tiles[0]]:
            return e
        if v == "GANG" and not r.tiles and t == "daiminkan":
            return e
        if v == "BUGANG" and t == "kakan" and e.pai == r.tiles[0]:
            return e
        if v == "PENG" and t == "pon":
            return e
        if v == "CHI" and t == "chi" and e.pai is not None:
            mid = sorted((*e.consumed, e.pai), key=lambda x: KIND[x])[1]
            if KIND[mid] == KIND[r.tiles[0]]:
                return e
    return None


def _show(e: Event) -> str:
    from tenpai.serve.botzone.bot import response_for

    if e.type in ("pon", "chi"):
        return ("PENG" if e.type == "pon" else "CHI") + " …"
    return response_for(e).text()
