"""Mahjong Soul games exported as "tenhou.net/6-like" JSON (majsoul-analysis-suite) → :class:`Game`.

The export keeps tenhou.net/6's outline — ``{"title", "name", "rule", "log": [round, …]}`` with
per-seat hand, draw and discard lists — but differs in every detail (docs/records.md lists them):

- a round has 16 items, not 17: ``[[kyoku, honba, kyotaku, s0, s1, s2, s3], dora, ura,
  (hand, draws, discards) × 4, result]``; the scores sit in the header, in hundreds;
- tiles are strings (``"3s"``, ``"0p"`` = red five, ``"5z"`` = white dragon);
- the dealer's hand lists 14 tiles (the first draw included);
- discards: ``"rX"`` the drawn tile X discarded (tsumogiri), ``"tX"`` riichi declared with X,
  ``"kX"`` an added kan of X; draws: ``"pA,B,C"`` pon, ``"cA,B,C"`` chi, ``"mA,B,C,D"`` open
  kan — the calls name neither the discarder nor the claimed tile, and an open kan has no
  ``0`` placeholder after it;
- the result is an object: ``{"agari": [{who, fromWho, points, …}], "owari": deltas, "sc":
  scores after}`` for wins, and for draws ``{"owari": [?, ?, s0..s3, ?, ?, d0..d3], "sc": []}``
  whose last four numbers are the score changes (the four before them the scores after the
  riichi deposits; the other four numbers are unexplained and ignored);
- no kan dora, no ura dora indicators, no yaku, han or fu are recorded.

The rounds are rebuilt with the tenhou.net/6 turn search (:mod:`tenpai.records.tenhou6_round`),
which also works out which discard each call took.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from tenpai import tiles as T
from tenpai.events import Event
from tenpai.records.errors import RecordContentError, RecordSyntaxError, RecordTruncatedError
from tenpai.records.game import Game, RuleFlags
from tenpai.records.source import DEFAULT_MAX_BYTES, read_text
from tenpai.records.tenhou6_round import Call, Discard, RoundData, read_round

__all__ = ["looks_like_majsoul_export", "parse_majsoul", "read_majsoul"]

#: The live wall of a four-player round, the dealer's fourteenth tile included.
LIVE_DRAWS = 136 - 4 * 13 - 14
#: ``"log":[[[a,b,c,d`` — a round header with more than three numbers (tenhou.net/6 has three).
_HEADER_RE = re.compile(r'"log"\s*:\s*\[\s*\[\s*\[\s*(-?\d+\s*,\s*){3}-?\d+')
_TILE_RE = re.compile(r"^[0-9][mpsz]$")


def looks_like_majsoul_export(head: str) -> bool:
    """Whether the start of a JSON text is this export rather than real tenhou.net/6."""
    return _HEADER_RE.search(head) is not None


def _tile(name: Any) -> int:
    if not isinstance(name, str) or not _TILE_RE.match(name):
        raise ValueError(f"tile {name!r} is not like '3s', '0p' or '5z'")
    (t,) = T.parse(name)
    return t


def _tiles(text: str) -> tuple[int, ...]:
    return tuple(_tile(x) for x in text.split(","))


def _draw_item(x: Any) -> Any:
    if isinstance(x, str) and x[:1] in ("p", "c", "m"):
        tiles = _tiles(x[1:])
        size = 4 if x[0] == "m" else 3
        if len(tiles) != size:
            raise ValueError(f"call {x!r} does not list {size} tiles")
        return Call(x[0], None, tiles, None, x)
    return _tile(x)


def _discard_item(y: Any) -> Any:
    if isinstance(y, str) and len(y) == 3:
        code, tile = y[0], _tile(y[1:])
        if code == "r":
            return Discard(tile, False, True)
        if code == "t":
            return Discard(tile, True, None)
        if code == "k":
            return Call("k", tile, (tile,), None, y)
        raise ValueError(f"unknown discard {y!r}")
    return Discard(_tile(y), False, False)


def _result(res: Any, n: int) -> list[Any]:
    """The result object as tenhou.net/6's result array."""
    if not isinstance(res, dict) or "owari" not in res:
        raise ValueError("round result missing")
    owari = [int(x) for x in res["owari"]]
    agari = res.get("agari")
    if not agari:
        if len(owari) != 12:
            raise ValueError(f"a draw's 'owari' holds {len(owari)} numbers, not 12")
        return ["流局", owari[8:12][:n]]
    if len(owari) != 4:
        raise ValueError(f"a win's 'owari' holds {len(owari)} numbers, not 4")
    wins = [(int(a["who"]), int(a["fromWho"]), int(a["points"])) for a in agari]
    out: list[Any] = ["和了"]
    if len(wins) == 1:
        who, frm, _ = wins[0]
        return [*out, owari, [who, frm, who]]
    # Several rons: the winner nearest after the discarder collects honba and deposits.
    frm = wins[0][1]
    first = min(wins, key=lambda w: (w[0] - frm) % 4)
    rest_total = [0] * 4
    per_win: dict[int, list[int]] = {}
    for who, f, points in wins:
        if f != frm or who == f:
            raise ValueError("several wins that are not rons on one discard")
        if (who, f, points) == first:
            continue
        d = [0] * 4
        d[who], d[f] = points, -points
        per_win[who] = d
        rest_total = [a + b for a, b in zip(rest_total, d, strict=True)]
    per_win[first[0]] = [a - b for a, b in zip(owari, rest_total, strict=True)]
    for who, f, _ in wins:
        out += [per_win[who], [who, f, who]]
    return out


def _round_data(r: Any) -> RoundData:
    if not isinstance(r, list) or len(r) != 16:
        raise ValueError("a round must be a list of 16 items")
    head = [int(x) for x in r[0]]
    if len(head) != 7:
        raise ValueError("a round header must be [kyoku, honba, kyotaku, four scores]")
    rnd, honba, kyotaku = head[:3]
    hands = [[_tile(x) for x in r[3 + 3 * s]] for s in range(4)]
    draws: list[list[Any]] = [[_draw_item(x) for x in r[4 + 3 * s]] for s in range(4)]
    discards: list[list[Any]] = [[_discard_item(y) for y in r[5 + 3 * s]] for s in range(4)]
    n = sum(1 for h in hands if h)
    if n != 4:
        raise ValueError(f"{n} seats hold tiles; only four-player exports are read")
    oya = rnd % 4
    if len(hands[oya]) != 14:
        raise ValueError(f"the dealer (seat {oya}) holds {len(hands[oya])} tiles, not 14")
    # The dealer's fourteenth tile plays the first draw: the one discarded if the first discard
    # is a tsumogiri, else the last one listed (the order of the deal) that is not discarded.
    first = discards[oya][0] if discards[oya] else None
    if isinstance(first, Discard) and first.tsumogiri:
        drawn = first.tile
    else:
        kept = [t for t in hands[oya] if not isinstance(first, Discard) or t != first.tile]
        drawn = kept[-1] if kept else hands[oya][-1]
    if drawn is None or drawn not in hands[oya]:
        raise ValueError("the dealer's first tsumogiri is not in the dealt hand")
    hands[oya].remove(drawn)
    draws[oya].insert(0, drawn)
    result = _result(r[15], n)
    if result[0] == "流局":
        n_draws = sum(1 for seat in draws for x in seat if not isinstance(x, Call))
        if n_draws != LIVE_DRAWS:
            raise ValueError(
                f"a draw after {n_draws} of {LIVE_DRAWS} tiles: an abortive draw, whose kind "
                "the export does not name"
            )
    return RoundData(
        rnd=rnd,
        honba=honba,
        kyotaku=kyotaku,
        scores=[100 * s for s in head[3:7]],
        dora=[_tile(x) for x in r[1]],
        ura=[_tile(x) for x in r[2]],
        hands=hands,
        draws=draws,
        discards=discards,
        result=result,
        kan_placeholder=False,
    )


def read_majsoul(
    path: str | Path, *, strict: bool = True, max_bytes: int = DEFAULT_MAX_BYTES
) -> Game:
    return parse_majsoul(read_text(path, max_bytes), str(path), strict=strict)


def parse_majsoul(text: str, source: str = "<memory>", *, strict: bool = True) -> Game:
    """Parse one game of the export.  ``strict=False`` keeps the rounds before a bad one."""
    try:
        obj = json.loads(text)
    except json.JSONDecodeError as exc:
        raise RecordSyntaxError(f"bad JSON: {exc.msg}", source, f"line {exc.lineno}") from exc
    if not isinstance(obj, dict) or not isinstance(obj.get("log"), list):
        raise RecordContentError("not a Mahjong Soul export (no 'log' list)", source)
    game = Game(source=source, format="majsoul")
    rule_obj = obj.get("rule")
    rule: dict[str, Any] = rule_obj if isinstance(rule_obj, dict) else {}
    disp = str(rule.get("disp", ""))
    game.rules = RuleFlags(
        red_fives=bool(rule.get("aka", 1)),
        hanchan=True if "South" in disp else False if "East" in disp else None,
        online=True,
    )
    names = obj.get("name")
    if isinstance(names, list):
        game.names = tuple(str(x) for x in names[:4])
    title = obj.get("title")
    if isinstance(title, list) and title:
        game.extra["title"] = " / ".join(str(x) for x in title if x)
    last: Any = None
    for i, r in enumerate(obj["log"]):
        where = f"round {i}"
        try:
            events = read_round(_round_data(r))
            gap = _gap(r, events)
            game.rounds.append(events)
        except (ValueError, TypeError, KeyError, IndexError, AttributeError) as exc:
            if strict or not game.rounds:
                raise RecordContentError(f"{exc}", source, where) from exc
            game.truncated = True
            game.extra["truncation"] = f"{where}: {exc}"
            break
        last = r
        if gap:
            game.extra.setdefault("lossy_rounds", {})[i] = gap
    if not game.rounds:
        raise RecordTruncatedError("no rounds", source)
    sc = last[15].get("sc") if isinstance(last, list) and isinstance(last[15], dict) else None
    # Only a win carries the scores after it; after a draw the final scores (leftover deposits
    # included) are not in the export, so the game is then checked round by round only.
    if isinstance(sc, list) and len(sc) == 4:
        game.final_scores = tuple(int(x) for x in sc)
    return game


def _gap(r: list[Any], events: list[Event]) -> str | None:
    """What the export provably left out of a round that a replay needs, or None.

    Three losses show in the real files: kans without their new dora indicator (the export
    keeps only the first), riichi declared with the drawn tile, which is written as a plain
    ``"rX"`` (the deposit then shows in the scores but no riichi in the lists), and the ura
    dora indicators, which the export never lists (so a riichi win's value, 7,700 for what the
    visible tiles make 3,900, cannot be rebuilt).
    """
    kans = sum(1 for e in events if e.type in ("ankan", "kakan", "daiminkan"))
    if kans > len(r[1]) - 1:
        return f"{kans} kan(s) but {len(r[1]) - 1} kan dora indicator(s)"
    start = events[0]
    reaches = [0] * 4
    for e in events:
        if e.type == "reach_accepted" and e.actor is not None:
            reaches[e.actor] += 1
    res = r[15]
    owari = [int(x) for x in res["owari"]]
    if res.get("agari"):
        paid_in = 1000 * (int(r[0][2]) + sum(reaches))
        if sum(owari) != paid_in:
            return (f"the win pays out {sum(owari)} in deposits but the lists show {paid_in}: "
                    "a riichi declaration is missing")
    else:
        before = [a - 1000 * k for a, k in zip(start.scores, reaches, strict=True)]
        if owari[2:6] != before:
            return (f"the scores after the deposits are {owari[2:6]}, the lists give {before}: "
                    "a riichi declaration is missing")
    riichi_winners = sorted({e.actor for e in events if e.type == "hora" and e.actor is not None
                             and reaches[e.actor]})
    if riichi_winners and not r[2]:
        return (f"seat(s) {riichi_winners} win after riichi but the export lists no ura dora "
                "indicators: the win's value cannot be rebuilt")
    return None
