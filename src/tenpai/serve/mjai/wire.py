"""mjai messages on the wire: JSON lines to :class:`~tenpai.events.Event` and back.

Servers and bots differ in small ways (Mortal's and mjai.app's batches of events on one line,
mjai-manue's ``reason`` for an abortive draw, gimite's ``uradora_markers`` and ``yakus``), so
reading is tolerant of those spellings while writing always emits the common mjai form, the one
every bot we know reads: hidden tiles as ``"?"``, ``reason`` on ``ryukyoku``, ``scores`` after
every result.  Anything that cannot be read raises :class:`ProtocolError` with the offending
text, because a bot that guesses at a bad line desynchronises silently.

Three players: a North set aside is written ``{"type":"nukidora","actor":i,"pai":"N"}`` (the
form of the three-player libriichi builds); ``kita``, the name mjai.app-style servers and our
record files use, is read as the same event, with or without its ``pai``.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from tenpai import tiles as T
from tenpai.events import MJAI_DRAW_REASONS, Event, EventError

__all__ = [
    "CONTROL_TYPES",
    "ProtocolError",
    "action_to_mjai",
    "dumps",
    "event_to_wire",
    "parse_action",
    "parse_line",
    "read_message",
]

#: Message types that are not game events: the mjsonp handshake and server errors.
CONTROL_TYPES = frozenset({"hello", "join", "error", "start_game", "end_game"})

#: Our ``kind`` names of draws as the common mjai ``reason`` (what this side writes).
_KIND_TO_REASON = {
    "nine_terminals": "kyushukyuhai",
    "four_winds": "suufonrenda",
    "four_riichi": "suuchariichi",
    "four_kans": "suukaikan",
    "triple_ron": "sanchaho",
    "exhaustive": "fanpai",
    "nagashi_mangan": "nagashimangan",
}


class ProtocolError(ValueError):
    """A line that is not a readable mjai message; the text says what and quotes the line."""


def _quote(line: str) -> str:
    return line if len(line) <= 160 else line[:157] + "..."


def _no_constant(name: str) -> float:
    raise ValueError(f"{name} is not a number in JSON")


def _finite(text: str) -> float:
    value = float(text)
    if value != value or value in (float("inf"), float("-inf")):
        raise ValueError(f"the number {text[:40]} is out of range")
    return value


def parse_line(line: str) -> list[dict[str, Any]]:
    """The JSON objects of one line: an object, or a batch (a JSON array of objects)."""
    text = line.strip()
    if not text:
        raise ProtocolError("empty line")
    try:
        data = json.loads(text, parse_constant=_no_constant, parse_float=_finite)
    except json.JSONDecodeError as exc:
        raise ProtocolError(f"not JSON ({exc.msg}): {_quote(text)}") from None
    except RecursionError:
        raise ProtocolError(f"not JSON (nested too deeply): {_quote(text)}") from None
    except ValueError as exc:  # NaN, Infinity, 1e400: no mjai field is such a number
        raise ProtocolError(f"{exc}: {_quote(text)}") from None
    items = data if isinstance(data, list) else [data]
    for item in items:
        if not isinstance(item, dict) or not isinstance(item.get("type"), str):
            raise ProtocolError(f"not an mjai message (no type): {_quote(text)}")
    return items


def read_message(obj: dict[str, Any]) -> Event:
    """One game event; other producers' spellings are mapped onto ours first."""
    out = dict(obj)
    out.pop("possible_actions", None)
    out.pop("log", None)
    out.pop("meta", None)
    if "yakus" in out and "yaku" not in out:
        out["yaku"] = out.pop("yakus")
    if "fan" in out and "han" not in out:
        out["han"] = out.pop("fan")
    if "uradora_markers" in out and "ura_markers" not in out:
        out["ura_markers"] = out.pop("uradora_markers")
    if out.get("type") == "ryukyoku":
        reason = out.pop("reason", None)
        if "kind" not in out:
            reason = str(reason) if reason else "exhaustive"
            out["kind"] = MJAI_DRAW_REASONS.get(reason, reason)
        # A draw's hands are shown but never needed to follow the game; '?' lists vary in size.
        out.pop("tehais", None)
    if out.get("type") == "hora" and isinstance(out.get("yaku"), list):
        try:
            out["yaku"] = [[str(n), int(v)] for n, v in out["yaku"]]
        except (TypeError, ValueError):
            out.pop("yaku")
    if out.get("type") == "tsumo" and out.get("pai") == "?":
        out.pop("pai")
    if out.get("type") == "kita":
        # the only tile that can be set aside is a North, so producers may leave it out
        out["type"] = "nukidora"
        out.setdefault("pai", "N")
    try:
        return Event.from_mjai(out)
    except (EventError, ValueError, TypeError, KeyError, AttributeError, OverflowError) as exc:
        raise ProtocolError(f"bad {obj.get('type')} message: {exc}: {_quote(dumps(obj))}") from None


def parse_action(line: str) -> Event:
    """A bot's answer (one JSON object): ``none``, a discard, a call, a win, a declaration."""
    items = parse_line(line)
    if len(items) != 1:
        raise ProtocolError(f"one action expected, got {len(items)}: {_quote(line.strip())}")
    obj = items[0]
    if obj["type"] in CONTROL_TYPES:
        raise ProtocolError(f"{obj['type']} is not an action: {_quote(line.strip())}")
    return read_message(obj)


def dumps(obj: dict[str, Any]) -> str:
    """Compact JSON, one line."""
    return json.dumps(obj, ensure_ascii=False, separators=(",", ":"))


def action_to_mjai(action: Event) -> dict[str, Any]:
    """An action as a bot sends it (``reason`` for the nine-terminal draw)."""
    if action.type == "none":
        return {"type": "none"}
    out = action.to_mjai()
    if action.type == "ryukyoku":
        out.pop("kind", None)
        out.pop("deltas", None)
        out["reason"] = _KIND_TO_REASON.get(action.kind or "", action.kind or "")
    return out


def event_to_wire(e: Event, scores: Sequence[int] | None = None) -> dict[str, Any]:
    """An (already masked) event as an mjai server sends it.

    ``scores`` are the points after the event, added to results (``hora``, ``ryukyoku``) the way
    mjai servers do; hidden draws get ``"pai":"?"``, hidden hands thirteen ``"?"``.
    """
    out = e.to_mjai()
    out.pop("meta", None)
    t = e.type
    if t == "tsumo" and e.pai is None:
        out["pai"] = "?"
    elif t == "hora":
        if "ura_markers" in out:
            out["uradora_markers"] = out.pop("ura_markers")
        if "yaku" in out:
            out["yakus"] = out.pop("yaku")
        if "han" in out:
            out["fan"] = out.pop("han")
    elif t == "ryukyoku":
        out["reason"] = _KIND_TO_REASON.get(e.kind or "exhaustive", e.kind or "fanpai")
        out.pop("kind", None)
        if e.tehais:
            out["tenpais"] = [h is not None for h in e.tehais]
            out["tehais"] = [
                ["?"] * 13 if h is None else [T.to_mjai(x) for x in h] for h in e.tehais
            ]
    if scores is not None and t in ("hora", "ryukyoku"):
        out["scores"] = list(scores)
    return out
