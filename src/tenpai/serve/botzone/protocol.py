"""The words of Botzone's Chinese-Standard-Mahjong game: judge requests and bot responses.

Requests (one line each, what the judge sends one bot in one turn):

* ``0 id quan`` — the bot's seat (0-3, seat 0 deals) and the prevalent wind, first turn only;
* ``1 h0 h1 h2 h3 t1 … t13 [flowers]`` — flower counts, the bot's 13 tiles, the flowers;
* ``2 t`` — the bot draws ``t``;
* ``3 p DRAW`` / ``3 p PLAY t`` / ``3 p PENG t`` / ``3 p CHI mid t`` / ``3 p GANG`` /
  ``3 p BUGANG t`` / ``3 p BUHUA f`` — what player ``p`` did (after a pong or a chow, ``t`` is
  the tile discarded with it; a chow names its middle tile).

Responses: ``PASS``, ``PLAY t``, ``GANG t`` (concealed, on one's own draw), ``GANG`` (claiming a
discard), ``BUGANG t``, ``PENG t`` / ``CHI mid t`` (the claim and the discard in one answer),
``HU``.  Tiles are Botzone names (``W1``-``W9`` characters, ``B`` dots, ``T`` bamboo, ``F1``-``F4``
winds, ``J1``-``J3`` dragons, ``H1``-``H8`` flowers).

Everything here is pure text ↔ data; :class:`ProtocolError` names what is wrong in one line.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from tenpai import tiles as T

__all__ = [
    "KEEP_RUNNING",
    "MAX_LINE",
    "ProtocolError",
    "Request",
    "Response",
    "parse_request",
    "parse_response",
]

#: The line a bot prints after its answer to stay alive for the next request.
KEEP_RUNNING: Final = ">>>BOTZONE_REQUEST_KEEP_RUNNING<<<"
#: Longest request or response line we read (a Mahjong line is under 100 characters).
MAX_LINE: Final = 65_536

_RESPONSE_VERBS: Final = frozenset({"PASS", "PLAY", "GANG", "BUGANG", "PENG", "CHI", "HU"})
_PLAYER_VERBS: Final = frozenset({"DRAW", "PLAY", "PENG", "CHI", "GANG", "BUGANG", "BUHUA"})


class ProtocolError(ValueError):
    """A line that is not a request or response of the game's grammar (one-line message)."""


def _short(text: str) -> str:
    return repr(text[:60] + ("…" if len(text) > 60 else ""))


def _tile(name: str, where: str) -> int:
    try:
        return T.from_botzone(name)
    except ValueError:
        raise ProtocolError(f"{where}: unknown tile name {_short(name)}") from None


def _seat(word: str, where: str) -> int:
    if word not in ("0", "1", "2", "3"):
        raise ProtocolError(f"{where}: {_short(word)} is not a seat 0-3")
    return int(word)


@dataclass(frozen=True, slots=True)
class Request:
    """One judge request.  ``kind`` is the leading number; ``verb`` is ``INIT``, ``DEAL``,
    ``DRAW_SELF`` or a player verb; ``tiles`` are tile codes (a CHI: middle, then discard)."""

    kind: int
    verb: str
    player: int | None = None
    tiles: tuple[int, ...] = ()
    quan: int | None = None
    flowers: tuple[int, ...] = ()

    def text(self) -> str:
        """The request as the judge writes it."""
        names = " ".join(T.to_botzone(t) for t in self.tiles)
        if self.kind == 0:
            return f"0 {self.player} {self.quan}"
        if self.kind == 1:
            counts = " ".join(str(n) for n in self.flowers)
            rest = " ".join(T.to_botzone(t) for t in self.tiles)
            return f"1 {counts} {rest}"
        if self.kind == 2:
            return f"2 {names}"
        return f"3 {self.player} {self.verb}" + (f" {names}" if names else "")


def parse_request(line: str) -> Request:
    """A request line → :class:`Request` (raises :class:`ProtocolError`)."""
    if len(line) > MAX_LINE:
        raise ProtocolError(f"request line of {len(line)} characters (at most {MAX_LINE})")
    w = line.split()
    if not w:
        raise ProtocolError("empty request")
    head = w[0]
    where = f"request {_short(line.strip())}"
    if head == "0":
        if len(w) != 3:
            raise ProtocolError(f"{where}: the first request is '0 id quan'")
        return Request(0, "INIT", player=_seat(w[1], where), quan=_seat(w[2], where))
    if head == "1":
        if len(w) < 18 or not all(x.isdigit() for x in w[1:5]):
            raise ProtocolError(f"{where}: the deal is '1 h0 h1 h2 h3' and 13 tiles")
        counts = tuple(int(x) for x in w[1:5])
        if len(w) != 18 + sum(counts):
            raise ProtocolError(f"{where}: {len(w) - 5} tiles for 13 plus {sum(counts)} flowers")
        hand = tuple(_tile(x, where) for x in w[5:])
        return Request(1, "DEAL", tiles=hand, flowers=counts)
    if head == "2":
        if len(w) != 2:
            raise ProtocolError(f"{where}: a draw is '2 tile'")
        return Request(2, "DRAW_SELF", tiles=(_tile(w[1], where),))
    if head == "3":
        if len(w) < 3 or w[2] not in _PLAYER_VERBS:
            raise ProtocolError(f"{where}: not '3 player VERB …' with a known verb")
        p = _seat(w[1], where)
        verb = w[2]
        want = {"DRAW": 0, "GANG": 0, "CHI": 2}.get(verb, 1)
        if len(w) - 3 != want:
            raise ProtocolError(f"{where}: {verb} takes {want} tile(s)")
        return Request(3, verb, player=p, tiles=tuple(_tile(x, where) for x in w[3:]))
    raise ProtocolError(f"{where}: unknown request type {_short(head)}")


@dataclass(frozen=True, slots=True)
class Response:
    """One bot response: ``verb`` and its tiles (``CHI``: middle, then discard)."""

    verb: str
    tiles: tuple[int, ...] = ()

    def text(self) -> str:
        return " ".join([self.verb, *(T.to_botzone(t) for t in self.tiles)])


PASS: Final = Response("PASS")


def parse_response(line: str) -> Response:
    """A response line → :class:`Response` (raises :class:`ProtocolError`)."""
    if len(line) > MAX_LINE:
        raise ProtocolError(f"response line of {len(line)} characters (at most {MAX_LINE})")
    w = line.split()
    if not w:
        raise ProtocolError("empty response")
    verb = w[0]
    if verb not in _RESPONSE_VERBS:
        raise ProtocolError(f"unknown response {_short(line.strip())}")
    allowed = {"PASS": (0,), "HU": (0,), "GANG": (0, 1), "CHI": (2,)}.get(verb, (1,))
    if len(w) - 1 not in allowed:
        raise ProtocolError(f"response {_short(line.strip())}: wrong number of tiles for {verb}")
    where = f"response {_short(line.strip())}"
    tiles = tuple(_tile(x, where) for x in w[1:])
    if any(T.is_flower(t) for t in tiles):
        raise ProtocolError(f"{where}: a flower cannot be played or melded")
    return Response(verb, tiles)
