"""Events → tenhou.net/6 JSON (the format of the tenhou.net/6 viewer and editor).

A round is ``[[round, honba, deposits], scores, dora, ura, hand0, draws0, discards0, …, result]``
with calls written as strings whose letter position names the seat the tile came from.
Deltas in the result are the score changes including the riichi deposits a winner collects,
exactly as ``hora.deltas`` (and mjlog ``sc``) have them.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from tenpai import tiles as T
from tenpai.events import Event
from tenpai.records.errors import RecordContentError, in_record_terms
from tenpai.records.game import Game
from tenpai.records.source import write_text_atomic
from tenpai.records.tenhou6_text import (
    ALL_NOTEN,
    ALL_TENPAI,
    DAN_NAMES,
    DRAW_NAMES,
    YAKUMAN_NAMES,
    point_label,
    rule_disp,
    yaku_label,
)
from tenpai.records.yaku_names import tenhou_yaku_name

__all__ = ["TSUMOGIRI", "game_to_tenhou6", "round_to_tenhou6", "viewer_links", "write_tenhou6"]

TSUMOGIRI = 60
_Item = int | str


def _c(t: int) -> str:
    return str(T.to_tenhou6(t))


def _tenhou_order(tiles: tuple[int, ...] | list[int]) -> list[int]:
    """tenhou.net/6 lists a red five after the plain fives of its suit (hands and calls)."""
    return sorted(tiles, key=lambda t: (T.kind_of(t), T.is_red(t)))


def _insert(own: list[str], index: int, letter: str, called: str) -> str:
    return "".join([*own[:index], letter + called, *own[index:]])


def _rel(actor: int, target: int) -> int:
    """1 = next seat (shimocha), 2 = opposite, 3 = previous seat (kamicha)."""
    return (target - actor) % 4


_PON_POS = {3: 0, 2: 1, 1: 2}
_KAN_POS = {3: 0, 2: 1, 1: 3}


class _RoundWriter:
    def __init__(self, events: list[Event], n: int, where: str) -> None:
        self.events = events
        self.n = n
        self.where = where
        self.draws: list[list[_Item]] = [[] for _ in range(4)]
        self.discards: list[list[_Item]] = [[] for _ in range(4)]
        self.pons: dict[tuple[int, int], tuple[int, int, tuple[int, ...]]] = {}
        #: the event being written, named in an error
        self.current: Event | None = None

    def write(self) -> list[Any]:
        ev = self.events
        if not ev or ev[0].type != "start_kyoku":
            raise ValueError("round does not begin with start_kyoku")
        sk = ev[0]
        dora = [T.to_tenhou6(sk.dora_marker)] if sk.dora_marker is not None else []
        ura: list[int] = []
        reached: set[int] = set()
        reach_now: int | None = None
        last_draw: dict[int, int] = {}
        horas: list[Event] = []
        ryu: Event | None = None
        for e in ev[1:]:
            self.current = e
            a = e.actor if e.actor is not None else -1
            if e.type == "tsumo":
                assert e.pai is not None
                self.draws[a].append(T.to_tenhou6(e.pai))
                last_draw[a] = e.pai
            elif e.type == "dahai":
                assert e.pai is not None
                code: _Item = TSUMOGIRI if e.tsumogiri else T.to_tenhou6(e.pai)
                if reach_now == a:
                    code = f"r{code}"
                    reach_now = None
                self.discards[a].append(code)
            elif e.type == "reach":
                reach_now = a
            elif e.type == "reach_accepted":
                reached.add(a)
            elif e.type in ("chi", "pon", "daiminkan"):
                self.call(e)
            elif e.type == "ankan":
                own = [_c(t) for t in _tenhou_order(e.consumed)]
                self.discards[a].append(_insert(own, 3, "a", own.pop()))
            elif e.type == "kakan":
                assert e.pai is not None
                kind = T.kind_of(e.pai)
                if (a, kind) not in self.pons:
                    raise ValueError(f"kakan by seat {a} without a matching pon")
                target, called, consumed = self.pons[(a, kind)]
                own = [_c(t) for t in _tenhou_order(consumed)]
                own.remove(_c(called))
                pos = _PON_POS[_rel(a, target)]
                self.discards[a].append(_insert(own, pos, "k", _c(e.pai) + _c(called)))
            elif e.type == "nukidora":
                assert e.pai is not None
                self.discards[a].append(f"f{_c(e.pai)}")
            elif e.type == "dora":
                assert e.dora_marker is not None
                dora.append(T.to_tenhou6(e.dora_marker))
            elif e.type == "hora":
                horas.append(e)
                if e.ura_markers and not ura:
                    ura = [T.to_tenhou6(t) for t in e.ura_markers]
            elif e.type == "ryukyoku":
                ryu = e
            elif e.type in ("end_kyoku", "none"):
                pass
            else:
                raise ValueError(f"event {e.type} has no tenhou.net/6 form")
        assert sk.bakaze is not None and sk.kyoku is not None
        head: list[Any] = [
            [sk.bakaze * 4 + sk.kyoku, sk.honba or 0, sk.kyotaku or 0],
            list(sk.scores) + [0] * (4 - len(sk.scores)),
            dora,
            ura,
        ]
        for s in range(4):
            hand = sk.tehais[s] if s < len(sk.tehais) else None
            shown = _tenhou_order(hand or ())
            head += [[T.to_tenhou6(t) for t in shown], self.draws[s], self.discards[s]]
        head.append(self.result(horas, ryu, sk))
        return head

    def call(self, e: Event) -> None:
        assert e.actor is not None and e.target is not None and e.pai is not None
        a = e.actor
        own = [_c(t) for t in _tenhou_order(e.consumed)]
        rel = _rel(a, e.target)
        if e.type == "chi":
            item = "c" + _c(e.pai) + "".join(own)
        elif e.type == "pon":
            item = _insert(own, _PON_POS[rel], "p", _c(e.pai))
            self.pons[(a, T.kind_of(e.pai))] = (e.target, e.pai, (*e.consumed, e.pai))
        else:
            item = _insert(own, _KAN_POS[rel], "m", _c(e.pai))
            self.discards[a].append(0)
        self.draws[a].append(item)

    def result(self, horas: list[Event], ryu: Event | None, sk: Event) -> list[Any]:
        n = self.n

        def pad(d: tuple[int, ...]) -> list[int]:
            return list(d) + [0] * (4 - len(d))

        if horas:
            out: list[Any] = ["和了"]
            for h in horas:
                assert h.actor is not None and h.target is not None
                deltas = pad(h.deltas)
                # games played by the engine carry its yaku ids: write Tenhou's names
                seat = (h.actor - (sk.oya or 0)) % n  # three players: East, South, West
                named = [(tenhou_yaku_name(y, seat, sk.bakaze or 0), v) for y, v in h.yaku]
                yakuman = sum(1 for name, _ in named if name in YAKUMAN_NAMES)
                label = point_label(
                    h.han or 0,
                    h.fu,
                    yakuman,
                    tsumo=h.actor == h.target,
                    dealer=h.actor == sk.oya,
                )
                info: list[Any] = [
                    h.actor,
                    h.target,
                    h.pao if h.pao is not None else h.actor,
                    label,
                ]
                info += [yaku_label(name, han) for name, han in named]
                out += [deltas, info]
            return out
        if ryu is None:
            raise ValueError("round has neither hora nor ryukyoku")
        kind = ryu.kind or "exhaustive"
        if kind not in DRAW_NAMES:
            raise ValueError(f"draw kind {kind!r} has no tenhou.net/6 name")
        name = DRAW_NAMES[kind]
        if kind == "exhaustive" and not any(ryu.deltas):
            shown = [h for h in ryu.tehais if h is not None]
            name = ALL_TENPAI if shown and len(shown) == n else ALL_NOTEN
        if any(ryu.deltas):
            return [name, pad(ryu.deltas)]
        return [name]


def round_to_tenhou6(events: list[Event], players: int = 4, where: str = "") -> list[Any]:
    """One round (start_kyoku … end_kyoku) as a tenhou.net/6 round array."""
    writer = _RoundWriter(events, players, where)
    try:
        return writer.write()
    except (ValueError, KeyError, IndexError, AssertionError) as exc:
        # the writer asserts the fields it needs: name the event that lacks them
        at = f" at {json.dumps(writer.current.to_mjai())}" if writer.current is not None else ""
        raise RecordContentError(
            f"cannot write round as tenhou.net/6: {in_record_terms(exc)}{at}", None, where
        ) from exc


def game_to_tenhou6(game: Game, rounds: list[int] | None = None) -> dict[str, Any]:
    """The JSON object of a game (or of some of its rounds, for viewer links)."""
    picked = range(len(game.rounds)) if rounds is None else rounds
    log = [
        round_to_tenhou6(game.rounds[i], game.players, f"round {i}") for i in picked
    ]
    names = list(game.names) + [""] * (4 - len(game.names))
    out: dict[str, Any] = {
        "title": [game.extra.get("title", ""), game.extra.get("ref", "")],
        "name": names[:4],
        "rule": {"disp": rule_disp(game.rules), "aka": 0 if game.rules.red_fives is False else 1},
        "log": log,
    }
    if game.dan:
        out["dan"] = [DAN_NAMES[d] if 0 <= d < len(DAN_NAMES) else str(d) for d in game.dan]
    if game.rates:
        out["rate"] = list(game.rates)
    if game.sexes:
        out["sx"] = list(game.sexes)
    if game.final_scores is not None and game.final_points is not None and rounds is None:
        sc: list[float] = []
        for s, p in zip(game.final_scores, game.final_points):
            sc += [s, p]
        out["sc"] = sc
    return out


def write_tenhou6(game: Game, path: str | Path) -> None:
    """Write a game as one tenhou.net/6 JSON object, atomically."""
    text = json.dumps(game_to_tenhou6(game), ensure_ascii=False, separators=(",", ":"))
    write_text_atomic(path, text + "\n")


VIEWER_URL = "https://tenhou.net/6/#json="


def viewer_link(game: Game, index: int) -> str:
    """The tenhou.net/6 link of round ``index``: the URL-encoded JSON of a game object holding
    that round alone, so the viewer opens at it.  A round the format cannot hold is a
    :class:`RecordContentError`."""
    from urllib.parse import quote

    obj = game_to_tenhou6(game, rounds=[index])
    text = json.dumps(obj, ensure_ascii=False, separators=(",", ":"))
    return VIEWER_URL + quote(text, safe="")


def viewer_links(game: Game) -> list[str]:
    """One tenhou.net/6 link per round (:func:`viewer_link`)."""
    return [viewer_link(game, i) for i in range(len(game.rounds))]
