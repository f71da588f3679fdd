"""tenhou.net/6 JSON → :class:`Game`.

The format lists each seat's draws and discards separately; this module turns the arrays into
:class:`~tenpai.records.tenhou6_round.RoundData` and lets :mod:`tenpai.records.tenhou6_round`
re-interleave them.  Accepts one game per file, one round per line, or a text whose viewer
links carry the JSON.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from tenpai import tiles as T
from tenpai.events import Event
from tenpai.records.errors import (
    RecordContentError,
    RecordError,
    RecordSyntaxError,
    RecordTruncatedError,
    in_record_terms,
)
from tenpai.records.game import Game, RuleFlags
from tenpai.records.source import DEFAULT_MAX_BYTES, read_text
from tenpai.records.tenhou6_links import has_viewer_link, objects_from_links
from tenpai.records.tenhou6_round import Call, Discard, RoundData, read_round
from tenpai.records.tenhou6_text import DAN_NAMES

__all__ = ["parse_tenhou6", "read_tenhou6", "round_data_from_tenhou6", "round_from_tenhou6"]

TSUMOGIRI = 60
_CALL_RE = re.compile(r"^((?:\d\d)*)([cpmkaf])(\d\d)((?:\d\d)*)$")
_ROOMS = {"般": "ippan", "上": "joukyuu", "特": "tokujou", "鳳": "houou"}
#: The discarder's seat relative to the caller, by the position of the letter among the pairs.
_REL_OF_PON_POS = {0: 3, 1: 2, 2: 1}
_REL_OF_KAN_POS = {0: 3, 1: 2, 3: 1}


def _tile(code: Any) -> int:
    if isinstance(code, bool) or not isinstance(code, int):
        raise ValueError(f"tile code {code!r} is not an integer")
    return T.from_tenhou6(code)


def _pairs(s: str) -> list[int]:
    return [_tile(int(s[i : i + 2])) for i in range(0, len(s), 2)]


def _parse_call(item: str) -> Call:
    """A call string (``"4242p42"``, ``"c365337"``, ``"k51151515"`` …) as a :class:`Call`."""
    m = _CALL_RE.match(item)
    if m is None:
        raise ValueError(f"unreadable call {item!r}")
    letter, before = m.group(2), _pairs(m.group(1))
    tile = _tile(int(m.group(3)))
    tiles = (tile, *before, *_pairs(m.group(4)))
    rel: int | None = None
    if letter == "c":
        rel = 3
    elif letter == "p":
        rel = _REL_OF_PON_POS.get(len(before), -1)
    elif letter == "m":
        rel = _REL_OF_KAN_POS.get(len(before), -1)
    return Call(letter, tile, tiles, rel, item)


def _draw_item(x: Any) -> Any:
    return _parse_call(x) if isinstance(x, str) else _tile(x)


def _discard_item(y: Any) -> Any:
    if y == 0:
        return 0  # the placeholder after an open kan
    reach = False
    if isinstance(y, str) and y.startswith("r"):
        reach, y = True, int(y[1:])
    if isinstance(y, str):
        return _parse_call(y)
    if y == TSUMOGIRI:
        return Discard(None, reach, True)
    return Discard(_tile(y), reach, False)


#: no real table comes near these; beyond them a header is corrupt or forged
_MAX_SCORE = 10_000_000
_MAX_HONBA = 999


def _whole(value: Any, field: str, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise ValueError(f"round header {field} {value!r} is not a whole number "
                         f"from {low} to {high}")
    return value


def _round_header(r: list[Any]) -> tuple[int, int, int, list[int]]:
    """Round number, honba, deposits and scores, refusing what no game can reach.

    A one-round fragment is replayed from its header alone, so 25000.5 points (rounded
    silently before) or 94 deposits were taken on trust.  Deposits pile up only over draws,
    each adding at most one stick per player and one honba: at most 4 x honba of them.
    """
    head, scores = r[0], r[1]
    if not isinstance(head, list) or len(head) < 3 or not isinstance(scores, list):
        raise ValueError("round header: [round, honba, deposits] and a list of scores expected")
    rnd = _whole(head[0], "round", 0, 15)
    honba = _whole(head[1], "honba", 0, _MAX_HONBA)
    kyotaku = _whole(head[2], "kyotaku", 0, 4 * _MAX_HONBA)
    if kyotaku > 4 * honba:
        raise ValueError(f"round header kyotaku {kyotaku}: at most {4 * honba} deposits "
                         f"over {honba} honba")
    return rnd, honba, kyotaku, [_whole(x, "scores", -_MAX_SCORE, _MAX_SCORE) for x in scores]


def round_data_from_tenhou6(r: list[Any]) -> RoundData:
    """A tenhou.net/6 round array as :class:`RoundData`."""
    if not isinstance(r, list) or len(r) < 17:
        raise ValueError("a round must be a list of 17 items")
    rnd, honba, kyotaku, scores = _round_header(r)
    return RoundData(
        rnd=rnd,
        honba=honba,
        kyotaku=kyotaku,
        scores=scores,
        dora=[_tile(x) for x in r[2]],
        ura=[_tile(x) for x in r[3]],
        hands=[[_tile(x) for x in r[4 + 3 * s]] for s in range(4)],
        draws=[[_draw_item(x) for x in r[5 + 3 * s]] for s in range(4)],
        discards=[[_discard_item(y) for y in r[6 + 3 * s]] for s in range(4)],
        result=r[16],
    )


def round_from_tenhou6(r: list[Any], red: bool = True, where: str = "") -> list[Event]:
    """Events of one tenhou.net/6 round array.

    The lists say which tile each call took and from which seat, but not which discard of that
    tile: when a seat discards the tile several times, the reader tries the interpretations
    depth-first (:func:`tenpai.records.tenhou6_round.read_round`).  mjai-reviewer's "confusing
    naki" files are such rounds.
    """
    return read_round(round_data_from_tenhou6(r))


def read_tenhou6(
    path: str | Path, *, strict: bool = True, max_bytes: int = DEFAULT_MAX_BYTES
) -> Game:
    return parse_tenhou6(read_text(path, max_bytes), str(path), strict=strict)


def _objects(text: str, source: str) -> list[tuple[int, dict[str, Any]]]:
    """The JSON objects of a file: the whole text, one per line, or one per viewer link."""
    stripped = text.strip()
    try:
        obj = json.loads(stripped)
        return [(1, obj)]
    except json.JSONDecodeError as whole_exc:
        if not stripped.startswith("{") and has_viewer_link(stripped):
            return objects_from_links(text, source)
        out = []
        for ln, line in enumerate(text.splitlines(), 1):
            if not line.strip():
                continue
            try:
                out.append((ln, json.loads(line)))
            except json.JSONDecodeError as exc:
                raise RecordSyntaxError(f"bad JSON: {exc.msg}", source, f"line {ln}") from (
                    exc if len(out) else whole_exc
                )
        return out


def parse_tenhou6(text: str, source: str = "<memory>", *, strict: bool = True) -> Game:
    """Parse tenhou.net/6 JSON: one object with all rounds, one object per line, or a text
    whose viewer links (``tenhou.net/6/#json=…``) carry the objects."""
    objs = _objects(text, source)
    if not objs:
        raise RecordTruncatedError("empty tenhou.net/6 record", source)
    game = Game(source=source, format="tenhou6")
    first = objs[0][1]
    if not isinstance(first, dict) or "log" not in first:
        raise RecordContentError("not a tenhou.net/6 object (no 'log')", source, "line 1")
    try:
        rule = first.get("rule") or {}
        red = bool(rule.get("aka", rule.get("aka51", 1)))
        disp = str(rule.get("disp", ""))
        names = [str(n) for n in first.get("name", [])]
        hands0 = first["log"][0] if first["log"] else None
        players = 3 if hands0 is not None and not hands0[13] else 4
        game.rules = RuleFlags(
            players=players,
            red_fives=red,
            hanchan="南" in disp if disp else None,
            open_tanyao="喰" in disp if disp else None,
            fast="速" in disp if disp else None,
            room=_ROOMS.get(next((c for c in disp if c in _ROOMS), "")),
        )
        game.names = tuple(names[:players])
        if "dan" in first:
            game.dan = tuple(
                DAN_NAMES.index(d) if d in DAN_NAMES else -1 for d in first["dan"][:players]
            )
        if "rate" in first:
            game.rates = tuple(float(x) for x in first["rate"][:players])
        if "sx" in first:
            game.sexes = tuple(str(x) for x in first["sx"][:players])
        if "sc" in first:
            sc = first["sc"]
            game.final_scores = tuple(int(sc[2 * i]) for i in range(players))
            game.final_points = tuple(float(sc[2 * i + 1]) for i in range(players))
        title = first.get("title")
        if isinstance(title, list) and title:
            game.extra["title"] = title[0]
        if "ref" in first:
            game.extra["ref"] = first["ref"]
    except (ValueError, TypeError, KeyError, IndexError, AttributeError) as exc:
        raise RecordContentError(f"bad header: {exc}", source, "line 1") from exc
    for ln, obj in objs:
        if not isinstance(obj, dict) or not isinstance(obj.get("log"), list):
            raise RecordContentError("object without a 'log' list", source, f"line {ln}")
        for r in obj["log"]:
            where = f"line {ln}, round {len(game.rounds)}"
            try:
                game.rounds.append(round_from_tenhou6(r, red, where))
            except RecordError:
                raise
            except (ValueError, TypeError, KeyError, IndexError, AttributeError,
                    AssertionError) as exc:
                if not strict and not game.rounds:
                    raise RecordContentError(f"{exc}", source, where) from exc
                raise RecordContentError(in_record_terms(exc, "the round array"), source,
                                         where) from exc
    return game
