"""tenhou.net/6 JSON → :class:`Game`.

The format lists each seat's draws and discards separately, so the reader re-interleaves them
by playing the turn order: draw, discard, then look whether some seat's next "draw" is a call
on that discard.  Dora indicators beyond the first are placed where Tenhou reveals them: right
after a closed kan, and for an open or added kan at the next discard or kan (after the
replacement draw).  Accepts one game per file or one round per line.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from tenpai import tiles as T
from tenpai.events import Event
from tenpai.records.common import canonical
from tenpai.records.errors import (
    RecordContentError,
    RecordError,
    RecordSyntaxError,
    RecordTruncatedError,
)
from tenpai.records.game import Game, RuleFlags
from tenpai.records.source import DEFAULT_MAX_BYTES, read_text
from tenpai.records.tenhou6_links import has_viewer_link, objects_from_links
from tenpai.records.tenhou6_text import (
    ALL_TENPAI,
    DAN_NAMES,
    DRAW_KIND_OF_NAME,
    parse_point_label,
    parse_yaku_label,
)

__all__ = ["parse_tenhou6", "read_tenhou6", "round_from_tenhou6"]

TSUMOGIRI = 60
_CALL_RE = re.compile(r"^((?:\d\d)*)([cpmkaf])(\d\d)((?:\d\d)*)$")


def _tile(code: Any) -> int:
    if isinstance(code, bool) or not isinstance(code, int):
        raise ValueError(f"tile code {code!r} is not an integer")
    return T.from_tenhou6(code)


def _pairs(s: str) -> list[int]:
    return [_tile(int(s[i : i + 2])) for i in range(0, len(s), 2)]


def _parse_call(item: str) -> tuple[str, int, int, list[int]]:
    """(letter, index of the letter among the tiles, letter's tile, other tiles)."""
    m = _CALL_RE.match(item)
    if m is None:
        raise ValueError(f"unreadable call {item!r}")
    before = _pairs(m.group(1))
    return m.group(2), len(before), _tile(int(m.group(3))), before + _pairs(m.group(4))


_ROOMS = {"般": "ippan", "上": "joukyuu", "特": "tokujou", "鳳": "houou"}
_REL_OF_PON_POS = {0: 3, 1: 2, 2: 1}
_REL_OF_KAN_POS = {0: 3, 1: 2, 3: 1}


class _RoundReader:
    """One reading of a round, following ``plan`` at the places where several readings fit.

    A *choice point* is a discard that some seat's next call could take: the options are the
    fitting callers (pons and kans before chis) and, last, "nobody calls here" (the call then
    takes a later copy of the tile).  ``plan[i]`` picks the option of the i-th choice point met
    (0 beyond the plan); ``options`` records how many options each point had, so that
    :func:`_search` can enumerate the readings depth-first.
    """

    def __init__(
        self,
        r: list[Any],
        where: str,
        red: bool,
        plan: list[int] | None = None,
    ) -> None:
        self.plan = plan or []
        self.options: list[int] = []
        if not isinstance(r, list) or len(r) < 17:
            raise ValueError("a round must be a list of 17 items")
        self.where = where
        head = r[0]
        self.rnd, self.honba, self.kyotaku = (int(x) for x in head[:3])
        self.scores = [int(x) for x in r[1]]
        self.dora = [_tile(x) for x in r[2]]
        self.ura = [_tile(x) for x in r[3]]
        self.hands = [[_tile(x) for x in r[4 + 3 * s]] for s in range(4)]
        self.draws: list[list[Any]] = [list(r[5 + 3 * s]) for s in range(4)]
        self.discards: list[list[Any]] = [list(r[6 + 3 * s]) for s in range(4)]
        self.result = r[16]
        self.n = sum(1 for h in self.hands if h)
        if self.n not in (3, 4) or any(len(h) != 13 for h in self.hands[: self.n]):
            raise ValueError("hands must hold 13 tiles for 3 or 4 seats")
        if not self.dora:
            raise ValueError("no dora indicator")
        self.events: list[Event] = []
        self.held = [list(h) for h in self.hands]
        self.di = [0] * 4
        self.dj = [0] * 4
        self.dora_next = 1
        self.open_kan_waiting = 0
        self.reached: set[int] = set()

    # -- bookkeeping --------------------------------------------------------
    def emit(self, e: Event) -> None:
        self.events.append(e)
        a = e.actor
        if e.type == "tsumo":
            assert a is not None and e.pai is not None
            self.held[a].append(e.pai)
        elif e.type in ("dahai", "kakan", "nukidora"):
            assert a is not None and e.pai is not None
            self._take(a, [e.pai])
        elif e.type in ("chi", "pon", "daiminkan", "ankan"):
            assert a is not None
            self._take(a, list(e.consumed))

    def _take(self, seat: int, tiles: list[int]) -> None:
        for t in tiles:
            if t not in self.held[seat]:
                raise ValueError(f"seat {seat} does not hold {T.to_mjai(t)}")
            self.held[seat].remove(t)

    def reveal(self) -> None:
        if self.dora_next < len(self.dora):
            self.emit(Event("dora", dora_marker=self.dora[self.dora_next]))
            self.dora_next += 1

    def flush_open_kan(self) -> None:
        while self.open_kan_waiting:
            self.open_kan_waiting -= 1
            self.reveal()

    def remaining(self) -> bool:
        return any(
            self.di[s] < len(self.draws[s]) or self.dj[s] < len(self.discards[s])
            for s in range(4)
        )

    # -- the turn loop ------------------------------------------------------
    def read(self) -> list[Event]:
        oya = self.rnd % 4
        self.emit(
            Event(
                "start_kyoku",
                bakaze=self.rnd // 4 % 4,
                kyoku=self.rnd % 4,
                honba=self.honba,
                kyotaku=self.kyotaku,
                oya=oya,
                scores=tuple(self.scores[: self.n]),
                tehais=tuple(canonical(h) for h in self.hands[: self.n]),
                dora_marker=self.dora[0],
            )
        )
        actor = oya
        need_draw = True
        drawn: int | None = None
        last_pai: int | None = None
        last_actor = actor
        chankan = False
        steps = 0
        while True:
            steps += 1
            if steps > 2000:
                raise ValueError("round does not terminate")
            if need_draw:
                if self.di[actor] >= len(self.draws[actor]):
                    break
                x = self.draws[actor][self.di[actor]]
                self.di[actor] += 1
                if isinstance(x, str):
                    raise ValueError(f"seat {actor} calls {x!r} where a draw was expected")
                drawn = _tile(x)
                self.emit(Event("tsumo", actor=actor, pai=drawn))
                last_pai, last_actor = drawn, actor
            if self.dj[actor] >= len(self.discards[actor]):
                break
            y = self.discards[actor][self.dj[actor]]
            self.dj[actor] += 1
            reach = False
            if isinstance(y, str) and y.startswith("r"):
                reach = True
                y = int(y[1:])
            if isinstance(y, str):
                letter, _, lt, others = _parse_call(y)
                if letter == "a":
                    self.emit(Event("ankan", actor=actor, consumed=canonical([lt, *others])))
                    self.flush_open_kan()
                    self.reveal()
                elif letter == "k":
                    self.emit(Event("kakan", actor=actor, pai=lt, consumed=canonical(others)))
                    self.flush_open_kan()
                    self.open_kan_waiting += 1
                    last_pai, last_actor, chankan = lt, actor, True
                    if not self.remaining():
                        break
                    chankan = False
                elif letter == "f":
                    self.emit(Event("nukidora", actor=actor, pai=lt))
                    self.flush_open_kan()
                    last_pai, last_actor = lt, actor  # a ron on the North set aside
                    if not self.remaining():
                        break
                else:
                    raise ValueError(f"call {y!r} in a discard list")
                need_draw = True
                continue
            if y == TSUMOGIRI:
                if drawn is None:
                    raise ValueError(f"seat {actor} discards the drawn tile without a draw")
                pai, tsumogiri = drawn, True
            else:
                pai, tsumogiri = _tile(y), False
            self.flush_open_kan()
            if reach:
                self.emit(Event("reach", actor=actor))
            self.emit(Event("dahai", actor=actor, pai=pai, tsumogiri=tsumogiri))
            last_pai, last_actor = pai, actor
            drawn = None
            caller = self.find_caller(actor, pai)
            if caller is None and not self.remaining() and self.is_ron_on(actor):
                break
            if reach:
                self.emit(Event("reach_accepted", actor=actor))
                self.reached.add(actor)
            if caller is None:
                actor = (actor + 1) % self.n
                need_draw = True
                continue
            actor, need_draw = self.claim(caller, actor, pai), False
            if need_draw is False and self.events[-1].type == "daiminkan":
                need_draw = True
        self.finish(actor, drawn, last_pai, last_actor, chankan)
        return self.events

    def is_ron_on(self, actor: int) -> bool:
        res = self.result
        return bool(res) and res[0] == "和了" and any(
            isinstance(info, list) and len(info) >= 2 and info[1] == actor and info[0] != actor
            for info in res[2::2]
        )

    def find_caller(self, actor: int, pai: int) -> int | None:
        """The seat that calls this discard under the current plan, or None."""
        callers = self.candidate_callers(actor, pai)
        if not callers:
            return None
        i = len(self.options)
        self.options.append(len(callers) + 1)
        pick = self.plan[i] if i < len(self.plan) else 0
        return callers[pick] if pick < len(callers) else None

    def candidate_callers(self, actor: int, pai: int) -> list[int]:
        found: list[tuple[int, int]] = []
        for s in range(self.n):
            if s == actor or self.di[s] >= len(self.draws[s]):
                continue
            x = self.draws[s][self.di[s]]
            if not isinstance(x, str):
                continue
            letter, pos, lt, _ = _parse_call(x)
            if lt != pai:
                continue
            if letter == "c":
                rel = 3
            elif letter == "p":
                rel = _REL_OF_PON_POS.get(pos, -1)
            elif letter == "m":
                rel = _REL_OF_KAN_POS.get(pos, -1)
            else:
                raise ValueError(f"call {x!r} in a draw list")
            if (s + rel) % 4 == actor:
                found.append((0 if letter != "c" else 1, (s - actor) % 4))
        return [(actor + d) % 4 for _, d in sorted(found)]

    def claim(self, caller: int, target: int, pai: int) -> int:
        x = self.draws[caller][self.di[caller]]
        self.di[caller] += 1
        letter, _, lt, others = _parse_call(x)
        kind = {"c": "chi", "p": "pon", "m": "daiminkan"}[letter]
        self.emit(
            Event(kind, actor=caller, target=target, pai=lt, consumed=canonical(others))  # type: ignore[arg-type]
        )
        if kind == "daiminkan":
            self.flush_open_kan()
            if self.dj[caller] < len(self.discards[caller]) and self.discards[caller][
                self.dj[caller]
            ] == 0:
                self.dj[caller] += 1
            else:
                raise ValueError(f"open kan {x!r} is not followed by the 0 placeholder")
            self.open_kan_waiting += 1
        return caller

    def finish(
        self, actor: int, drawn: int | None, last_pai: int | None, last_actor: int, chankan: bool
    ) -> None:
        res = self.result
        if not isinstance(res, list) or not res or not isinstance(res[0], str):
            raise ValueError("round result missing")
        if self.remaining():
            raise ValueError("the round ends while calls or discards remain unplayed")
        if res[0] == "和了":
            for i in range(1, len(res) - 1, 2):
                deltas = [int(d) for d in res[i]][: self.n]
                info = res[i + 1]
                who, frm = int(info[0]), int(info[1])
                pao = int(info[2]) if len(info) > 2 and int(info[2]) != who else None
                fu: int | None = None
                han_label: int | None = None
                if len(info) > 3:
                    fu, han_label = parse_point_label(str(info[3]))
                yaku = tuple(parse_yaku_label(str(y)) for y in info[4:])
                han = sum(h for _, h in yaku) if yaku else han_label
                pai = last_pai if who != frm else drawn
                if who != frm and frm != last_actor:
                    raise ValueError(f"ron by seat {who} from seat {frm}, who did not discard last")
                if who == frm and (drawn is None or who != actor):
                    raise ValueError(f"tsumo by seat {who} without a draw")
                self.emit(
                    Event(
                        "hora",
                        actor=who,
                        target=frm,
                        pai=pai,
                        deltas=tuple(deltas),
                        ura_markers=tuple(self.ura) if who in self.reached else (),
                        han=han,
                        fu=fu,
                        yaku=yaku,
                        pao=pao,
                    )
                )
        else:
            kind = DRAW_KIND_OF_NAME.get(res[0])
            if kind is None:
                raise ValueError(f"unknown result {res[0]!r}")
            draw_deltas = tuple(int(d) for d in res[1])[: self.n] if len(res) > 1 else (0,) * self.n
            shown: list[tuple[int, ...] | None] = [None] * self.n
            act = None
            if kind == "exhaustive":
                for s in range(self.n):
                    if res[0] == ALL_TENPAI or draw_deltas[s] > 0:
                        shown[s] = canonical(self.held[s])
            elif kind == "nine_terminals":
                act = actor
                shown[actor] = canonical(self.held[actor])
            elif kind == "four_riichi":
                shown = [canonical(h) for h in self.held[: self.n]]
            tehais = tuple(shown) if any(h is not None for h in shown) else ()
            self.emit(Event("ryukyoku", actor=act, deltas=draw_deltas, kind=kind, tehais=tehais))
        self.emit(Event("end_kyoku"))


_MAX_READINGS = 4096


def _search(r: list[Any], where: str, red: bool) -> list[Event]:
    """The first reading of the round (depth-first over the choice points) that plays through.

    A wrong guess about which discard a call took shows up a few turns later (the caller is
    due to draw while its list holds the call, or a seat lacks the tiles it discards), so the
    search backs up to the latest choice point that still has an untried option.
    """
    plan: list[int] = []
    first_exc: ValueError | None = None
    for _ in range(_MAX_READINGS):
        reader = _RoundReader(r, where, red, plan=plan)
        try:
            return reader.read()
        except ValueError as exc:
            if first_exc is None:
                first_exc = exc
            opts = reader.options
            i = len(opts) - 1
            while i >= 0 and (plan[i] if i < len(plan) else 0) + 1 >= opts[i]:
                i -= 1
            if i < 0:
                raise first_exc from None
            plan = [plan[j] if j < len(plan) else 0 for j in range(i)]
            plan.append((reader.plan[i] if i < len(reader.plan) else 0) + 1)
    assert first_exc is not None
    raise ValueError(f"{first_exc} (no reading of the calls found in {_MAX_READINGS} tries)")


def round_from_tenhou6(r: list[Any], red: bool = True, where: str = "") -> list[Event]:
    """Events of one tenhou.net/6 round array.

    The lists say which tile each call took and from which seat, but not which discard of that
    tile: when a seat discards the tile several times, or a call could take the same tile from
    the same seat at two moments, the reader tries the interpretations depth-first (see
    :func:`_search`).  mjai-reviewer's "confusing naki" files are such rounds.
    """
    return _search(r, where, red)


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
                raise RecordContentError(f"{type(exc).__name__}: {exc}", source, where) from exc
    return game
