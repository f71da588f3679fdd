"""A client's answer (``<D>``, ``<REACH>``, ``<N>``) matched against the engine's legal actions.

The table never trusts a reply: the tile ids must be ids the seat holds, and the action must be
one of the engine's legal events for the pending decision, or :class:`IllegalReply` is raised
(the table then drops the client and plays the seat's safe default).  Ids name physical copies;
the engine speaks tile codes, so a discard matches by code and the table keeps the client's ids
as hints to show exactly the copy the client named.

``<N type=…>`` types: none = pass, 1 pon (``hai0``/``hai1`` the two tiles from the hand),
2 open kan, 3 chi (``hai0``/``hai1``), 4 closed kan (``hai``), 5 added kan (``hai``), 6 ron,
7 tsumo, 9 nine-terminals draw, 10 set a North aside (three players; no tile named: the table
takes one of the seat's Norths).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from tenpai import tiles as T
from tenpai.events import Event
from tenpai.serve.tenhou.tiles136 import PhysicalRound, TileIdError, code_of
from tenpai.serve.tenhou.wire import Tag, WireError

__all__ = ["DECISION_TAGS", "IllegalReply", "Matched", "is_pass", "match_reply"]

#: Tags that answer a decision (anything else a client may send is bookkeeping).
DECISION_TAGS = frozenset({"D", "N", "REACH"})

_N_TYPES = {
    1: "pon", 2: "daiminkan", 3: "chi", 4: "ankan", 5: "kakan", 9: "ryukyoku", 10: "nukidora",
}


class IllegalReply(ValueError):
    """A reply that is not one of the legal actions (the message says what and why)."""


@dataclass(frozen=True, slots=True)
class Matched:
    """The legal event a reply stands for, and the tile ids the client named."""

    event: Event
    hints: tuple[int, ...] = ()


def is_pass(tag: Tag) -> bool:
    return tag.name == "N" and "type" not in tag.attrs


def _held(phys: PhysicalRound, seat: int, tile_id: int, what: str) -> int:
    if tile_id not in phys.hands[seat]:
        raise IllegalReply(f"{what}: seat {seat} does not hold tile id {tile_id}")
    return code_of(tile_id, phys.red)


def match_reply(tag: Tag, seat: int, legal: Sequence[Event], phys: PhysicalRound) -> Matched:
    """The legal event ``tag`` asks for; :class:`IllegalReply` if there is none."""
    try:
        return _match(tag, seat, legal, phys)
    except (WireError, TileIdError) as exc:
        raise IllegalReply(str(exc)) from None


def _match(tag: Tag, seat: int, legal: Sequence[Event], phys: PhysicalRound) -> Matched:
    if tag.name == "D":
        tid = tag.number if tag.number is not None else tag.int_attr("p")
        code = _held(phys, seat, tid, "discard")
        same = [e for e in legal if e.type == "dahai" and e.pai == code]
        if not same:
            raise IllegalReply(f"discard of {T.to_mjai(code)} (id {tid}) is not legal now")
        tsumogiri = tid == phys.drawn[seat]
        exact = [e for e in same if bool(e.tsumogiri) == tsumogiri]
        return Matched((exact or same)[0], (tid,))
    if tag.name == "REACH":
        for e in legal:
            if e.type == "reach":
                return Matched(e)
        raise IllegalReply("riichi is not legal now")
    if tag.name != "N":
        raise IllegalReply(f"<{tag.name}> does not answer a decision")
    if is_pass(tag):
        for e in legal:
            if e.type == "none":
                return Matched(e)
        raise IllegalReply("a pass where the seat must act")
    kind = tag.int_attr("type")
    if kind in (6, 7):
        wins = [e for e in legal if e.type == "hora" and ((e.target == seat) == (kind == 7))]
        if not wins:
            raise IllegalReply(f"{'tsumo' if kind == 7 else 'ron'} is not legal now")
        return Matched(wins[0])
    typ = _N_TYPES.get(kind)
    if typ is None:
        raise IllegalReply(f"<N type={kind}> is not a call this table knows")
    options = [e for e in legal if e.type == typ]
    if not options:
        raise IllegalReply(f"{typ} is not legal now")
    if typ in ("pon", "chi"):
        ids = [tag.int_attr("hai0"), tag.int_attr("hai1")]
        codes = sorted(_held(phys, seat, i, typ) for i in ids)
        for e in options:
            if sorted(e.consumed) == codes:
                return Matched(e, tuple(ids))
        raise IllegalReply(f"{typ} with {[T.to_mjai(c) for c in codes]} is not legal now")
    if typ in ("ankan", "kakan"):
        tid = tag.int_attr("hai")
        kind_wanted = tid // 4
        for e in options:
            tiles = e.consumed if typ == "ankan" else ((e.pai,) if e.pai is not None else ())
            if tiles and T.kind_of(tiles[0]) == kind_wanted:
                hint = (tid,) if tid in phys.hands[seat] else ()
                return Matched(e, hint)
        raise IllegalReply(f"{typ} of tile id {tid} is not legal now")
    return Matched(options[0])
