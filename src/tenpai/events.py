"""The one event type every layer speaks: engine, records, replay, agents and viewers.

Events are mjai-shaped (the same type names and fields) so that converting to mjai JSON is a
field-by-field copy, but tiles are integer tile codes from :mod:`tenpai.tiles` rather than
strings, which keeps the engine and the encoders free of string handling.  Fields that an event
type does not use stay at their defaults and are left out of :meth:`Event.to_mjai`.

Extensions beyond mjai, all optional: ``meta`` (an agent's probabilities or values, for review),
``flower`` (MCR flower replacement), ``fan``/``yaku`` details on ``hora``, ``kind`` of an abortive
draw, ``pao`` (the liable seat) on ``hora``, ``nukidora`` (a three-player North set aside), and
``implicit`` passes (a ``none`` event with ``actor`` and ``choices``) emitted at claim
windows so datasets can learn when *not* to call.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields, replace
from typing import Any, Final, Literal

from tenpai import tiles as T

__all__ = ["EVENT_TYPES", "MJAI_DRAW_REASONS", "Event", "EventError", "EventType"]

EventType = Literal[
    "start_game",
    "start_kyoku",
    "tsumo",
    "dahai",
    "chi",
    "pon",
    "daiminkan",
    "kakan",
    "ankan",
    "dora",
    "reach",
    "reach_accepted",
    "hora",
    "ryukyoku",
    "end_kyoku",
    "end_game",
    "flower",
    "nukidora",
    "none",
]

EVENT_TYPES: Final = frozenset(EventType.__args__)  # type: ignore[attr-defined]

_TILE_FIELDS: Final = ("pai", "dora_marker")
_TILE_LIST_FIELDS: Final = ("consumed", "ura_markers", "hora_tehais")

#: The ``reason`` names mjai producers give a draw (Mortal, mjai.app, mjai-manue, akochan
#: spell them differently), as our ``kind`` names.  The record reader and the bot's wire reader
#: both read through this one table, so a log and a live server mean the same thing.
MJAI_DRAW_REASONS: Final = {
    "fanpai": "exhaustive",
    "exhaustive": "exhaustive",
    "ryukyoku": "exhaustive",
    "kyushukyuhai": "nine_terminals",
    "kyushu_kyuhai": "nine_terminals",
    "suufonrenda": "four_winds",
    "sufonrenta": "four_winds",
    "suuchariichi": "four_riichi",
    "suucha_riichi": "four_riichi",
    "suukaikan": "four_kans",
    "sukaikan": "four_kans",
    "sanchaho": "triple_ron",
    "nagashimangan": "nagashi_mangan",
    "nagashi_mangan": "nagashi_mangan",
}


class EventError(ValueError):
    """An event dictionary could not be read; the message names the field."""


@dataclass(frozen=True, slots=True)
class Event:
    """One thing that happened at a table (or a decision not to act).

    ``actor``/``target`` are seats 0-3.  ``tehais`` are the starting hands in ``start_kyoku``
    (``None`` entries for hands the observer may not see).  ``deltas`` are point changes.
    """

    type: EventType
    actor: int | None = None
    target: int | None = None
    pai: int | None = None
    consumed: tuple[int, ...] = ()
    tsumogiri: bool | None = None
    # start_game / start_kyoku
    names: tuple[str, ...] = ()
    bakaze: int | None = None
    kyoku: int | None = None
    honba: int | None = None
    kyotaku: int | None = None
    oya: int | None = None
    scores: tuple[int, ...] = ()
    tehais: tuple[tuple[int, ...] | None, ...] = ()
    dora_marker: int | None = None
    # results
    deltas: tuple[int, ...] = ()
    ura_markers: tuple[int, ...] = ()
    hora_tehais: tuple[int, ...] = ()
    han: int | None = None
    fu: int | None = None
    yaku: tuple[tuple[str, int], ...] = ()
    kind: str | None = None
    # hora: the seat liable for a yakuman (pao / sekinin barai), when there is one.  It keeps
    # its default although WinOutcome.pao has none: one class holds every event type, and
    # mjai lines and records written before the field existed carry no pao key.
    pao: int | None = None
    # decisions that were possible but not taken (claim-window passes)
    choices: tuple[str, ...] = ()
    meta: dict[str, Any] | None = field(default=None, compare=False)

    def with_(self, **changes: Any) -> Event:
        """A copy with some fields changed (events are immutable)."""
        return replace(self, **changes)

    # -- mjai ------------------------------------------------------------------
    def to_mjai(self) -> dict[str, Any]:
        """The mjai JSON object of this event; tiles become mjai names."""
        out: dict[str, Any] = {"type": self.type}
        for f in fields(self):
            name = f.name
            if name == "type":
                continue
            value = getattr(self, name)
            if value is None or value == () or (name == "meta" and not value):
                continue
            if name in _TILE_FIELDS:
                value = T.to_mjai(value)
            elif name in _TILE_LIST_FIELDS:
                value = [T.to_mjai(t) for t in value]
            elif name == "bakaze":
                value = "ESWN"[value]
            elif name == "tehais":
                value = [["?"] * 13 if h is None else [T.to_mjai(t) for t in h] for h in value]
            elif name == "yaku":
                value = [[n, v] for n, v in value]
            elif isinstance(value, tuple):
                value = list(value)
            out[name] = value
        if self.type == "start_kyoku" and "kyoku" in out:
            out["kyoku"] = self.kyoku + 1 if self.kyoku is not None else None
        return out

    @classmethod
    def from_mjai(cls, obj: dict[str, Any]) -> Event:
        """Read an mjai JSON object; unknown keys are ignored, bad values raise EventError."""
        typ = obj.get("type")
        if typ not in EVENT_TYPES:
            raise EventError(f"unknown event type {typ!r}")
        kw: dict[str, Any] = {"type": typ}
        try:
            for name in ("actor", "target", "honba", "kyotaku", "oya", "han", "fu", "pao"):
                if name in obj and obj[name] is not None:
                    kw[name] = int(obj[name])
            if "tsumogiri" in obj:
                kw["tsumogiri"] = bool(obj["tsumogiri"])
            for name in _TILE_FIELDS:
                if name in obj and obj[name] is not None and obj[name] != "?":
                    kw[name] = T.from_mjai(obj[name])
            for name in _TILE_LIST_FIELDS:
                if obj.get(name):
                    kw[name] = tuple(T.parse_mjai_list(obj[name]))
            if obj.get("uradora_markers"):
                kw["ura_markers"] = tuple(T.parse_mjai_list(obj["uradora_markers"]))
            if "names" in obj:
                kw["names"] = tuple(str(n) for n in obj["names"])
            if "bakaze" in obj:
                kw["bakaze"] = "ESWN".index(obj["bakaze"])
            if "kyoku" in obj:
                kw["kyoku"] = int(obj["kyoku"]) - 1
            for name in ("scores", "deltas"):
                if name in obj and obj[name] is not None:
                    kw[name] = tuple(int(x) for x in obj[name])
            if "tehais" in obj:
                kw["tehais"] = tuple(
                    None if all(t == "?" for t in h) else tuple(T.parse_mjai_list(h))
                    for h in obj["tehais"]
                )
            if "yaku" in obj:
                kw["yaku"] = tuple((str(n), int(v)) for n, v in obj["yaku"])
            if "kind" in obj:
                kw["kind"] = str(obj["kind"])
            if "choices" in obj:
                kw["choices"] = tuple(str(c) for c in obj["choices"])
            if "meta" in obj and isinstance(obj["meta"], dict):
                kw["meta"] = obj["meta"]
        except (ValueError, TypeError, KeyError, OverflowError) as exc:
            raise EventError(f"bad {typ} event: {exc}") from exc
        return cls(**kw)
