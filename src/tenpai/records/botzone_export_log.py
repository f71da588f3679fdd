"""The ``logs`` of a Botzone match export (``<matchId>_lite.json``) → the events of its hand.

A Botzone MCR match is one hand.  Its ``logs`` alternate the judge's outputs
(``{"output": {"command", "content", "display"}, "verdict", …}``) with the four bots'
responses (``{"0": {"verdict", "response", …}, …}``).  ``content`` holds the requests each bot
was sent (``2 T7``, ``3 0 PLAY F2`` …, see :mod:`tenpai.records.botzone_json`) and, in the
final ``finish`` output, the scores; ``display`` says the same for a viewer, plus what the
requests leave out: the tile of a concealed kong, the fan list of a win and the reason a match
ended early (``WA`` an illegal answer, ``WH`` a win under 8 fans, or a bot's verdict such as
``TLE``), with the offender.

The reader takes each step from ``display`` and falls back to ``content`` when the display is
missing (a tool that strips it keeps a readable log); when both are present they must agree,
because a disagreement means an edited or corrupt file.  Bot responses are only consulted for
what neither says (a concealed kong's tile without a display, the offender's last answer).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Final

from tenpai import tiles as T
from tenpai.events import Event
from tenpai.records.common import canonical
from tenpai.records.errors import RecordContentError

__all__ = ["LogReading", "read_export_logs"]

_SEATS: Final = ("0", "1", "2", "3")
#: Actions of a running match (``request``); anything else in a ``finish`` is a penalty code.
_PLAY_ACTIONS: Final = frozenset({"INIT", "DEAL", "DRAW", "PLAY", "PENG", "CHI", "GANG",
                                  "BUGANG"})


@dataclass(slots=True)
class LogReading:
    """What the logs say: the hand's events, and the facts the game header needs."""

    events: list[Event] = field(default_factory=list)
    #: the prevalent wind the INIT step announced (None when the log has no INIT)
    quan: int | None = None
    srand: int | None = None
    #: each seat's 13 dealt tiles in the dealt order (Botzone names), for writers
    deal: list[list[str]] | None = None
    #: the final scores (None when the log stops before the match finished)
    scores: tuple[int, ...] | None = None
    #: why the log is incomplete, when it is
    truncation: str | None = None


@dataclass(slots=True)
class _Step:
    """One judge output, normalised."""

    command: str
    action: str
    player: int | None
    tile: str | None
    chi_mid: str | None
    hands: list[list[str]] | None
    scores: tuple[int, ...] | None
    display: dict[str, Any]


class _Walker:
    def __init__(self, source: str, quan: int | None) -> None:
        self.source = source
        self.out = LogReading(quan=quan)
        self.events = self.out.events
        self.responses: dict[str, Any] = {}
        self.where = "logs"

    # -- helpers ------------------------------------------------------------------------------

    def bad(self, message: str) -> RecordContentError:
        return RecordContentError(message, self.source, self.where)

    def tile(self, name: str | None, what: str) -> int:
        if not isinstance(name, str):
            raise self.bad(f"{what}: no tile")
        try:
            t = T.from_botzone(name)
        except ValueError as exc:
            raise self.bad(f"{what}: {name!r} is not a Botzone tile") from exc
        if T.is_flower(t):
            raise self.bad(f"{what}: flower {name} (flowers belong to Botzone's older judge, "
                           "whose matches are not read)")
        return t

    def seat(self, value: Any, what: str) -> int:
        if isinstance(value, bool) or not isinstance(value, int | str):
            raise self.bad(f"{what}: {value!r} is not a seat")
        try:
            s = int(value)
        except ValueError as exc:
            raise self.bad(f"{what}: {value!r} is not a seat") from exc
        if not 0 <= s <= 3:
            raise self.bad(f"{what}: seat {s} is not 0-3 (Botzone MCR has four players)")
        return s

    def answer(self, seat: int) -> tuple[str, str]:
        """The (verdict, response) a seat gave in the latest responses."""
        r = self.responses.get(str(seat))
        if not isinstance(r, dict):
            return "", ""
        verdict = r.get("verdict")
        response = r.get("response")
        return (verdict if isinstance(verdict, str) else "",
                response if isinstance(response, str) else "")

    # -- normalising one judge output ---------------------------------------------------------

    def step(self, output: Any) -> _Step:
        if not isinstance(output, dict):
            raise self.bad("'output' is not an object")
        command = output.get("command", "request")
        if command not in ("request", "finish"):
            raise self.bad(f"unknown judge command {command!r}")
        content = output.get("content")
        display = output.get("display")
        if content is not None and not isinstance(content, dict):
            raise self.bad("'content' is not an object")
        if display is not None and not isinstance(display, dict):
            raise self.bad("'display' is not an object")
        from_content = self.from_content(command, content) if content else None
        if not display or not isinstance(display.get("action"), str):
            if from_content is None:
                raise self.bad("a judge output with neither a display action nor requests")
            return from_content
        s = self.from_display(command, display)
        if from_content is not None:
            self.agree(s, from_content)
            # what the display leaves out (a HUANG's zero scores), the requests give
            s.player = s.player if s.player is not None else from_content.player
            s.tile = s.tile if s.tile is not None else from_content.tile
            s.chi_mid = s.chi_mid if s.chi_mid is not None else from_content.chi_mid
            s.hands = s.hands if s.hands is not None else from_content.hands
            s.scores = s.scores if s.scores is not None else from_content.scores
        return s

    def from_display(self, command: str, d: dict[str, Any]) -> _Step:
        action = str(d["action"])
        player = self.seat(d["player"], "display.player") if "player" in d else None
        tile = d.get("tile") if isinstance(d.get("tile"), str) else None
        mid = d.get("tileCHI") if isinstance(d.get("tileCHI"), str) else None
        hands = None
        if action == "DEAL" and "hand" in d:
            raw = d["hand"]
            if not isinstance(raw, list) or not all(isinstance(h, list) for h in raw):
                raise self.bad("display.hand is not a list of hands")
            hands = [[str(x) for x in h] for h in raw]
        scores = None
        if "score" in d:
            scores = self.scores(d["score"], "display.score")
        return _Step(command, action, player, tile, mid, hands, scores, d)

    def scores(self, raw: Any, what: str) -> tuple[int, ...]:
        if isinstance(raw, dict):
            raw = [raw.get(s) for s in _SEATS] if set(raw) <= set(_SEATS) else None
        if not isinstance(raw, list) or len(raw) != 4 or not all(
            isinstance(x, int) and not isinstance(x, bool) for x in raw
        ):
            raise self.bad(f"{what}: not four integer scores")
        return tuple(raw)

    def from_content(self, command: str, content: dict[str, Any]) -> _Step:
        """What the requests alone say (for logs whose display was stripped)."""
        if command == "finish":
            sc = self.scores(content, "content (final scores)")
            if not any(sc):
                return _Step(command, "HUANG", None, None, None, None, sc, {})
            if sorted(sc) == [-30, 10, 10, 10]:
                return _Step(command, "PENALTY", sc.index(-30), None, None, None, sc, {})
            winner = max(range(4), key=lambda s: sc[s])
            return _Step(command, "HU", winner, None, None, None, sc, {})
        if set(content) != set(_SEATS) or not all(isinstance(v, str) for v in content.values()):
            raise self.bad("'content' must hold one request string for each of the seats 0-3")
        req = {int(s): v.split() for s, v in content.items()}
        firsts = {r[0] if r else "" for r in req.values()}
        if firsts == {"0"}:
            q = req[0][2] if len(req[0]) > 2 else ""
            winds = {"quan": int(q)} if q.isdigit() else {}
            return _Step(command, "INIT", None, None, None, None, None, winds)
        if firsts == {"1"}:
            hands = []
            for s in range(4):
                r = req[s]
                if len(r) < 18 or any(x != "0" for x in r[1:5]):
                    raise self.bad(f"deal request of seat {s} is not '1 0 0 0 0' and 13 tiles"
                                   " (flowers belong to Botzone's older judge)")
                hands.append(r[5:])
            return _Step(command, "DEAL", None, None, None, hands, None, {})
        drawers = [s for s, r in req.items() if r and r[0] == "2"]
        if drawers:
            s = drawers[0]
            if len(drawers) > 1 or len(req[s]) != 2:
                raise self.bad("a draw request must name one seat and one tile")
            return _Step(command, "DRAW", s, req[s][1], None, None, None, {})
        r = req[0]
        if len(r) < 3 or r[0] != "3" or any(v != r for v in req.values()):
            raise self.bad(f"unreadable request {' '.join(r)!r}")
        seat = self.seat(r[1], "request seat")
        verb = r[2]
        if verb == "CHI":
            if len(r) != 5:
                raise self.bad("a CHI request is '3 seat CHI middle discard'")
            return _Step(command, "CHI", seat, r[4], r[3], None, None, {})
        if verb in ("PLAY", "PENG", "BUGANG"):
            if len(r) != 4:
                raise self.bad(f"a {verb} request is '3 seat {verb} tile'")
            return _Step(command, verb, seat, r[3], None, None, None, {})
        if verb == "GANG":
            return _Step(command, "GANG", seat, None, None, None, None, {})
        raise self.bad(f"unknown request verb {verb!r}")

    def agree(self, d: _Step, c: _Step) -> None:
        """The display and the requests must tell the same story."""
        same = d.command == c.command and (
            d.action == c.action or (c.action == "PENALTY" and d.action not in _PLAY_ACTIONS)
        )
        for a, b in ((d.player, c.player), (d.tile, c.tile), (d.chi_mid, c.chi_mid),
                     (d.hands, c.hands), (d.scores, c.scores),
                     (d.display.get("quan"), c.display.get("quan"))):
            if a is not None and b is not None and a != b:
                same = False
        if not same:
            raise self.bad(f"display ({d.action}) and requests ({c.action}) disagree")

    # -- events ------------------------------------------------------------------------------

    def last(self) -> Event:
        if not self.events:
            raise self.bad("play before the deal")
        return self.events[-1]

    def apply(self, s: _Step) -> None:
        a = s.action
        if a == "INIT":
            self.init(s)
            return
        if a == "DEAL":
            self.deal(s)
            return
        if a == "BUHUA":
            raise self.bad("BUHUA (a flower) belongs to Botzone's older judge, not read")
        if s.command == "finish":
            self.finish(s)
            return
        if a not in _PLAY_ACTIONS:
            raise self.bad(f"unknown display action {a!r}")
        if s.player is None:
            raise self.bad(f"{a} without its player")
        p = s.player
        last = self.last()
        if a == "DRAW":
            self.events.append(Event("tsumo", actor=p, pai=self.tile(s.tile, "DRAW")))
        elif a == "PLAY":
            t = self.tile(s.tile, "PLAY")
            if last.type != "tsumo" or last.actor != p:
                raise self.bad(f"seat {p} discards without having drawn")
            self.events.append(Event("dahai", actor=p, pai=t, tsumogiri=last.pai == t))
        elif a in ("PENG", "CHI"):
            claimed = self.claimed(last, p, a)
            if a == "PENG":
                self.events.append(Event("pon", actor=p, target=last.actor, pai=claimed,
                                         consumed=(claimed, claimed)))
            else:
                mid = self.tile(s.chi_mid, "CHI middle tile")
                run = [mid - 1, mid, mid + 1]
                if T.kind_of(mid) >= 27 or T.kind_of(mid) % 9 in (0, 8) or claimed not in run:
                    raise self.bad(f"CHI around {s.chi_mid} cannot use the discard "
                                   f"{T.to_botzone(claimed)}")
                run.remove(claimed)
                self.events.append(Event("chi", actor=p, target=last.actor, pai=claimed,
                                         consumed=canonical(run)))
            self.events.append(Event("dahai", actor=p, pai=self.tile(s.tile, a + " discard"),
                                     tsumogiri=False))
        elif a == "GANG":
            self.kong(s, last, p)
        else:  # BUGANG
            if last.type != "tsumo" or last.actor != p:
                raise self.bad(f"seat {p} adds to a kong without having drawn")
            t = self.tile(s.tile, "BUGANG")
            self.events.append(Event("kakan", actor=p, pai=t, consumed=(t, t, t)))

    def claimed(self, last: Event, p: int, what: str) -> int:
        if last.type != "dahai" or last.actor == p or last.pai is None:
            raise self.bad(f"{what} by seat {p} follows no discard of another seat")
        return last.pai

    def kong(self, s: _Step, last: Event, p: int) -> None:
        if last.type == "dahai" and last.actor != p:
            d = self.claimed(last, p, "GANG")
            if s.tile is not None and self.tile(s.tile, "GANG") != d:
                raise self.bad(f"GANG shows {s.tile}, the discard was {T.to_botzone(d)}")
            self.events.append(Event("daiminkan", actor=p, target=last.actor, pai=d,
                                     consumed=(d, d, d)))
            return
        if last.type != "tsumo" or last.actor != p:
            raise self.bad(f"GANG by seat {p} follows neither a discard nor its own draw")
        name = s.tile
        if name is None:  # no display: the bot's own answer names the tile
            words = self.answer(p)[1].split()
            name = words[1] if len(words) == 2 and words[0] == "GANG" else None
        t = self.tile(name, "concealed GANG")
        self.events.append(Event("ankan", actor=p, consumed=(t, t, t, t)))

    def init(self, s: _Step) -> None:
        if self.events:
            raise self.bad("INIT after the deal")
        q = s.display.get("quan")
        if q is not None:
            if isinstance(q, bool) or not isinstance(q, int) or not 0 <= q <= 3:
                raise self.bad(f"display.quan {q!r} is not a wind 0-3")
            if self.out.quan is not None and self.out.quan != q:
                raise self.bad(f"INIT announces prevalent wind {q}, initdata says "
                               f"{self.out.quan}")
            self.out.quan = q
        seed = s.display.get("srand")
        if isinstance(seed, int) and not isinstance(seed, bool):
            self.out.srand = seed

    def deal(self, s: _Step) -> None:
        if self.events:
            raise self.bad("a second deal")
        if s.hands is None or len(s.hands) != 4:
            raise self.bad("the deal does not give four hands")
        hands = []
        for seat, h in enumerate(s.hands):
            if len(h) != 13:
                raise self.bad(f"seat {seat} is dealt {len(h)} tiles, not 13")
            hands.append(canonical(self.tile(x, f"deal of seat {seat}") for x in h))
        if self.out.quan is None:
            raise self.bad("the prevalent wind is unknown (no INIT step and no initdata.quan)")
        self.out.deal = [list(h) for h in s.hands]
        self.events.append(Event("start_kyoku", bakaze=self.out.quan, kyoku=0, honba=0,
                                 kyotaku=0, oya=0, tehais=tuple(hands)))

    def finish(self, s: _Step) -> None:
        if s.scores is None:
            raise self.bad(f"the match ends ({s.action}) without scores")
        sc = s.scores
        if sum(sc) != 0:
            raise self.bad(f"final scores {list(sc)} do not sum to 0")
        self.out.scores = sc
        if s.action == "HUANG":
            if any(sc):
                raise self.bad(f"an exhaustive draw (HUANG) with scores {list(sc)}")
            self.last()
            self.events.append(Event("ryukyoku", deltas=sc, kind="exhaustive"))
        elif s.action == "HU":
            self.win(s, sc)
        else:
            self.penalty(s, sc)
        self.events.append(Event("end_kyoku"))

    def win(self, s: _Step, sc: tuple[int, ...]) -> None:
        if s.player is None:
            raise self.bad("HU without its player")
        p = s.player
        last = self.last()
        if last.type == "tsumo" and last.actor == p:
            target = p
        elif last.type in ("dahai", "kakan") and last.actor != p and last.actor is not None:
            target = last.actor
        else:
            raise self.bad(f"HU by seat {p} after {last.type} of seat {last.actor}")
        yaku, han = self.fans(s.display)
        if han is None:  # no display: the payoff formula gives the total
            han = sc[p] // 3 - 8 if target == p else sc[p] - 24
        self.events.append(Event("hora", actor=p, target=target, pai=last.pai, deltas=sc,
                                 han=han, yaku=yaku))

    def fans(self, d: dict[str, Any]) -> tuple[tuple[tuple[str, int], ...], int | None]:
        """``(name, points)`` per fan and the total, as the judge printed them."""
        raw = d.get("fan", [])
        if not isinstance(raw, list):
            raise self.bad("display.fan is not a list")
        out: list[tuple[str, int]] = []
        for f in raw:
            if not isinstance(f, dict) or not isinstance(f.get("name"), str):
                raise self.bad(f"display.fan entry {f!r} has no name")
            cnt, value = f.get("cnt", 1), f.get("value")
            if not all(isinstance(x, int) and not isinstance(x, bool) and x > 0
                       for x in (cnt, value)):
                raise self.bad(f"display.fan entry {f!r}: cnt and value must be positive")
            out.append((f["name"], cnt * value))
        total = d.get("fanCnt")
        if total is None:
            return tuple(out), (sum(v for _, v in out) if out else None)
        if isinstance(total, bool) or not isinstance(total, int):
            raise self.bad(f"display.fanCnt {total!r} is not a number")
        if out and sum(v for _, v in out) != total:
            raise self.bad(f"the fans add up to {sum(v for _, v in out)}, fanCnt says {total}")
        return tuple(out), total

    def penalty(self, s: _Step, sc: tuple[int, ...]) -> None:
        offender = s.player
        if offender is None and sorted(sc) == [-30, 10, 10, 10]:
            offender = sc.index(-30)
        if offender is None:
            raise self.bad(f"the match ends with {s.action} but names no offender")
        self.last()
        verdict, response = self.answer(offender)
        meta: dict[str, Any] = {"code": s.action}
        if response:
            meta["offence"] = response
        if verdict and verdict != "OK":
            meta["verdict"] = verdict
        _, han = self.fans(s.display)  # checks the fans of a false win too
        if han is not None:
            meta["fan"] = han
        self.events.append(Event("ryukyoku", actor=offender, deltas=sc, kind="penalty",
                                 meta=meta))


def read_export_logs(logs: Any, source: str, *, quan: int | None = None) -> LogReading:
    """Read an export's ``logs`` list; ``quan`` is the prevalent wind from ``initdata``."""
    w = _Walker(source, quan)
    if not isinstance(logs, list):
        raise RecordContentError("'logs' is not a list", source, "logs")
    finished = False
    for i, entry in enumerate(logs):
        w.where = f"logs[{i}]"
        if not isinstance(entry, dict):
            raise w.bad("a log entry is not an object")
        if "output" in entry:
            if finished:
                raise w.bad("the judge goes on after the match finished")
            s = w.step(entry["output"])
            w.apply(s)
            finished = s.command == "finish"
        elif entry and set(entry) <= set(_SEATS):
            w.responses = entry
        else:
            raise w.bad("neither a judge output nor the bots' responses")
    out = w.out
    if not finished:
        out.truncation = ("the log stops before the match finished"
                          + ("" if out.events else " (before the deal)"))
    return out
